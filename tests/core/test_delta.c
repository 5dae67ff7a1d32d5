/* The wrap-safe delta: exact for every width 1..64, property-tested. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>

#include "socmon/delta.h"

static uint64_t rng = 0x9E3779B97F4A7C15ull;

static uint64_t next(void)
{
    /* xorshift64*: deterministic, so a failure reproduces. */
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return rng * 2685821657736338717ull;
}

static void test_every_width_random_pairs(void **state)
{
    for (unsigned w = 1; w <= 64; w++) {
        uint64_t m = socmon_width_mask(w);
        for (int i = 0; i < 20000; i++) {
            uint64_t start = next() & m;
            uint64_t k = next() & m;              /* events between the samples: 0 .. 2^w-1 */
            uint64_t end = (start + k) & m;       /* what the counter register then shows */
            uint64_t d = socmon_delta(start, end, w);
            if (d != k)
                fail_msg("width %u start %llu k %llu: delta %llu", w, (unsigned long long)start,
                         (unsigned long long)k, (unsigned long long)d);
        }
    }
}

static void test_edges(void **state)
{
    assert_int_equal(socmon_delta(0xFFFFFFF0u, 0x10u, 32), 32); /* ESP's reference says 31 */
    assert_int_equal(socmon_delta(0xFFFFFFFFu, 0, 32), 1);
    assert_true(socmon_delta(UINT64_MAX, 0, 64) == 1);
    assert_true(socmon_delta(0, UINT64_MAX, 64) == UINT64_MAX);
    assert_int_equal(socmon_delta(1, 0, 1), 1);
    assert_int_equal(socmon_delta(0, 0, 1), 0);
    assert_int_equal(socmon_delta(5, 5, 48), 0);
    /* Stray bits above the width never reach the result. */
    assert_int_equal(socmon_delta(0xAB00000005ull, 0xCD00000007ull, 32), 2);
    assert_int_equal(socmon_delta(0xF0, 0x0F, 4), 0xF);
    assert_true(socmon_width_mask(64) == UINT64_MAX);
    assert_true(socmon_width_mask(1) == 1);
    assert_true(socmon_width_mask(63) == (UINT64_MAX >> 1));
}

static void test_max_interval(void **state)
{
    /* 32-bit counter at 1 GHz wraps every 4.294967296 s. */
    uint64_t ns = socmon_max_interval_ns(32, 1e9);
    assert_true(ns < 4294967296ull);
    assert_true(ns > 4294967000ull);
    assert_true(socmon_max_interval_ns(32, 0) == UINT64_MAX);
    assert_true(socmon_max_interval_ns(64, 1e9) == UINT64_MAX);
    /* Property: at the maximum rate, the events in one maximal interval are
     * fewer than 2^width, so one sample pair sees at most one wrap. */
    for (int i = 0; i < 5000; i++) {
        unsigned w = 1 + (unsigned)(next() % 40);
        double rate = ldexp(1.0, (int)(next() % 34)) * (1.0 + (double)(next() % 1000) / 1000.0);
        uint64_t iv = socmon_max_interval_ns(w, rate);
        double events = rate * (double)iv / 1e9;
        if (!(events < ldexp(1.0, (int)w)))
            fail_msg("width %u rate %g: interval %llu ns allows %g events", w, rate, (unsigned long long)iv,
                     events);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_width_random_pairs),
        cmocka_unit_test(test_edges),
        cmocka_unit_test(test_max_interval),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
