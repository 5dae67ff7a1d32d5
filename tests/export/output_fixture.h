/* A small schema for the output format tests: two tiles' L2 counters, a device-wide counter
 * with a long name (table alignment) and one whose name needs CSV quoting; metrics with a
 * percentage, an undefined per-instance result (NaN), a labelled value, one with its own
 * precision and one the schema cannot compute (skipped). Everything is rendered into a memory sink. */
#ifndef TESTS_EXPORT_OUTPUT_FIXTURE_H
#define TESTS_EXPORT_OUTPUT_FIXTURE_H

#include <string.h>
#include "export/output.h"

enum { T0_HITS, T0_MISS, T1_HITS, T1_MISS, LONG, ODD, NCTR };

static const socmon_counter fx_counters[NCTR] = {
    [T0_HITS] = {.name = "l2_hits", .instance = "tile0", .unit = "events", .width = 32},
    [T0_MISS] = {.name = "l2_misses", .instance = "tile0", .unit = "events", .width = 32},
    [T1_HITS] = {.name = "l2_hits", .instance = "tile1", .unit = "events", .width = 32},
    [T1_MISS] = {.name = "l2_misses", .instance = "tile1", .unit = "events", .width = 32},
    [LONG] = {.name = "a_counter_with_a_rather_long_name", .instance = "", .unit = "cycles", .width = 64},
    [ODD] = {.name = "odd", .instance = "tile1", .unit = "say \"hi\", twice", .width = 32},
};
static const char *const fx_names[NCTR] = {"tile0.l2_hits", "tile0.l2_misses", "tile1.l2_hits",
                                           "tile1.l2_misses", "a_counter_with_a_rather_long_name",
                                           "tile1.odd"};
static const smn_counter_list fx_list = {NCTR, fx_counters, fx_names, NULL, 0, NULL};
/* tile1 saw nothing: its hit rate is 0/0, undefined. */
static const uint64_t fx_values[NCTR] = {[T0_HITS] = 300, [T0_MISS] = 100, [LONG] = 123456789012ull, [ODD] = 5};

static const char fx_metric_file[] =
    "{\"metrics\": [\n"
    " {\"name\": \"hit_rate\", \"unit\": \"%\", \"per\": \"instance\",\n"
    "  \"expr\": \"100 * l2_hits / (l2_hits + l2_misses)\", \"desc\": \"L2 hits per access\"},\n"
    " {\"name\": \"hits\", \"unit\": \"events\", \"expr\": \"l2_hits\", \"desc\": \"all L2 hits\"},\n"
    " {\"name\": \"busier\", \"unit\": \"tile\", \"expr\": \"argmax(tile0.l2_hits, tile1.l2_hits)\",\n"
    "  \"desc\": \"the tile with more hits\", \"labels\": [\"tile0\", \"tile1\"]},\n"
    " {\"name\": \"seventh\", \"unit\": \"\", \"expr\": \"hits / 7\", \"desc\": \"a fraction\", \"precision\": 1},\n"
    " {\"name\": \"l3\", \"expr\": \"l3_misses\", \"desc\": \"needs a counter this schema lacks\"}\n"
    "]}\n";

typedef struct fx {
    socmon_metricset *ms;
    socmon_metrics *m;
    double mv[16];
    smn_sink *sink;
    smn_output *out;
} fx;

static inline void fx_setup(fx *f)
{
    memset(f, 0, sizeof *f);
    assert_int_equal(socmon_metricset_load_string(fx_metric_file, "fixture", &f->ms), SOCMON_OK);
    socmon_metric_schema sch = {.ncounters = NCTR, .counters = fx_counters, .nparams = 0, .param_names = NULL, .param_values = NULL};
    assert_int_equal(socmon_metrics_bind(f->ms, &sch, &f->m), SOCMON_OK);
    assert_true(socmon_metrics_nresults(f->m) <= 16);
    assert_int_equal(socmon_metrics_eval(f->m, fx_values, 1.0, f->mv), SOCMON_OK);
}

/* Opens format `name` on a fresh memory sink with the given options. */
static inline void fx_open_opts(fx *f, const char *name, const smn_output_opts *oo)
{
    assert_int_equal(smn_sink_memory(&f->sink), SOCMON_OK);
    assert_int_equal(smn_output_open(name, f->sink, oo, &f->out), SOCMON_OK);
}

/* Opens format `name` with thousands separators (the default). */
static inline void fx_open(fx *f, const char *name, char sep, int deltas)
{
    smn_output_opts oo = {.sep = sep, .deltas = deltas};
    fx_open_opts(f, name, &oo);
}

static inline const char *fx_text(const fx *f)
{
    return smn_sink_memory_data(f->sink, NULL);
}

static inline void fx_close(fx *f)
{
    smn_output_free(f->out);
    assert_int_equal(smn_sink_close(f->sink), SOCMON_OK);
    f->out = NULL;
    f->sink = NULL;
}

static inline void fx_teardown(fx *f)
{
    socmon_metrics_free(f->m);
    socmon_metricset_free(f->ms);
}

/* The totals of a run through the interface, as the CLI's stat does. */
static inline void fx_totals(fx *f)
{
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "fx", .workload = "w",
                           .elapsed_ns = 1500000};
    assert_int_equal(smn_output_begin(f->out, &run), SOCMON_OK);
    assert_int_equal(smn_output_counters(f->out, &fx_list, fx_values), SOCMON_OK);
    assert_int_equal(smn_output_metrics(f->out, f->ms, f->m, f->mv), SOCMON_OK);
    assert_int_equal(smn_output_hotspots(f->out, &fx_list, fx_values, "tile*", 2), SOCMON_OK);
    assert_int_equal(smn_output_end(f->out), SOCMON_OK);
}

/* Two intervals, the second marked missed and undefined. */
static inline void fx_timeline(fx *f, const size_t *shown, size_t nshown)
{
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .device = "dev",
                           .interval_ns = 1000, .ncounters = NCTR, .recording = 1, .samples = 3};
    smn_interval_cols cols = {f->m, shown, nshown, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f->out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f->out, &cols), SOCMON_OK);
    socmon_row r1 = {.t_ns = 5000, .since_ns = 1000, .dt_ns = 1000, .flags = 0, .missed = 0, .metrics = f->mv, .deltas = fx_values};
    socmon_row r2 = {.t_ns = 7000, .since_ns = 3000, .dt_ns = 2000, .flags = SOCMON_SAMPLE_MISSED | SOCMON_SAMPLE_UNDEF, .missed = 1, .metrics = f->mv, .deltas = fx_values};
    assert_int_equal(smn_output_row(f->out, &r1), SOCMON_OK);
    assert_int_equal(smn_output_row(f->out, &r2), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f->out), SOCMON_OK);
    assert_int_equal(smn_output_note(f->out, "a hint for people"), SOCMON_OK);
    assert_int_equal(smn_output_end(f->out), SOCMON_OK);
}

#endif
