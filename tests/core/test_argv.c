/* Command-line values by table (core/argv.h): the duration syntax, each kind of action with its
 * range and message, and the empty-item check of comma lists. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "core/argv.h"

static void test_durations(void **state)
{
    (void)state;
    uint64_t ns = 0;
    assert_int_equal(smn_parse_duration("200us", &ns), 0);
    assert_int_equal(ns, 200000);
    assert_int_equal(smn_parse_duration("1.5ms", &ns), 0);
    assert_int_equal(ns, 1500000);
    assert_int_equal(smn_parse_duration("2s", &ns), 0);
    assert_int_equal(ns, 2000000000);
    assert_int_equal(smn_parse_duration("100ns", &ns), 0);
    assert_int_equal(ns, 100);
    assert_int_equal(smn_parse_duration("7", &ns), 0);   /* a bare number is ms, as perf -I */
    assert_int_equal(ns, 7000000);
    const char *bad[] = {"", " 1ms", "0", "-1ms", "1h", "0.1ns", "nan", "inf", "1e19s", "ms", NULL};
    for (const char **b = bad; *b; b++) {
        ns = 42;
        assert_int_equal(smn_parse_duration(*b, &ns), -1);
        assert_int_equal(ns, 42);   /* untouched */
    }
}

typedef struct opts {
    const char *name, *format;
    int flag, dur_set;
    unsigned small;
    uint64_t big, dur;
} opts;

#define F(f) .off = offsetof(opts, f), .size = sizeof(((opts *)0)->f)
static const smn_arg_action table[] = {
    {.val = 'n', .kind = SMN_ARG_STR, F(name)},
    {.val = 'f', .kind = SMN_ARG_FLAG, F(flag)},
    {.val = 'j', .kind = SMN_ARG_CONST, F(format), .value = "json"},
    {.val = 's', .kind = SMN_ARG_NUM, F(small), .base = 10, .lo = 1, .hi = 8, .what = "-s takes 1..8"},
    {.val = 'b', .kind = SMN_ARG_NUM, F(big), .base = 0, .lo = 1, .hi = UINT64_MAX, .what = "-b takes >= 1"},
    {.val = 'd', .kind = SMN_ARG_DURATION, F(dur), .lo = 1000, .hi = 1000000000, .what = "-d",
     .expect = "1us..1s", .set_off = offsetof(opts, dur_set)},
    {.val = 'f', .kind = SMN_ARG_CONST, F(format), .value = "flagged"},   /* a second action of 'f' */
};
#define N (sizeof table / sizeof table[0])

static void test_actions(void **state)
{
    (void)state;
    opts o = {0};
    char err[128] = "";
    assert_int_equal(smn_arg_apply(table, N, &o, 'n', "x", err, sizeof err), 1);
    assert_string_equal(o.name, "x");
    assert_int_equal(smn_arg_apply(table, N, &o, 'f', NULL, err, sizeof err), 1);
    assert_int_equal(o.flag, 1);
    assert_string_equal(o.format, "flagged");   /* every action of the value applies */
    assert_int_equal(smn_arg_apply(table, N, &o, 'j', NULL, err, sizeof err), 1);
    assert_string_equal(o.format, "json");
    assert_int_equal(smn_arg_apply(table, N, &o, 's', "8", err, sizeof err), 1);
    assert_int_equal(o.small, 8);
    assert_int_equal(smn_arg_apply(table, N, &o, 'b', "0x10", err, sizeof err), 1);
    assert_int_equal(o.big, 16);
    assert_int_equal(smn_arg_apply(table, N, &o, 'd', "2ms", err, sizeof err), 1);
    assert_int_equal(o.dur, 2000000);
    assert_int_equal(o.dur_set, 1);
    assert_int_equal(smn_arg_apply(table, N, &o, 'z', "x", err, sizeof err), 0);   /* no action */

    assert_int_equal(smn_arg_apply(table, N, &o, 's', "9", err, sizeof err), -1);
    assert_string_equal(err, "-s takes 1..8, got '9'");
    assert_int_equal(o.small, 8);
    const char *nums[] = {"", "-1", "1x", "0x10", "99999999999999999999"};
    for (size_t i = 0; i < sizeof nums / sizeof nums[0]; i++)
        assert_int_equal(smn_arg_apply(table, N, &o, 's', nums[i], err, sizeof err), -1);
    assert_int_equal(smn_arg_apply(table, N, &o, 'd', "2s", err, sizeof err), -1);
    assert_string_equal(err, "bad -d '2s' (1us..1s)");
    assert_int_equal(o.dur, 2000000);
}

static void test_lists(void **state)
{
    (void)state;
    char err[128];
    assert_int_equal(smn_arg_list_check("a", err, sizeof err), 0);
    assert_int_equal(smn_arg_list_check("tile*.l2_*,tile1.ddr_*", err, sizeof err), 0);
    struct { const char *list, *want; } bad[] = {
        {"", "item 1 is empty (nothing given)"},
        {",a", "item 1 is empty (before the first comma)"},
        {"a,,b", "item 2 is empty (between two commas)"},
        {"a, ,b", "item 2 is empty (between two commas)"},
        {"a,", "item 2 is empty (after the last comma)"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(smn_arg_list_check(bad[i].list, err, sizeof err), -1);
        assert_string_equal(err, bad[i].want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_durations),
        cmocka_unit_test(test_actions),
        cmocka_unit_test(test_lists),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
