/* Timeline: exact round trips of every kind of value, chunk boundaries,
 * random access against iteration, compactness, and bad arguments. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "socmon/timeline.h"
#include "recording/timeline_internal.h"
#include "support/rng.h"

/* Expected samples kept flat: n samples of nc values. */
typedef struct expect {
    size_t n, nc;
    uint64_t *t;
    uint32_t *flags, *missed;
    uint64_t *v;
} expect;

static void expect_init(expect *e, size_t n, size_t nc)
{
    e->n = n;
    e->nc = nc;
    e->t = calloc(n, sizeof *e->t);
    e->flags = calloc(n, sizeof *e->flags);
    e->missed = calloc(n, sizeof *e->missed);
    e->v = calloc(n * nc + 1, sizeof *e->v);
    assert_non_null(e->t);
    assert_non_null(e->v);
}

static void expect_free(expect *e)
{
    free(e->t);
    free(e->flags);
    free(e->missed);
    free(e->v);
}

/* Hard values: extremes, decreasing runs, 32-bit wraps, random 64-bit. */
static void fill_hard(expect *e, uint64_t seed)
{
    uint64_t s = seed;
    for (size_t i = 0; i < e->n; i++) {
        uint64_t r = rng_next(&s);
        switch (r % 5) {
        case 0: e->t[i] = rng_next(&s); break;                          /* anywhere */
        case 1: e->t[i] = i ? e->t[i - 1] - (r >> 50) : 0; break;        /* backwards */
        default: e->t[i] = (i ? e->t[i - 1] : 0) + 1000000 + (r >> 60);  /* steady */
        }
        e->flags[i] = (r >> 8) % 7 == 0 ? (uint32_t)rng_next(&s) : 0;
        e->missed[i] = (r >> 16) % 5 == 0 ? (uint32_t)rng_next(&s) : 0;
        if ((r >> 24) % 11 == 0)
            e->missed[i] = UINT32_MAX;
        if ((r >> 24) % 13 == 0)
            e->flags[i] = UINT32_MAX;
        for (size_t j = 0; j < e->nc; j++) {
            uint64_t prev = i ? e->v[(i - 1) * e->nc + j] : 0;
            uint64_t x;
            switch ((rng_next(&s) + j) % 8) {
            case 0: x = UINT64_MAX; break;
            case 1: x = 0; break;
            case 2: x = prev - 1 - (rng_next(&s) & 0xffff); break;      /* decreasing */
            case 3: x = (prev + 0x10000000ull) & 0xffffffffull; break;  /* 32-bit wrap */
            case 4: x = rng_next(&s); break;
            case 5: x = (uint64_t)1 << 63; break;
            default: x = prev + (rng_next(&s) & 0xff); break;           /* slow */
            }
            e->v[i * e->nc + j] = x;
        }
    }
}

static socmon_timeline *build(const expect *e, size_t k)
{
    socmon_timeline *tl = NULL;
    assert_int_equal(smn_timeline_new_chunked(e->nc, k, &tl), SOCMON_OK);
    for (size_t i = 0; i < e->n; i++) {
        socmon_sample s = {.t_ns = e->t[i], .flags = e->flags[i], .missed = e->missed[i],
            .n = e->nc, .v = e->v + i * e->nc};
        assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    }
    assert_int_equal(socmon_timeline_len(tl), e->n);
    return tl;
}

static void assert_sample(const expect *e, size_t i, const socmon_sample *s)
{
    assert_int_equal(s->t_ns, e->t[i]);
    assert_int_equal(s->flags, e->flags[i]);
    assert_int_equal(s->missed, e->missed[i]);
    assert_memory_equal(s->v, e->v + i * e->nc, e->nc * sizeof *s->v);
}

/* Every sample read back by index and by iteration equals what went in. */
static void check_all(const socmon_timeline *tl, const expect *e)
{
    uint64_t v[64];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = e->nc, .v = v};
    for (size_t i = 0; i < e->n; i++) {
        memset(v, 0xa5, sizeof v);
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_sample(e, i, &s);
    }
    socmon_timeline_iter it;
    assert_int_equal(socmon_timeline_iter_init(tl, &it), SOCMON_OK);
    for (size_t i = 0; i < e->n; i++) {
        memset(v, 0x5a, sizeof v);
        assert_int_equal(socmon_timeline_iter_next(&it, &s), SOCMON_OK);
        assert_sample(e, i, &s);
    }
    assert_int_equal(socmon_timeline_iter_next(&it, &s), SOCMON_ENOENT);
    assert_int_equal(socmon_timeline_iter_next(&it, &s), SOCMON_ENOENT);
    socmon_timeline_iter_free(&it);
}

static void test_timeline_round_trip_hard_values(void **state)
{
    expect e;
    expect_init(&e, 3000, 6); /* two full chunks of 1024 and a partial one */
    fill_hard(&e, 1);
    socmon_timeline *tl = NULL;
    assert_int_equal(socmon_timeline_new(e.nc, &tl), SOCMON_OK);
    for (size_t i = 0; i < e.n; i++) {
        socmon_sample s = {.t_ns = e.t[i], .flags = e.flags[i], .missed = e.missed[i], .n = e.nc,
            .v = e.v + i * e.nc};
        assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    }
    assert_int_equal(socmon_timeline_ncounters(tl), 6);
    assert_int_equal(smn_timeline_nchunks(tl), 3);
    check_all(tl, &e);
    socmon_timeline_free(tl);
    expect_free(&e);
}

/* Small chunks put a boundary everywhere: every first-of-chunk and
 * last-of-chunk case, and a partial last chunk, for several sizes. */
static void test_timeline_chunk_boundaries(void **state)
{
    static const size_t ks[] = {1, 2, 3, 7, 64};
    for (size_t a = 0; a < sizeof ks / sizeof ks[0]; a++) {
        for (size_t n = 0; n <= 3 * ks[a] + 1; n++) {
            expect e;
            expect_init(&e, n, 3);
            fill_hard(&e, 100 + n);
            socmon_timeline *tl = build(&e, ks[a]);
            assert_int_equal(smn_timeline_nchunks(tl), (n + ks[a] - 1) / ks[a]);
            check_all(tl, &e);
            socmon_timeline_free(tl);
            expect_free(&e);
        }
    }
}

/* Random order reads (jumping back and across chunks) match iteration. */
static void test_timeline_random_access_matches_iteration(void **state)
{
    expect e;
    expect_init(&e, 5000, 4);
    fill_hard(&e, 7);
    socmon_timeline *tl = build(&e, 100);
    uint64_t a[4], b[4];
    socmon_sample sa = {.t_ns = 0, .flags = 0, .missed = 0, .n = 4, .v = a}, sb = {0, 0, 0, 4, b};
    socmon_timeline_iter it;
    assert_int_equal(socmon_timeline_iter_init(tl, &it), SOCMON_OK);
    uint64_t r = 99;
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(socmon_timeline_iter_next(&it, &sb), SOCMON_OK);
        size_t j = rng_next(&r) % e.n; /* a read elsewhere must not disturb the iterator */
        assert_int_equal(socmon_timeline_get(tl, j, &sa), SOCMON_OK);
        assert_sample(&e, j, &sa);
        assert_int_equal(socmon_timeline_get(tl, i, &sa), SOCMON_OK);
        assert_int_equal(sa.t_ns, sb.t_ns);
        assert_int_equal(sa.flags, sb.flags);
        assert_int_equal(sa.missed, sb.missed);
        assert_memory_equal(a, b, sizeof a);
    }
    socmon_timeline_iter_free(&it);
    socmon_timeline_free(tl);
    expect_free(&e);
}

/* An iterator started early keeps going over samples appended later. */
static void test_timeline_iter_sees_later_appends(void **state)
{
    expect e;
    expect_init(&e, 300, 2);
    fill_hard(&e, 3);
    socmon_timeline *tl = NULL;
    assert_int_equal(smn_timeline_new_chunked(2, 16, &tl), SOCMON_OK);
    socmon_timeline_iter it;
    assert_int_equal(socmon_timeline_iter_init(tl, &it), SOCMON_OK);
    uint64_t v[2];
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 2, .v = v};
    for (size_t i = 0; i < e.n; i++) {
        assert_int_equal(socmon_timeline_iter_next(&it, &s), SOCMON_ENOENT);
        socmon_sample in = {.t_ns = e.t[i], .flags = e.flags[i], .missed = e.missed[i], .n = 2,
            .v = e.v + 2 * i};
        assert_int_equal(socmon_timeline_append(tl, &in), SOCMON_OK);
        assert_int_equal(socmon_timeline_iter_next(&it, &s), SOCMON_OK);
        assert_sample(&e, i, &s);
    }
    socmon_timeline_iter_free(&it);
    socmon_timeline_free(tl);
    expect_free(&e);
}

/* 8 counters moving by up to a few hundred events per 1 ms interval: the
 * values take 1-2 bytes each and the whole sample far less than the 80
 * bytes of a raw t + flags/missed + 8 x uint64. */
static void test_timeline_compact_for_slow_counters(void **state)
{
    const size_t n = 200000, nc = 8;
    socmon_timeline *tl = NULL;
    assert_int_equal(socmon_timeline_new(nc, &tl), SOCMON_OK);
    uint64_t v[8] = {0}, r = 5;
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = nc, .v = v};
    for (size_t i = 0; i < n; i++) {
        s.t_ns += 1000000;
        for (size_t j = 0; j < nc; j++)
            v[j] += rng_next(&r) % (j < 4 ? 100 : 10000);
        assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    }
    double per = (double)socmon_timeline_bytes(tl) / (double)n;
    /* t: 3 bytes, flags: 1, four values of 1 byte, four of <= 2: at most 16. */
    assert_true(per <= 16.5);
    assert_true(per >= 9.0); /* and the accounting is not forgetting the data */
    socmon_timeline_free(tl);
}

static void test_timeline_zero_counters(void **state)
{
    socmon_timeline *tl = NULL;
    assert_int_equal(socmon_timeline_new(0, &tl), SOCMON_OK);
    for (uint64_t i = 0; i < 2100; i++) {
        socmon_sample s = {.t_ns = i * 7, .flags = 0, .missed = (uint32_t)(i % 3), .n = 0,
            .v = NULL};
        assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    }
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 0, .v = NULL};
    assert_int_equal(socmon_timeline_get(tl, 2099, &s), SOCMON_OK);
    assert_int_equal(s.t_ns, 2099 * 7);
    assert_int_equal(s.missed, 2099 % 3);
    socmon_timeline_free(tl);
}

/* Chunks copied from one timeline into another (as the loader does) give the
 * same samples, and appends continue after a partial last chunk. */
static void test_timeline_add_chunk_adopts_and_validates(void **state)
{
    expect e;
    expect_init(&e, 50, 3);
    fill_hard(&e, 11);
    socmon_timeline *a = build(&e, 8), *b = NULL;
    assert_int_equal(smn_timeline_new_chunked(3, 8, &b), SOCMON_OK);
    const uint8_t *data;
    size_t len, n;
    for (size_t i = 0; i < smn_timeline_nchunks(a); i++) {
        smn_timeline_chunk(a, i, &data, &len, &n);
        assert_int_equal(n, i < 6 ? 8 : 2);
        assert_int_equal(smn_timeline_add_chunk(b, data, len, n, 1000), SOCMON_OK);
    }
    /* 50 = 6 x 8 + 2: the last chunk is partial, so no chunk may follow it */
    smn_timeline_chunk(a, 0, &data, &len, &n);
    assert_int_equal(smn_timeline_add_chunk(b, data, len, n, 1000), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "follows a partial chunk of 2 samples"));
    check_all(b, &e);

    /* appending to both keeps them equal, across the next boundaries */
    expect more;
    expect_init(&more, 70, 3);
    fill_hard(&more, 12);
    for (size_t i = 0; i < more.n; i++) {
        socmon_sample s = {.t_ns = more.t[i], .flags = more.flags[i], .missed = more.missed[i],
            .n = 3, .v = more.v + 3 * i};
        assert_int_equal(socmon_timeline_append(b, &s), SOCMON_OK);
    }
    for (size_t i = 0; i < more.n; i++) {
        uint64_t v[3];
        socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = 3, .v = v};
        assert_int_equal(socmon_timeline_get(b, 50 + i, &s), SOCMON_OK);
        assert_sample(&more, i, &s);
    }

    /* a chunk that claims more samples than its bytes hold */
    socmon_timeline *c = NULL;
    assert_int_equal(smn_timeline_new_chunked(3, 8, &c), SOCMON_OK);
    smn_timeline_chunk(a, 6, &data, &len, &n);
    assert_int_equal(smn_timeline_add_chunk(c, data, len, 3, 500), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "offset 5"));
    assert_non_null(strstr(socmon_errmsg(), "chunk 0 sample 2"));
    assert_int_equal(smn_timeline_add_chunk(c, data, len, 9, 500), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "sample count 9 out of range 1..8"));
    assert_int_equal(socmon_timeline_len(c), 0);

    socmon_timeline_free(a);
    socmon_timeline_free(b);
    socmon_timeline_free(c);
    expect_free(&e);
    expect_free(&more);
}

static void test_timeline_bad_arguments(void **state)
{
    socmon_timeline *tl = NULL;
    assert_int_equal(socmon_timeline_new((size_t)SOCMON_TIMELINE_MAX_COUNTERS + 1, &tl),
                     SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "1048577"));
    assert_null(tl);
    assert_int_equal(smn_timeline_new_chunked(2, 0, &tl), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "chunk_samples 0"));
    assert_int_equal(socmon_timeline_new(3, NULL), SOCMON_EINVAL);

    assert_int_equal(socmon_timeline_new(3, &tl), SOCMON_OK);
    uint64_t v[4] = {1, 2, 3, 4};
    socmon_sample s = {.t_ns = 5, .flags = 0, .missed = 0, .n = 4, .v = v};
    assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "4 values"));
    assert_int_equal(socmon_timeline_append(tl, NULL), SOCMON_EINVAL);
    s.n = 3;
    s.v = NULL;
    assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_EINVAL);
    s.v = v;
    assert_int_equal(socmon_timeline_get(tl, 0, &s), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "empty"));
    assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    assert_int_equal(socmon_timeline_append(tl, &s), SOCMON_OK);
    assert_int_equal(socmon_timeline_get(tl, 2, &s), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "index 2 out of range 0..1"));
    s.n = 2;
    assert_int_equal(socmon_timeline_get(tl, 1, &s), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "2 values"));
    assert_int_equal(socmon_timeline_len(tl), 2);
    socmon_timeline_free(tl);
    socmon_timeline_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_timeline_round_trip_hard_values),
        cmocka_unit_test(test_timeline_chunk_boundaries),
        cmocka_unit_test(test_timeline_random_access_matches_iteration),
        cmocka_unit_test(test_timeline_iter_sees_later_appends),
        cmocka_unit_test(test_timeline_compact_for_slow_counters),
        cmocka_unit_test(test_timeline_zero_counters),
        cmocka_unit_test(test_timeline_add_chunk_adopts_and_validates),
        cmocka_unit_test(test_timeline_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
