/* stat -r's spread (src/analysis/spread.c) against figures worked out by hand: the mean, the
 * standard deviation of the mean (perf's "+-") and the percentage the outputs print. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "export/output.h"
#include "analysis/spread.h"

static void add_runs(smn_spread *s, const double *runs, size_t nruns, size_t nvals)
{
    for (size_t r = 0; r < nruns; r++)
        smn_spread_add(s, (unsigned)(r + 1), runs + r * nvals);
    smn_spread_finish(s, (unsigned)nruns);
}

/* 2 4 4 4 5 5 7 9: mean 5, sum of squares 32, sample variance 32/7, so the standard deviation of
 * the mean is sqrt(32/7/8) = 0.755929 and perf prints ( +- 15.12% ). A second value, constant,
 * has no spread; a third is the first times -1 (the percentage is of |mean|). */
static void test_spread_known_values(void **state)
{
    static const double x[] = {2, 4, 4, 4, 5, 5, 7, 9};
    double runs[8 * 3];
    for (size_t r = 0; r < 8; r++) {
        runs[r * 3] = x[r];
        runs[r * 3 + 1] = 1234;
        runs[r * 3 + 2] = -x[r];
    }
    smn_spread s;
    assert_int_equal(smn_spread_init(&s, 3), 0);
    add_runs(&s, runs, 8, 3);
    assert_true(fabs(s.mean[0] - 5) < 1e-12);
    assert_true(fabs(s.m2[0] - sqrt(32.0 / 7 / 8)) < 1e-12);
    assert_true(fabs(smn_stddev_pct(s.mean[0], s.m2[0]) - 15.118579) < 1e-6);
    assert_true(fabs(s.mean[1] - 1234) < 1e-12);
    assert_true(s.m2[1] == 0);
    assert_true(smn_stddev_pct(s.mean[1], s.m2[1]) == 0);
    assert_true(fabs(s.mean[2] + 5) < 1e-12);
    assert_true(fabs(smn_stddev_pct(s.mean[2], s.m2[2]) - 15.118579) < 1e-6);
    smn_spread_free(&s);
}

/* Counter totals are large and close: 1e12 + 1, + 2, + 3 keep their spread (sample variance 1,
 * standard deviation of the mean sqrt(1/3)) where sum-of-squares arithmetic would cancel. */
static void test_spread_large_close_values(void **state)
{
    static const double runs[] = {1e12 + 1, 1e12 + 2, 1e12 + 3};
    smn_spread s;
    assert_int_equal(smn_spread_init(&s, 1), 0);
    add_runs(&s, runs, 3, 1);
    assert_true(fabs(s.mean[0] - (1e12 + 2)) < 1e-3);
    assert_true(fabs(s.m2[0] - sqrt(1.0 / 3)) < 1e-6);
    smn_spread_free(&s);
}

/* One run has no spread; two runs a and b give |a - b| / 2. A mean of 0 or NaN prints 0%. */
static void test_spread_edges(void **state)
{
    smn_spread s;
    static const double one[] = {42};
    assert_int_equal(smn_spread_init(&s, 1), 0);
    add_runs(&s, one, 1, 1);
    assert_true(s.mean[0] == 42 && s.m2[0] == 0);
    smn_spread_free(&s);
    static const double two[] = {10, 14};
    assert_int_equal(smn_spread_init(&s, 1), 0);
    add_runs(&s, two, 2, 1);
    assert_true(fabs(s.mean[0] - 12) < 1e-12);
    assert_true(fabs(s.m2[0] - 2) < 1e-12);
    assert_true(fabs(smn_stddev_pct(s.mean[0], s.m2[0]) - 100.0 * 2 / 12) < 1e-9);
    smn_spread_free(&s);
    assert_true(smn_stddev_pct(0, 3) == 0);
    assert_true(smn_stddev_pct(NAN, 3) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_spread_known_values),
        cmocka_unit_test(test_spread_large_close_values),
        cmocka_unit_test(test_spread_edges),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
