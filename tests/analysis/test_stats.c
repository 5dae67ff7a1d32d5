/* Student's t and Welch's test (src/results/stats.c) against tabulated values: the 0.975
 * quantiles of t (any statistics table), and for what no table holds (a non-integer df, Welch's
 * p-values) values computed independently with mpmath 1.3 at 30 digits (betainc, findroot on the
 * same formulas). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "socmon/compare.h"

static void close_to(double got, double want, double rel)
{
    if (!(fabs(got - want) <= rel * fabs(want)))
        fail_msg("got %.12g, want %.12g (relative error %.3g > %.3g)", got, want, fabs(got - want) / fabs(want), rel);
}

static void t95_table(void **state)
{
    (void)state;
    static const struct { double df, t; } tab[] = {
        {1, 12.7062047361747}, {2, 4.30265272974946}, {3, 3.18244630528371}, {5, 2.57058183563631},
        {9, 2.26215716279820}, {10, 2.22813885198627}, {19, 2.09302405440831}, {30, 2.04227245630124},
        {100, 1.98397151852355}, {1000, 1.96233908082641},
    };
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        close_to(socmon_t95(tab[i].df), tab[i].t, 1e-9);
    /* a Welch df is not an integer: between its neighbours, falling with df */
    double t7 = socmon_t95(7), t75 = socmon_t95(7.5), t8 = socmon_t95(8);
    assert_true(t7 > t75 && t75 > t8);
    close_to(socmon_t95(7.5), 2.33303962686497, 1e-9);   /* mpmath */
    close_to(socmon_t95(INFINITY), 1.95996398454005, 1e-12);
    assert_true(isnan(socmon_t95(0.5)));
    assert_true(isnan(socmon_t95(NAN)));
    assert_true(isnan(socmon_t95(-3)));
}

static void welch(void **state)
{
    (void)state;
    /* equal summaries: no evidence of a change */
    close_to(socmon_welch_p(10, 2, 10, 10, 2, 10), 1, 1e-12);
    /* mean 20 sd 2 n 10 against mean 22 sd 3 n 12: t = 2 / sqrt(0.4 + 0.75) = 1.865,
     * df = 19.1905 (Welch-Satterthwaite), p = 0.0775464386820587 (mpmath) */
    double p = socmon_welch_p(20, 2, 10, 22, 3, 12);
    close_to(p, 0.0775464386820587, 1e-9);
    /* symmetric in the two sides */
    close_to(socmon_welch_p(22, 3, 12, 20, 2, 10), p, 1e-12);
    /* equal n and sd: Welch's t equals Student's; t = 3 with df = 18: p = 0.007685 */
    close_to(socmon_welch_p(0, 1.0, 10, 3 * sqrt(0.2), 1.0, 10), 0.00768541214031432, 1e-9);
    /* far apart: tiny p, never negative */
    p = socmon_welch_p(1000, 1, 10, 2000, 1, 10);
    assert_true(p >= 0 && p < 1e-20);
    /* no spread: 1 for equal means, 0 otherwise */
    assert_true(socmon_welch_p(5, 0, 3, 5, 0, 3) == 1);
    assert_true(socmon_welch_p(5, 0, 3, 6, 0, 3) == 0);
    /* one side without spread, the other with: still a t-test (df = n - 1 of the spread side) */
    close_to(socmon_welch_p(48, 0, 10, 48.1, 0.316, 10), 0.343106210142286, 1e-9);
    /* what cannot be tested */
    assert_true(isnan(socmon_welch_p(1, 1, 1, 2, 1, 10)));
    assert_true(isnan(socmon_welch_p(1, 1, 10, 2, 1, 0)));
    assert_true(isnan(socmon_welch_p(NAN, 1, 10, 2, 1, 10)));
    assert_true(isnan(socmon_welch_p(1, NAN, 10, 2, 1, 10)));
    assert_true(isnan(socmon_welch_p(1, -1, 10, 2, 1, 10)));
    assert_true(socmon_welch_p(1, 1, 10, INFINITY, 1, 10) == 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(t95_table),
        cmocka_unit_test(welch),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
