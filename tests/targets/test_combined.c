/* Several targets on one clock (socmon_target_combine): two models advanced together count
 * exactly what each counts alone; a real member paces the models (their simulated time is the
 * shared clock's elapsed time, exactly); a counter-name collision is an error naming it and
 * the members stay the caller's; the combined metrics rename a colliding metric. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "socmon/sampler.h"
#include "socmon/socmon.h"

static void read_all(socmon_device *d, uint64_t *v)
{
    size_t n = socmon_device_ncounters(d);
    uint32_t *idx = malloc(n * sizeof *idx);
    for (size_t i = 0; i < n; i++)
        idx[i] = (uint32_t)i;
    assert_int_equal(socmon_device_read(d, idx, n, v), SOCMON_OK);
    free(idx);
}

static void models_together_exact(void **state)
{
    (void)state;
    socmon_target *e, *z;
    assert_int_equal(socmon_target_open("esp", &e), SOCMON_OK);
    assert_int_equal(socmon_target_open("zynq", &z), SOCMON_OK);
    size_t ne = socmon_device_ncounters(socmon_target_device(e)), nz = socmon_device_ncounters(socmon_target_device(z));
    uint64_t *alone = calloc(ne + nz, sizeof *alone), *both = calloc(ne + nz, sizeof *both);
    int done;
    assert_int_equal(socmon_target_advance(e, 3000000, &done), SOCMON_OK);
    assert_int_equal(socmon_target_advance(z, 3000000, &done), SOCMON_OK);
    read_all(socmon_target_device(e), alone);
    read_all(socmon_target_device(z), alone + ne);
    socmon_target_close(e);
    socmon_target_close(z);

    socmon_target *m[2], *c;
    assert_int_equal(socmon_target_open("esp", &m[0]), SOCMON_OK);
    assert_int_equal(socmon_target_open("zynq", &m[1]), SOCMON_OK);
    assert_int_equal(socmon_target_combine(m, 2, &c), SOCMON_OK);
    assert_string_equal(socmon_target_spec(c), "esp;zynq");
    assert_false(socmon_target_is_hardware(c));
    assert_int_equal(socmon_device_ncounters(socmon_target_device(c)), ne + nz);
    for (int k = 0; k < 3; k++) /* other steps, same time: the models are step-size invariant */
        assert_int_equal(socmon_target_advance(c, 1000000, &done), SOCMON_OK);
    read_all(socmon_target_device(c), both);
    assert_memory_equal(alone, both, (ne + nz) * sizeof *alone);
    assert_int_equal(socmon_target_now_ns(c), 3000000);
    socmon_metricset *ms;
    assert_int_equal(socmon_target_metrics(c, &ms), SOCMON_OK);
    socmon_metricset_free(ms);
    socmon_target_close(c);
    free(alone);
    free(both);
}

/* a real target with one counter that does nothing: paces whatever it is combined with */
static socmon_status rt_read(void *d, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)d, (void)idx;
    memset(out, 0, n * sizeof *out);
    return SOCMON_OK;
}
static socmon_status rt_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv, void **priv,
                             socmon_device **dev)
{
    (void)self, (void)kv, (void)nkv;
    static const socmon_device_ops ops = {.read = rt_read, .destroy = NULL};
    socmon_status st = socmon_device_new("rt", &ops, NULL, dev);
    socmon_counter c = {.name = "ticks", .instance = "", .desc = "nothing", .unit = "events",
        .width = 64, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
    if (st == SOCMON_OK)
        st = socmon_device_add_counter(*dev, &c, NULL);
    *priv = *dev;
    return st;
}
static socmon_status rt_advance(void *p, uint64_t ns, int *done)
{
    (void)p, (void)ns;
    *done = 0;
    return SOCMON_OK;
}
static uint64_t rt_now(void *p)
{
    (void)p;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
static void rt_close(void *p)
{
    socmon_device_free(p);
}
static const socmon_target_ops rt_ops = {.name = "rt", .desc = "a real clock", .simulated = 0,
    .open = rt_open,
                                         .advance = rt_advance, .now_ns = rt_now, .close = rt_close};

static void real_member_paces_models(void **state)
{
    (void)state;
    socmon_target *m[2], *c;
    assert_int_equal(socmon_target_open_ops(&rt_ops, NULL, 0, &m[0]), SOCMON_OK);
    assert_int_equal(socmon_target_open("esp", &m[1]), SOCMON_OK);
    socmon_target *esp = m[1];
    assert_int_equal(socmon_target_combine(m, 2, &c), SOCMON_OK);
    assert_true(socmon_target_is_hardware(c));
    socmon_set *set;
    assert_int_equal(socmon_set_new(socmon_target_device(c), NULL, &set), SOCMON_OK);
    socmon_sampler_opts so = {.interval_ns = 1000000, .duration_ns = 4000000, .realtime = 0,
        .max_intervals = 0}; /* inside the default workload (6.4 ms) */
    uint64_t t0 = socmon_target_now_ns(esp), r0 = rt_now(NULL);
    assert_int_equal(socmon_sampler_run(c, set, &so, NULL, NULL, NULL, NULL), SOCMON_OK);
    /* the model ran exactly the run's 4 ms of the shared clock, which took at least that long */
    assert_int_equal(socmon_target_now_ns(esp) - t0, 4000000);
    assert_true(rt_now(NULL) - r0 >= 4000000);
    socmon_set_free(set);
    socmon_target_close(c);
}

static void collisions(void **state)
{
    (void)state;
    socmon_target *m[2], *c = (socmon_target *)1;
    assert_int_equal(socmon_target_open("esp", &m[0]), SOCMON_OK);
    assert_int_equal(socmon_target_open("esp", &m[1]), SOCMON_OK);
    assert_int_equal(socmon_target_combine(m, 2, &c), SOCMON_EINVAL);
    assert_null(c);
    assert_non_null(strstr(socmon_errmsg(), "tile0.l2_hits"));
    /* the members are still the caller's: closing them is what frees them (ASan checks) */
    socmon_target_close(m[0]);
    socmon_target_close(m[1]);
    assert_int_equal(socmon_target_combine(m, 1, &c), SOCMON_EINVAL);
    /* metrics: zynq's ipc follows host's, so it is renamed zynq_ipc */
    socmon_metricset *ms;
    assert_int_equal(socmon_metrics_for_spec("host;zynq:access_ns=0", &ms), SOCMON_OK);
    int ipc = 0, zipc = 0;
    for (size_t i = 0; i < socmon_metricset_count(ms); i++) {
        ipc += strcmp(socmon_metricset_def(ms, i)->name, "ipc") == 0;
        zipc += strcmp(socmon_metricset_def(ms, i)->name, "zynq_ipc") == 0;
    }
    assert_int_equal(ipc, 1);
    assert_int_equal(zipc, 1);
    socmon_metricset_free(ms);
    assert_int_equal(socmon_metrics_for_spec("nosuch;nope", &ms), SOCMON_ENOENT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(models_together_exact), cmocka_unit_test(real_member_paces_models),
        cmocka_unit_test(collisions),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
