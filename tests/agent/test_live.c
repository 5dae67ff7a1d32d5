/* The live view (src/serve/live.c): merging samples into rows against a wall clock the test
 * drives, totals across wraps of narrow counters, gaps (explicit and by a seq jump), the bounded
 * history and what a reader that fell behind is told, the end of a run, and one producer with
 * concurrent readers (run under ASan in the sanitizer build). */
#include <math.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "serve/live.h"
#include "socmon/metrics.h"

/* Two counters: an 8-bit one (wraps every 256 events) and a 64-bit one. */
static const socmon_counter counters[] = {
    {.name = "a", .instance = "", .unit = "events", .width = 8},
    {.name = "b", .instance = "", .unit = "bytes", .width = 64},
};
static const char *const names[] = {"a", "b"};
static const char *const pnames[] = {"scale"};
static const double pvalues[] = {2};

static const char *metric_text =
    "{\"metrics\": [{\"name\": \"a_rate\", \"unit\": \"1/s\", \"expr\": \"a / interval_s\"},"
    " {\"name\": \"b_scaled\", \"unit\": \"bytes\", \"expr\": \"b * scale\"}]}";

typedef struct fix {
    uint64_t now;               /* the fake wall clock */
    socmon_metricset *ms;
    smn_live *lv;
    uint64_t v[2];              /* current raw register values */
    uint64_t t;                 /* target time */
    uint64_t seq;
} fix;

static uint64_t fake_clock(void *user)
{
    return ((fix *)user)->now;
}

static fix *fix_new(uint64_t row_ns, size_t history)
{
    fix *f = calloc(1, sizeof *f);
    assert_non_null(f);
    assert_int_equal(socmon_metricset_load_string(metric_text, "test", &f->ms), SOCMON_OK);
    smn_live_schema s = {.target = "fake", .device = "fakedev", .interval_ns = 1000, .ncounters = 2,
                            .counters = counters, .names = names, .nparams = 1, .param_names = pnames,
                            .param_values = pvalues, .ms = f->ms};
    smn_live_opts o = {.row_ns = row_ns, .history = history, .clock = fake_clock, .clock_user = f};
    assert_int_equal(socmon_live_new(&s, &o, &f->lv), SOCMON_OK);
    return f;
}

static void fix_free(fix *f)
{
    socmon_live_free(f->lv);
    socmon_metricset_free(f->ms);
    free(f);
}

/* One sample after da events of a, db of b, dt ns of target time and dwall ns of wall time. */
static void step(fix *f, uint64_t da, uint64_t db, uint64_t dt, uint64_t dwall, unsigned flags, unsigned missed)
{
    f->v[0] = (f->v[0] + da) & 0xff;
    f->v[1] += db;
    f->t += dt;
    f->now += dwall;
    socmon_sample s = {.t_ns = f->t, .flags = flags, .missed = missed, .n = 2, .v = f->v};
    assert_int_equal(socmon_live_push(f->lv, f->seq++, &s), SOCMON_OK);
}

static int next(fix *f, uint64_t *cur, smn_live_entry *e, double *m, uint64_t *d)
{
    return socmon_live_next(f->lv, cur, e, m, d, 0);
}

static void test_merge_rows(void **state)
{
    fix *f = fix_new(10000, 100);
    assert_int_equal(socmon_live_nmetrics(f->lv), 2);
    step(f, 0, 0, 0, 0, 0, 0);   /* baseline: no row */
    uint64_t cur = socmon_live_oldest(f->lv), d[2];
    smn_live_entry e;
    double m[2];
    assert_int_equal(next(f, &cur, &e, m, d), 0);
    /* The first interval is a row at once (no row yet), then every 10 us of wall clock. */
    step(f, 5, 100, 1000, 3000, 0, 0);
    assert_int_equal(next(f, &cur, &e, m, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(e.seq, 1);
    assert_int_equal(e.first_seq, 1);
    assert_int_equal(e.dt_ns, 1000);
    assert_int_equal(d[0], 5);
    assert_int_equal(d[1], 100);
    assert_true(fabs(m[0] - 5 / 1e-6) < 1e-3);
    assert_true(fabs(m[1] - 200) < 1e-9);
    /* 3 + 3 + 3 us < 10: merged; the fourth (12) publishes a row of four intervals. */
    for (int i = 0; i < 3; i++) {
        step(f, 10, 1, 1000, 3000, 0, 0);
        assert_int_equal(next(f, &cur, &e, m, d), 0);
    }
    step(f, 10, 1, 2000, 3000, SOCMON_SAMPLE_SHORT, 0);
    assert_int_equal(next(f, &cur, &e, m, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(e.first_seq, 2);
    assert_int_equal(e.seq, 5);
    assert_int_equal(e.t_ns, 6000);
    assert_int_equal(e.dt_ns, 5000);
    assert_int_equal(e.flags, SOCMON_SAMPLE_SHORT);
    assert_int_equal(d[0], 40);
    assert_int_equal(d[1], 4);
    /* metrics over the merged span: 40 events in 5 us */
    assert_true(fabs(m[0] - 40 / 5e-6) < 1e-3);
    assert_true(fabs(m[1] - 8) < 1e-9);
    uint64_t tot[2];
    smn_live_state ls;
    assert_int_equal(socmon_live_snapshot(f->lv, tot, m, &ls), 2);
    assert_int_equal(ls.rows, 2);
    assert_int_equal(ls.elapsed_ns, 6000);
    assert_int_equal(ls.samples, 6);
    assert_int_equal(ls.started, 1);
    assert_int_equal(ls.t0_ns, 0);
    assert_int_equal(ls.missed, 0);
    assert_int_equal(ls.ended, 0);
    assert_int_equal(tot[0], 45);
    assert_int_equal(tot[1], 104);
    assert_true(fabs(m[1] - 8) < 1e-9);
    fix_free(f);
}

/* A paced interval as long as a row: a sample woken a little early still makes its own row (no
 * 2-interval rows from jitter), yet a model running far ahead of the wall clock makes at most
 * two rows per row_ns of it. */
static void test_row_pacing(void **state)
{
    fix *f = fix_new(100, 100);
    uint64_t cur = 0;
    smn_live_entry e;
    step(f, 0, 0, 0, 0, 0, 0);
    step(f, 1, 0, 100, 100, 0, 0);          /* first row */
    assert_int_equal(next(f, &cur, &e, NULL, NULL), 1);
    for (int i = 0; i < 5; i++) {
        step(f, 1, 0, 100, i % 2 ? 99 : 101, 0, 0);
        assert_int_equal(next(f, &cur, &e, NULL, NULL), 1);
        assert_int_equal(e.dt_ns, 100);
    }
    /* 100 ns of target time per 1 ns of wall clock: a row only after 50 ns of wall clock */
    for (int i = 0; i < 49; i++) {
        step(f, 1, 0, 100, 1, 0, 0);
        assert_int_equal(next(f, &cur, &e, NULL, NULL), 0);
    }
    step(f, 1, 0, 100, 1, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, NULL), 1);
    assert_int_equal(e.dt_ns, 5000);
    fix_free(f);
}

/* An 8-bit counter that wraps on almost every sample still gives a total that only grows. */
static void test_totals_across_wraps(void **state)
{
    fix *f = fix_new(1, 100);
    step(f, 0, 0, 0, 0, 0, 0);
    uint64_t sum = 0, tot[2], prev = 0;
    for (int i = 0; i < 1000; i++) {
        step(f, 200 + (uint64_t)(i % 50), 1, 1000, 1, 0, 0);
        sum += 200 + (uint64_t)(i % 50);
        socmon_live_snapshot(f->lv, tot, NULL, NULL);
        assert_true(tot[0] >= prev);
        prev = tot[0];
    }
    assert_int_equal(tot[0], sum);
    assert_true(tot[0] > 255);
    assert_int_equal(tot[1], 1000);
    fix_free(f);
}

static void test_gaps(void **state)
{
    fix *f = fix_new(2, 100);
    uint64_t cur = 0, d[2], tot[2];
    smn_live_entry e;
    step(f, 0, 0, 0, 0, 0, 0);
    step(f, 7, 7, 1000, 1, 0, 0);           /* row seq 1 */
    step(f, 3, 3, 1000, 0, 0, 0);           /* pending (no wall time passed) */
    /* an explicit gap: the pending row is published first, then the gap */
    socmon_live_gap(f->lv, 3, 4, 2000, 7000);
    f->seq = 7;
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(e.seq, 1);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(e.seq, 2);
    assert_int_equal(d[0], 3);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_GAP);
    assert_int_equal(e.count, 4);
    assert_int_equal(e.t0_ns, 2000);
    assert_int_equal(e.t1_ns, 7000);
    /* the sample after a gap is a baseline: its delta over the gap is unknown and not counted */
    step(f, 100, 100, 5000, 5, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 0);
    socmon_live_snapshot(f->lv, tot, NULL, NULL);
    assert_int_equal(tot[0], 10);
    step(f, 1, 1, 1000, 5, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(e.seq, 8);
    assert_int_equal(d[0], 1);
    /* a seq that jumps is a gap of the samples skipped */
    f->seq = 20;
    step(f, 1, 1, 3000, 5, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_GAP);
    assert_int_equal(e.count, 11);
    smn_live_state ls;
    socmon_live_snapshot(f->lv, NULL, NULL, &ls);
    assert_int_equal(ls.missed, 4 + 11);
    /* a seq going backwards is refused and changes nothing */
    socmon_sample s = {.t_ns = f->t, .n = 2, .v = f->v};
    assert_int_equal(socmon_live_push(f->lv, 3, &s), SOCMON_EINVAL);
    /* and so is a sample of the wrong size */
    s.n = 1;
    assert_int_equal(socmon_live_push(f->lv, 21, &s), SOCMON_EINVAL);
    fix_free(f);
}

/* Missed intervals start a row of their own, carrying the flag and the count. */
static void test_missed_starts_row(void **state)
{
    fix *f = fix_new(100, 100);
    uint64_t cur = 0, d[2];
    smn_live_entry e;
    step(f, 0, 0, 0, 0, 0, 0);
    step(f, 1, 0, 1000, 200, 0, 0);         /* row */
    step(f, 1, 0, 1000, 1, 0, 0);           /* pending */
    step(f, 1, 0, 3000, 1, SOCMON_SAMPLE_MISSED, 2);
    step(f, 1, 0, 1000, 200, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.seq, 2);
    assert_int_equal(e.flags, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.first_seq, 3);
    assert_int_equal(e.seq, 4);
    assert_int_equal(e.flags, SOCMON_SAMPLE_MISSED);
    assert_int_equal(e.missed, 2);
    assert_int_equal(e.dt_ns, 4000);
    smn_live_state ls;
    socmon_live_snapshot(f->lv, NULL, NULL, &ls);
    assert_int_equal(ls.samples, 5);
    assert_int_equal(ls.missed, 2);
    fix_free(f);
}

/* Replayed samples arrive at once: rows are cut by their own time (row_ns of target time). */
static void test_replay_rows(void **state)
{
    fix *f = fix_new(5000, 100);
    uint64_t cur = 0, d[2];
    smn_live_entry e;
    socmon_sample s = {.n = 2, .v = f->v};
    for (int i = 0; i <= 12; i++) {   /* 1 us apart, no wall time at all */
        f->v[0] = (f->v[0] + 1) & 0xff;
        s.t_ns = f->t = (uint64_t)i * 1000;
        assert_int_equal(socmon_live_replay(f->lv, f->seq++, &s), SOCMON_OK);
    }
    /* rows of 5 us: seqs 1..5, 6..10; 11..12 pending */
    for (uint64_t first = 1; first <= 6; first += 5) {
        assert_int_equal(next(f, &cur, &e, NULL, d), 1);
        assert_int_equal(e.first_seq, first);
        assert_int_equal(e.seq, first + 4);
        assert_int_equal(e.dt_ns, 5000);
        assert_int_equal(d[0], 5);
    }
    assert_int_equal(next(f, &cur, &e, NULL, d), 0);
    /* live again: paced by the wall clock (5000 ns of it since the last row) */
    step(f, 1, 0, 1000, 4999, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 0);
    step(f, 1, 0, 1000, 1, 0, 0);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.first_seq, 11);
    assert_int_equal(e.seq, 14);
    fix_free(f);
}

static void test_history_bound(void **state)
{
    fix *f = fix_new(1, 4);
    step(f, 0, 0, 0, 0, 0, 0);
    for (int i = 0; i < 10; i++)
        step(f, 1, 0, 1000, 1, 0, 0);
    assert_int_equal(socmon_live_oldest(f->lv), 6);
    /* a reader still at 0 is told it lost 6 entries and gets the oldest kept */
    uint64_t cur = 0;
    smn_live_entry e;
    assert_int_equal(next(f, &cur, &e, NULL, NULL), 1);
    assert_int_equal(e.skipped, 6);
    assert_int_equal(e.seq, 7);
    assert_int_equal(cur, 7);
    assert_int_equal(next(f, &cur, &e, NULL, NULL), 1);
    assert_int_equal(e.skipped, 0);
    assert_int_equal(e.seq, 8);
    fix_free(f);
}

static void test_end(void **state)
{
    fix *f = fix_new(100, 10);
    uint64_t cur = 0, d[2], tot[2];
    smn_live_entry e;
    smn_live_state ls = {0};
    step(f, 0, 0, 0, 0, 0, 0);
    step(f, 2, 0, 1000, 200, 0, 0);
    step(f, 3, 0, 1000, 1, 0, 0);           /* pending until the end */
    socmon_live_snapshot(f->lv, tot, NULL, &ls);
    assert_int_equal(tot[0], 2);
    assert_int_equal(ls.ended, 0);
    socmon_live_end(f->lv);
    step(f, 50, 0, 1000, 200, 0, 0);        /* ignored */
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_ROW);
    assert_int_equal(d[0], 3);
    assert_int_equal(next(f, &cur, &e, NULL, d), 1);
    assert_int_equal(e.kind, SOCMON_LIVE_END);
    assert_int_equal(next(f, &cur, &e, NULL, d), 0);
    socmon_live_snapshot(f->lv, tot, NULL, &ls);
    assert_int_equal(tot[0], 5);
    assert_int_equal(ls.ended, 1);
    assert_int_equal(ls.elapsed_ns, 2000);
    /* close wakes a waiting reader for good */
    socmon_live_close(f->lv);
    assert_int_equal(socmon_live_next(f->lv, &cur, &e, NULL, d, 10000), -1);
    fix_free(f);
}

static void test_no_metrics(void **state)
{
    smn_live_schema s = {.target = "fake", .ncounters = 2, .counters = counters, .names = names};
    smn_live *lv;
    assert_int_equal(socmon_live_new(&s, NULL, &lv), SOCMON_OK);
    assert_null(socmon_live_metrics(lv));
    assert_int_equal(socmon_live_nmetrics(lv), 0);
    uint64_t v[2] = {1, 2};
    socmon_sample smp = {.t_ns = 1, .n = 2, .v = v};
    assert_int_equal(socmon_live_push(lv, 0, &smp), SOCMON_OK);
    v[0] = 3;
    smp.t_ns = 2;
    assert_int_equal(socmon_live_push(lv, 1, &smp), SOCMON_OK);
    uint64_t tot[2];
    assert_int_equal(socmon_live_snapshot(lv, tot, NULL, NULL), 1);
    assert_int_equal(tot[0], 2);
    socmon_live_free(lv);
    assert_int_equal(socmon_live_new(NULL, NULL, &lv), SOCMON_EINVAL);
    s.names = NULL;
    assert_int_equal(socmon_live_new(&s, NULL, &lv), SOCMON_EINVAL);
}

/* One producer and two readers: every reader sees rows in order, and the deltas of all the rows
 * it read add up to the final totals (its history holds them all, so none were skipped). */
#define CONC_SAMPLES 20000

typedef struct reader_arg {
    smn_live *lv;
    uint64_t sum[2], rows, last_seq;
    int ordered, ended, skipped;
} reader_arg;

static void *reader(void *p)
{
    reader_arg *r = p;
    uint64_t cur = socmon_live_oldest(r->lv), d[2];
    double m[2];
    smn_live_entry e;
    r->ordered = 1;
    while (!r->ended) {
        int rc = socmon_live_next(r->lv, &cur, &e, m, d, 5000);
        if (rc < 0)
            break;
        if (rc == 0)
            continue;
        r->skipped |= e.skipped != 0;
        if (e.kind == SOCMON_LIVE_END) {
            r->ended = 1;
        } else if (e.kind == SOCMON_LIVE_ROW) {
            r->ordered &= e.seq > r->last_seq && e.first_seq <= e.seq;
            r->last_seq = e.seq;
            r->sum[0] += d[0];
            r->sum[1] += d[1];
            r->rows++;
        }
        /* a snapshot taken meanwhile is consistent and never decreasing */
        uint64_t tot[2];
        socmon_live_snapshot(r->lv, tot, NULL, NULL);
    }
    return NULL;
}

static void test_concurrent(void **state)
{
    socmon_metricset *ms;
    assert_int_equal(socmon_metricset_load_string(metric_text, "test", &ms), SOCMON_OK);
    smn_live_schema s = {.target = "fake", .ncounters = 2, .counters = counters, .names = names,
                            .nparams = 1, .param_names = pnames, .param_values = pvalues, .ms = ms};
    /* 1 us rows on the real clock: many rows, none lost (history bigger than the run) */
    smn_live_opts o = {.row_ns = 1000, .history = CONC_SAMPLES + 10};
    smn_live *lv;
    assert_int_equal(socmon_live_new(&s, &o, &lv), SOCMON_OK);
    reader_arg r[2] = {{.lv = lv}, {.lv = lv}};
    pthread_t th[2];
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&th[i], NULL, reader, &r[i]), 0);
    uint64_t v[2] = {0, 0};
    for (uint64_t i = 0; i < CONC_SAMPLES; i++) {
        v[0] = (v[0] + 77) & 0xff;
        v[1] += 3;
        socmon_sample smp = {.t_ns = i * 1000, .n = 2, .v = v};
        assert_int_equal(socmon_live_push(lv, i, &smp), SOCMON_OK);
    }
    socmon_live_end(lv);
    for (int i = 0; i < 2; i++)
        assert_int_equal(pthread_join(th[i], NULL), 0);
    uint64_t tot[2];
    socmon_live_snapshot(lv, tot, NULL, NULL);
    assert_int_equal(tot[0], 77ull * (CONC_SAMPLES - 1));
    assert_int_equal(tot[1], 3ull * (CONC_SAMPLES - 1));
    for (int i = 0; i < 2; i++) {
        assert_true(r[i].ended);
        assert_true(r[i].ordered);
        assert_false(r[i].skipped);
        assert_true(r[i].rows > 0);
        assert_int_equal(r[i].last_seq, CONC_SAMPLES - 1);
        assert_int_equal(r[i].sum[0], tot[0]);
        assert_int_equal(r[i].sum[1], tot[1]);
    }
    socmon_live_free(lv);
    socmon_metricset_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_merge_rows),
        cmocka_unit_test(test_row_pacing),
        cmocka_unit_test(test_totals_across_wraps),
        cmocka_unit_test(test_gaps),
        cmocka_unit_test(test_missed_starts_row),
        cmocka_unit_test(test_replay_rows),
        cmocka_unit_test(test_history_bound),
        cmocka_unit_test(test_end),
        cmocka_unit_test(test_no_metrics),
        cmocka_unit_test(test_concurrent),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
