/* The interval timeline: samples delta-encoded as varints, in chunks.
 *
 * One sample in a chunk is, in order:
 *   varint (t_ns - previous t_ns) mod 2^64
 *   varint flags << 1 | (missed != 0)     one byte in the common case
 *   varint missed                          only when missed != 0
 *   varint (v[j] - previous v[j]) mod 2^64 for each counter j
 * "previous" is 0 for a chunk's first sample, so every chunk decodes on its
 * own: random access decodes at most one chunk, and a file can be checked
 * chunk by chunk. Chunks hold chunk_samples samples except the last. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/grow.h"
#include "recording/timeline_internal.h"
#include "core/varint.h"

typedef struct chunk {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t n;  /* samples */
} chunk;

struct socmon_timeline {
    size_t ncounters;
    size_t k;          /* samples per chunk */
    size_t len;        /* samples in all */
    chunk *chunks;
    size_t nchunks;
    size_t chunks_cap;
    size_t data_bytes; /* sum of the chunks' capacities */
    size_t max_sample; /* most bytes one encoded sample can take */
    /* The last sample appended to the open chunk, which the next one is
     * encoded against. */
    uint64_t t_last;
    uint64_t *last;
};

/* t varint + flags varint (33 bits) + missed varint (32 bits) + the values. */
#define SAMPLE_FIXED_MAX (SOCMON_VARINT_MAX + 5 + 5)

socmon_status smn_timeline_new_chunked(size_t ncounters, size_t chunk_samples,
                                          socmon_timeline **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "timeline: out is NULL");
    *out = NULL;
    if (ncounters > SOCMON_TIMELINE_MAX_COUNTERS)
        return socmon_fail(SOCMON_ERANGE, "timeline: ncounters %zu out of range 0..%u",
                           ncounters, SOCMON_TIMELINE_MAX_COUNTERS);
    if (chunk_samples < 1 || chunk_samples > SOCMON_TIMELINE_CHUNK_MAX)
        return socmon_fail(SOCMON_ERANGE, "timeline: chunk_samples %zu out of range 1..%u",
                           chunk_samples, SOCMON_TIMELINE_CHUNK_MAX);
    socmon_timeline *tl = calloc(1, sizeof *tl);
    if (!tl)
        return socmon_fail(SOCMON_ENOMEM, "timeline: out of memory");
    tl->ncounters = ncounters;
    tl->k = chunk_samples;
    tl->max_sample = SAMPLE_FIXED_MAX + ncounters * SOCMON_VARINT_MAX;
    if (ncounters > 0) {
        tl->last = calloc(ncounters, sizeof *tl->last);
        if (!tl->last) {
            free(tl);
            return socmon_fail(SOCMON_ENOMEM, "timeline: out of memory for %zu counters",
                               ncounters);
        }
    }
    *out = tl;
    return SOCMON_OK;
}

socmon_status socmon_timeline_new(size_t ncounters, socmon_timeline **out)
{
    return smn_timeline_new_chunked(ncounters, SOCMON_TIMELINE_CHUNK_DEFAULT, out);
}

void socmon_timeline_free(socmon_timeline *tl)
{
    if (!tl)
        return;
    for (size_t i = 0; i < tl->nchunks; i++)
        free(tl->chunks[i].data);
    free(tl->chunks);
    free(tl->last);
    free(tl);
}

size_t socmon_timeline_ncounters(const socmon_timeline *tl)
{
    return tl ? tl->ncounters : 0;
}

size_t socmon_timeline_len(const socmon_timeline *tl)
{
    return tl ? tl->len : 0;
}

size_t socmon_timeline_bytes(const socmon_timeline *tl)
{
    if (!tl)
        return 0;
    return sizeof *tl + tl->ncounters * sizeof *tl->last + tl->chunks_cap * sizeof *tl->chunks +
           tl->data_bytes;
}

size_t smn_timeline_chunk_samples(const socmon_timeline *tl)
{
    return tl->k;
}

size_t smn_timeline_nchunks(const socmon_timeline *tl)
{
    return tl->nchunks;
}

void smn_timeline_chunk(const socmon_timeline *tl, size_t i, const uint8_t **data,
                           size_t *len, size_t *nsamples)
{
    const chunk *c = &tl->chunks[i];
    *data = c->data;
    *len = c->len;
    *nsamples = c->n;
}

/* Makes room for one more chunk in the chunk array; a new chunk starts empty. */
static socmon_status push_chunk(socmon_timeline *tl)
{
    if (SOCMON_GROW(tl->chunks, tl->chunks_cap, tl->nchunks, 16))
        return socmon_fail(SOCMON_ENOMEM, "timeline: out of memory for %zu chunks", tl->nchunks + 1);
    memset(&tl->chunks[tl->nchunks], 0, sizeof *tl->chunks);
    tl->nchunks++;
    return SOCMON_OK;
}

/* Guarantees c has room for `need` more bytes. */
static socmon_status reserve(socmon_timeline *tl, chunk *c, size_t need)
{
    if (c->cap - c->len >= need)
        return SOCMON_OK;
    size_t cap = c->cap;
    if (cap == 0 && tl->nchunks >= 2) {
        /* The previous chunk's size is the best guess for this one's. */
        cap = tl->chunks[tl->nchunks - 2].len + need;
    }
    if (cap < need * 8)
        cap = need * 8;
    while (cap - c->len < need) {
        if (cap > SIZE_MAX / 2)
            return socmon_fail(SOCMON_ENOMEM, "timeline: chunk size overflow");
        cap *= 2;
    }
    uint8_t *d = realloc(c->data, cap);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "timeline: out of memory for a %zu-byte chunk", cap);
    tl->data_bytes += cap - c->cap;
    c->data = d;
    c->cap = cap;
    return SOCMON_OK;
}

/* A full chunk never grows again: give back its slack. */
static void seal(socmon_timeline *tl, chunk *c)
{
    if (c->cap == c->len || c->len == 0)
        return;
    uint8_t *d = realloc(c->data, c->len);
    if (!d)
        return; /* keeping the larger block is harmless */
    tl->data_bytes -= c->cap - c->len;
    c->data = d;
    c->cap = c->len;
}

socmon_status socmon_timeline_append(socmon_timeline *tl, const socmon_sample *s)
{
    if (!tl || !s)
        return socmon_fail(SOCMON_EINVAL, "timeline_append: %s is NULL", tl ? "sample" : "timeline");
    if (s->n != tl->ncounters)
        return socmon_fail(SOCMON_EINVAL, "timeline_append: sample has %zu values, timeline "
                                          "has %zu counters",
                           s->n, tl->ncounters);
    if (s->n > 0 && !s->v)
        return socmon_fail(SOCMON_EINVAL, "timeline_append: sample values are NULL");
    if (tl->len == SIZE_MAX)
        return socmon_fail(SOCMON_ERANGE, "timeline_append: timeline full (%zu samples)", tl->len);

    if (tl->nchunks == 0 || tl->chunks[tl->nchunks - 1].n == tl->k) {
        socmon_status st = push_chunk(tl);
        if (st != SOCMON_OK)
            return st;
    }
    chunk *c = &tl->chunks[tl->nchunks - 1];
    socmon_status st = reserve(tl, c, tl->max_sample);
    if (st != SOCMON_OK) {
        if (c->n == 0)
            tl->nchunks--; /* drop the chunk we just opened */
        return st;
    }
    if (c->n == 0) {
        tl->t_last = 0;
        if (tl->ncounters > 0)
            memset(tl->last, 0, tl->ncounters * sizeof *tl->last);
    }

    uint8_t *p = c->data + c->len;
    size_t w = socmon_varint_put(p, s->t_ns - tl->t_last);
    w += socmon_varint_put(p + w, (uint64_t)s->flags << 1 | (s->missed != 0));
    if (s->missed != 0)
        w += socmon_varint_put(p + w, s->missed);
    for (size_t j = 0; j < tl->ncounters; j++) {
        w += socmon_varint_put(p + w, s->v[j] - tl->last[j]);
        tl->last[j] = s->v[j];
    }
    tl->t_last = s->t_ns;
    c->len += w;
    c->n++;
    tl->len++;
    if (c->n == tl->k)
        seal(tl, c);
    return SOCMON_OK;
}

/* Where a malformed sample went wrong; kept out of line so the decoder's
 * loop stays small. */
typedef struct where {
    size_t base;  /* file offset of the chunk's first byte */
    size_t ci, si;
} where;

#if defined(__GNUC__)
__attribute__((noinline, cold))
#endif
static socmon_status bad_sample(const where *w, size_t at, const char *field, const char *why)
{
    return socmon_fail(SOCMON_EPARSE, "offset %zu: chunk %zu sample %zu: %s: %s", w->base + at,
                       w->ci, w->si, field, why);
}

/* Decodes the sample at data[*pos..len) against *t and vals (updated in
 * place). On a malformed sample returns SOCMON_EPARSE with a message giving
 * the file offset, chunk, sample and field, and what was wrong. */
static socmon_status decode_sample(const uint8_t *data, size_t len, size_t *pos, const where *w,
                                   size_t nc, uint64_t *t, uint32_t *flags, uint32_t *missed,
                                   uint64_t *vals)
{
    char field[48];
    uint64_t x;
    size_t p = *pos, at = p;
    int e = socmon_varint_get(data, len, &p, &x);
    if (e)
        return bad_sample(w, at, "timestamp", socmon_varint_strerror(e));
    *t += x;
    at = p;
    e = socmon_varint_get(data, len, &p, &x);
    if (e)
        return bad_sample(w, at, "flags", socmon_varint_strerror(e));
    if (x >> 33) {
        snprintf(field, sizeof field, "flags field 0x%llx", (unsigned long long)x);
        return bad_sample(w, at, field, "above 33 bits");
    }
    *flags = (uint32_t)(x >> 1);
    *missed = 0;
    if (x & 1) {
        at = p;
        e = socmon_varint_get(data, len, &p, &x);
        if (e)
            return bad_sample(w, at, "missed count", socmon_varint_strerror(e));
        if (x == 0 || x > UINT32_MAX) {
            snprintf(field, sizeof field, "missed count %llu", (unsigned long long)x);
            return bad_sample(w, at, field, "out of range 1..4294967295");
        }
        *missed = (uint32_t)x;
    }
    for (size_t j = 0; j < nc; j++) {
        /* Most deltas of a slowly moving counter fit one byte. */
        if (p < len && data[p] < 0x80) {
            vals[j] += data[p++];
            continue;
        }
        at = p;
        e = socmon_varint_get(data, len, &p, &x);
        if (e) {
            snprintf(field, sizeof field, "counter %zu", j);
            return bad_sample(w, at, field, socmon_varint_strerror(e));
        }
        vals[j] += x;
    }
    *pos = p;
    return SOCMON_OK;
}

static socmon_status check_sample(const socmon_timeline *tl, const socmon_sample *s,
                                  const char *fn)
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "%s: sample is NULL", fn);
    if (s->n != tl->ncounters)
        return socmon_fail(SOCMON_EINVAL, "%s: sample has room for %zu values, timeline has "
                                          "%zu counters",
                           fn, s->n, tl->ncounters);
    if (s->n > 0 && !s->v)
        return socmon_fail(SOCMON_EINVAL, "%s: sample values are NULL", fn);
    return SOCMON_OK;
}

socmon_status socmon_timeline_get(const socmon_timeline *tl, size_t i, socmon_sample *s)
{
    if (!tl)
        return socmon_fail(SOCMON_EINVAL, "timeline_get: timeline is NULL");
    socmon_status st = check_sample(tl, s, "timeline_get");
    if (st != SOCMON_OK)
        return st;
    if (i >= tl->len) {
        if (tl->len == 0)
            return socmon_fail(SOCMON_ERANGE, "timeline_get: index %zu: the timeline is empty", i);
        return socmon_fail(SOCMON_ERANGE, "timeline_get: index %zu out of range 0..%zu", i,
                           tl->len - 1);
    }
    const chunk *c = &tl->chunks[i / tl->k];
    size_t pos = 0;
    uint64_t t = 0;
    if (tl->ncounters > 0)
        memset(s->v, 0, tl->ncounters * sizeof *s->v);
    for (size_t j = 0; j <= i % tl->k; j++) {
        where w = {0, i / tl->k, j};
        st = decode_sample(c->data, c->len, &pos, &w, tl->ncounters, &t, &s->flags, &s->missed,
                           s->v);
        if (st != SOCMON_OK)
            return st;
    }
    s->t_ns = t;
    return SOCMON_OK;
}

socmon_status socmon_timeline_iter_init(const socmon_timeline *tl, socmon_timeline_iter *it)
{
    if (!tl || !it)
        return socmon_fail(SOCMON_EINVAL, "timeline_iter_init: %s is NULL",
                           tl ? "iterator" : "timeline");
    memset(it, 0, sizeof *it);
    it->tl = tl;
    if (tl->ncounters > 0) {
        it->prev = calloc(tl->ncounters, sizeof *it->prev);
        if (!it->prev)
            return socmon_fail(SOCMON_ENOMEM, "timeline_iter_init: out of memory");
    }
    return SOCMON_OK;
}

socmon_status socmon_timeline_iter_next(socmon_timeline_iter *it, socmon_sample *s)
{
    if (!it || !it->tl)
        return socmon_fail(SOCMON_EINVAL, "timeline_iter_next: iterator is not initialised");
    const socmon_timeline *tl = it->tl;
    socmon_status st = check_sample(tl, s, "timeline_iter_next");
    if (st != SOCMON_OK)
        return st;
    if (it->next >= tl->len)
        return socmon_fail(SOCMON_ENOENT, "timeline_iter_next: end of timeline (%zu samples)",
                           tl->len);
    if (it->next % tl->k == 0) {
        it->chunk = it->next / tl->k;
        it->pos = 0;
        it->t_prev = 0;
        if (tl->ncounters > 0)
            memset(it->prev, 0, tl->ncounters * sizeof *it->prev);
    }
    const chunk *c = &tl->chunks[it->chunk];
    where w = {0, it->chunk, it->next % tl->k};
    st = decode_sample(c->data, c->len, &it->pos, &w, tl->ncounters, &it->t_prev, &s->flags,
                       &s->missed, it->prev);
    if (st != SOCMON_OK)
        return st;
    s->t_ns = it->t_prev;
    if (tl->ncounters > 0)
        memcpy(s->v, it->prev, tl->ncounters * sizeof *s->v);
    it->next++;
    return SOCMON_OK;
}

void socmon_timeline_iter_free(socmon_timeline_iter *it)
{
    if (!it)
        return;
    free(it->prev);
    it->prev = NULL;
    it->tl = NULL;
}

socmon_status smn_timeline_add_chunk(socmon_timeline *tl, const uint8_t *data, size_t len,
                                        size_t nsamples, size_t file_offset)
{
    if (tl->nchunks > 0 && tl->chunks[tl->nchunks - 1].n != tl->k)
        return socmon_fail(SOCMON_EPARSE, "offset %zu: chunk %zu follows a partial chunk of "
                                          "%zu samples (chunks hold %zu)",
                           file_offset, tl->nchunks, tl->chunks[tl->nchunks - 1].n, tl->k);
    if (nsamples < 1 || nsamples > tl->k)
        return socmon_fail(SOCMON_EPARSE, "offset %zu: chunk %zu sample count %zu out of range "
                                          "1..%zu",
                           file_offset, tl->nchunks, nsamples, tl->k);
    if (tl->len > SIZE_MAX - nsamples)
        return socmon_fail(SOCMON_EPARSE, "offset %zu: too many samples", file_offset);

    /* Decoding into the append state is safe: the next append opens a new
     * chunk (the last one is full) and resets it, whether we succeed or not. */
    size_t pos = 0;
    uint64_t t = 0;
    uint32_t flags, missed;
    if (tl->ncounters > 0)
        memset(tl->last, 0, tl->ncounters * sizeof *tl->last);
    for (size_t i = 0; i < nsamples; i++) {
        where w = {file_offset, tl->nchunks, i};
        socmon_status st = decode_sample(data, len, &pos, &w, tl->ncounters, &t, &flags, &missed,
                                         tl->last);
        if (st != SOCMON_OK)
            return st;
    }
    if (pos != len)
        return socmon_fail(SOCMON_EPARSE, "offset %zu: chunk %zu: %zu trailing bytes after its "
                                          "%zu samples",
                           file_offset + pos, tl->nchunks, len - pos, nsamples);
    tl->t_last = t;

    socmon_status st = push_chunk(tl);
    if (st != SOCMON_OK)
        return st;
    chunk *c = &tl->chunks[tl->nchunks - 1];
    c->data = malloc(len);
    if (!c->data) {
        tl->nchunks--;
        return socmon_fail(SOCMON_ENOMEM, "timeline: out of memory for a %zu-byte chunk", len);
    }
    memcpy(c->data, data, len);
    c->len = c->cap = len;
    c->n = nsamples;
    tl->data_bytes += len;
    tl->len += nsamples;
    return SOCMON_OK;
}
