/* The region API (socmon/region.h) on the kernel model: exact hardware counts per region,
 * nesting (inclusive counts), mismatched ends, the depth limit, bad names, threads (calls and
 * counts exact, no lost update), a NULL handle as a no-op, and the recording read back. Then
 * once on the real kernel with software events (skipped where perf_event_open is missing). */
#include <dirent.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "models/perf/perf_kernel_model.h"
#include "socmon/perf.h"
#include "socmon/recording.h"
#include "socmon/region.h"
#include "socmon/timeline.h"

static char path[256];

static int setup(void **state)
{
    (void)state;
    snprintf(path, sizeof path, "/tmp/socmon_region_%d.smr", (int)getpid());
    return 0;
}

static int teardown(void **state)
{
    (void)state;
    unlink(path);
    return 0;
}

/* the total of counter instance.name in the recording's last sample */
static uint64_t total(socmon_recording *rec, const char *inst, const char *name)
{
    const socmon_counter *c = socmon_recording_counters(rec);
    socmon_timeline *tl = socmon_recording_timeline(rec);
    size_t len = socmon_timeline_len(tl);
    for (size_t i = 0; i < socmon_recording_ncounters(rec); i++)
        if (strcmp(c[i].instance, inst) == 0 && strcmp(c[i].name, name) == 0) {
            size_t n = socmon_recording_ncounters(rec);
            uint64_t *v = calloc(n, sizeof *v);
            socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = n, .v = v};
            assert_int_equal(socmon_timeline_get(tl, len - 1, &s), SOCMON_OK);
            uint64_t x = v[i];
            free(v);
            return x;
        }
    fail_msg("no counter %s.%s", inst, name);
    return 0;
}

/* Model time moves only where the test says: outer 1000 ns alone, inner 500 ns inside it twice. */
static void nesting_exact(void **state)
{
    (void)state;
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2, .rdpmc = 1};
    assert_int_equal(smn_perf_model_new(&mo, &m), SOCMON_OK);
    smn_perf_model_set_rate(m, 0, 0, 2.0); /* cycles: 2 per ns */
    smn_perf_model_set_rate(m, 0, 1, 1.0); /* instructions: 1 per ns */
    socmon_regions_opts o = {.path = path, .events = "cycles:u,instructions:u",
        .sys = smn_perf_model_sys(m)};
    socmon_regions *r;
    assert_int_equal(socmon_regions_open(&o, &r), SOCMON_OK);
    assert_int_equal(socmon_region_begin(r, "outer"), SOCMON_OK);
    smn_perf_model_advance(m, 1000);
    for (int k = 0; k < 2; k++) {
        assert_int_equal(socmon_region_begin(r, "inner"), SOCMON_OK);
        smn_perf_model_advance(m, 500);
        assert_int_equal(socmon_region_end(r, "inner"), SOCMON_OK);
    }
    /* a mismatched end changes nothing */
    assert_int_equal(socmon_region_begin(r, "inner"), SOCMON_OK);
    assert_int_equal(socmon_region_end(r, "outer"), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "'inner' is the innermost"));
    assert_int_equal(socmon_region_end(r, "inner"), SOCMON_OK);
    assert_int_equal(socmon_region_end(r, "outer"), SOCMON_OK);
    assert_int_equal(socmon_region_end(r, "outer"), SOCMON_ESTATE);
    assert_int_equal(socmon_region_begin(r, "bad name"), SOCMON_EINVAL);
    assert_int_equal(socmon_region_begin(r, "a.b"), SOCMON_EINVAL);
    assert_int_equal(socmon_region_begin(r, ""), SOCMON_EINVAL);
    assert_int_equal(socmon_regions_close(r), SOCMON_OK);
    socmon_recording *rec;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    assert_int_equal(total(rec, "outer", "cycles_u"), 4000);       /* inclusive: 1000 + 2 x 500 ns */
    assert_int_equal(total(rec, "outer", "instructions_u"), 2000);
    assert_int_equal(total(rec, "inner", "cycles_u"), 2000);
    assert_int_equal(total(rec, "inner", "calls"), 3);
    assert_int_equal(total(rec, "outer", "calls"), 1);
    socmon_recording_free(rec);
    smn_perf_model_free(m);
}

static void depth_and_null(void **state)
{
    (void)state;
    assert_int_equal(socmon_region_begin(NULL, "x"), SOCMON_OK);
    assert_int_equal(socmon_region_end(NULL, "x"), SOCMON_OK);
    assert_int_equal(socmon_regions_close(NULL), SOCMON_OK);
    SOCMON_REGION_BEGIN(NULL, "compiled out");
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .paranoid = 2};
    smn_perf_model_new(&mo, &m);
    socmon_regions_opts o = {.path = path, .events = "cycles:u", .sys = smn_perf_model_sys(m)};
    socmon_regions *r;
    assert_int_equal(socmon_regions_open(&o, &r), SOCMON_OK);
    for (int i = 0; i < SOCMON_REGION_DEPTH; i++)
        assert_int_equal(socmon_region_begin(r, "deep"), SOCMON_OK);
    assert_int_equal(socmon_region_begin(r, "deep"), SOCMON_ERANGE);
    /* closing with regions open: the error names one, the file is still written */
    assert_int_equal(socmon_regions_close(r), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "'deep' is still open"));
    assert_int_equal(access(path, R_OK), 0);
    smn_perf_model_free(m);
    socmon_regions_opts none = {.path = NULL, .events = NULL, .sys = NULL};
    assert_int_equal(socmon_regions_open(&none, &r), SOCMON_EINVAL);
    socmon_regions_opts badev = {.path = path, .events = "nope", .sys = NULL};
    assert_int_equal(socmon_regions_open(&badev, &r), SOCMON_ENOENT);
}

#define NTHREADS 4
#define NCALLS 1000

static void *worker(void *p)
{
    socmon_regions *r = p;
    for (int i = 0; i < NCALLS; i++) {
        if (socmon_region_begin(r, "work") != SOCMON_OK || socmon_region_begin(r, "step") != SOCMON_OK ||
            socmon_region_end(r, "step") != SOCMON_OK || socmon_region_end(r, "work") != SOCMON_OK)
            return (void *)1;
    }
    return NULL;
}

/* Threads on the real kernel: calls exact, task-clock of the outer region at least the inner's. */
static void threads_real_kernel(void **state)
{
    (void)state;
    socmon_regions_opts o = {.path = path, .events = "task-clock,page-faults", .sys = NULL};
    socmon_regions *r;
    socmon_status st = socmon_regions_open(&o, &r);
    assert_int_equal(st, SOCMON_OK);
    if (socmon_region_begin(r, "probe") == SOCMON_ENOTSUP) {
        socmon_regions_close(r);
        skip(); /* no perf_event_open here (qemu-user) */
    }
    socmon_region_end(r, "probe");
    pthread_t th[NTHREADS];
    for (int i = 0; i < NTHREADS; i++)
        assert_int_equal(pthread_create(&th[i], NULL, worker, r), 0);
    for (int i = 0; i < NTHREADS; i++) {
        void *ret;
        pthread_join(th[i], &ret);
        assert_null(ret);
    }
    assert_int_equal(socmon_regions_close(r), SOCMON_OK);
    socmon_recording *rec;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    assert_int_equal(total(rec, "work", "calls"), NTHREADS * NCALLS);
    assert_int_equal(total(rec, "step", "calls"), NTHREADS * NCALLS);
    assert_true(total(rec, "work", "task_clock") >= total(rec, "step", "task_clock"));
    assert_true(total(rec, "work", "time_ns") >= total(rec, "step", "time_ns"));
    socmon_recording_free(rec);
}

static size_t open_fds(void)
{
    size_t n = 0;
    DIR *d = opendir("/proc/self/fd");
    if (!d)
        return 0;
    while (readdir(d))
        n++;
    closedir(d);
    return n;
}

static void *one_region(void *p)
{
    socmon_regions *r = p;
    if (socmon_region_begin(r, "task") != SOCMON_OK || socmon_region_end(r, "task") != SOCMON_OK)
        return (void *)1;
    return NULL;
}

#define NCHURN 300

/* A thread per task, one after another: an exited thread's perf events are closed (300 threads
 * with two events each would otherwise hold 600 fds) and its counts are still in the totals. */
static void thread_churn(void **state)
{
    (void)state;
    socmon_regions_opts o = {.path = path, .events = "task-clock,page-faults", .sys = NULL};
    socmon_regions *r;
    assert_int_equal(socmon_regions_open(&o, &r), SOCMON_OK);
    if (socmon_region_begin(r, "probe") == SOCMON_ENOTSUP) {
        socmon_regions_close(r);
        skip(); /* no perf_event_open here (qemu-user) */
    }
    socmon_region_end(r, "probe");
    size_t before = open_fds();
    for (int i = 0; i < NCHURN; i++) {
        pthread_t th;
        void *ret;
        assert_int_equal(pthread_create(&th, NULL, one_region, r), 0);
        pthread_join(th, &ret);
        assert_null(ret);
    }
    size_t after = open_fds();
    if (after > before + 8)
        fail_msg("%d exited threads left %zu fds open (%zu -> %zu)", NCHURN, after - before, before, after);
    assert_int_equal(socmon_regions_close(r), SOCMON_OK);
    socmon_recording *rec;
    assert_int_equal(socmon_recording_load(path, &rec), SOCMON_OK);
    assert_int_equal(total(rec, "task", "calls"), NCHURN);
    assert_int_equal(total(rec, "probe", "calls"), 1);
    socmon_recording_free(rec);
}

static void from_env(void **state)
{
    (void)state;
    socmon_regions *r = (socmon_regions *)1;
    unsetenv("SOCMON_REGIONS");
    assert_int_equal(socmon_regions_open_env(&r), SOCMON_OK);
    assert_null(r);
    setenv("SOCMON_REGIONS", path, 1);
    setenv("SOCMON_REGIONS_EVENTS", "task-clock", 1);
    assert_int_equal(socmon_regions_open_env(&r), SOCMON_OK);
    assert_non_null(r);
    assert_int_equal(socmon_regions_close(r), SOCMON_OK);
    unsetenv("SOCMON_REGIONS");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(nesting_exact, setup, teardown),
        cmocka_unit_test_setup_teardown(depth_and_null, setup, teardown),
        cmocka_unit_test_setup_teardown(threads_real_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(thread_churn, setup, teardown),
        cmocka_unit_test_setup_teardown(from_env, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
