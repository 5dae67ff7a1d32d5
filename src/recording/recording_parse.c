/* Recordings, version 1's reader (recording.c has what both versions share and the v1
 * writer; layout in docs/recording-format.md): the schema both versions carry, v1's timeline,
 * socmon_recording_parse and socmon_recording_load, which reads either version. It trusts
 * nothing: every length is checked against the bytes that remain before anything is allocated,
 * every field against its range, every chunk is decoded in full, and a CRC-32 covers the whole
 * file. */
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

/* ---- reading ---- */

typedef smn_rec_reader reader;

#define bad smn_rec_bad
socmon_status smn_rec_bad(size_t off, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return socmon_fail(SOCMON_EPARSE, "recording: offset %zu: %s", off, msg);
}

static socmon_status need(const reader *r, size_t n, const char *what)
{
    if (r->len - r->pos < n)
        return bad(r->pos, "file ends inside %s (needs %zu bytes, %zu left)", what, n,
                   r->len - r->pos);
    return SOCMON_OK;
}

static uint64_t le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static socmon_status r_u8(reader *r, const char *what, uint8_t *v)
{
    socmon_status st = need(r, 1, what);
    if (st == SOCMON_OK)
        *v = r->p[r->pos++];
    return st;
}

static socmon_status r_u32(reader *r, const char *what, uint32_t *v)
{
    socmon_status st = need(r, 4, what);
    if (st == SOCMON_OK) {
        *v = (uint32_t)le(r->p + r->pos, 4);
        r->pos += 4;
    }
    return st;
}

static socmon_status r_u64(reader *r, const char *what, uint64_t *v)
{
    socmon_status st = need(r, 8, what);
    if (st == SOCMON_OK) {
        *v = le(r->p + r->pos, 8);
        r->pos += 8;
    }
    return st;
}

static socmon_status r_f64(reader *r, const char *what, double *d)
{
    uint64_t v;
    size_t at = r->pos;
    socmon_status st = r_u64(r, what, &v);
    if (st != SOCMON_OK)
        return st;
    memcpy(d, &v, sizeof *d);
    if (!isfinite(*d))
        return bad(at, "%s is not a finite number", what);
    return SOCMON_OK;
}

static socmon_status r_str(reader *r, const char *what, char **out)
{
    uint32_t n;
    size_t at = r->pos;
    socmon_status st = r_u32(r, what, &n);
    if (st != SOCMON_OK)
        return st;
    if (n > SOCMON_REC_MAX_STRING)
        return bad(at, "%s length %u exceeds %u", what, n, SOCMON_REC_MAX_STRING);
    if ((st = need(r, n, what)) != SOCMON_OK)
        return st;
    if (memchr(r->p + r->pos, 0, n))
        return bad(r->pos, "%s contains a NUL byte", what);
    char *s = malloc((size_t)n + 1);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    memcpy(s, r->p + r->pos, n);
    s[n] = '\0';
    r->pos += n;
    *out = s;
    return SOCMON_OK;
}

/* Smallest encodings, to reject impossible counts before allocating. */
#define MIN_COUNTER_BYTES (4 * 4 + 1 + 8 + 8 + 8)
#define MIN_PARAM_BYTES (4 + 8)
#define MIN_CHUNK_BYTES (4 + 8 + 1)

socmon_status smn_rec_parse_schema(reader *r, socmon_recording *rec)
{
    char what[64];
    socmon_status st;
    uint32_t n;
    size_t at;
    if ((st = r_str(r, "target", &rec->target)) || (st = r_str(r, "device name", &rec->device)) ||
        (st = r_u64(r, "interval_ns", &rec->interval_ns)))
        return st;

    at = r->pos;
    if ((st = r_u32(r, "counter count", &n)))
        return st;
    if (n > SOCMON_TIMELINE_MAX_COUNTERS || n > (r->len - r->pos) / MIN_COUNTER_BYTES)
        return bad(at, "counter count %u exceeds what the file can hold (at most %zu, limit %u)",
                   n, (r->len - r->pos) / MIN_COUNTER_BYTES, SOCMON_TIMELINE_MAX_COUNTERS);
    size_t counters_at = r->pos;
    rec->counters = calloc((size_t)n + 1, sizeof *rec->counters);
    if (!rec->counters)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for %u counters", n);
    for (uint32_t i = 0; i < n; i++) {
        socmon_counter *c = &rec->counters[i];
        char *s[4] = {NULL, NULL, NULL, NULL};
        static const char *const field[4] = {"name", "instance", "desc", "unit"};
        rec->ncounters = i + 1;
        at = r->pos;
        for (int k = 0; k < 4 && st == SOCMON_OK; k++) {
            snprintf(what, sizeof what, "counter %u %s", i, field[k]);
            st = r_str(r, what, &s[k]);
        }
        c->name = s[0];
        c->instance = s[1];
        c->desc = s[2];
        c->unit = s[3];
        if (st)
            return st;
        if (!*c->name)
            return bad(at, "counter %u has an empty name", i);
        uint8_t width;
        size_t wat = r->pos;
        snprintf(what, sizeof what, "counter %u (%s) fields", i, c->name);
        if ((st = r_u8(r, what, &width)))
            return st;
        if (width < 1 || width > 64)
            return bad(wat, "counter %u (%s) width %u out of range 1..64", i, c->name, width);
        c->width = width;
        if ((st = r_u64(r, what, &c->reg)) || (st = r_u64(r, what, &c->reg_hi)))
            return st;
        wat = r->pos;
        snprintf(what, sizeof what, "counter %u (%s) max_rate_hz", i, c->name);
        if ((st = r_f64(r, what, &c->max_rate_hz)))
            return st;
        if (c->max_rate_hz < 0)
            return bad(wat, "counter %u (%s) max_rate_hz %g is negative", i, c->name,
                       c->max_rate_hz);
    }
    long d = smn_rec_dup_counter(rec);
    if (d == -2)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    if (d >= 0)
        return bad(counters_at, "counter %ld (%s.%s) appears twice", d,
                   rec->counters[d].instance, rec->counters[d].name);

    at = r->pos;
    if ((st = r_u32(r, "parameter count", &n)))
        return st;
    if (n > SOCMON_REC_MAX_PARAMS || n > (r->len - r->pos) / MIN_PARAM_BYTES)
        return bad(at, "parameter count %u exceeds what the file can hold (at most %zu, limit %u)",
                   n, (r->len - r->pos) / MIN_PARAM_BYTES, SOCMON_REC_MAX_PARAMS);
    size_t params_at = r->pos;
    rec->param_names = calloc((size_t)n + 1, sizeof *rec->param_names);
    rec->param_values = calloc((size_t)n + 1, sizeof *rec->param_values);
    if (!rec->param_names || !rec->param_values)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for %u parameters", n);
    for (uint32_t i = 0; i < n; i++) {
        at = r->pos;
        snprintf(what, sizeof what, "parameter %u name", i);
        st = r_str(r, what, &rec->param_names[i]);
        rec->nparams = i + 1;
        if (st)
            return st;
        if (!*rec->param_names[i])
            return bad(at, "parameter %u has an empty name", i);
        snprintf(what, sizeof what, "parameter %s value", rec->param_names[i]);
        if ((st = r_f64(r, what, &rec->param_values[i])))
            return st;
    }
    d = smn_rec_dup_param(rec);
    if (d == -2)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    if (d >= 0)
        return bad(params_at, "parameter %ld (%s) appears twice", d, rec->param_names[d]);
    return SOCMON_OK;
}

static socmon_status parse_timeline(reader *r, socmon_recording *rec)
{
    socmon_status st;
    uint32_t k;
    uint64_t nsamples, nchunks;
    size_t at = r->pos;
    if ((st = r_u32(r, "chunk size", &k)))
        return st;
    if (k < 1 || k > SOCMON_TIMELINE_CHUNK_MAX)
        return bad(at, "chunk size %u out of range 1..%u", k, SOCMON_TIMELINE_CHUNK_MAX);
    if ((st = r_u64(r, "sample count", &nsamples)))
        return st;
    at = r->pos;
    if ((st = r_u64(r, "chunk count", &nchunks)))
        return st;
    if (nchunks > (r->len - r->pos) / MIN_CHUNK_BYTES)
        return bad(at, "chunk count %llu exceeds what the file can hold (at most %zu)",
                   (unsigned long long)nchunks, (r->len - r->pos) / MIN_CHUNK_BYTES);
    uint64_t want = nsamples == 0 ? 0 : (nsamples - 1) / k + 1;
    if (nchunks != want)
        return bad(at, "chunk count %llu does not match %llu samples in chunks of %u (needs %llu)",
                   (unsigned long long)nchunks, (unsigned long long)nsamples, k,
                   (unsigned long long)want);
    if ((st = smn_timeline_new_chunked(rec->ncounters, k, &rec->tl)))
        return st;
    for (uint64_t i = 0; i < nchunks; i++) {
        uint32_t n;
        uint64_t nbytes;
        at = r->pos;
        if ((st = r_u32(r, "chunk header", &n)) || (st = r_u64(r, "chunk header", &nbytes)))
            return st;
        uint64_t expect = i + 1 < nchunks ? k : nsamples - (nchunks - 1) * (uint64_t)k;
        if (n != expect)
            return bad(at, "chunk %llu holds %u samples, expected %llu", (unsigned long long)i, n,
                       (unsigned long long)expect);
        if (nbytes > r->len - r->pos)
            return bad(at + 4, "chunk %llu length %llu exceeds the %zu bytes left",
                       (unsigned long long)i, (unsigned long long)nbytes, r->len - r->pos);
        st = smn_timeline_add_chunk(rec->tl, r->p + r->pos, (size_t)nbytes, n, r->pos);
        if (st == SOCMON_EPARSE)
            return socmon_fail_prefix(st, "recording: ");
        if (st)
            return st;
        r->pos += (size_t)nbytes;
    }
    return SOCMON_OK;
}

/* Version 1 files were written with any timestamps (the writer took a sample
 * stamped before the one before it): such samples are counted, as the v2
 * reader counts them, so a reader of intervals is warned. */
static socmon_status v1_check_time(socmon_recording *rec)
{
    socmon_recording_info *in = &rec->info;
    uint64_t *v = calloc(rec->ncounters + 1, sizeof *v);
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = rec->ncounters, .v = v};
    socmon_timeline_iter it;
    if (!v || socmon_timeline_iter_init(rec->tl, &it) != SOCMON_OK) {
        free(v);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    }
    uint64_t prev = 0;
    for (uint64_t row = 0; socmon_timeline_iter_next(&it, &s) == SOCMON_OK; row++) {
        if (row && s.t_ns < prev && in->time_backwards++ == 0) {
            in->time_backwards_row = row;
            in->time_backwards_t_ns = s.t_ns;
            in->time_backwards_prev_ns = prev;
        }
        prev = s.t_ns;
    }
    socmon_timeline_iter_free(&it);
    free(v);
    if (in->time_backwards)
        snprintf(in->what, sizeof in->what, "%llu timestamp%s go%s backwards (first: sample %llu at %llu ns, after "
                 "%llu ns)", (unsigned long long)in->time_backwards, in->time_backwards == 1 ? "" : "s",
                 in->time_backwards == 1 ? "es" : "", (unsigned long long)in->time_backwards_row,
                 (unsigned long long)in->time_backwards_t_ns, (unsigned long long)in->time_backwards_prev_ns);
    return SOCMON_OK;
}

socmon_status socmon_recording_parse(const void *buf, size_t len, socmon_recording **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recording_parse: out is NULL");
    *out = NULL;
    if (!buf && len)
        return socmon_fail(SOCMON_EINVAL, "recording_parse: buffer is NULL");
    reader r = {buf, len, 0};
    socmon_status st = need(&r, 8, "the magic number");
    if (st)
        return st;
    if (memcmp(r.p, SOCMON_REC_MAGIC, 8) != 0)
        return bad(0, "bad magic number: not a socmon recording (expected \"%s\")",
                   SOCMON_REC_MAGIC);
    r.pos = 8;
    uint32_t version, reserved;
    if ((st = r_u32(&r, "version", &version)))
        return st;
    if (version == 2)
        return smn_rec2_parse(buf, len, out);
    if (version != SOCMON_REC_VERSION)
        return bad(8, "format version %u not supported (this build reads versions 1 and 2)", version);
    if ((st = r_u32(&r, "reserved field", &reserved)))
        return st;
    if (reserved != 0)
        return bad(12, "reserved field is 0x%x, expected 0", reserved);

    socmon_recording *rec = calloc(1, sizeof *rec);
    if (!rec)
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory");
    if ((st = smn_rec_parse_schema(&r, rec)) || (st = parse_timeline(&r, rec)))
        goto fail;
    size_t at = r.pos;
    if ((st = need(&r, 8, "the end marker")))
        goto fail;
    if (memcmp(r.p + r.pos, SOCMON_REC_END, 8) != 0) {
        st = bad(at, "end marker missing after the last chunk (expected \"%s\")", SOCMON_REC_END);
        goto fail;
    }
    r.pos += 8;
    uint32_t stored, crc = smn_crc32(0, r.p, r.pos);
    at = r.pos;
    if ((st = r_u32(&r, "the checksum", &stored)))
        goto fail;
    if (stored != crc) {
        st = bad(at, "checksum mismatch: file says 0x%08x, contents give 0x%08x", stored, crc);
        goto fail;
    }
    if (r.pos != r.len) {
        st = bad(r.pos, "%zu trailing bytes after the checksum", r.len - r.pos);
        goto fail;
    }
    rec->info.version = 1;
    rec->info.file_bytes = len;
    rec->info.blocks = smn_timeline_nchunks(rec->tl);
    rec->info.samples_lost_known = 1;
    rec->info.ended = 1;
    if ((st = v1_check_time(rec)) != SOCMON_OK)
        goto fail;
    rec->info.complete = !rec->info.time_backwards;
    *out = rec;
    return SOCMON_OK;
fail:
    socmon_recording_free(rec);
    return st;
}

void socmon_recording_set_simulated(socmon_recording *rec, int simulated)
{
    if (!rec)
        return;
    rec->info.simulated = simulated != 0;
    rec->info.clock_known = 1;
}

void socmon_recording_get_info(const socmon_recording *rec, socmon_recording_info *out)
{
    if (!out)
        return;
    if (!rec) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = rec->info;
}

socmon_status socmon_recording_load(const char *path, socmon_recording **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "recording_load: out is NULL");
    *out = NULL;
    if (!path || !*path)
        return socmon_fail(SOCMON_EINVAL, "recording_load: path is NULL or empty");
    FILE *f = fopen(path, "rb");
    if (!f) {
        int e = errno;
        return socmon_fail(e == ENOENT ? SOCMON_ENOENT : e == EACCES ? SOCMON_EPERM : SOCMON_EIO,
                           "recording_load: cannot open %s: %s", path, strerror(e));
    }
    struct stat sb;
    if (fstat(fileno(f), &sb) != 0 || !S_ISREG(sb.st_mode)) {
        fclose(f);
        return socmon_fail(SOCMON_EIO, "recording_load: %s is not a regular file", path);
    }
    if ((uint64_t)sb.st_size > SIZE_MAX - 1) {
        fclose(f);
        return socmon_fail(SOCMON_ENOMEM, "recording_load: %s is too large", path);
    }
    size_t len = (size_t)sb.st_size;
    uint8_t *buf = malloc(len + 1);
    if (!buf) {
        fclose(f);
        return socmon_fail(SOCMON_ENOMEM, "recording_load: out of memory for %zu bytes of %s", len,
                           path);
    }
    size_t got = fread(buf, 1, len, f);
    int err = ferror(f);
    fclose(f);
    if (got != len || err) {
        free(buf);
        return socmon_fail(SOCMON_EIO, "recording_load: reading %s: got %zu of %zu bytes", path,
                           got, len);
    }
    socmon_status st = socmon_recording_parse(buf, len, out);
    free(buf);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "%s: ", path);
    return SOCMON_OK;
}
