/* Text tables, CSV quoting and value formatting. */
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
    socmon_csv_field(fp, arg, ',');
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
    socmon_table_print(arg, fp, "> ");
}

static void test_table_alignment(void **state)
{
    const char *hdr[] = {"name", "value", "unit"};
    socmon_table *t;
    assert_int_equal(socmon_table_new(3, "lrl", hdr, &t), SOCMON_OK);
    const char *r1[] = {"tile0.l2_hits", "7", "events"};
    const char *r2[] = {"x", "123456", NULL};
    assert_int_equal(socmon_table_add(t, r1), SOCMON_OK);
    assert_int_equal(socmon_table_add(t, r2), SOCMON_OK);
    assert_int_equal(socmon_table_rows(t), 2);
    char *out = capture(table_fn, t);
    assert_string_equal(out, "> name            value  unit\n"
                             "> tile0.l2_hits       7  events\n"
                             "> x              123456  \n");
    free(out);
    socmon_table_free(t);
    assert_int_equal(socmon_table_new(0, "", NULL, &t), SOCMON_EINVAL);
    assert_int_equal(socmon_table_new(3, "l", NULL, &t), SOCMON_EINVAL);
}

static void check_fmt(double v, const char *want)
{
    char buf[48];
    socmon_format_value(buf, sizeof buf, v);
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_csv_quoting),
        cmocka_unit_test(test_table_alignment),
        cmocka_unit_test(test_format_value),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
