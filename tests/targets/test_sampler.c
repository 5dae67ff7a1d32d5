/* The interval sampler on a fake target whose counters grow at known rates. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>
#include <time.h>

#include "socmon/socmon.h"
#include "support/fake.h"

typedef struct acc {
    uint64_t sum[FAKE_MAX];
    unsigned calls;
    unsigned sleep_on;      /* 1-based call on which to stall */
    uint64_t sleep_ns;
    unsigned fail_on;
    uint64_t missed_seen;
} acc;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *d)
{
    acc *a = user;
    a->calls++;
    for (size_t i = 0; i < cur->n; i++)
        a->sum[i] += d[i];
    if (cur->flags & SOCMON_SAMPLE_MISSED)
        a->missed_seen += cur->missed;
    if (a->calls == a->sleep_on) {
        struct timespec ts = {0, (long)a->sleep_ns};
        nanosleep(&ts, NULL);
    }
    return a->calls == a->fail_on ? SOCMON_EIO : SOCMON_OK;
}

static void open_fake(const socmon_target_ops *ops, socmon_target **t, socmon_set **set)
{
    assert_int_equal(socmon_target_open_ops(ops, NULL, 0, t), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(*t), NULL, set), SOCMON_OK);
}

static void test_simulated_counts(void **state)
{
    fake_cfg = (fake_target_cfg){2, {32, 32}, {3.0, 0.5}, {0, 0}, 0, 1, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    socmon_timeline *tl;
    assert_int_equal(socmon_timeline_new(2, &tl), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 100000, .duration_ns = 1000000, .realtime = 0,
        .max_intervals = 0};
    acc a = {0};
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 11);
    assert_int_equal(st.missed, 0);
    assert_int_equal(a.calls, 10);
    assert_int_equal(a.sum[0], 3000);
    assert_int_equal(a.sum[1], 500);
    assert_int_equal(socmon_timeline_len(tl), 11);
    socmon_sample s;
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    assert_int_equal(socmon_timeline_get(tl, 10, &s), SOCMON_OK);
    assert_true(s.t_ns == 1000000);
    assert_int_equal(s.v[0], 3000);
    socmon_sample_free(&s);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_narrow_counter_wraps_every_interval(void **state)
{
    /* 8 bits at 2 events/us wraps every 128 us; sampling every 100 us sees
     * each wrap once, so the summed deltas are exact. */
    fake_cfg = (fake_target_cfg){1, {8}, {2.0}, {2e6}, 0, 1, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    socmon_sampler_opts o = {.interval_ns = 100000, .duration_ns = 10000000, .realtime = 0,
        .max_intervals = 0};
    acc a = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, NULL), SOCMON_OK);
    assert_int_equal(a.sum[0], 20000);

    /* 200 us could hide a second wrap: refused, naming the counter. */
    o.interval_ns = 200000;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "too long for counter 'u0.c0'"));
    assert_non_null(strstr(socmon_errmsg(), "8 bits"));
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_runs_until_workload_done(void **state)
{
    fake_cfg = (fake_target_cfg){1, {32}, {1.0}, {0}, 550000, 1, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    assert_int_equal(socmon_target_start(t, "finite"), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "nope"), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "unknown workload 'nope' (known: finite, other)"));
    socmon_sampler_opts o = {.interval_ns = 100000, .duration_ns = 0, .realtime = 0,
        .max_intervals = 0};
    socmon_sampler_stats st;
    acc a = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 7); /* 0, 100, ..., 600 us: the first at or past 550 us ends it */
    assert_int_equal(a.sum[0], 600);
    o.interval_ns = 0;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "interval must be > 0"));
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_callback_error_stops(void **state)
{
    fake_cfg = (fake_target_cfg){1, {32}, {1.0}, {0}, 0, 1, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    socmon_sampler_opts o = {.interval_ns = 1000, .duration_ns = 1000000, .realtime = 0,
        .max_intervals = 0};
    acc a = {0};
    a.fail_on = 5;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, NULL), SOCMON_EIO);
    assert_int_equal(a.calls, 5);
    socmon_set_free(set);
    socmon_target_close(t);
}

static int always_hardware(void *priv)
{
    return 1;
}

static void test_hardware_instance_of_a_model_target_is_paced(void **state)
{
    fake_cfg = (fake_target_cfg){1, {64}, {1.0}, {0}, 0, 1, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    assert_false(socmon_target_is_hardware(t));
    socmon_set_free(set);
    socmon_target_close(t);

    /* Like esp:devmem=1: a model target whose opened instance is silicon. */
    socmon_target_ops ops = fake_target_ops;
    ops.hardware = always_hardware;
    open_fake(&ops, &t, &set);
    assert_true(socmon_target_is_hardware(t));
    struct timespec a, b;
    clock_gettime(CLOCK_MONOTONIC, &a);
    socmon_sampler_opts o = {.interval_ns = 5000000, .duration_ns = 20000000, .realtime = 0,
        .max_intervals = 0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, NULL), SOCMON_OK);
    clock_gettime(CLOCK_MONOTONIC, &b);
    double wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    assert_true(wall >= 0.019); /* slept to its deadlines instead of simulating */
    /* A direct advance on hardware waits itself (the target's callback does not). */
    clock_gettime(CLOCK_MONOTONIC, &a);
    int done = 0;
    assert_int_equal(socmon_target_advance(t, 5000000, &done), SOCMON_OK);
    clock_gettime(CLOCK_MONOTONIC, &b);
    wall = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
    assert_true(wall >= 0.0049);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_realtime_marks_missed_intervals(void **state)
{
    fake_cfg = (fake_target_cfg){1, {64}, {1.0}, {0}, 0, 0, 0, 0, 0, 0};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_rt_target_ops, &t, &set);
    socmon_timeline *tl;
    assert_int_equal(socmon_timeline_new(1, &tl), SOCMON_OK);
    /* Stall 9 ms inside the 3rd callback with a 2 ms interval: the next
     * wake-up is at least 3 whole intervals late. */
    socmon_sampler_opts o = {.interval_ns = 2000000, .duration_ns = 30000000, .realtime = 0,
        .max_intervals = 0};
    acc a = {0};
    a.sleep_on = 3;
    a.sleep_ns = 9000000;
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, on_sample, &a, &st), SOCMON_OK);
    assert_true(st.missed >= 3);
    assert_int_equal(a.missed_seen, st.missed);
    assert_true(st.jitter_max_ns >= 6000000);
    /* The missed intervals are recorded, not merged: samples + missed cover the run. */
    assert_int_equal(st.samples - 1 + st.missed, 15);
    size_t flagged = 0;
    socmon_sample s;
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    for (size_t i = 0; i < socmon_timeline_len(tl); i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        flagged += (s.flags & SOCMON_SAMPLE_MISSED) ? s.missed : 0;
    }
    assert_int_equal(flagged, st.missed);
    socmon_sample_free(&s);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* A wake-up late by many intervals near the end of a run marks as missed only
 * the intervals the run still had: samples - 1 + missed is the run's length in
 * intervals, however late the host was. The fake target stalls 20 ms (ten
 * 2 ms intervals) inside the given advance call. On a loaded host an earlier
 * wake-up may be late too: the invariant holds regardless, and the exact
 * counts are checked when the stall was the only lateness. */
typedef struct stall_run {
    socmon_sampler_stats st;
    uint32_t missed[32];    /* per sample after the first */
    unsigned n;
    unsigned stalls;        /* the stall happened */
} stall_run;

static socmon_status note_missed(void *user, const socmon_sample *prev, const socmon_sample *cur,
                                 const uint64_t *d)
{
    stall_run *r = user;
    if (r->n < 32)
        r->missed[r->n++] = (cur->flags & SOCMON_SAMPLE_MISSED) ? cur->missed : 0;
    return SOCMON_OK;
}

static void run_with_stall(unsigned stall_on, uint64_t duration_ns, stall_run *r)
{
    fake_cfg = (fake_target_cfg){1, {64}, {1.0}, {0}, 0, 0, 0, 0, 0, 0};
    fake_cfg.stall_on = stall_on;
    fake_cfg.stall_ns = 20000000;
    memset(r, 0, sizeof *r);
    unsigned before = fake_stalls;
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_rt_target_ops, &t, &set);
    socmon_sampler_opts o = {.interval_ns = 2000000, .duration_ns = duration_ns, .realtime = 0,
        .max_intervals = 0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, note_missed, r, &r->st), SOCMON_OK);
    r->stalls = fake_stalls - before;
    if (r->stalls && r->n > stall_on)   /* a wake-up followed the stall: it was late */
        assert_true(r->st.jitter_max_ns >= 17000000);
    uint64_t intervals = duration_ns / 2000000 + (duration_ns % 2000000 != 0);
    assert_int_equal(r->st.samples - 1 + r->st.missed, intervals);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* 1 if no sample before the stall's was marked missed: the stall was the only lateness. */
static int only_the_stall(const stall_run *r, unsigned stall_on)
{
    for (unsigned i = 0; i < stall_on && i < r->n; i++)
        if (r->missed[i])
            return 0;
    return r->stalls == 1;
}

static void test_missed_intervals_clamped_to_the_run(void **state)
{
    stall_run r;
    /* Stall in the 2nd step (4 ms into 12 ms): 4 intervals are left, so the
     * late 3rd sample marks 3 missed (not the ~9 it slept through) and ends the run. */
    run_with_stall(2, 12000000, &r);
    if (only_the_stall(&r, 2)) {
        assert_int_equal(r.st.missed, 3);
        assert_int_equal(r.st.samples, 4);
    }
    /* Stall in the 4th step of 10 ms: one interval left, nothing to mark missed. */
    run_with_stall(4, 10000000, &r);
    if (only_the_stall(&r, 4)) {
        assert_int_equal(r.st.missed, 0);
        assert_int_equal(r.st.samples, 6);
    }
    /* A duration that is not a whole number of intervals: ceil(11/2) = 6 intervals. */
    run_with_stall(2, 11000000, &r);
    if (only_the_stall(&r, 2))
        assert_int_equal(r.st.missed, 3);
}

/* -d is the run's length whatever the interval: 10 ms at 3 ms is 3, 6, 9 and 10 ms,
 * the last interval 1 ms long and marked short. */
static void test_duration_exact_short_last_interval(void **state)
{
    fake_cfg = (fake_target_cfg){.n = 1, .width = {32}, .rate_per_us = {1.0}, .simulated = 1};
    socmon_target *t;
    socmon_set *set;
    socmon_timeline *tl;
    open_fake(&fake_target_ops, &t, &set);
    assert_int_equal(socmon_timeline_new(1, &tl), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 3000000, .duration_ns = 10000000};
    socmon_sampler_stats st;
    acc a = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 5);
    assert_int_equal(a.sum[0], 10000);
    assert_int_equal(socmon_target_now_ns(t), 10000000);
    socmon_sample s;
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    static const uint64_t at[] = {0, 3000000, 6000000, 9000000, 10000000};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_int_equal(s.t_ns, at[i]);
        assert_int_equal(!!(s.flags & SOCMON_SAMPLE_SHORT), i == 4);
    }
    /* A duration that is a whole number of intervals has no short one. */
    socmon_timeline_free(tl);
    assert_int_equal(socmon_timeline_new(1, &tl), SOCMON_OK);
    o.duration_ns = 9000000;
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, NULL, NULL, &st), SOCMON_OK);
    assert_int_equal(st.samples, 4);
    for (size_t i = 0; i < 4; i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_false(s.flags & SOCMON_SAMPLE_SHORT);
    }
    socmon_sample_free(&s);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* A model that stops its clock where its workload ends: the run ends there (550 us), not at
 * the next interval boundary, and that last interval is marked short; with a duration the
 * run goes on to it on the same interval grid. */
static void test_stops_where_the_workload_ends(void **state)
{
    fake_cfg = (fake_target_cfg){.n = 1, .width = {32}, .rate_per_us = {1.0}, .end_ns = 550000,
                                 .simulated = 1, .stop_at_end = 1};
    socmon_target *t;
    socmon_set *set;
    socmon_timeline *tl;
    open_fake(&fake_target_ops, &t, &set);
    assert_int_equal(socmon_timeline_new(1, &tl), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 100000};
    socmon_sampler_stats st;
    acc a = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 7);   /* 0, 100, ..., 500 and 550 us */
    assert_int_equal(a.sum[0], 550);
    assert_int_equal(socmon_target_now_ns(t), 550000);
    socmon_sample s;
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    for (size_t i = 0; i < 7; i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_int_equal(s.t_ns, i < 6 ? i * 100000 : 550000);
        assert_int_equal(!!(s.flags & SOCMON_SAMPLE_SHORT), i == 6);
    }
    socmon_sample_free(&s);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);

    /* With a duration: the interval the workload ended in still ends at 600 us. */
    open_fake(&fake_target_ops, &t, &set);
    assert_int_equal(socmon_timeline_new(1, &tl), SOCMON_OK);
    o.duration_ns = 1000000;
    assert_int_equal(socmon_sampler_run(t, set, &o, tl, NULL, NULL, &st), SOCMON_OK);
    assert_int_equal(st.samples, 11);
    assert_int_equal(socmon_target_now_ns(t), 1000000);
    assert_int_equal(socmon_sample_alloc(set, &s), SOCMON_OK);
    for (size_t i = 0; i < 11; i++) {
        assert_int_equal(socmon_timeline_get(tl, i, &s), SOCMON_OK);
        assert_int_equal(s.t_ns, i * 100000);
        assert_false(s.flags & SOCMON_SAMPLE_SHORT);
    }
    socmon_sample_free(&s);
    socmon_timeline_free(tl);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* max_intervals stops after N intervals; with a duration, whichever ends first. */
static void test_max_intervals(void **state)
{
    fake_cfg = (fake_target_cfg){.n = 1, .width = {32}, .rate_per_us = {1.0}, .end_ns = 550000,
                                 .simulated = 1, .stop_at_end = 1};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    socmon_sampler_opts o = {.interval_ns = 100000, .max_intervals = 3};
    socmon_sampler_stats st;
    acc a = {0};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 4);
    assert_int_equal(a.sum[0], 300);
    /* 2.5 intervals of duration left before 3 more intervals: the duration ends it */
    memset(&a, 0, sizeof a);
    o.duration_ns = 250000;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 4);
    assert_int_equal(a.sum[0], 250);
    /* the count first */
    memset(&a, 0, sizeof a);
    o.duration_ns = 10000000;
    o.max_intervals = 2;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, on_sample, &a, &st), SOCMON_OK);
    assert_int_equal(st.samples, 3);
    assert_int_equal(a.sum[0], 200);
    socmon_set_free(set);
    socmon_target_close(t);
}

/* A target whose clock does not move when advanced would make a duration never end: an error. */
static void test_stuck_clock_is_an_error(void **state)
{
    fake_cfg = (fake_target_cfg){.n = 1, .width = {32}, .rate_per_us = {1.0}, .simulated = 1,
        .stuck = 1};
    socmon_target *t;
    socmon_set *set;
    open_fake(&fake_target_ops, &t, &set);
    socmon_sampler_opts o = {.interval_ns = 100000, .duration_ns = 1000000};
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, NULL), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "target 'fake': its clock did not move when advanced 100000 ns"));
    socmon_set_free(set);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_simulated_counts),
        cmocka_unit_test(test_narrow_counter_wraps_every_interval),
        cmocka_unit_test(test_runs_until_workload_done),
        cmocka_unit_test(test_callback_error_stops),
        cmocka_unit_test(test_hardware_instance_of_a_model_target_is_paced),
        cmocka_unit_test(test_realtime_marks_missed_intervals),
        cmocka_unit_test(test_missed_intervals_clamped_to_the_run),
        cmocka_unit_test(test_duration_exact_short_last_interval),
        cmocka_unit_test(test_stops_where_the_workload_ends),
        cmocka_unit_test(test_max_intervals),
        cmocka_unit_test(test_stuck_clock_is_an_error),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
