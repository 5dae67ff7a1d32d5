/* SAMPLES in protocol version 2: each sample against the one before it on the
 * same stream, unchanged counters left out.
 *
 * Between two samples most counters of a big SoC do not move (the 8x8 ESP SoC:
 * about 110 of 2,840 during a burst, none when idle), so version 1's one byte
 * per counter was mostly zeros. Here a sample lists only the counters that
 * moved: how many, then for each the number of unchanged counters skipped
 * since the previous one listed and its delta modulo 2^width. The stream's
 * previous sample (wire_stream) lives on both ends; a block that has none to
 * build on says so and carries its first sample against zero. Layout:
 * docs/agent-protocol.md, "Version 2". */
#include <stdlib.h>
#include <string.h>

#include "agent/wire_io.h"
#include "socmon/status.h"

enum { BASE_ZERO = 0, BASE_PREV = 1 };

static unsigned vlen(uint64_t v)
{
    unsigned n = 1;
    for (; v >= 0x80; v >>= 7)
        n++;
    return n;
}

socmon_status wire_stream_init(wire_stream *st, size_t ncounters)
{
    if (!st->prev || st->ncounters != ncounters) {
        free(st->prev);
        st->prev = calloc(ncounters ? ncounters : 1, sizeof *st->prev);
        st->ncounters = st->prev ? ncounters : 0;
        if (!st->prev)
            return socmon_fail(SOCMON_ENOMEM, "out of memory for a stream of %zu counters", ncounters);
    }
    st->have = 0;
    return SOCMON_OK;
}

void wire_stream_free(wire_stream *st)
{
    free(st->prev);
    memset(st, 0, sizeof *st);
}

size_t wire_samples2_max_bytes(size_t nc)
{
    /* four varints, then per counter a skip and a delta */
    return 4 * SOCMON_VARINT_MAX + nc * 2 * SOCMON_VARINT_MAX;
}

/* One sample's counters: v against base (NULL: zero). */
static uint8_t *put_sample(uint8_t *p, const uint64_t *v, const uint64_t *base, const uint64_t *masks, size_t nc)
{
    uint8_t *count = p; /* the count comes first: written once known, in place */
    size_t nnz = 0, last = 0;
    /* Room for the count's worst case (the varint of nc), the gap closed once it is known. */
    unsigned room = vlen(nc);
    p += room;
    for (size_t i = 0; i < nc; i++) {
        uint64_t d = (v[i] - (base ? base[i] : 0)) & masks[i];
        if (!d)
            continue;
        p += socmon_varint_put(p, i - last);
        p += socmon_varint_put(p, d);
        last = i + 1;
        nnz++;
    }
    unsigned used = vlen(nnz);
    size_t body = (size_t)(p - count) - room;
    if (used != room)
        memmove(count + used, count + room, body);
    socmon_varint_put(count, nnz);
    return count + used + body;
}

socmon_status wire_put_samples2(wire_buf *b, const wire_samples *s, const uint64_t *masks, wire_stream *st)
{
    size_t off = wire_begin(b, WIRE_SAMPLES);
    size_t nc = s->ncounters;
    int prev = st->have && st->ncounters == nc && st->prev_seq + 1 == s->first_seq;
    wire_put_varint(b, s->first_seq);
    wire_put_varint(b, s->n);
    wire_put_varint(b, nc);
    wire_put_varint(b, prev ? BASE_PREV : BASE_ZERO);
    for (uint32_t k = 0; k < s->n; k++) {
        if (wire_buf_reserve(b, wire_samples2_max_bytes(nc)) != 0)
            break;
        uint8_t *p = b->p + b->len;
        const uint64_t *v = s->values + (size_t)k * nc;
        const uint64_t *base = k ? v - nc : prev ? st->prev : NULL;
        uint64_t t0 = k ? s->t_ns[k - 1] : prev ? st->prev_t : 0;
        p += socmon_varint_put(p, s->t_ns[k] - t0);
        p += socmon_varint_put(p, s->flags[k]);
        p += socmon_varint_put(p, s->missed[k]);
        p = put_sample(p, v, base, masks, nc);
        b->len = (size_t)(p - b->p);
    }
    socmon_status rc = wire_finish(b, off);
    st->have = 0;
    if (rc == SOCMON_OK && !b->oom && s->n && st->ncounters == nc) {
        memcpy(st->prev, s->values + (size_t)(s->n - 1) * nc, nc * sizeof *st->prev);
        st->prev_seq = s->first_seq + s->n - 1;
        st->prev_t = s->t_ns[s->n - 1];
        st->have = 1;
    }
    return rc;
}

/* The head's four fields; *base is BASE_ZERO or BASE_PREV. */
static socmon_status get_head(wire_rd *r, size_t expect_nc, uint64_t *first_seq, uint32_t *n, unsigned *base)
{
    *first_seq = wire_rd_varint(r, "first seq");
    uint64_t cnt = wire_rd_uint(r, "sample count", UINT32_MAX);
    uint64_t nc = wire_rd_varint(r, "counter count");
    *base = (unsigned)wire_rd_uint(r, "base", BASE_PREV);
    if (r->st != SOCMON_OK)
        return r->st;
    if (cnt == 0)
        return wire_rd_fail(r, "sample count is 0");
    if (nc != expect_nc)
        return wire_rd_fail(r, "%llu counters per sample, the HELLO said %zu", (unsigned long long)nc, expect_nc);
    /* Every sample takes at least 4 bytes; the values it stands for must fit what a
     * block may carry, as the caller allocates them. */
    if (cnt > (r->len - r->pos) / 4)
        return wire_rd_fail(r, "%llu samples cannot fit in the %zu bytes left", (unsigned long long)cnt,
                            r->len - r->pos);
    if (nc && cnt > WIRE_MAX_PAYLOAD / nc)
        return wire_rd_fail(r, "%llu samples of %llu counters: more than the %u values a block may carry",
                            (unsigned long long)cnt, (unsigned long long)nc, WIRE_MAX_PAYLOAD);
    if (*first_seq + cnt < *first_seq)
        return wire_rd_fail(r, "first seq + sample count overflows 64 bits");
    *n = (uint32_t)cnt;
    return SOCMON_OK;
}

socmon_status wire_get_samples2_head(const uint8_t *p, size_t len, size_t expect_ncounters, uint64_t *first_seq,
                                     uint32_t *n)
{
    wire_rd r = {p, len, 0, "SAMPLES", SOCMON_OK};
    unsigned base;
    return get_head(&r, expect_ncounters, first_seq, n, &base);
}

socmon_status wire_get_samples2(const uint8_t *p, size_t len, const uint64_t *masks, wire_stream *st,
                                wire_samples *s)
{
    wire_rd r = {p, len, 0, "SAMPLES", SOCMON_OK};
    uint32_t n = 0; /* get_head sets it on SOCMON_OK (-O3 cannot tell) */
    unsigned base = 0;
    size_t nc = s->ncounters;
    socmon_status rc = get_head(&r, nc, &s->first_seq, &n, &base);
    if (rc != SOCMON_OK)
        return rc;
    if (n > s->n)
        return socmon_fail(SOCMON_ERANGE, "SAMPLES frame: %u samples, room for %u", n, s->n);
    if (st->ncounters != nc)
        return socmon_fail(SOCMON_ESTATE, "SAMPLES frame: the stream holds %zu counters, the block %zu",
                           st->ncounters, nc);
    if (base == BASE_PREV && !st->have)
        return wire_rd_fail(&r, "the block builds on the sample before seq %llu, and none came before it on "
                            "this stream", (unsigned long long)s->first_seq);
    if (base == BASE_PREV && st->prev_seq + 1 != s->first_seq)
        return wire_rd_fail(&r, "the block starts at seq %llu and builds on the one before it, but the last "
                            "sample of this stream was seq %llu", (unsigned long long)s->first_seq,
                            (unsigned long long)st->prev_seq);
    st->have = 0;   /* until this block is whole */
    s->n = n;
    for (uint32_t k = 0; k < n && r.st == SOCMON_OK; k++) {
        uint64_t *v = s->values + (size_t)k * nc;
        const uint64_t *pv = k ? v - nc : base == BASE_PREV ? st->prev : NULL;
        uint64_t t0 = k ? s->t_ns[k - 1] : base == BASE_PREV ? st->prev_t : 0;
        s->t_ns[k] = t0 + wire_rd_varint(&r, "timestamp");
        s->flags[k] = (uint32_t)wire_rd_uint(&r, "flags", UINT32_MAX);
        s->missed[k] = (uint32_t)wire_rd_uint(&r, "missed", UINT32_MAX);
        uint64_t nnz = wire_rd_uint(&r, "moved counters", nc);
        if (r.st != SOCMON_OK)
            break;
        if (pv)
            memcpy(v, pv, nc * sizeof *v);
        else
            memset(v, 0, nc * sizeof *v);
        size_t i = 0;
        for (uint64_t j = 0; j < nnz; j++) {
            size_t at = r.pos;
            uint64_t skip = wire_rd_varint(&r, "skip");
            uint64_t d = wire_rd_varint(&r, "delta");
            if (r.st != SOCMON_OK)
                return r.st;
            if (skip >= nc - i) {
                r.pos = at;
                return wire_rd_fail(&r, "sample %u: moved counter %llu of %llu skips %llu counters, past the "
                                    "last of %zu", k, (unsigned long long)j + 1, (unsigned long long)nnz,
                                    (unsigned long long)skip, nc);
            }
            i += (size_t)skip;
            if (d == 0 || d > masks[i]) {
                r.pos = at;
                return d ? wire_rd_fail(&r, "sample %u counter %zu: delta %llu wider than the counter's mask %llx",
                                        k, i, (unsigned long long)d, (unsigned long long)masks[i])
                         : wire_rd_fail(&r, "sample %u counter %zu: listed as moved with a delta of 0", k, i);
            }
            v[i] = (v[i] + d) & masks[i];
            i++;
        }
    }
    if ((rc = wire_rd_done(&r)) != SOCMON_OK)
        return rc;
    memcpy(st->prev, s->values + (size_t)(n - 1) * nc, nc * sizeof *st->prev);
    st->prev_seq = s->first_seq + n - 1;
    st->prev_t = s->t_ns[n - 1];
    st->have = 1;
    return SOCMON_OK;
}
