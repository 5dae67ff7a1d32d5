/* The v2 block codec: a block of samples, held in columns, to the bytes zstd
 * compresses, and back (layout in docs/recording-format.md, "Block payload").
 *
 * Counters mostly move at a steady rate, so each column is stored as
 * delta-of-delta: the wrap-safe difference between samples (socmon_delta, at
 * the counter's width), minus the previous difference, sign-extended from the
 * width and zigzagged so that small changes either way are small numbers. A
 * steady rate becomes a run of zeros, which zstd squeezes to almost nothing.
 * Everything is modulo 2^width, so the transform is exact for any value the
 * counter can hold, including wraps and backwards jumps. Byte planes (all the
 * low bytes of a column, then the next bytes, ...) are the default: on noisy
 * counters zstd packs them 8% smaller than varints, on the models' smooth
 * timelines they are within a few percent either way (bench_recording,
 * docs/recording-format.md "Figures"). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "recording/recording_v2.h"
#include "core/varint.h"
#include "socmon/delta.h"

socmon_status smn_rec2_block_init(smn_rec2_block *b, size_t ncounters, size_t cap)
{
    memset(b, 0, sizeof *b);
    b->ncounters = ncounters;
    b->cap = cap;
    b->t = calloc(cap, sizeof *b->t);
    b->flags = calloc(cap, sizeof *b->flags);
    b->missed = calloc(cap, sizeof *b->missed);
    b->tmp = calloc(cap, sizeof *b->tmp);
    b->tmp2 = calloc(cap, sizeof *b->tmp2);
    b->v = calloc(ncounters ? ncounters * cap : 1, sizeof *b->v);
    if (!b->t || !b->flags || !b->missed || !b->tmp || !b->tmp2 || !b->v) {
        smn_rec2_block_free(b);
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for a block of %zu samples of %zu counters",
                           cap, ncounters);
    }
    return SOCMON_OK;
}

socmon_status smn_rec2_block_grow(smn_rec2_block *b, size_t cap)
{
    if (cap <= b->cap)
        return SOCMON_OK;
    size_t nc = b->ncounters, old = b->cap;
    uint64_t *t = realloc(b->t, cap * sizeof *t);
    if (t)
        b->t = t;
    uint32_t *flags = realloc(b->flags, cap * sizeof *flags);
    if (flags)
        b->flags = flags;
    uint32_t *missed = realloc(b->missed, cap * sizeof *missed);
    if (missed)
        b->missed = missed;
    uint64_t *tmp = realloc(b->tmp, cap * sizeof *tmp);
    if (tmp)
        b->tmp = tmp;
    uint64_t *tmp2 = realloc(b->tmp2, cap * sizeof *tmp2);
    if (tmp2)
        b->tmp2 = tmp2;
    uint64_t *v = nc ? realloc(b->v, nc * cap * sizeof *v) : b->v;
    if (v)
        b->v = v;
    if (!t || !flags || !missed || !tmp || !tmp2 || !v)   /* what did grow stays, unused: cap is the old one */
        return socmon_fail(SOCMON_ENOMEM, "recording: out of memory for a block of %zu samples of %zu counters",
                           cap, nc);
    /* each column to its new place, the last first: column j moves up by j * (cap - old) values,
     * over where the columns above it were */
    for (size_t j = nc; j-- > 1;)
        memmove(v + j * cap, v + j * old, b->n * sizeof *v);
    b->cap = cap;
    return SOCMON_OK;
}

void smn_rec2_block_free(smn_rec2_block *b)
{
    free(b->t);
    free(b->flags);
    free(b->missed);
    free(b->tmp);
    free(b->tmp2);
    free(b->v);
    memset(b, 0, sizeof *b);
}

size_t smn_rec2_raw_bound(size_t ncounters, size_t n)
{
    /* layout byte, widths, per column a byte count (planes) or nothing, first
     * values as varints, then at most 10 bytes a value either way */
    return 1 + ncounters + (ncounters + 3) + ncounters * SOCMON_VARINT_MAX +
           (ncounters + 3) * SOCMON_VARINT_MAX * n;
}

static uint64_t mask_of(unsigned w)
{
    return w >= 64 ? UINT64_MAX : (UINT64_C(1) << w) - 1;
}

/* The w-bit two's-complement number x (in x's low w bits) as a zigzag number:
 * 0, -1, 1, -2, ... become 0, 1, 2, 3, ...; it fits in w bits again. */
static uint64_t zigzag(uint64_t x, unsigned w)
{
    if (w < 64 && (x >> (w - 1) & 1))
        x |= ~mask_of(w);
    return (x << 1) ^ (uint64_t)-(int64_t)(x >> 63);
}

static uint64_t unzigzag(uint64_t z)
{
    return (z >> 1) ^ (uint64_t)-(int64_t)(z & 1);
}

static unsigned bits(uint64_t x)
{
    return x ? 64u - (unsigned)__builtin_clzll(x) : 0u;
}

static size_t put_column(uint8_t *out, const uint64_t *vals, size_t m, int layout)
{
    size_t w = 0;
    if (layout == SOCMON_REC2_LAYOUT_VARINT) {
        for (size_t i = 0; i < m; i++)
            w += socmon_varint_put(out + w, vals[i]);
        return w;
    }
    uint64_t all = 0;
    for (size_t i = 0; i < m; i++)
        all |= vals[i];
    uint8_t k = 0;
    while (k < 8 && (all >> (8 * k)) != 0)
        k++;
    out[w++] = k;
    for (unsigned p = 0; p < k; p++)
        for (size_t i = 0; i < m; i++)
            out[w++] = (uint8_t)(vals[i] >> (8 * p));
    return w;
}

size_t smn_rec2_encode(smn_rec2_block *b, const uint8_t *widths, int layout, uint8_t *out)
{
    size_t n = b->n, m = n - 1, w = 0, cap = b->cap;
    uint64_t *tmp = b->tmp;
    out[w++] = (uint8_t)layout;
    uint8_t *eff = out + w;
    for (size_t j = 0; j < b->ncounters; j++) {
        uint64_t mask = mask_of(widths[j]), all = 0;
        for (size_t i = 0; i < n; i++)
            all |= b->v[j * cap + i];
        eff[j] = (all & ~mask) ? 64 : widths[j];
    }
    w += b->ncounters;

    uint64_t prev = 0;
    for (size_t i = 1; i < n; i++) {
        uint64_t d = b->t[i] - b->t[i - 1];
        tmp[i - 1] = zigzag(d - prev, 64);
        prev = d;
    }
    w += put_column(out + w, tmp, m, layout);
    for (size_t i = 0; i < n; i++)
        tmp[i] = b->flags[i];
    w += put_column(out + w, tmp, n, layout);
    for (size_t i = 0; i < n; i++)
        tmp[i] = b->missed[i];
    w += put_column(out + w, tmp, n, layout);

    for (size_t j = 0; j < b->ncounters; j++) {
        const uint64_t *v = b->v + j * cap;
        unsigned ew = eff[j];
        uint64_t mask = mask_of(ew), *dd = tmp, *d1 = b->tmp2;
        size_t cost_dd = 0, cost_d = 0;
        w += socmon_varint_put(out + w, v[0]);
        prev = 0;
        for (size_t i = 1; i < n; i++) {
            uint64_t d = socmon_delta(v[i - 1], v[i], ew);
            dd[i - 1] = zigzag((d - prev) & mask, ew);
            d1[i - 1] = d;
            cost_dd += bits(dd[i - 1]);
            cost_d += bits(d);
            prev = d;
        }
        /* the cheaper of the two, by significant bits: a steady counter's
         * second differences are zeros, a noisy one's first differences
         * carry half the noise of its second */
        if (cost_d < cost_dd)
            eff[j] |= SOCMON_REC2_COL_DELTA;
        w += put_column(out + w, cost_d < cost_dd ? d1 : dd, m, layout);
    }
    return w;
}

/* ---- decoding ---- */

typedef struct in {
    const uint8_t *p;
    size_t len, pos;
} in;

static socmon_status get_column(in *r, uint64_t *vals, size_t m, int layout, uint64_t max, const char *what,
                                size_t j)
{
    if (layout == SOCMON_REC2_LAYOUT_VARINT) {
        for (size_t i = 0; i < m; i++) {
            int e = socmon_varint_get(r->p, r->len, &r->pos, &vals[i]);
            if (e != SOCMON_VARINT_OK)
                return socmon_fail(SOCMON_EPARSE, "%s %zu, value %zu: %s", what, j, i, socmon_varint_strerror(e));
            if (vals[i] > max)
                return socmon_fail(SOCMON_EPARSE, "%s %zu, value %zu: %llu exceeds the column's width", what, j, i,
                                   (unsigned long long)vals[i]);
        }
        return SOCMON_OK;
    }
    if (r->pos >= r->len)
        return socmon_fail(SOCMON_EPARSE, "%s %zu: payload ends before the column", what, j);
    unsigned k = r->p[r->pos++], kmax = 0;
    while (kmax < 8 && (max >> (8 * kmax)) != 0)
        kmax++;
    if (k > kmax)
        return socmon_fail(SOCMON_EPARSE, "%s %zu: byte count %u out of range for the column", what, j, k);
    if (m > 0 && k > (r->len - r->pos) / m)
        return socmon_fail(SOCMON_EPARSE, "%s %zu: %u planes of %zu bytes run past the payload", what, j, k, m);
    memset(vals, 0, m * sizeof *vals);
    if (k == 0)
        return SOCMON_OK;   /* a steady counter: all zeros */
    /* plane by plane through a local pointer, so the compiler can vectorise it */
    const uint8_t *src = r->p + r->pos;
    for (unsigned p = 0; p < k; p++, src += m)
        for (size_t i = 0; i < m; i++)
            vals[i] |= (uint64_t)src[i] << (8 * p);
    r->pos += (size_t)k * m;
    /* k bytes hold at most 2^(8k) - 1: checked only when the column's width is narrower */
    if (max < (k >= 8 ? UINT64_MAX : (UINT64_C(1) << (8 * k)) - 1))
        for (size_t i = 0; i < m; i++)
            if (vals[i] > max)
                return socmon_fail(SOCMON_EPARSE, "%s %zu, value %zu: %llu exceeds the column's width", what, j, i,
                                   (unsigned long long)vals[i]);
    /* one encoding per block: the byte count is the fewest that hold the column */
    if (k > 0) {
        uint64_t all = 0;
        for (size_t i = 0; i < m; i++)
            all |= vals[i];
        if ((all >> (8 * (k - 1))) == 0)
            return socmon_fail(SOCMON_EPARSE, "%s %zu: byte count %u is more than the values need", what, j, k);
    }
    return SOCMON_OK;
}

socmon_status smn_rec2_decode(const uint8_t *raw, size_t len, const uint8_t *widths, size_t n,
                                 uint64_t first_t, smn_rec2_block *b)
{
    if (n < 1 || n > b->cap)
        return socmon_fail(SOCMON_EPARSE, "block of %zu samples out of range 1..%zu", n, b->cap);
    in r = {raw, len, 0};
    size_t m = n - 1, cap = b->cap, nc = b->ncounters;
    uint64_t *tmp = b->tmp;
    socmon_status st;
    if (len < 1 + nc)
        return socmon_fail(SOCMON_EPARSE, "payload of %zu bytes too short for %zu counters", len, nc);
    int layout = raw[0];
    if (layout != SOCMON_REC2_LAYOUT_VARINT && layout != SOCMON_REC2_LAYOUT_PLANES)
        return socmon_fail(SOCMON_EPARSE, "unknown column layout %d (0 or 1)", layout);
    const uint8_t *eff = raw + 1;
    for (size_t j = 0; j < nc; j++) {
        unsigned sw = eff[j] & ~SOCMON_REC2_COL_DELTA;
        if (sw != widths[j] && sw != 64)
            return socmon_fail(SOCMON_EPARSE, "counter %zu stored %u bits wide, its width is %u", j, sw, widths[j]);
    }
    r.pos = 1 + nc;

    if ((st = get_column(&r, tmp, m, layout, UINT64_MAX, "timestamps", 0)))
        return st;
    b->t[0] = first_t;
    uint64_t prev = 0;
    for (size_t i = 1; i < n; i++) {
        prev += unzigzag(tmp[i - 1]);
        b->t[i] = b->t[i - 1] + prev;
    }
    if ((st = get_column(&r, tmp, n, layout, UINT32_MAX, "flags", 0)))
        return st;
    for (size_t i = 0; i < n; i++)
        b->flags[i] = (uint32_t)tmp[i];
    if ((st = get_column(&r, tmp, n, layout, UINT32_MAX, "missed counts", 0)))
        return st;
    for (size_t i = 0; i < n; i++)
        b->missed[i] = (uint32_t)tmp[i];

    for (size_t j = 0; j < nc; j++) {
        unsigned sw = eff[j] & ~SOCMON_REC2_COL_DELTA;
        int delta_only = (eff[j] & SOCMON_REC2_COL_DELTA) != 0;
        uint64_t *v = b->v + j * cap, mask = mask_of(sw);
        int e = socmon_varint_get(r.p, r.len, &r.pos, &v[0]);
        if (e != SOCMON_VARINT_OK)
            return socmon_fail(SOCMON_EPARSE, "counter %zu first value: %s", j, socmon_varint_strerror(e));
        if (v[0] > mask)
            return socmon_fail(SOCMON_EPARSE, "counter %zu first value %llu exceeds %u bits", j,
                               (unsigned long long)v[0], sw);
        if ((st = get_column(&r, tmp, m, layout, mask, "counter", j)))
            return st;
        prev = 0;
        for (size_t i = 1; i < n; i++) {
            prev = delta_only ? tmp[i - 1] : (prev + unzigzag(tmp[i - 1])) & mask;
            v[i] = (v[i - 1] + prev) & mask;
        }
    }
    if (r.pos != len)
        return socmon_fail(SOCMON_EPARSE, "%zu bytes left over after the last column", len - r.pos);
    b->n = n;
    return SOCMON_OK;
}
