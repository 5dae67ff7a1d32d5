/* The monitor framework measures back what the traffic and CPU models were
 * configured to do: the target runs under the interval sampler, the metrics
 * engine computes the SPA metrics from the deltas, every interval within 1%. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>

#include "models/zynq/zynq_model.h"
#include "zynq/zynq_metrics_helper.h"

typedef struct expect {
    zm z;
    unsigned nslots;
    double wr_mbps, rd_mbps, lat_ns;
    double util0, ipc0;    /* expected for cpu0, < 0 to skip */
    unsigned intervals;
} expect;

static void near(double got, double want, const char *what, const char *inst)
{
    if (!(fabs(got - want) <= 0.01 * want)) {
        print_error("%s %s: got %g, want %g (+-1%%)\n", what, inst, got, want);
        fail();
    }
}

static socmon_status check(void *user, const socmon_sample *prev, const socmon_sample *cur,
                           const uint64_t *deltas)
{
    expect *e = user;
    double dt = (double)(cur->t_ns - prev->t_ns) / 1e9;
    assert_int_equal(socmon_metrics_eval(e->z.m, deltas, dt, e->z.out), SOCMON_OK);
    for (unsigned s = 0; s < e->nslots; s++) {
        char inst[16];
        snprintf(inst, sizeof inst, "slot%u", s);
        int w = zm_find(&e->z, "wr_throughput", inst), r = zm_find(&e->z, "rd_throughput", inst);
        int wl = zm_find(&e->z, "avg_wr_latency_ns", inst);
        int rl = zm_find(&e->z, "avg_rd_latency_ns", inst);
        assert_true(w >= 0 && r >= 0 && wl >= 0 && rl >= 0);
        near(e->z.out[w], e->wr_mbps, "wr_throughput", inst);
        near(e->z.out[r], e->rd_mbps, "rd_throughput", inst);
        near(e->z.out[wl], e->lat_ns, "avg_wr_latency_ns", inst);
        near(e->z.out[rl], e->lat_ns, "avg_rd_latency_ns", inst);
    }
    if (e->util0 >= 0) {
        near(e->z.out[zm_find(&e->z, "cpu_util", "cpu0")], e->util0, "cpu_util", "cpu0");
        near(e->z.out[zm_find(&e->z, "ipc", "cpu0")], e->ipc0, "ipc", "cpu0");
    }
    e->intervals++;
    return SOCMON_OK;
}

static void run(const char *spec, uint64_t interval_ns, expect *e, unsigned want_intervals)
{
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    assert_int_equal(socmon_target_open(spec, &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "steady"), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(t), NULL, &set), SOCMON_OK);
    assert_int_equal(zm_bind(&e->z, set), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = interval_ns, .duration_ns = 0, .realtime = 0,
        .max_intervals = 0};
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, check, e, &st), SOCMON_OK);
    assert_int_equal(e->intervals, want_intervals);
    assert_int_equal(st.missed, 0);
    zm_free(&e->z);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_bandwidth_and_latency_within_1pct(void **state)
{
    (void)state;
    expect e = {.nslots = 5, .wr_mbps = 300, .rd_mbps = 700, .lat_ns = 400,
                .util0 = 80, .ipc0 = 0.7};
    run("zynq:wr_mbps=300,rd_mbps=700,lat_ns=400,burst=256,duration_ms=1000", 50000000, &e, 20);
}

static void test_jittered_latency_within_1pct(void **state)
{
    (void)state;
    /* latencies drawn uniformly in 300 +- 100 ns: the mean is what SPA reports */
    expect e = {.nslots = 1, .wr_mbps = 250, .rd_mbps = 500, .lat_ns = 300, .util0 = 80,
                .ipc0 = 0.7};
    run("zynq:slots=1,wr_mbps=250,rd_mbps=500,lat_ns=300,jitter_ns=100,duration_ms=300",
        50000000, &e, 6);
}

static void test_counters_wrap_between_samples(void **state)
{
    (void)state;
    /* 1500 MB/s of reads wraps the 32-bit byte counter every 2.9 s and core 0's
     * CCNT (533 M non-idle cycles/s) wraps after 8.05 s: a 9 s run wraps them
     * three times and once, and every interval still measures what was set */
    expect e = {.nslots = 1, .wr_mbps = 100, .rd_mbps = 1500, .lat_ns = 200, .util0 = 80,
                .ipc0 = 0.7};
    run("zynq:slots=1,wr_mbps=100,rd_mbps=1500,lat_ns=200,duration_ms=9000", 250000000, &e, 36);
}

static void test_divided_ccnt_gives_same_metrics(void **state)
{
    (void)state;
    expect e = {.nslots = 1, .wr_mbps = 400, .rd_mbps = 800, .lat_ns = 250, .util0 = 80,
                .ipc0 = 0.7};
    run("zynq:slots=1,ccnt_div=64,duration_ms=500", 50000000, &e, 10);
}

/* Counting a whole step at once must give exactly what playing every cycle
 * gives. */
static void test_bulk_equals_cycle_by_cycle(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    socmon_zynq_soc *a, *b;
    socmon_bus *ba, *bb;
    assert_int_equal(smn_zynq_soc_new(&d, &a), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_new(&d, &b), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&ba), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&bb), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(a, ba), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(b, bb), SOCMON_OK);
    uint64_t ctl = SOCMON_ZYNQ_APM_DEFAULT_BASE + A_ZAPM_CTL;
    assert_int_equal(socmon_bus_write32(ba, ctl, R_ZAPM_CTL_MCNTR_EN_MASK | 0x50), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(bb, ctl, R_ZAPM_CTL_MCNTR_EN_MASK | 0x50), SOCMON_OK);
    socmon_zynq_traffic t0 = {.wr_mbps = 400, .rd_mbps = 800, .burst_bytes = 128, .lat_ns = 250,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0}, t1 = {333, 1000, 64, 415, 0, 0, 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(a, 0, &t0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_set_traffic(b, 0, &t0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_set_traffic(a, 1, &t1), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_set_traffic(b, 1, &t1), SOCMON_OK);
    for (int round = 0; round < 3; round++) {
        assert_int_equal(socmon_zynq_soc_advance(a, 30000 + 10 * (uint64_t)round, NULL), SOCMON_OK);
        for (int i = 0; i < 6000 + 2 * round; i++)
            assert_int_equal(socmon_zynq_soc_advance(b, 5, NULL), SOCMON_OK);
        assert_int_equal(socmon_zynq_soc_now_ns(a), socmon_zynq_soc_now_ns(b));
        for (unsigned k = 0; k < 12; k++) {
            if (smn_zynq_apm_peek(a, k) != smn_zynq_apm_peek(b, k))
                print_error("round %d counter %u: %u vs %u\n", round, k,
                            smn_zynq_apm_peek(a, k), smn_zynq_apm_peek(b, k));
            assert_int_equal(smn_zynq_apm_peek(a, k), smn_zynq_apm_peek(b, k));
        }
    }
    assert_true(smn_zynq_apm_peek(a, 6 + SOCMON_ZAPM_RD_TXNS) > 1000);
    socmon_bus_free(ba);
    socmon_bus_free(bb);
    smn_zynq_soc_free(a);
    smn_zynq_soc_free(b);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bandwidth_and_latency_within_1pct),
        cmocka_unit_test(test_jittered_latency_within_1pct),
        cmocka_unit_test(test_counters_wrap_between_samples),
        cmocka_unit_test(test_divided_ccnt_gives_same_metrics),
        cmocka_unit_test(test_bulk_equals_cycle_by_cycle),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
