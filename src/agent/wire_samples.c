/* SAMPLES: a block of consecutive samples, compact on the wire.
 *
 * Each value travels as the wrap-safe delta from the same counter in the
 * previous sample of the block, modulo 2^width (the first sample of a block
 * whole), as a varint: counters move little between samples, so most values
 * take one or two bytes. A block is self-contained, so a collector that
 * misses one (it never does on TCP, but a reader of a capture might) can
 * start at the next. Timestamps go the same way, modulo 2^64. */
#include "agent/wire_io.h"
#include "socmon/status.h"

socmon_status wire_put_samples(wire_buf *b, const wire_samples *s, const uint64_t *masks)
{
    size_t off = wire_begin(b, WIRE_SAMPLES);
    size_t nc = s->ncounters;
    wire_put_varint(b, s->first_seq);
    wire_put_varint(b, s->n);
    wire_put_varint(b, nc);
    /* Worst case of one sample: every value 10 bytes, plus three fields. */
    for (uint32_t k = 0; k < s->n; k++) {
        if (wire_buf_reserve(b, (nc + 3) * SOCMON_VARINT_MAX) != 0)
            break;
        uint8_t *p = b->p + b->len;
        const uint64_t *v = s->values + (size_t)k * nc;
        p += socmon_varint_put(p, k ? s->t_ns[k] - s->t_ns[k - 1] : s->t_ns[0]);
        p += socmon_varint_put(p, s->flags[k]);
        p += socmon_varint_put(p, s->missed[k]);
        if (k == 0) {
            for (size_t i = 0; i < nc; i++)
                p += socmon_varint_put(p, v[i] & masks[i]);
        } else {
            const uint64_t *pv = v - nc;
            for (size_t i = 0; i < nc; i++)
                p += socmon_varint_put(p, (v[i] - pv[i]) & masks[i]);
        }
        b->len = (size_t)(p - b->p);
    }
    return wire_finish(b, off);
}

socmon_status wire_get_samples_head(const uint8_t *p, size_t len, size_t expect_ncounters, uint64_t *first_seq,
                                    uint32_t *n)
{
    wire_rd r = {p, len, 0, "SAMPLES", SOCMON_OK};
    *first_seq = wire_rd_varint(&r, "first seq");
    uint64_t cnt = wire_rd_uint(&r, "sample count", UINT32_MAX);
    uint64_t nc = wire_rd_varint(&r, "counter count");
    if (r.st != SOCMON_OK)
        return r.st;
    if (cnt == 0)
        return wire_rd_fail(&r, "sample count is 0");
    if (nc != expect_ncounters)
        return wire_rd_fail(&r, "%llu counters per sample, the HELLO said %zu", (unsigned long long)nc,
                            expect_ncounters);
    /* Every sample takes at least 3 + ncounters bytes: a count the payload
     * cannot hold is refused before the caller allocates for it. */
    if (cnt > (len - r.pos) / (nc + 3))
        return wire_rd_fail(&r, "%llu samples of %llu counters cannot fit in the %zu bytes left",
                            (unsigned long long)cnt, (unsigned long long)nc, len - r.pos);
    if (*first_seq + cnt < *first_seq)
        return wire_rd_fail(&r, "first seq + sample count overflows 64 bits");
    *n = (uint32_t)cnt;
    return SOCMON_OK;
}

socmon_status wire_get_samples(const uint8_t *p, size_t len, const uint64_t *masks, wire_samples *s)
{
    uint32_t n;
    socmon_status st = wire_get_samples_head(p, len, s->ncounters, &s->first_seq, &n);
    if (st != SOCMON_OK)
        return st;
    if (n > s->n)
        return socmon_fail(SOCMON_ERANGE, "SAMPLES frame: %u samples, room for %u", n, s->n);
    s->n = n;
    wire_rd r = {p, len, 0, "SAMPLES", SOCMON_OK};
    wire_rd_varint(&r, "first seq");
    wire_rd_varint(&r, "sample count");
    wire_rd_varint(&r, "counter count");
    size_t nc = s->ncounters;
    for (uint32_t k = 0; k < n && r.st == SOCMON_OK; k++) {
        uint64_t dt = wire_rd_varint(&r, "timestamp");
        s->t_ns[k] = k ? s->t_ns[k - 1] + dt : dt;
        s->flags[k] = (uint32_t)wire_rd_uint(&r, "flags", UINT32_MAX);
        s->missed[k] = (uint32_t)wire_rd_uint(&r, "missed", UINT32_MAX);
        uint64_t *v = s->values + (size_t)k * nc;
        const uint64_t *pv = k ? v - nc : NULL;   /* the previous sample of the block */
        for (size_t i = 0; i < nc && r.st == SOCMON_OK; i++) {
            size_t at = r.pos;
            int e = socmon_varint_get(r.p, r.len, &r.pos, &v[i]);
            if (e != SOCMON_VARINT_OK)
                return wire_rd_fail(&r, "sample %u counter %zu: %s", k, i, socmon_varint_strerror(e));
            if (v[i] > masks[i]) {
                r.pos = at;
                return wire_rd_fail(&r, "sample %u counter %zu: value %llu wider than the counter's mask %llx", k, i,
                                    (unsigned long long)v[i], (unsigned long long)masks[i]);
            }
            if (pv)
                v[i] = (pv[i] + v[i]) & masks[i];
        }
    }
    return wire_rd_done(&r);
}
