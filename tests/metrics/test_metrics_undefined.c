/* Issue 28: an average over no events is undefined, never 0. A zero denominator gives NaN in
 * the engine; "undefined_below" makes a metric NaN while its inputs are below the minimums the
 * metric file states (an APM interval with a transaction's address and none of its latency). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "socmon/metrics.h"

enum { TXNS, LAT, NCTR };
static const socmon_counter counters[NCTR] = {
    [TXNS] = {.name = "rd_txns", .instance = "slot0", .width = 32},
    [LAT] = {.name = "rd_lat", .instance = "slot0", .width = 32},
};
static const socmon_metric_schema schema = {.ncounters = NCTR, .counters = counters};

static const char *file =
    "{\"metrics\": ["
    " {\"name\": \"plain\", \"per\": \"instance\", \"expr\": \"rd_lat / rd_txns\"},"
    " {\"name\": \"guarded\", \"per\": \"instance\", \"expr\": \"rd_lat / rd_txns\","
    "  \"undefined_below\": {\"rd_txns\": 1, \"rd_lat\": 1}},"
    " {\"name\": \"derived\", \"per\": \"instance\", \"expr\": \"guarded * 5\"},"
    " {\"name\": \"two_txns\", \"per\": \"instance\", \"expr\": \"rd_lat / rd_txns\","
    "  \"undefined_below\": {\"rd_txns\": 2}}]}";

/* The four results for one interval's deltas. */
static void eval(uint64_t txns, uint64_t lat, double out[4])
{
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    if (socmon_metricset_load_string(file, "m.json", &ms))
        fail_msg("load: %s", socmon_errmsg());
    if (socmon_metrics_bind(ms, &schema, &m))
        fail_msg("bind: %s", socmon_errmsg());
    assert_int_equal(socmon_metrics_nresults(m), 4);
    uint64_t d[NCTR] = {[TXNS] = txns, [LAT] = lat};
    assert_int_equal(socmon_metrics_eval(m, d, 1e-4, out), SOCMON_OK);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
}

static void test_zero_denominator_is_undefined(void **state)
{
    (void)state;
    double v[4];
    eval(0, 0, v);
    for (int i = 0; i < 4; i++)
        assert_true(isnan(v[i]));
    eval(0, 18000, v);   /* latency of a transaction counted in an earlier interval */
    for (int i = 0; i < 4; i++)
        assert_true(isnan(v[i]));
}

static void test_below_minimum_is_undefined(void **state)
{
    (void)state;
    double v[4];
    eval(1, 0, v);       /* one address, no completion: not a 0-cycle average */
    assert_true(v[0] == 0.0);   /* what the plain ratio says, and why the field exists */
    assert_true(isnan(v[1]));
    assert_true(isnan(v[2]));   /* a metric built on it is undefined too */
    assert_true(isnan(v[3]));
    eval(1, 50, v);
    assert_true(v[1] == 50.0 && v[2] == 250.0);
    assert_true(isnan(v[3]));   /* below its own minimum of 2 transactions */
    eval(2, 100, v);
    assert_true(v[0] == 50.0 && v[1] == 50.0 && v[3] == 50.0);
}

static void test_def_keeps_the_files_expr(void **state)
{
    (void)state;
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_string(file, "m.json", &ms), SOCMON_OK);
    assert_string_equal(socmon_metricset_def(ms, 1)->expr, "rd_lat / rd_txns");
    socmon_metricset_free(ms);
}

static void expect_error(const char *json, const char *piece)
{
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_string(json, "m.json", &ms), SOCMON_EPARSE);
    assert_null(ms);
    if (!strstr(socmon_errmsg(), piece))
        fail_msg("message '%s' lacks '%s'", socmon_errmsg(), piece);
    if (!strstr(socmon_errmsg(), "metric 'x'"))
        fail_msg("message '%s' does not name the metric", socmon_errmsg());
}

static void test_bad_field(void **state)
{
    (void)state;
    expect_error("{\"metrics\": [{\"name\": \"x\", \"expr\": \"a/b\", \"undefined_below\": 1}]}",
                 "\"undefined_below\" must be a non-empty object");
    expect_error("{\"metrics\": [{\"name\": \"x\", \"expr\": \"a/b\", \"undefined_below\": {}}]}",
                 "non-empty object");
    expect_error("{\"metrics\": [{\"name\": \"x\", \"expr\": \"a/b\", \"undefined_below\": {\"b\": \"1\"}}]}",
                 "the minimum of 'b' must be a finite number");
    expect_error("{\"metrics\": [{\"name\": \"x\", \"expr\": \"a/b\", \"undefined_below\": {\"b +\": 1}}]}",
                 "with undefined_below");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_zero_denominator_is_undefined),
        cmocka_unit_test(test_below_minimum_is_undefined),
        cmocka_unit_test(test_def_keeps_the_files_expr),
        cmocka_unit_test(test_bad_field),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
