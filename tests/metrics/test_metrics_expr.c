/* The expression language on its own: numbers, operators, precedence,
 * functions, NaN rules and every parse error with its column. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/metrics.h"
#include "metrics/metrics_fixture.h"

static void test_numbers(void **state)
{
    (void)state;
    assert_true(fx_eval("42") == 42.0);
    assert_true(fx_eval("0x10") == 16.0);
    assert_true(fx_eval("0XfF") == 255.0);
    assert_true(fx_eval("1.5") == 1.5);
    assert_true(fx_eval(".25") == 0.25);
    assert_true(fx_eval("2.") == 2.0);
    assert_true(fx_eval("1e3") == 1000.0);
    assert_true(fx_eval("2.5E-1") == 0.25);
    assert_true(fx_eval("1e+2") == 100.0);
    assert_true(fx_eval("0x100000000") == 4294967296.0);
    assert_true(fx_eval("  7\t") == 7.0);
}

static void test_precedence(void **state)
{
    (void)state;
    assert_true(fx_eval("1 + 2 * 3") == 1 + 2 * 3);
    assert_true(fx_eval("(1 + 2) * 3") == (1 + 2) * 3);
    assert_true(fx_eval("10 - 4 / 2") == 10 - 4 / 2);
    assert_true(fx_eval("7 % 4 * 2") == (7 % 4) * 2);
    assert_true(fx_eval("1 + 2 < 4") == 1.0);          /* + binds tighter than < */
    assert_true(fx_eval("1 < 2 == 1") == 1.0);         /* < tighter than == */
    assert_true(fx_eval("1 == 1 && 0 == 1") == 0.0);   /* == tighter than && */
    assert_true(fx_eval("1 || 0 && 0") == 1.0);        /* && tighter than || */
    assert_true(fx_eval("0 || 1 ? 5 : 6") == 5.0);     /* || tighter than ?: */
    assert_true(fx_eval("-2 * 3") == -6.0);
    assert_true(fx_eval("-(2 + 3)") == -5.0);
    assert_true(fx_eval("--4") == 4.0);
    assert_true(fx_eval("+4") == 4.0);
    assert_true(fx_eval("!0 + 1") == 2.0);             /* unary tighter than + */
    assert_true(fx_eval("2 * -3") == -6.0);
}

static void test_associativity(void **state)
{
    (void)state;
    assert_true(fx_eval("10 - 4 - 3") == (10.0 - 4) - 3);
    assert_true(fx_eval("64 / 4 / 2") == (64.0 / 4) / 2);
    assert_true(fx_eval("17 % 10 % 4") == fmod(fmod(17, 10), 4));
    assert_true(fx_eval("2 - 3 + 4") == (2.0 - 3) + 4);
    /* ?: is right-associative: a ? b : c ? d : e == a ? b : (c ? d : e) */
    assert_true(fx_eval("0 ? 1 : 0 ? 2 : 3") == 3.0);
    assert_true(fx_eval("0 ? 1 : 1 ? 2 : 3") == 2.0);
    assert_true(fx_eval("1 ? 0 ? 7 : 8 : 9") == 8.0);
}

static void test_comparisons_and_logic(void **state)
{
    (void)state;
    assert_true(fx_eval("1 < 2") == 1.0 && fx_eval("2 < 1") == 0.0 && fx_eval("2 < 2") == 0.0);
    assert_true(fx_eval("2 <= 2") == 1.0 && fx_eval("3 <= 2") == 0.0);
    assert_true(fx_eval("3 > 2") == 1.0 && fx_eval("2 > 2") == 0.0);
    assert_true(fx_eval("2 >= 2") == 1.0 && fx_eval("1 >= 2") == 0.0);
    assert_true(fx_eval("2 == 2") == 1.0 && fx_eval("2 == 3") == 0.0);
    assert_true(fx_eval("2 != 3") == 1.0 && fx_eval("2 != 2") == 0.0);
    assert_true(fx_eval("1 && 2") == 1.0 && fx_eval("1 && 0") == 0.0);
    assert_true(fx_eval("0 || 3") == 1.0 && fx_eval("0 || 0") == 0.0);
    assert_true(fx_eval("!5") == 0.0 && fx_eval("!0") == 1.0);
    assert_true(fx_eval("l2_hits > l2_misses ? 1 : 2") ==
                (fx_deltas[T0_HITS] + fx_deltas[T1_HITS] + fx_deltas[T2_HITS] >
                         fx_deltas[T0_MISS] + fx_deltas[T1_MISS]
                     ? 1.0
                     : 2.0));
}

static void test_nan_rules(void **state)
{
    (void)state;
    assert_true(isnan(fx_eval("1 / 0")));
    assert_true(isnan(fx_eval("0 / 0")));
    assert_true(isnan(fx_eval("-5 / (2 - 2)")));
    assert_true(isnan(fx_eval("5 % 0")));
    assert_true(isnan(fx_eval("sqrt(-1)")));
    /* undefined stays undefined through arithmetic, comparisons, logic, ?: */
    assert_true(isnan(fx_eval("1 / 0 + 1")));
    assert_true(isnan(fx_eval("1 / 0 < 1")));
    assert_true(isnan(fx_eval("1 / 0 == 1 / 0")));
    assert_true(isnan(fx_eval("!(0 / 0)")));
    assert_true(isnan(fx_eval("1 && 0 / 0")));
    assert_true(isnan(fx_eval("0 / 0 ? 1 : 2")));
    /* a NaN in the branch not taken does not matter */
    assert_true(fx_eval("1 ? 2 : 0 / 0") == 2.0);
    /* min/max/argmax choose among defined values */
    assert_true(fx_eval("max(0 / 0, 3, 2)") == 3.0);
    assert_true(fx_eval("min(4, 0 / 0)") == 4.0);
    assert_true(fx_eval("argmax(0 / 0, 1, 5)") == 2.0);
    assert_true(isnan(fx_eval("max(0 / 0, 1 / 0)")));
    assert_true(isnan(fx_eval("argmax(0 / 0, 1 / 0)")));
    /* counters with a zero delta give NaN ratios, not crashes */
    double v = 0;
    uint64_t zero[NCTR] = {0};
    assert_int_equal(socmon_expr_eval("l2_hits / l2_misses", &fx_schema, zero, 0, &v), SOCMON_OK);
    assert_true(isnan(v));
    assert_int_equal(socmon_expr_eval("cycles / interval_s", &fx_schema, zero, 0, &v), SOCMON_OK);
    assert_true(isnan(v));
}

static void test_functions(void **state)
{
    (void)state;
    assert_true(fx_eval("min(3, 1, 2)") == 1.0);
    assert_true(fx_eval("max(3, 9, 2)") == 9.0);
    assert_true(fx_eval("max(-1, -2)") == -1.0);
    assert_true(fx_eval("abs(-2.5)") == 2.5);
    assert_true(fx_eval("abs(4)") == 4.0);
    assert_true(fx_eval("sqrt(16)") == 4.0);
    assert_true(fx_eval("argmax(1, 7, 3)") == 1.0);
    assert_true(fx_eval("argmax(9, 7, 3)") == 0.0);
    assert_true(fx_eval("argmax(1, 3, 30)") == 2.0);
    /* ties go to the earliest argument */
    assert_true(fx_eval("argmax(5, 5)") == 0.0);
    assert_true(fx_eval("argmax(1, 8, 8, 8)") == 1.0);
    assert_true(fx_eval("argmax(2, 1, 2)") == 0.0);
    /* instance aggregates over the fixture's tiles */
    double hits = (double)(fx_deltas[T0_HITS] + fx_deltas[T1_HITS] + fx_deltas[T2_HITS]);
    assert_true(fx_eval("sum(l2_hits)") == hits);
    assert_true(fx_eval("avg(l2_hits)") == hits / 3);
    assert_true(fx_eval("count(l2_hits)") == 3.0);
    assert_true(fx_eval("count(l2_misses)") == 2.0);
    assert_true(fx_eval("max(l2_hits)") == (double)fx_deltas[T0_HITS]);
    assert_true(fx_eval("min(l2_hits)") == (double)fx_deltas[T2_HITS]);
    /* sum over instances of a ratio, only where the instance has both counters */
    double r0 = (double)fx_deltas[T0_HITS] / (fx_deltas[T0_HITS] + fx_deltas[T0_MISS]);
    double r1 = (double)fx_deltas[T1_HITS] / (fx_deltas[T1_HITS] + fx_deltas[T1_MISS]);
    assert_true(fabs(fx_eval("sum(l2_hits / (l2_hits + l2_misses))") - (r0 + r1)) < 1e-12);
    assert_true(fabs(fx_eval("avg(l2_hits / (l2_hits + l2_misses))") - (r0 + r1) / 2) < 1e-12);
    /* nested: functions of functions */
    assert_true(fx_eval("max(abs(-3), sqrt(4), min(10, 5))") == 5.0);
}

static void test_names_and_params(void **state)
{
    (void)state;
    assert_true(fx_eval("clock_hz") == fx_pvalues[0]);
    assert_true(fx_eval("bus_bytes * 2") == fx_pvalues[1] * 2);
    assert_true(fx_eval("interval_s") == 0.5);
    assert_true(fx_eval("cycles / interval_s") == fx_deltas[CYCLES] / 0.5);
    assert_true(fx_eval("tile1.l2_misses") == (double)fx_deltas[T1_MISS]);
    assert_true(fx_eval("l2_misses") ==
                (double)(fx_deltas[T0_MISS] + fx_deltas[T1_MISS]));
    /* wide deltas keep their magnitude (as doubles) */
    uint64_t big[NCTR] = {[CYCLES] = UINT64_MAX};
    double v = 0;
    assert_int_equal(socmon_expr_eval("cycles", &fx_schema, big, 1, &v), SOCMON_OK);
    assert_true(v == (double)UINT64_MAX);
}

static void test_unknown_name_is_enoent(void **state)
{
    (void)state;
    fx_eval_fails("l3_misses + 1", SOCMON_ENOENT, "'l3_misses'", NULL);
    fx_eval_fails("tile9.l2_hits", SOCMON_ENOENT, "'tile9'", NULL);
    fx_eval_fails("tile2.l2_misses", SOCMON_ENOENT, "'tile2.l2_misses'", NULL);
}

static void test_syntax_errors(void **state)
{
    (void)state;
    fx_eval_fails("", SOCMON_EPARSE, "column 1", "empty");
    fx_eval_fails("1 +", SOCMON_EPARSE, "column 4", "end of expression");
    fx_eval_fails("(1 + 2", SOCMON_EPARSE, "column 7", "')'");
    fx_eval_fails("1 + 2)", SOCMON_EPARSE, "column 6", "')'");
    fx_eval_fails("1 2", SOCMON_EPARSE, "column 3", "'2'");
    fx_eval_fails("1 ? 2", SOCMON_EPARSE, "column 6", "':'");
    fx_eval_fails("a = 1", SOCMON_EPARSE, "column 3", "'=='");
    fx_eval_fails("1 & 2", SOCMON_EPARSE, "column 3", "'&&'");
    fx_eval_fails("2 $ 3", SOCMON_EPARSE, "column 3", "'$'");
    fx_eval_fails("0x", SOCMON_EPARSE, "column 1", "'0x'");
    fx_eval_fails("1e+", SOCMON_EPARSE, "column 1", "exponent");
    fx_eval_fails("12abc", SOCMON_EPARSE, "column 1", "malformed number");
    fx_eval_fails("1.2.3", SOCMON_EPARSE, "column 1", "malformed number");
    fx_eval_fails("a.b.c", SOCMON_EPARSE, "column 1", "more than one '.'");
    fx_eval_fails("tile0.", SOCMON_EPARSE, "column 1", "followed by a name");
    fx_eval_fails("max(1,)", SOCMON_EPARSE, "column 7", "')'");
    fx_eval_fails("max(1 2)", SOCMON_EPARSE, "column 7", "',' or ')'");
    fx_eval_fails("1 + \x01", SOCMON_EPARSE, "column 5", "0x01");
}

static void test_function_errors(void **state)
{
    (void)state;
    fx_eval_fails("1 + foo(2)", SOCMON_EPARSE, "column 5", "unknown function 'foo'");
    fx_eval_fails("abs()", SOCMON_EPARSE, "column 1", "abs() takes 1 argument, got 0");
    fx_eval_fails("abs(1, 2)", SOCMON_EPARSE, "column 1", "abs() takes 1 argument, got 2");
    fx_eval_fails("sqrt(1, 2)", SOCMON_EPARSE, "sqrt()", "got 2");
    fx_eval_fails("sum(1, 2)", SOCMON_EPARSE, "sum()", "got 2");
    fx_eval_fails("avg()", SOCMON_EPARSE, "avg()", "got 0");
    fx_eval_fails("count(a, b)", SOCMON_EPARSE, "count()", "got 2");
    fx_eval_fails("min()", SOCMON_EPARSE, "min() takes 1 or more arguments", "got 0");
    fx_eval_fails("max()", SOCMON_EPARSE, "max() takes 1 or more arguments", "got 0");
    fx_eval_fails("  argmax(1)", SOCMON_EPARSE, "column 3",
                  "argmax() takes 2 or more arguments, got 1");
    fx_eval_fails("tile0.l2_hits(1)", SOCMON_EPARSE, "column 1", "not a function");
}

static void test_limits(void **state)
{
    (void)state;
    /* deep nesting: a clear error, not a stack overflow */
    size_t n = 100000;
    char *deep = malloc(2 * n + 2);
    assert_non_null(deep);
    memset(deep, '(', n);
    deep[n] = '1';
    memset(deep + n + 1, ')', n);
    deep[2 * n + 1] = '\0';
    fx_eval_fails(deep, SOCMON_EPARSE, "characters long", "limit");
    /* within the length limit, too deep */
    deep[1000] = '\0';
    fx_eval_fails(deep, SOCMON_EPARSE, "nested deeper than", NULL);
    memset(deep, '-', 1000);
    deep[999] = '1';
    fx_eval_fails(deep, SOCMON_EPARSE, "nested deeper than", NULL);
    /* a long flat chain: each term deepens the left-leaning tree */
    char *chain = malloc(4000);
    assert_non_null(chain);
    size_t o = 0;
    for (int i = 0; i < 1000 && o + 4 < 4000; i++)
        o += (size_t)snprintf(chain + o, 4000 - o, "%s1", i ? "+" : "");
    fx_eval_fails(chain, SOCMON_EPARSE, "nested deeper than", NULL);
    /* ... while 100 terms and 100 parentheses are fine */
    o = 0;
    for (int i = 0; i < 100; i++)
        o += (size_t)snprintf(chain + o, 4000 - o, "%s1", i ? "+" : "");
    assert_true(fx_eval(chain) == 100.0);
    memset(deep, '(', 100);
    deep[100] = '3';
    memset(deep + 101, ')', 100);
    deep[201] = '\0';
    assert_true(fx_eval(deep) == 3.0);
    free(chain);
    free(deep);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    double v;
    assert_int_equal(socmon_expr_eval(NULL, &fx_schema, fx_deltas, 1, &v), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "expr"));
    assert_int_equal(socmon_expr_eval("1", NULL, fx_deltas, 1, &v), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "schema"));
    assert_int_equal(socmon_expr_eval("1", &fx_schema, NULL, 1, &v), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "deltas"));
    assert_int_equal(socmon_expr_eval("1", &fx_schema, fx_deltas, 1, NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "out"));
    socmon_counter noname = {.name = NULL, .instance = "t", .width = 8};
    socmon_metric_schema bad = {.ncounters = 1, .counters = &noname, .nparams = 0,
        .param_names = NULL, .param_values = NULL};
    uint64_t d = 0;
    assert_int_equal(socmon_expr_eval("1", &bad, &d, 1, &v), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "counter 0"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_numbers),
        cmocka_unit_test(test_precedence),
        cmocka_unit_test(test_associativity),
        cmocka_unit_test(test_comparisons_and_logic),
        cmocka_unit_test(test_nan_rules),
        cmocka_unit_test(test_functions),
        cmocka_unit_test(test_names_and_params),
        cmocka_unit_test(test_unknown_name_is_enoent),
        cmocka_unit_test(test_syntax_errors),
        cmocka_unit_test(test_function_errors),
        cmocka_unit_test(test_limits),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
