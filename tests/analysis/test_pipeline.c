/* The analysis pipeline (socmon/analysis.h) against figures worked out by hand: wrap-safe deltas,
 * gaps (announced, or a sequence number that jumps), rows merged by count and by time (a missed
 * interval starting its own row), every Nth row, perf scaling, metrics over rows and totals, the
 * spread of repeated runs, an optional consumer's failure, and a source of the user's own. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/analysis.h"

/* Three counters: an 8-bit one (wraps at 256), a 32-bit one, and a perf event "ev" with its two
 * time counters (ev--enabled, ev--running). Metrics: the 8-bit one's rate, and ev itself. */
static const socmon_counter counters[] = {
    {.name = "small", .instance = "", .desc = "", .unit = "events", .width = 8},
    {.name = "big", .instance = "", .desc = "", .unit = "events", .width = 32},
    {.name = "ev", .instance = "", .desc = "", .unit = "events", .width = 64},
    {.name = "ev--enabled", .instance = "", .desc = "", .unit = "ns", .width = 64},
    {.name = "ev--running", .instance = "", .desc = "", .unit = "ns", .width = 64},
};
static const char *const names[] = {"small", "big", "ev", "ev--enabled", "ev--running"};
#define N 5
static const char metrics_json[] =
    "{\"metrics\": [{\"name\": \"small_rate\", \"unit\": \"1/s\", \"expr\": \"small / interval_s\"},"
    " {\"name\": \"ev_count\", \"unit\": \"events\", \"expr\": \"ev\"}]}";

static socmon_source_info info(void)
{
    return (socmon_source_info){.kind = "test", .target = "test", .ncounters = N, .counters = counters,
                                .names = names};
}

/* A consumer that keeps what it is given. */
typedef struct seen {
    socmon_row_policy want;
    socmon_row rows[64];
    uint64_t raw[64][N], deltas[64][N];
    double metrics[64][2];
    size_t nrows, nsamples, ngaps, nbegin, nend, nfinish;
    socmon_gap gaps[8];
    socmon_totals t;
    uint64_t tvalues[N];
    double tmetrics[2];
    int fail_rows;            /* return an error from the row callback */
} seen;

static socmon_status c_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    seen *s = self;
    assert_non_null(a->src);
    s->nbegin++;
    *want = s->want;
    return SOCMON_OK;
}

static socmon_status c_sample(void *self, uint64_t seq, const socmon_sample *smp)
{
    seen *s = self;
    (void)seq, (void)smp;
    s->nsamples++;
    return SOCMON_OK;
}

static socmon_status c_row(void *self, const socmon_row *r)
{
    seen *s = self;
    if (s->fail_rows)
        return SOCMON_EIO;
    assert_true(s->nrows < 64);
    s->rows[s->nrows] = *r;
    memcpy(s->raw[s->nrows], r->raw, sizeof s->raw[0]);
    memcpy(s->deltas[s->nrows], r->deltas, sizeof s->deltas[0]);
    if (r->metrics)
        memcpy(s->metrics[s->nrows], r->metrics, sizeof s->metrics[0]);
    s->nrows++;
    return SOCMON_OK;
}

static socmon_status c_gap(void *self, const socmon_gap *g)
{
    seen *s = self;
    s->gaps[s->ngaps++] = *g;
    return SOCMON_OK;
}

static socmon_status keep_totals(seen *s, const socmon_totals *t)
{
    s->t = *t;
    memcpy(s->tvalues, t->values, sizeof s->tvalues);
    if (t->metrics)
        memcpy(s->tmetrics, t->metrics, sizeof s->tmetrics);
    return SOCMON_OK;
}

static socmon_status c_end(void *self, const socmon_totals *t, const char *reason)
{
    seen *s = self;
    (void)reason;
    s->nend++;
    return keep_totals(s, t);
}

static socmon_status c_finish(void *self, const socmon_totals *t)
{
    seen *s = self;
    s->nfinish++;
    return keep_totals(s, t);
}

static const socmon_consumer_ops seen_ops = {.size = sizeof seen_ops, .begin = c_begin, .sample = c_sample,
                                             .row = c_row, .gap = c_gap, .end = c_end, .finish = c_finish};

static socmon_pipeline *pipeline(seen *s, socmon_metricset **ms, int with_metrics)
{
    static socmon_source_info in;
    in = info();
    *ms = NULL;
    if (with_metrics)
        assert_int_equal(socmon_metricset_load_string(metrics_json, "test.json", ms), SOCMON_OK);
    socmon_pipeline_opts po = {.size = sizeof po, .ms = *ms};
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(&in, &po, &p), SOCMON_OK);
    socmon_consumer c = {.ops = &seen_ops, .self = s};
    assert_int_equal(socmon_pipeline_add(p, &c), SOCMON_OK);
    return p;
}

static socmon_status push(socmon_pipeline *p, uint64_t seq, uint64_t t, uint64_t small, uint64_t big, unsigned flags)
{
    /* ev counts 100 per sample while running half the time */
    uint64_t v[N] = {small, big, 100 * seq, 1000 * seq, 500 * seq};
    socmon_sample smp = {.t_ns = t, .n = N, .v = v, .flags = flags, .missed = flags & SOCMON_SAMPLE_MISSED ? 2 : 0};
    return socmon_pipeline_sample(p, seq, &smp, 0);
}

/* An 8-bit counter going 250 -> 4 moved 10 (one wrap); totals sum the intervals. */
static void test_wrap_safe_deltas_and_totals(void **state)
{
    (void)state;
    seen s = {.want = {.rows = 1}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 1);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    assert_int_equal(push(p, 0, 1000, 250, 10, 0), SOCMON_OK);
    assert_int_equal(push(p, 1, 2000, 4, 20, 0), SOCMON_OK);
    assert_int_equal(push(p, 2, 4000, 14, 4000000000u, 0), SOCMON_OK);
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    assert_int_equal(s.nrows, 2);
    assert_int_equal(s.raw[0][0], 10);
    assert_int_equal(s.raw[1][0], 10);
    assert_int_equal(s.raw[1][1], 4000000000u - 20);
    assert_int_equal(s.rows[1].dt_ns, 2000);
    assert_int_equal(s.rows[1].since_ns, 3000);
    /* the rate over each row's own length */
    assert_true(fabs(s.metrics[0][0] - 10 / 1e-6) < 1e-3);
    assert_true(fabs(s.metrics[1][0] - 10 / 2e-6) < 1e-3);
    assert_int_equal(s.t.intervals, 2);
    assert_int_equal(s.t.elapsed_ns, 3000);
    assert_int_equal(s.t.raw[0], 20);
    assert_int_equal(s.t.samples, 3);
    assert_true(fabs(s.tmetrics[0] - 20 / 3e-6) < 1e-3);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* ev ran half of its enabled time: the estimate doubles it, the time counters stay as they are;
 * the metric sees the estimate. */
static void test_scaling(void **state)
{
    (void)state;
    seen s = {.want = {.rows = 1}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 1);
    assert_non_null(socmon_pipeline_scaling(p));
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    for (uint64_t i = 0; i < 4; i++)
        assert_int_equal(push(p, i, 1000 * (i + 1), i, i, 0), SOCMON_OK);
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    assert_int_equal(s.raw[0][2], 100);
    assert_int_equal(s.deltas[0][2], 200);
    assert_true(s.metrics[0][1] == 200);
    assert_int_equal(s.t.raw[2], 300);
    assert_int_equal(s.tvalues[2], 600);
    assert_true(fabs(s.t.running[2] - 50) < 1e-9);
    assert_true(s.tmetrics[1] == 600);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* A gap, announced or not, is said to consumers and no delta spans it. */
static void test_gaps(void **state)
{
    (void)state;
    seen s = {.want = {.rows = 1}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 0);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    assert_int_equal(push(p, 0, 1000, 0, 0, 0), SOCMON_OK);
    assert_int_equal(push(p, 1, 2000, 1, 1, 0), SOCMON_OK);
    assert_int_equal(push(p, 5, 6000, 100, 100, 0), SOCMON_OK);    /* 2..4 never came */
    assert_int_equal(push(p, 6, 7000, 101, 101, 0), SOCMON_OK);
    socmon_gap g = {.first_seq = 7, .count = 3, .t0_ns = 7000, .t1_ns = 0};
    assert_int_equal(socmon_pipeline_gap(p, &g), SOCMON_OK);
    assert_int_equal(push(p, 10, 11000, 200, 200, 0), SOCMON_OK);
    assert_int_equal(push(p, 11, 12000, 202, 202, 0), SOCMON_OK);
    assert_int_equal(push(p, 11, 13000, 203, 203, 0), SOCMON_EINVAL);  /* back in sequence */
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    assert_int_equal(s.ngaps, 2);
    assert_int_equal(s.gaps[0].first_seq, 2);
    assert_int_equal(s.gaps[0].count, 3);
    assert_int_equal(s.gaps[0].t0_ns, 2000);
    assert_int_equal(s.gaps[0].t1_ns, 6000);
    assert_int_equal(s.t.lost, 6);
    assert_int_equal(s.t.intervals, 3);
    assert_int_equal(s.t.raw[0], 1 + 1 + 2);
    assert_int_equal(s.t.elapsed_ns, 3000);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* Merged by count (3 to a row): deltas summed, metrics over the merged time, a missed interval
 * starting its own row; every 2nd row shows every other interval unmerged. */
static void test_merge_by_count_and_every(void **state)
{
    (void)state;
    seen s = {.want = {.rows = 1, .merge = 3}}, e = {.want = {.rows = 1, .every = 2}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 1);
    socmon_consumer ce = {.ops = &seen_ops, .self = &e};
    assert_int_equal(socmon_pipeline_add(p, &ce), SOCMON_OK);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    for (uint64_t i = 0; i <= 8; i++)   /* 8 intervals, the 5th missed */
        assert_int_equal(push(p, i, 1000 * (i + 1), 2 * i, 0, i == 5 ? SOCMON_SAMPLE_MISSED : 0), SOCMON_OK);
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    /* rows: intervals 1-3, 4 (cut by the missed 5th), 5-7, 8 */
    assert_int_equal(s.nrows, 4);
    size_t want_n[] = {3, 1, 3, 1};
    for (size_t r = 0; r < 4; r++)
        assert_int_equal(s.rows[r].intervals, want_n[r]);
    assert_int_equal(s.raw[0][0], 6);
    assert_int_equal(s.rows[0].dt_ns, 3000);
    assert_true(fabs(s.metrics[0][0] - 6 / 3e-6) < 1e-3);
    assert_true(s.rows[2].flags & SOCMON_SAMPLE_MISSED);
    assert_int_equal(s.rows[2].missed, 2);
    assert_int_equal(s.rows[2].first_seq, 5);
    assert_int_equal(s.rows[3].index, 7);
    assert_int_equal(e.nrows, 4);
    assert_int_equal(e.rows[1].seq, 3);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

static uint64_t fake_now;
static uint64_t fake_clock(void *user)
{
    (void)user;
    return fake_now;
}

/* Merged by time: live samples by the wall clock, samples of the past by their own time. */
static void test_merge_by_time(void **state)
{
    (void)state;
    seen s = {.want = {.rows = 1, .merge_ns = 10000, .clock = fake_clock}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 0);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    uint64_t v[N] = {0};
    socmon_sample smp = {.n = N, .v = v};
    /* the past: 1 us samples, rows of 10 us of their own time whatever the clock */
    for (uint64_t i = 0; i <= 30; i++) {
        smp.t_ns = 1000 * i;
        assert_int_equal(socmon_pipeline_sample(p, i, &smp, SOCMON_PAST), SOCMON_OK);
    }
    assert_int_equal(s.nrows, 3);
    assert_int_equal(s.rows[0].intervals, 10);
    /* live: the first row at once, then a row per 10 us of the wall clock */
    size_t before = s.nrows;
    for (uint64_t i = 31; i <= 60; i++) {
        smp.t_ns = 1000 * i;
        fake_now = 1000000 + 1000 * (i - 31);
        assert_int_equal(socmon_pipeline_sample(p, i, &smp, 0), SOCMON_OK);
    }
    assert_int_equal(s.nrows - before, 3);   /* 1 interval, then 10 and 10; 9 pending */
    assert_int_equal(s.rows[before + 1].intervals, 10);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* A source of one's own, run three times: the totals at finish are the means, with the spread. */
typedef struct mysrc {
    socmon_source_info in;
    uint64_t step;
} mysrc;

static socmon_status my_run(void *self, socmon_pipeline *p)
{
    mysrc *m = self;
    socmon_status st = SOCMON_OK;
    for (uint64_t i = 0; i < 3 && st == SOCMON_OK; i++)
        st = push(p, i, 1000 * (i + 1), m->step * i, 0, 0);
    return st;
}

static void test_source_and_repeated_runs(void **state)
{
    (void)state;
    seen s = {0};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&s, &ms, 1);
    static const socmon_source_ops ops = {.size = sizeof ops, .kind = "mine", .run = my_run};
    uint64_t steps[] = {2, 4, 6};   /* totals 4, 8, 12: mean 8, stddev of the mean 4/sqrt(3) */
    for (size_t r = 0; r < 3; r++) {
        mysrc m = {.in = info(), .step = steps[r]};
        socmon_source *src = NULL;
        assert_int_equal(socmon_source_new(&ops, &m, &m.in, &src), SOCMON_OK);
        assert_int_equal(socmon_pipeline_run(p, src), SOCMON_OK);
        assert_int_equal(s.tvalues[0], 2 * steps[r]);
        socmon_source_close(src);
    }
    assert_int_equal(socmon_pipeline_finish(p), SOCMON_OK);
    assert_int_equal(s.nbegin, 3);
    assert_int_equal(s.nend, 3);
    assert_int_equal(s.nfinish, 1);
    assert_int_equal(s.t.runs, 3);
    assert_int_equal(s.tvalues[0], 8);
    assert_true(fabs(s.t.counter_stddev[0] - 4 / sqrt(3)) < 1e-9);
    assert_non_null(s.t.metric_stddev);
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

/* An optional consumer's failure is kept for it and the run goes on; another's stops the run. */
static void test_consumer_failures(void **state)
{
    (void)state;
    seen bad = {.want = {.rows = 1}, .fail_rows = 1}, good = {.want = {.rows = 1}};
    socmon_metricset *ms;
    socmon_pipeline *p = pipeline(&good, &ms, 0);
    socmon_consumer cb = {.ops = &seen_ops, .self = &bad, .optional = 1};
    assert_int_equal(socmon_pipeline_add(p, &cb), SOCMON_OK);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    for (uint64_t i = 0; i < 4; i++)
        assert_int_equal(push(p, i, 1000 * (i + 1), i, i, 0), SOCMON_OK);
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    assert_int_equal(good.nrows, 3);
    assert_int_equal(socmon_pipeline_consumer_status(p, &cb), SOCMON_EIO);
    assert_int_equal(bad.nend, 0);   /* not called again after its failure */
    socmon_pipeline_free(p);

    seen bad2 = {.want = {.rows = 1}, .fail_rows = 1};
    p = pipeline(&bad2, &ms, 0);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    assert_int_equal(push(p, 0, 1000, 0, 0, 0), SOCMON_OK);
    assert_int_equal(push(p, 1, 2000, 1, 1, 0), SOCMON_EIO);
    socmon_pipeline_free(p);
}

static void test_bad_arguments(void **state)
{
    (void)state;
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(NULL, NULL, &p), SOCMON_EINVAL);
    socmon_source_info in = info();
    assert_int_equal(socmon_pipeline_new(&in, NULL, &p), SOCMON_OK);
    uint64_t v[2] = {0};
    socmon_sample smp = {.n = 2, .v = v};
    assert_int_equal(socmon_pipeline_sample(p, 0, &smp, 0), SOCMON_EINVAL);   /* wrong size */
    assert_non_null(strstr(socmon_errmsg(), "2 values for 5 counters"));
    assert_int_equal(socmon_pipeline_run(p, NULL), SOCMON_EINVAL);
    /* a consumer built against another layout of the ops is refused, naming the struct */
    static const socmon_consumer_ops odd = {.size = 3};
    socmon_consumer c = {.ops = &odd};
    assert_int_equal(socmon_pipeline_add(p, &c), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "socmon_consumer_ops.size 3"));
    socmon_pipeline_free(p);
    socmon_pipeline_opts po = {.size = sizeof po + 8};
    p = NULL;
    assert_int_equal(socmon_pipeline_new(&in, &po, &p), SOCMON_EINVAL);
    assert_null(p);
    assert_non_null(strstr(socmon_errmsg(), "socmon_pipeline_opts.size"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_safe_deltas_and_totals),
        cmocka_unit_test(test_scaling),
        cmocka_unit_test(test_gaps),
        cmocka_unit_test(test_merge_by_count_and_every),
        cmocka_unit_test(test_merge_by_time),
        cmocka_unit_test(test_source_and_repeated_runs),
        cmocka_unit_test(test_consumer_failures),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
