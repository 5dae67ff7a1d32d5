/* Issue 28: stat -r's spread of a counter and of a metric derived from it are computed the same
 * way (the standard deviation of the mean over the runs, relative to the unrounded mean), so a
 * counter that counted 0, 0 and 1 in three runs shows +- 100 % like a metric of 2 x that count,
 * never the 0.00 % that dividing by the rounded count (0) gave. Runs go through the real
 * pipeline; the totals reach table, CSV and JSON as stat hands them over. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "export/sink.h"
#include "socmon/analysis.h"

static const socmon_counter counters[] = {
    {.name = "rare", .instance = "", .unit = "events", .width = 32},
    {.name = "busy", .instance = "", .unit = "events", .width = 32},
};
static const char *const names[] = {"rare", "busy"};
static const char metrics_json[] =
    "{\"metrics\": [{\"name\": \"rare_twice\", \"unit\": \"events\", \"expr\": \"2 * rare\"},"
    " {\"name\": \"busy_share\", \"unit\": \"%\", \"expr\": \"100 * busy / (busy + rare + 100)\"}]}";

/* Three runs of two samples each: "rare" counts 0, 0, 1; "busy" 100, 100, 100. */
static socmon_pipeline *three_runs(socmon_metricset **ms)
{
    assert_int_equal(socmon_metricset_load_string(metrics_json, "m.json", ms), SOCMON_OK);
    socmon_source_info info = {.kind = "test", .target = "test", .ncounters = 2, .counters = counters,
                               .names = names};
    static socmon_source_info keep;
    keep = info;
    socmon_pipeline_opts po = {.size = sizeof po, .ms = *ms};
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(&keep, &po, &p), SOCMON_OK);
    for (unsigned run = 0; run < 3; run++) {
        assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
        uint64_t v0[2] = {5, 1000}, v1[2] = {5 + (run == 2), 1100};
        socmon_sample s0 = {.t_ns = 0, .n = 2, .v = v0}, s1 = {.t_ns = 1000000, .n = 2, .v = v1};
        assert_int_equal(socmon_pipeline_sample(p, 0, &s0, 0), SOCMON_OK);
        assert_int_equal(socmon_pipeline_sample(p, 1, &s1, 0), SOCMON_OK);
        assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    }
    assert_int_equal(socmon_pipeline_finish(p), SOCMON_OK);
    return p;
}

static char *render(const char *format, socmon_pipeline *p, const socmon_metricset *ms)
{
    const socmon_totals *t = socmon_pipeline_totals(p);
    assert_int_equal(t->runs, 3);
    assert_non_null(t->counter_stddev);
    assert_non_null(t->counter_mean);
    smn_sink *sink = NULL;
    smn_output *out = NULL;
    assert_int_equal(smn_sink_memory(&sink), SOCMON_OK);
    smn_output_opts oo = {.sep = ','};
    assert_int_equal(smn_output_open(format, sink, &oo, &out), SOCMON_OK);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "test", .elapsed_ns = t->elapsed_ns,
                           .runs = t->runs, .counter_stddev = t->counter_stddev, .metric_stddev = t->metric_stddev,
                           .counter_mean = t->counter_mean};
    smn_counter_list list = {2, counters, names, NULL, 0, NULL};
    assert_int_equal(smn_output_begin(out, &run), SOCMON_OK);
    assert_int_equal(smn_output_counters(out, &list, t->values), SOCMON_OK);
    assert_int_equal(smn_output_metrics(out, ms, socmon_pipeline_metrics(p), t->metrics), SOCMON_OK);
    assert_int_equal(smn_output_end(out), SOCMON_OK);
    char *text = strdup(smn_sink_memory_data(sink, NULL));
    smn_output_free(out);
    smn_sink_close(sink);
    return text;
}

static void test_pipeline_spreads_agree(void **state)
{
    (void)state;
    socmon_metricset *ms = NULL;
    socmon_pipeline *p = three_runs(&ms);
    const socmon_totals *t = socmon_pipeline_totals(p);
    /* the rounded count is 0, its mean 1/3 with the mean's sd 1/3 */
    assert_int_equal(t->values[0], 0);
    assert_true(fabs(t->counter_mean[0] - 1.0 / 3) < 1e-12);
    assert_true(fabs(t->counter_stddev[0] - 1.0 / 3) < 1e-12);
    /* a metric linear in the counter has exactly its relative spread */
    assert_true(fabs(t->metrics[0] - 2.0 / 3) < 1e-12);
    assert_true(fabs(t->metric_stddev[0] / t->metrics[0] - t->counter_stddev[0] / t->counter_mean[0]) < 1e-12);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

static void test_formats_show_the_same_spread(void **state)
{
    (void)state;
    socmon_metricset *ms = NULL;
    socmon_pipeline *p = three_runs(&ms);
    char *tab = render("table", p, ms);
    const char *line = strstr(tab, "\n  rare ");
    const char *eol = line ? strchr(line + 1, '\n') : NULL;
    const char *pct = line ? strstr(line, "( +- 100.00% )") : NULL;
    if (!pct || !eol || pct > eol)
        fail_msg("table: the counter's spread is not 100 %%:\n%s", tab);
    if (!strstr(tab, "rare_twice") || !strstr(strstr(tab, "rare_twice"), "( +- 100.00% )"))
        fail_msg("table: the metric's spread is not 100 %%:\n%s", tab);
    free(tab);

    char *csv = render("csv", p, ms);
    if (!strstr(csv, "counter,rare,,0,events,100.00%"))
        fail_msg("csv: the counter's spread is not 100 %%:\n%s", csv);
    if (!strstr(csv, "rare_twice") || !strstr(strstr(csv, "rare_twice"), "100.00%"))
        fail_msg("csv: the metric's spread is not 100 %%:\n%s", csv);
    free(csv);

    char *js = render("json", p, ms);
    json_error_t err;
    json_t *doc = json_loads(js, 0, &err);
    if (!doc)
        fail_msg("not JSON: %s", js);
    json_t *c = json_array_get(json_object_get(doc, "counters"), 0);
    json_t *m = json_array_get(json_object_get(doc, "metrics"), 0);
    assert_string_equal(json_string_value(json_object_get(c, "name")), "rare");
    double cp = json_real_value(json_object_get(c, "stddev_pct"));
    double mp = json_real_value(json_object_get(m, "stddev_pct"));
    if (!(fabs(cp - 100) < 1e-9 && fabs(mp - 100) < 1e-9))
        fail_msg("json: counter %g %%, metric %g %%:\n%s", cp, mp, js);
    json_decref(doc);
    free(js);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_spreads_agree),
        cmocka_unit_test(test_formats_show_the_same_spread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
