/* Protocol version 2's SAMPLES (issue 29): blocks built on the stream's
 * previous sample round trip across wraps and blocks, unchanged counters cost
 * nothing, and a cut, bit-flipped, overlong or inconsistent block is refused
 * with an error, never read past. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "agent/wire.h"
#include "core/varint.h"
#include "socmon/status.h"

enum { NC = 6, N = 3 };
static const uint64_t MASKS[NC] = {1, 0xff, 0xffffffffu, UINT64_MAX, 0xffff, 0xffffffffu};

/* The payload of the one frame in b. */
static const uint8_t *payload(const wire_buf *b, uint32_t *len)
{
    wire_hdr h;
    assert_int_equal(wire_hdr_parse(b->p, b->len, WIRE_MAX_PAYLOAD, &h), 1);
    assert_int_equal(h.version, 2);
    assert_int_equal(h.type, WIRE_SAMPLES);
    assert_int_equal(wire_check_crc(&h, b->p + WIRE_HDR), SOCMON_OK);
    *len = h.len;
    return b->p + WIRE_HDR;
}

typedef struct out {
    uint64_t t[N], v[N * NC];
    uint32_t fl[N], mi[N];
    wire_samples s;
} out;

static void out_init(out *o)
{
    memset(o, 0, sizeof *o);
    o->s = (wire_samples){0, N, NC, o->t, o->fl, o->mi, o->v};
}

/* Two blocks of one stream: the second builds on the first's last sample. */
static void two_blocks(wire_buf *b1, wire_buf *b2)
{
    static uint64_t t1[N] = {100, 200, 300}, t2[N] = {400, 400, 1000};
    static uint32_t fl[N] = {0, 2, 0}, mi[N] = {0, 0, 7};
    static uint64_t v1[N * NC] = {1, 250, 0xfffffff0u, UINT64_MAX - 1, 5, 0,
                                  0, 3, 0x10, 1, 5, 0, /* every counter but two wrapped or moved */
                                  0, 3, 0x10, 1, 5, 0};
    static uint64_t v2[N * NC] = {1, 3, 0x10, 1, 5, 9,
                                  1, 3, 0x10, 1, 5, 9,
                                  0, 255, 0x0f, 0, 4, 9};
    wire_samples s1 = {10, N, NC, t1, fl, mi, v1}, s2 = {13, N, NC, t2, fl, mi, v2};
    wire_stream st = {0};
    assert_int_equal(wire_stream_init(&st, NC), SOCMON_OK);
    b1->version = b2->version = 2;
    assert_int_equal(wire_put_samples2(b1, &s1, MASKS, &st), SOCMON_OK);
    assert_int_equal(wire_put_samples2(b2, &s2, MASKS, &st), SOCMON_OK);
    wire_stream_free(&st);
}

static void test_round_trip_across_blocks(void **state)
{
    (void)state;
    wire_buf b1 = {0}, b2 = {0};
    two_blocks(&b1, &b2);
    uint32_t l1, l2;
    const uint8_t *p1 = payload(&b1, &l1), *p2 = payload(&b2, &l2);
    wire_stream st = {0};
    assert_int_equal(wire_stream_init(&st, NC), SOCMON_OK);
    out o;
    out_init(&o);
    uint64_t first;
    uint32_t n;
    assert_int_equal(wire_get_samples2_head(p1, l1, NC, &first, &n), SOCMON_OK);
    assert_true(first == 10 && n == N);
    assert_int_equal(wire_get_samples2(p1, l1, MASKS, &st, &o.s), SOCMON_OK);
    uint64_t want1[N * NC] = {1, 250, 0xfffffff0u, UINT64_MAX - 1, 5, 0, 0, 3, 0x10, 1, 5, 0, 0, 3, 0x10, 1, 5, 0};
    assert_memory_equal(o.v, want1, sizeof want1);
    assert_true(o.t[0] == 100 && o.t[2] == 300 && o.fl[1] == 2 && o.mi[2] == 7);
    out_init(&o);
    assert_int_equal(wire_get_samples2(p2, l2, MASKS, &st, &o.s), SOCMON_OK);
    uint64_t want2[N * NC] = {1, 3, 0x10, 1, 5, 9, 1, 3, 0x10, 1, 5, 9, 0, 255, 0x0f, 0, 4, 9};
    assert_memory_equal(o.v, want2, sizeof want2);
    assert_true(o.t[0] == 400 && o.t[1] == 400 && o.t[2] == 1000 && st.prev_seq == 15);
    /* the second block's middle sample repeats the first: 4 bytes (time, flags, missed, 0 moved) */
    assert_true(l2 < l1);
    /* the second block alone, on a stream that has not seen the first, is refused */
    wire_stream fresh = {0};
    assert_int_equal(wire_stream_init(&fresh, NC), SOCMON_OK);
    out_init(&o);
    assert_int_equal(wire_get_samples2(p2, l2, MASKS, &fresh, &o.s), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "none came before it"));
    /* ... and so is the first block again (it does not follow seq 15, but it is whole: accepted) */
    out_init(&o);
    assert_int_equal(wire_get_samples2(p1, l1, MASKS, &st, &o.s), SOCMON_OK);
    /* a stream whose last sample is not 12 given block 2 (from 13): refused, naming both seqs */
    st.prev_seq = 20;
    out_init(&o);
    assert_int_equal(wire_get_samples2(p2, l2, MASKS, &st, &o.s), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "starts at seq 13"));
    assert_non_null(strstr(socmon_errmsg(), "seq 20"));
    wire_stream_free(&st);
    wire_stream_free(&fresh);
    wire_buf_free(&b1);
    wire_buf_free(&b2);
}

/* 1,000 counters of which 2 move: the sample costs the two, not the thousand. */
static void test_unchanged_counters_cost_nothing(void **state)
{
    (void)state;
    enum { W = 1000 };
    uint64_t *masks = malloc(W * sizeof *masks), *v = calloc(2 * W, sizeof *v);
    for (size_t i = 0; i < W; i++)
        masks[i] = 0xffffffffu;
    v[W + 17] = 5;
    v[W + 999] = 300;
    uint64_t t[2] = {0, 50000};
    uint32_t z[2] = {0, 0};
    wire_samples s = {0, 2, W, t, z, z, v};
    wire_stream st = {0};
    assert_int_equal(wire_stream_init(&st, W), SOCMON_OK);
    wire_buf b = {.version = 2};
    assert_int_equal(wire_put_samples2(&b, &s, masks, &st), SOCMON_OK);
    /* head (4 varints: 1+1+2+1) + sample 0 (4 bytes) + sample 1 (3+1+1+1 + 1+1 + 2+2) */
    assert_true(b.len - WIRE_HDR <= 30);
    wire_stream_free(&st);
    wire_buf_free(&b);
    free(masks);
    free(v);
}

static socmon_status decode(const uint8_t *p, size_t len, int with_prev)
{
    wire_stream st = {0};
    assert_int_equal(wire_stream_init(&st, NC), SOCMON_OK);
    if (with_prev) {
        st.have = 1;
        st.prev_seq = 12;
    }
    out o;
    out_init(&o);
    socmon_status rc = wire_get_samples2(p, len, MASKS, &st, &o.s);
    wire_stream_free(&st);
    return rc;
}

static void test_cuts_and_flips_refused(void **state)
{
    (void)state;
    wire_buf b1 = {0}, b2 = {0};
    two_blocks(&b1, &b2);
    const wire_buf *bs[2] = {&b1, &b2};
    for (int k = 0; k < 2; k++) {
        uint32_t len;
        const uint8_t *p = payload(bs[k], &len);
        assert_int_equal(decode(p, len, k), SOCMON_OK);
        for (uint32_t cut = 0; cut < len; cut++) {
            uint8_t *copy = malloc(cut ? cut : 1);   /* exactly cut bytes: ASan sees any over-read */
            memcpy(copy, p, cut);
            if (decode(copy, cut, k) != SOCMON_EPARSE)
                fail_msg("block %d cut to %u of %u bytes was not refused", k + 1, cut, len);
            free(copy);
        }
        /* Every single bit flipped: the frame's CRC refuses it; the decoder, given the
         * payload anyway, decodes it or refuses it, and never reads past it. */
        uint8_t *f = malloc(bs[k]->len);
        for (size_t bit = 0; bit < (size_t)len * 8; bit++) {
            memcpy(f, bs[k]->p, bs[k]->len);
            f[WIRE_HDR + bit / 8] ^= (uint8_t)(1u << (bit % 8));
            wire_hdr h;
            assert_int_equal(wire_hdr_parse(f, bs[k]->len, WIRE_MAX_PAYLOAD, &h), 1);
            if (wire_check_crc(&h, f + WIRE_HDR) != SOCMON_EPARSE)
                fail_msg("block %d with bit %zu flipped passed its CRC", k + 1, bit);
            socmon_status rc = decode(f + WIRE_HDR, len, k);
            assert_true(rc == SOCMON_OK || rc == SOCMON_EPARSE || rc == SOCMON_ERANGE);
        }
        free(f);
        /* a byte too many */
        uint8_t *longer = malloc(len + 1);
        memcpy(longer, p, len);
        longer[len] = 0;
        assert_int_equal(decode(longer, len + 1, k), SOCMON_EPARSE);
        free(longer);
    }
    wire_buf_free(&b1);
    wire_buf_free(&b2);
}

/* Builds a one-sample block by hand: head, then the fields given (varints). */
static size_t block(uint8_t *p, uint64_t nc, uint64_t base, const uint64_t *f, size_t nf)
{
    size_t n = 0;
    n += socmon_varint_put(p + n, 0);    /* first seq */
    n += socmon_varint_put(p + n, 1);    /* one sample */
    n += socmon_varint_put(p + n, nc);
    n += socmon_varint_put(p + n, base);
    for (size_t i = 0; i < nf; i++)
        n += socmon_varint_put(p + n, f[i]);
    return n;
}

static void expect_refused(const uint8_t *p, size_t len, const char *why)
{
    assert_int_equal(decode(p, len, 0), SOCMON_EPARSE);
    if (!strstr(socmon_errmsg(), why))
        fail_msg("refused with '%s', expected it to say '%s'", socmon_errmsg(), why);
}

static void test_inconsistent_blocks_refused(void **state)
{
    (void)state;
    uint8_t p[64];
    /* time, flags, missed, moved count, then (skip, delta) pairs */
    uint64_t ok[] = {5, 0, 0, 2, 1, 1, 3, 7};   /* counters 1 and 5 */
    assert_int_equal(decode(p, block(p, NC, 0, ok, 8), 0), SOCMON_OK);
    uint64_t too_many[] = {5, 0, 0, NC + 1};
    expect_refused(p, block(p, NC, 0, too_many, 4), "moved counters");
    uint64_t past[] = {5, 0, 0, 2, 1, 1, 4, 7};   /* the second lands on counter 6 of 0..5 */
    expect_refused(p, block(p, NC, 0, past, 8), "past the last");
    uint64_t zero[] = {5, 0, 0, 1, 2, 0};
    expect_refused(p, block(p, NC, 0, zero, 6), "delta of 0");
    uint64_t wide[] = {5, 0, 0, 1, 0, 2};         /* counter 0 is 1 bit wide */
    expect_refused(p, block(p, NC, 0, wide, 6), "wider than");
    uint64_t flags[] = {5, UINT64_C(1) << 33, 0, 0};
    expect_refused(p, block(p, NC, 0, flags, 4), "flags");
    expect_refused(p, block(p, NC + 1, 0, ok, 8), "the HELLO said 6");
    expect_refused(p, block(p, NC, 2, ok, 8), "base");
    /* an overlong varint (11 bytes) as the time */
    size_t n = block(p, NC, 0, NULL, 0);
    memset(p + n, 0xff, 10);
    p[n + 10] = 0x01;
    expect_refused(p, n + 11, "timestamp");
    /* more samples than the bytes left could hold, before anything is allocated */
    uint8_t q[] = {0x00, 0xff, 0xff, 0xff, 0xff, 0x0f, NC, 0x00, 0, 0, 0, 0};
    uint64_t first;
    uint32_t cnt;
    assert_int_equal(wire_get_samples2_head(q, sizeof q, NC, &first, &cnt), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "cannot fit"));
    /* ... and more values than a block may carry: 4,000 samples of 4,000 counters in 16 KB */
    uint8_t *big = calloc(1, 16100);
    size_t m = 0;
    m += socmon_varint_put(big + m, 0);
    m += socmon_varint_put(big + m, 4000);
    m += socmon_varint_put(big + m, 4000);
    m += socmon_varint_put(big + m, 0);
    assert_int_equal(wire_get_samples2_head(big, m + 16000, 4000, &first, &cnt), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "values a block may carry"));
    free(big);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip_across_blocks),
        cmocka_unit_test(test_unchanged_counters_cost_nothing),
        cmocka_unit_test(test_cuts_and_flips_refused),
        cmocka_unit_test(test_inconsistent_blocks_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
