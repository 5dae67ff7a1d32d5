/* Recordings: the schema and timeline of one `socmon record` run, and the
 * file that holds them (layout in docs/recording-format.md).
 *
 * This file holds what both versions share (building, the schema rules, the
 * schema's bytes) and version 1's in-memory writer (smn_recording_serialize,
 * kept for tests and the fuzzer); its reader is recording_parse.c. Version 2, the streaming
 * format socmon_recording_save and `socmon record` write, lives in
 * recording_codec.c, recording_write.c and recording_read2.c.
 * The reader trusts nothing: every length is checked against the bytes that
 * remain before anything is allocated, every field against its range, every
 * chunk is decoded in full, and a CRC-32 covers the whole file. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "core/error.h"
#include "recording/recording_internal.h"
#include "recording/timeline_internal.h"

/* ---- CRC-32 ---- */

/* zlib's CRC-32 (reflected 0xEDB88320, the one v1 files were written with);
 * it takes an unsigned length, so feed it in pieces. */
uint32_t smn_crc32(uint32_t crc, const void *buf, size_t len)
{
    const Bytef *p = buf;
    uLong c = crc;
    while (len > 0) {
        uInt n = len > 0x40000000u ? 0x40000000u : (uInt)len;
        c = crc32(c, p, n);
        p += n;
        len -= n;
    }
    return (uint32_t)c;
}

/* ---- building and freeing ---- */

static void free_counter_strings(socmon_counter *c)
{
    free((void *)c->name);
    free((void *)c->instance);
    free((void *)c->desc);
    free((void *)c->unit);
}

void socmon_recording_free(socmon_recording *rec)
{
    if (!rec)
        return;
    free(rec->target);
    free(rec->device);
    for (size_t i = 0; rec->counters && i < rec->ncounters; i++)
        free_counter_strings(&rec->counters[i]);
    free(rec->counters);
    for (size_t i = 0; rec->param_names && i < rec->nparams; i++)
        free(rec->param_names[i]);
    free(rec->param_names);
    free(rec->param_values);
    socmon_timeline_free(rec->tl);
    smn_rec_attach_free(rec);
    smn_recording_close_file(rec);
    free(rec);
}

static char *dup_or_empty(const char *s)
{
    return strdup(s ? s : "");
}

socmon_status socmon_recording_new(const socmon_set *set, const char *target,
                                   uint64_t interval_ns, socmon_recording **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recording_new: out is NULL");
    *out = NULL;
    if (!set)
        return socmon_fail(SOCMON_EINVAL, "recording_new: set is NULL");
    socmon_device *dev = socmon_set_device(set);
    size_t n = socmon_set_size(set), np = dev ? socmon_device_nparams(dev) : 0;
    socmon_recording *rec = calloc(1, sizeof *rec);
    if (!rec)
        return socmon_fail(SOCMON_ENOMEM, "recording_new: out of memory");
    rec->interval_ns = interval_ns;
    struct timespec now;
    if (clock_gettime(CLOCK_REALTIME, &now) == 0)
        rec->start_wall_ns = (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
    rec->info.complete = 1;
    rec->info.samples_lost_known = 1;
    rec->target = dup_or_empty(target);
    rec->device = dup_or_empty(dev ? socmon_device_name(dev) : NULL);
    rec->counters = calloc(n + 1, sizeof *rec->counters);
    rec->param_names = calloc(np + 1, sizeof *rec->param_names);
    rec->param_values = calloc(np + 1, sizeof *rec->param_values);
    if (!rec->target || !rec->device || !rec->counters || !rec->param_names ||
        !rec->param_values)
        goto oom;
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        socmon_counter *d = &rec->counters[i];
        rec->ncounters = i + 1;
        *d = *c;
        d->name = dup_or_empty(c->name);
        d->instance = dup_or_empty(c->instance);
        d->desc = dup_or_empty(c->desc);
        d->unit = dup_or_empty(c->unit);
        if (!d->name || !d->instance || !d->desc || !d->unit)
            goto oom;
    }
    for (size_t i = 0; i < np; i++) {
        const char *name = NULL;
        socmon_status st = socmon_device_param_at(dev, i, &name, &rec->param_values[i]);
        if (st != SOCMON_OK) {
            socmon_recording_free(rec);
            return st;
        }
        rec->nparams = i + 1;
        if (!(rec->param_names[i] = dup_or_empty(name)))
            goto oom;
    }
    socmon_status st = socmon_timeline_new(n, &rec->tl);
    if (st != SOCMON_OK) {
        socmon_recording_free(rec);
        return st;
    }
    *out = rec;
    return SOCMON_OK;
oom:
    socmon_recording_free(rec);
    return socmon_fail(SOCMON_ENOMEM, "recording_new: out of memory for %zu counters", n);
}

/* ---- the schema rules, shared by the writer and the reader ---- */

/* Why string s cannot go in a file, or NULL if it can. */
static const char *string_problem(const char *s)
{
    if (!s)
        return "is NULL";
    if (strlen(s) > SOCMON_REC_MAX_STRING)
        return "is longer than 4096 bytes";
    return NULL;
}

static int counter_cmp(const void *a, const void *b)
{
    const socmon_counter *x = *(const socmon_counter *const *)a;
    const socmon_counter *y = *(const socmon_counter *const *)b;
    int d = strcmp(x->instance, y->instance);
    return d ? d : strcmp(x->name, y->name);
}

static int name_cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Finds a counter whose instance.name repeats; returns its index or -1
 * (-2 when out of memory). */
long smn_rec_dup_counter(const socmon_recording *rec)
{
    if (rec->ncounters < 2)
        return -1;
    const socmon_counter **v = malloc(rec->ncounters * sizeof *v);
    if (!v)
        return -2;
    for (size_t i = 0; i < rec->ncounters; i++)
        v[i] = &rec->counters[i];
    qsort(v, rec->ncounters, sizeof *v, counter_cmp);
    long r = -1;
    for (size_t i = 1; i < rec->ncounters && r < 0; i++)
        if (counter_cmp(&v[i - 1], &v[i]) == 0)
            r = (long)(v[i] - rec->counters);
    free(v);
    return r;
}

long smn_rec_dup_param(const socmon_recording *rec)
{
    if (rec->nparams < 2)
        return -1;
    char **v = malloc(rec->nparams * sizeof *v);
    if (!v)
        return -2;
    memcpy(v, rec->param_names, rec->nparams * sizeof *v);
    qsort(v, rec->nparams, sizeof *v, name_cmp);
    long r = -1;
    for (size_t i = 1; i < rec->nparams && r < 0; i++)
        if (strcmp(v[i - 1], v[i]) == 0)
            for (size_t j = 0; j < rec->nparams && r < 0; j++)
                if (rec->param_names[j] == v[i])
                    r = (long)j;
    free(v);
    return r;
}

/* The writer refuses what the reader would refuse, so every saved file loads. */
socmon_status smn_rec_check(const socmon_recording *rec)
{
    const char *why;
    if (!rec->tl)
        return socmon_fail(SOCMON_EINVAL, "recording: no timeline");
    if (socmon_timeline_ncounters(rec->tl) != rec->ncounters)
        return socmon_fail(SOCMON_EINVAL, "recording: timeline has %zu counters, schema has %zu",
                           socmon_timeline_ncounters(rec->tl), rec->ncounters);
    if ((why = string_problem(rec->target)))
        return socmon_fail(SOCMON_EINVAL, "recording: target %s", why);
    if ((why = string_problem(rec->device)))
        return socmon_fail(SOCMON_EINVAL, "recording: device name %s", why);
    if (rec->ncounters > SOCMON_TIMELINE_MAX_COUNTERS || rec->nparams > SOCMON_REC_MAX_PARAMS)
        return socmon_fail(SOCMON_ERANGE, "recording: %zu counters / %zu params exceed %u / %u",
                           rec->ncounters, rec->nparams, SOCMON_TIMELINE_MAX_COUNTERS,
                           SOCMON_REC_MAX_PARAMS);
    if ((rec->ncounters && !rec->counters) ||
        (rec->nparams && (!rec->param_names || !rec->param_values)))
        return socmon_fail(SOCMON_EINVAL, "recording: counter or parameter array is NULL");
    for (size_t i = 0; i < rec->ncounters; i++) {
        const socmon_counter *c = &rec->counters[i];
        const char *const s[4] = {c->name, c->instance, c->desc, c->unit};
        static const char *const what[4] = {"name", "instance", "desc", "unit"};
        for (int k = 0; k < 4; k++)
            if ((why = string_problem(s[k])))
                return socmon_fail(SOCMON_EINVAL, "recording: counter %zu %s %s", i, what[k], why);
        if (!*c->name)
            return socmon_fail(SOCMON_EINVAL, "recording: counter %zu has an empty name", i);
        if (c->width < 1 || c->width > 64)
            return socmon_fail(SOCMON_ERANGE, "recording: counter %zu (%s) width %u out of "
                                              "range 1..64",
                               i, c->name, c->width);
        if (!isfinite(c->max_rate_hz) || c->max_rate_hz < 0)
            return socmon_fail(SOCMON_ERANGE, "recording: counter %zu (%s) max_rate_hz %g is "
                                              "not a finite value >= 0",
                               i, c->name, c->max_rate_hz);
    }
    for (size_t i = 0; i < rec->nparams; i++) {
        if ((why = string_problem(rec->param_names[i])))
            return socmon_fail(SOCMON_EINVAL, "recording: parameter %zu name %s", i, why);
        if (!*rec->param_names[i])
            return socmon_fail(SOCMON_EINVAL, "recording: parameter %zu has an empty name", i);
        if (!isfinite(rec->param_values[i]))
            return socmon_fail(SOCMON_ERANGE, "recording: parameter %s value %g is not finite",
                               rec->param_names[i], rec->param_values[i]);
    }
    long d = smn_rec_dup_counter(rec);
    if (d == -2 || smn_rec_dup_param(rec) == -2)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    if (d >= 0)
        return socmon_fail(SOCMON_EINVAL, "recording: counter %s.%s appears twice",
                           rec->counters[d].instance, rec->counters[d].name);
    d = smn_rec_dup_param(rec);
    if (d >= 0)
        return socmon_fail(SOCMON_EINVAL, "recording: parameter %s appears twice",
                           rec->param_names[d]);
    return SOCMON_OK;
}

/* ---- writing ---- */

/* Bytes go to a buffer that grows to hold the whole file (v1) or the
 * schema (v2's header). The CRC follows every byte. */
typedef struct writer {
    uint8_t *buf;
    size_t len, cap;
    uint32_t crc;
    int failed;  /* out of memory */
} writer;

static void w_bytes(writer *w, const void *p, size_t n)
{
    if (w->failed)
        return;
    w->crc = smn_crc32(w->crc, p, n);
    if (w->cap - w->len < n) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap - w->len < n) {
            if (cap > SIZE_MAX / 2) {
                w->failed = 1;
                return;
            }
            cap *= 2;
        }
        uint8_t *b = realloc(w->buf, cap);
        if (!b) {
            w->failed = 1;
            return;
        }
        w->buf = b;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, p, n);
    w->len += n;
}

static void w_u8(writer *w, uint8_t v)
{
    w_bytes(w, &v, 1);
}

static void w_u32(writer *w, uint32_t v)
{
    uint8_t b[4];
    for (int i = 0; i < 4; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 4);
}

static void w_u64(writer *w, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    w_bytes(w, b, 8);
}

static void w_f64(writer *w, double d)
{
    uint64_t v;
    memcpy(&v, &d, sizeof v);
    w_u64(w, v);
}

static void w_str(writer *w, const char *s)
{
    size_t n = strlen(s);
    w_u32(w, (uint32_t)n);
    w_bytes(w, s, n);
}

static void write_schema(writer *w, const socmon_recording *rec)
{
    w_str(w, rec->target);
    w_str(w, rec->device);
    w_u64(w, rec->interval_ns);
    w_u32(w, (uint32_t)rec->ncounters);
    for (size_t i = 0; i < rec->ncounters; i++) {
        const socmon_counter *c = &rec->counters[i];
        w_str(w, c->name);
        w_str(w, c->instance);
        w_str(w, c->desc);
        w_str(w, c->unit);
        w_u8(w, (uint8_t)c->width);
        w_u64(w, c->reg);
        w_u64(w, c->reg_hi);
        w_f64(w, c->max_rate_hz);
    }
    w_u32(w, (uint32_t)rec->nparams);
    for (size_t i = 0; i < rec->nparams; i++) {
        w_str(w, rec->param_names[i]);
        w_f64(w, rec->param_values[i]);
    }
}

socmon_status smn_rec_schema_bytes(const socmon_recording *rec, uint8_t **buf, size_t *len)
{
    writer w = {0};
    write_schema(&w, rec);
    if (w.failed) {
        free(w.buf);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for the schema");
    }
    *buf = w.buf;
    *len = w.len;
    return SOCMON_OK;
}

static void write_all(writer *w, const socmon_recording *rec)
{
    const socmon_timeline *tl = rec->tl;
    w_bytes(w, SOCMON_REC_MAGIC, 8);
    w_u32(w, SOCMON_REC_VERSION);
    w_u32(w, 0);
    write_schema(w, rec);
    w_u32(w, (uint32_t)smn_timeline_chunk_samples(tl));
    w_u64(w, socmon_timeline_len(tl));
    size_t nch = smn_timeline_nchunks(tl);
    w_u64(w, nch);
    for (size_t i = 0; i < nch; i++) {
        const uint8_t *data;
        size_t len, n;
        smn_timeline_chunk(tl, i, &data, &len, &n);
        w_u32(w, (uint32_t)n);
        w_u64(w, len);
        w_bytes(w, data, len);
    }
    w_bytes(w, SOCMON_REC_END, 8);
    w_u32(w, w->crc);
}

socmon_status smn_recording_serialize(const socmon_recording *rec, uint8_t **buf,
                                         size_t *len)
{
    if (!rec || !buf || !len)
        return socmon_fail(SOCMON_EINVAL, "recording_serialize: NULL argument");
    socmon_status st = smn_rec_check(rec);
    if (st != SOCMON_OK)
        return st;
    writer w = {0};
    write_all(&w, rec);
    if (w.failed) {
        free(w.buf);
        return socmon_fail(SOCMON_ENOMEM, "recording_serialize: out of memory");
    }
    *buf = w.buf;
    *len = w.len;
    return SOCMON_OK;
}
