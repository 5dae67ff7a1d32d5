/* Issue 28: values carry what the pipeline knows about them (socmon_row.value_flags): a
 * multiplexed perf count is SCALED with the share of time it counted, a short interval SHORT, the
 * row after a gap LOST with the samples lost, a metric without a value UNDEFINED; and the formats
 * show them: a word in the flags field of CSV and JSON (JSON also "running_pct" and "lost"), a
 * word in the table's flags column with one footnote per word used. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "export/sink.h"
#include "socmon/analysis.h"

/* "ev" with its perf time counters, and an exact counter "plain". */
static const socmon_counter counters[] = {
    {.name = "ev", .instance = "", .unit = "events", .width = 64},
    {.name = "ev--enabled", .instance = "", .unit = "ns", .width = 64},
    {.name = "ev--running", .instance = "", .unit = "ns", .width = 64},
    {.name = "plain", .instance = "", .unit = "events", .width = 32},
};
static const char *const names[] = {"ev", "ev--enabled", "ev--running", "plain"};
#define N 4
static const char metrics_json[] =
    "{\"metrics\": [{\"name\": \"per_plain\", \"unit\": \"\", \"expr\": \"ev / plain\"}]}";

typedef struct seen {
    socmon_row rows[16];   /* their pointers are re-pointed at the copies below */
    uint64_t d[16][N];
    double running[16][N], mv[16];
    size_t nrows;
    socmon_totals t;
} seen;

static socmon_status c_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    (void)self, (void)a;
    want->rows = 1;
    return SOCMON_OK;
}

static socmon_status c_row(void *self, const socmon_row *r)
{
    seen *s = self;
    assert_true(s->nrows < 16);
    size_t k = s->nrows++;
    s->rows[k] = *r;
    memcpy(s->d[k], r->deltas, sizeof s->d[k]);
    s->rows[k].deltas = s->d[k];
    if (r->counter_running) {
        memcpy(s->running[k], r->counter_running, sizeof s->running[k]);
        s->rows[k].counter_running = s->running[k];
    }
    s->mv[k] = r->metrics ? r->metrics[0] : NAN;
    s->rows[k].metrics = &s->mv[k];
    return SOCMON_OK;
}

static socmon_status c_end(void *self, const socmon_totals *t, const char *reason)
{
    (void)reason;
    ((seen *)self)->t = *t;
    return SOCMON_OK;
}

static const socmon_consumer_ops ops = {.size = sizeof ops, .begin = c_begin, .row = c_row, .end = c_end};

/* running: per sample, ns of the 1000 enabled that ev counted; plain: its count per sample */
static void push(socmon_pipeline *p, uint64_t seq, const uint64_t v[N], unsigned flags)
{
    socmon_sample s = {.t_ns = 1000000 * (seq + 1), .n = N, .v = (uint64_t *)v, .flags = flags};
    assert_int_equal(socmon_pipeline_sample(p, seq, &s, 0), SOCMON_OK);
}

static void run(seen *s, socmon_metricset **ms, socmon_pipeline **pp)
{
    assert_int_equal(socmon_metricset_load_string(metrics_json, "m.json", ms), SOCMON_OK);
    static socmon_source_info info;
    info = (socmon_source_info){.kind = "test", .target = "test", .ncounters = N, .counters = counters,
                                .names = names};
    socmon_pipeline_opts po = {.size = sizeof po, .ms = *ms};
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(&info, &po, &p), SOCMON_OK);
    socmon_consumer c = {.ops = &ops, .self = s};
    assert_int_equal(socmon_pipeline_add(p, &c), SOCMON_OK);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    /* row 0: ev ran the whole time; row 1: half of it (scaled 50 %); samples 4..6 are lost;
     * seq 7 is the new baseline, seq 8's row is the first after the gap; seq 9 is short */
    static const uint64_t v[][N] = {
        {0, 0, 0, 0}, {100, 1000, 1000, 10}, {150, 2000, 1500, 20},
        {250, 3000, 2500, 30},                 /* seq 3 */
        {350, 7000, 6500, 70},                 /* seq 7: after the gap, the new baseline */
        {450, 8000, 7500, 70},                 /* seq 8: plain did not move: per_plain undefined */
        {460, 8500, 8000, 75},                 /* seq 9: short */
    };
    push(p, 0, v[0], 0);
    push(p, 1, v[1], 0);
    push(p, 2, v[2], 0);
    push(p, 3, v[3], 0);
    push(p, 7, v[4], 0);   /* seq jumps: samples 4..6 lost */
    push(p, 8, v[5], 0);
    push(p, 9, v[6], SOCMON_SAMPLE_SHORT);
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    *pp = p;
}

static void test_pipeline_flags(void **state)
{
    (void)state;
    seen s = {0};
    socmon_metricset *ms;
    socmon_pipeline *p;
    run(&s, &ms, &p);
    assert_int_equal(s.nrows, 5);
    /* row 0 (seq 1): ev counted throughout: exact, not scaled */
    assert_int_equal(s.rows[0].value_flags, 0);
    assert_true(s.rows[0].min_running == 100);
    assert_non_null(s.rows[0].counter_running);
    /* row 1 (seq 2): ev counted 500 of 1000 ns */
    assert_int_equal(s.rows[1].value_flags, SOCMON_VALUE_SCALED);
    assert_true(fabs(s.rows[1].min_running - 50) < 1e-9);
    assert_true(fabs(s.rows[1].counter_running[0] - 50) < 1e-9);
    assert_int_equal(s.rows[1].deltas[0], 100);   /* 50 counted, scaled by 2 */
    assert_int_equal(s.rows[2].value_flags, 0);
    /* seq 7 is only the baseline after the gap: the first row after it (seq 8) is LOST 3, and
     * plain did not move there, so per_plain is undefined */
    assert_int_equal(s.rows[3].seq, 8);
    assert_int_equal(s.rows[3].value_flags, SOCMON_VALUE_LOST | SOCMON_VALUE_UNDEFINED);
    assert_int_equal(s.rows[3].lost, 3);
    assert_true(isnan(s.rows[3].metrics[0]));
    /* seq 9: short and ran all the time */
    assert_int_equal(s.rows[4].value_flags, SOCMON_VALUE_SHORT);
    assert_int_equal(s.rows[4].lost, 0);
    /* the run: scaled (ev ran 4000 of the 4500 ns its intervals had it enabled), lost 3 */
    assert_int_equal(s.t.value_flags, SOCMON_VALUE_SCALED | SOCMON_VALUE_LOST);
    assert_true(fabs(s.t.min_running - 100.0 * 4000 / 4500) < 1e-9);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* The rows through a format, as the CLI's feed hands them over. */
static char *render(const char *format, const seen *s, socmon_pipeline *p, const socmon_metricset *ms)
{
    smn_sink *sink = NULL;
    smn_output *out = NULL;
    assert_int_equal(smn_sink_memory(&sink), SOCMON_OK);
    smn_output_opts oo = {.sep = ','};
    assert_int_equal(smn_output_open(format, sink, &oo, &out), SOCMON_OK);
    smn_run_info ri = {.doc = SOCMON_DOC_INTERVALS, .title = "intervals", .target = "test", .interval_ns = 1000000,
                          .ncounters = N};
    smn_counter_list list = {N, counters, names, NULL, 0, NULL};
    (void)ms;
    smn_interval_cols cols = {.counters = &list, .metrics = socmon_pipeline_metrics(p)};
    assert_int_equal(smn_output_begin(out, &ri), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(out, &cols), SOCMON_OK);
    for (size_t k = 0; k < s->nrows; k++) {
        assert_int_equal(smn_output_row(out, &s->rows[k]), SOCMON_OK);
    }
    assert_int_equal(smn_output_end_intervals(out), SOCMON_OK);
    assert_int_equal(smn_output_end(out), SOCMON_OK);
    char *text = strdup(smn_sink_memory_data(sink, NULL));
    smn_output_free(out);
    smn_sink_close(sink);
    return text;
}

static int count(const char *text, const char *piece)
{
    int n = 0;
    for (const char *at = text; (at = strstr(at, piece)) != NULL; at++)
        n++;
    return n;
}

static void test_formats_show_flags(void **state)
{
    (void)state;
    seen s = {0};
    socmon_metricset *ms;
    socmon_pipeline *p;
    run(&s, &ms, &p);

    char *tab = render("table", &s, p, ms);
    if (!strstr(tab, "scaled=50.00%") || !strstr(tab, "lost=3") || !strstr(tab, "short"))
        fail_msg("table lacks a flag word:\n%s", tab);
    /* one footnote per word used, however many rows use it */
    if (count(tab, "scaled=P%:") != 1 || count(tab, "lost=N:") != 1 || count(tab, "short:") != 1 ||
        count(tab, "missed=N:") != 0)
        fail_msg("table footnotes wrong:\n%s", tab);
    free(tab);

    char *csv = render("csv", &s, p, ms);
    if (!strstr(csv, ",scaled=50.00%,") || !strstr(csv, ",lost=3,") || !strstr(csv, ",short,"))
        fail_msg("CSV lacks a flag:\n%s", csv);
    free(csv);

    char *js = render("json", &s, p, ms);
    json_error_t err;
    json_t *doc = json_loads(js, 0, &err);
    if (!doc)
        fail_msg("not JSON: %s", js);
    json_t *rows = json_object_get(doc, "intervals");
    assert_int_equal(json_array_size(rows), 5);
    json_t *r1 = json_array_get(rows, 1), *r3 = json_array_get(rows, 3), *r0 = json_array_get(rows, 0);
    assert_string_equal(json_string_value(json_object_get(r1, "flags")), "scaled=50.00%");
    assert_true(fabs(json_real_value(json_object_get(r1, "running_pct")) - 50) < 1e-9);
    assert_string_equal(json_string_value(json_object_get(r3, "flags")), "lost=3");
    assert_int_equal(json_integer_value(json_object_get(r3, "lost")), 3);
    assert_true(json_is_null(json_object_get(json_object_get(r3, "metrics"), "per_plain")));
    /* a row without flags reads as before: no new members */
    assert_null(json_object_get(r0, "running_pct"));
    assert_null(json_object_get(r0, "lost"));
    json_decref(doc);
    free(js);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_pipeline_flags),
        cmocka_unit_test(test_formats_show_flags),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
