/* Text tables, CSV quoting and value formatting: grouped counts, fixed decimals, the unit rule. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/table.h"

/* Runs fn into a temporary file and returns what it wrote. */
static char *capture(void (*fn)(FILE *, void *), void *arg)
{
    FILE *fp = tmpfile();
    assert_non_null(fp);
    fn(fp, arg);
    long n = ftell(fp);
    rewind(fp);
    char *buf = calloc((size_t)n + 1, 1);
    assert_int_equal(fread(buf, 1, (size_t)n, fp), (size_t)n);
    fclose(fp);
    return buf;
}

static void csv_fn(FILE *fp, void *arg)
{
    smn_csv_field(fp, arg, ',');
}

static void check_csv(const char *in, const char *want)
{
    char *got = capture(csv_fn, (void *)in);
    assert_string_equal(got, want);
    free(got);
}

static void test_csv_quoting(void **state)
{
    check_csv("plain", "plain");
    check_csv("", "");
    check_csv("a,b", "\"a,b\"");
    check_csv("say \"hi\"", "\"say \"\"hi\"\"\"");
    check_csv("two\nlines", "\"two\nlines\"");
    check_csv(" padded ", "\" padded \"");
    check_csv("semi;colon", "semi;colon"); /* only the active separator forces quotes */
}

static void table_fn(FILE *fp, void *arg)
{
    smn_table_print(arg, fp, "> ");
}

static void test_table_alignment(void **state)
{
    const char *hdr[] = {"name", "value", "unit"};
    smn_table *t;
    assert_int_equal(smn_table_new(3, "lrl", hdr, &t), SOCMON_OK);
    const char *r1[] = {"tile0.l2_hits", "7", "events"};
    const char *r2[] = {"x", "123456", NULL};
    assert_int_equal(smn_table_add(t, r1), SOCMON_OK);
    assert_int_equal(smn_table_add(t, r2), SOCMON_OK);
    assert_int_equal(smn_table_rows(t), 2);
    char *out = capture(table_fn, t);
    assert_string_equal(out, "> name            value  unit\n"
                             "> tile0.l2_hits       7  events\n"
                             "> x              123456  \n");
    free(out);
    smn_table_free(t);
    assert_int_equal(smn_table_new(0, "", NULL, &t), SOCMON_EINVAL);
    assert_int_equal(smn_table_new(3, "l", NULL, &t), SOCMON_EINVAL);
}

static void check_fmt(double v, const char *want)
{
    char buf[48];
    smn_format_value(buf, sizeof buf, v);
    assert_string_equal(buf, want);
}

static void test_format_value(void **state)
{
    check_fmt(NAN, "-");
    check_fmt(INFINITY, "inf");
    check_fmt(-INFINITY, "-inf");
    check_fmt(42, "42");
    check_fmt(350.0000000001, "350");
    check_fmt(349.99, "349.99");
    check_fmt(3.14159, "3.1416");
    check_fmt(12.5, "12.500");
    check_fmt(1234.56, "1234.6");
    check_fmt(2.5e7 + 0.5, "2.5e+07");
    check_fmt(0.00012, "0.00012");
    check_fmt(-7, "-7");
}

static void check_count(uint64_t v, int group, const char *want)
{
    char buf[32];
    smn_format_count(buf, sizeof buf, v, group);
    assert_string_equal(buf, want);
}

static void test_format_count(void **state)
{
    check_count(0, 1, "0");
    check_count(999, 1, "999");
    check_count(1000, 1, "1,000");
    check_count(1234567, 1, "1,234,567");
    check_count(123456, 1, "123,456");
    check_count(UINT64_MAX, 1, "18,446,744,073,709,551,615");
    check_count(1234567, 0, "1234567");
    /* A buffer too small for the commas keeps the plain number rather than a cut one. */
    char small[9];
    smn_format_count(small, sizeof small, 1234567, 1);
    assert_string_equal(small, "1234567");
}

static void check_fixed(double v, int decimals, int group, const char *want)
{
    char buf[48];
    smn_format_fixed(buf, sizeof buf, v, decimals, group);
    assert_string_equal(buf, want);
}

static void test_format_fixed(void **state)
{
    check_fixed(75, 2, 1, "75.00");
    check_fixed(1400, 2, 1, "1,400.00");
    check_fixed(1400, 2, 0, "1400.00");
    check_fixed(-1234567.5, 1, 1, "-1,234,567.5");
    check_fixed(16384, 0, 1, "16,384");
    check_fixed(0.2341, 3, 1, "0.234");
    check_fixed(-0.0001, 2, 1, "0.00"); /* no "-0.00" */
    check_fixed(NAN, 2, 1, "-");
    check_fixed(INFINITY, 2, 1, "inf");
    check_fixed(-INFINITY, 2, 1, "-inf");
    check_fixed(2.5e18, 2, 1, "2.5e+18");
    check_fixed(1.23456, 12, 0, "1.234560000"); /* at most 9 decimals */
    check_fixed(1.5, -3, 0, "2");
}

static void test_unit_decimals(void **state)
{
    assert_int_equal(smn_unit_decimals("%"), 2);
    assert_int_equal(smn_unit_decimals("events"), 0);
    assert_int_equal(smn_unit_decimals("cycles"), 0);
    assert_int_equal(smn_unit_decimals("packets"), 0);
    assert_int_equal(smn_unit_decimals("MB/s"), 2);
    assert_int_equal(smn_unit_decimals("GB/s"), 2);
    assert_int_equal(smn_unit_decimals("accesses/ms"), 2);
    assert_int_equal(smn_unit_decimals("ns"), 1);
    assert_int_equal(smn_unit_decimals("ratio"), 3);
    assert_int_equal(smn_unit_decimals("inst/cycle"), 3);
    assert_int_equal(smn_unit_decimals(""), 3);
    assert_int_equal(smn_unit_decimals(NULL), 3);
}

static void test_time_unit(void **state)
{
    assert_int_equal(smn_time_unit_ns(999), 1);
    assert_int_equal(smn_time_unit_ns(1000), 1000);
    assert_int_equal(smn_time_unit_ns(200000), 1000);
    assert_int_equal(smn_time_unit_ns(50000000), 1000000);
    assert_int_equal(smn_time_unit_ns(2000000000), 1000000000);
    assert_string_equal(smn_time_unit_name(1000000), "ms");
    assert_string_equal(smn_time_unit_name(1), "ns");
    char buf[32];
    /* A 50 ms timeline past 1 s stays in ms. */
    smn_format_time(buf, sizeof buf, 1050000000, 1000000, 1);
    assert_string_equal(buf, "1,050.000");
    smn_format_time(buf, sizeof buf, 1050000000, 1000000, 0);
    assert_string_equal(buf, "1050.000");
    smn_format_time(buf, sizeof buf, 250, 1, 1);
    assert_string_equal(buf, "250");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_table_alignment),
        cmocka_unit_test(test_format_value),
        cmocka_unit_test(test_format_count),
        cmocka_unit_test(test_format_fixed),
        cmocka_unit_test(test_unit_decimals),
        cmocka_unit_test(test_time_unit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
