/* metrics/zynq.json: the SPA formulas on hand-computed deltas. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>

#include "zynq/zynq_metrics_helper.h"

typedef struct fx {
    socmon_target *t;
    socmon_set *set;
    zm z;
    uint64_t d[64];
} fx;

static int open_spec(void **state, const char *spec)
{
    fx *f = calloc(1, sizeof *f);
    assert_int_equal(socmon_target_open(spec, &f->t), SOCMON_OK);
    assert_int_equal(socmon_set_new(socmon_target_device(f->t), NULL, &f->set), SOCMON_OK);
    assert_true(socmon_set_size(f->set) <= 64);
    assert_int_equal(zm_bind(&f->z, f->set), SOCMON_OK);
    *state = f;
    return 0;
}

static int setup(void **state)
{
    return open_spec(state, "zynq:slots=2");
}

static int setup_div64(void **state)
{
    return open_spec(state, "zynq:slots=2,ccnt_div=64");
}

static int teardown(void **state)
{
    fx *f = *state;
    zm_free(&f->z);
    socmon_set_free(f->set);
    socmon_target_close(f->t);
    free(f);
    return 0;
}

static void put(fx *f, const char *name, uint64_t v)
{
    for (size_t i = 0; i < socmon_set_size(f->set); i++)
        if (!strcmp(socmon_set_full_name(f->set, i), name)) {
            f->d[i] = v;
            return;
        }
    fail_msg("no counter %s", name);
}

static double get(fx *f, const char *metric, const char *inst)
{
    int i = zm_find(&f->z, metric, inst);
    if (i < 0)
        fail_msg("no metric %s for '%s'", metric, inst);
    return f->z.out[i];
}

static void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-6 * fabs(want) + 1e-12))
        fail_msg("got %.12g, want %.12g", got, want);
}

static void fill(fx *f, uint64_t ccnt)
{
    put(f, "slot0.wr_bytes", 5000000);      /* 100 MB/s over 50 ms */
    put(f, "slot0.wr_txns", 20000);
    put(f, "slot0.wr_lat", 1000000);        /* 50 cycles = 250 ns at 200 MHz */
    put(f, "slot0.rd_bytes", 12800000);     /* 256 MB/s */
    put(f, "slot0.rd_txns", 100000);
    put(f, "slot0.rd_lat", 7000000);        /* 70 cycles = 350 ns */
    put(f, "slot1.wr_bytes", 2500000);      /* 50 MB/s */
    put(f, "cpu0.ccnt", ccnt);
    put(f, "cpu0.inst_rename", 12500000);
    put(f, "cpu0.l1d_access", 4000000);
    put(f, "cpu0.l1d_refill", 200000);
    put(f, "cpu0.dcache_dep_stall", 2500000);
    put(f, "cpu0.mem_write_stall", 1250000);
    put(f, "cpu0.br_mis_pred", 25000);
}

static void test_pl_metrics(void **state)
{
    fx *f = *state;
    fill(f, 16666667);
    assert_int_equal(socmon_metrics_eval(f->z.m, f->d, 0.05, f->z.out), SOCMON_OK);
    close_to(get(f, "wr_throughput", "slot0"), 100);
    close_to(get(f, "rd_throughput", "slot0"), 256);
    close_to(get(f, "wr_transactions", "slot0"), 20000);
    close_to(get(f, "rd_transactions", "slot0"), 100000);
    close_to(get(f, "avg_wr_latency", "slot0"), 50);
    close_to(get(f, "avg_rd_latency", "slot0"), 70);
    close_to(get(f, "avg_wr_latency_ns", "slot0"), 250);
    close_to(get(f, "avg_rd_latency_ns", "slot0"), 350);
    close_to(get(f, "wr_throughput", "slot1"), 50);
    close_to(get(f, "pl_wr_throughput", ""), 150);
    close_to(get(f, "pl_rd_throughput", ""), 256);
    close_to(get(f, "pl_rd_latency_ns", ""), 350);
    /* no transactions: latency undefined, not 0 */
    assert_true(isnan(get(f, "avg_rd_latency", "slot1")));
    /* PL metrics do not exist for CPU instances */
    assert_int_equal(zm_find(&f->z, "wr_throughput", "cpu0"), -1);
}

static void test_ps_metrics(void **state)
{
    fx *f = *state;
    fill(f, 16666667);
    assert_int_equal(socmon_metrics_eval(f->z.m, f->d, 0.05, f->z.out), SOCMON_OK);
    /* 100 * dCCNT / (2 * dRef), dRef = 0.05 s of the 333.33 MHz global timer */
    close_to(get(f, "cpu_util", "cpu0"), 100.0 * 16666667 / (2 * 0.05 * 666666667.0 / 2));
    close_to(get(f, "ipc", "cpu0"), 12500000.0 / 16666667);
    close_to(get(f, "l1d_miss_rate", "cpu0"), 5);
    close_to(get(f, "l1d_access_per_ms", "cpu0"), 80000);
    close_to(get(f, "rd_stall_cpi", "cpu0"), 0.2);
    close_to(get(f, "wr_stall_cpi", "cpu0"), 0.1);
    close_to(get(f, "br_mpki", "cpu0"), 2);
    close_to(get(f, "cpu_util", "cpu1"), 0);
    /* device-wide PS figures: mean utilisation, aggregate IPC and miss rate */
    close_to(get(f, "ps_cpu_util", ""), get(f, "cpu_util", "cpu0") / 2);
    close_to(get(f, "ps_ipc", ""), 12500000.0 / 16666667);
    close_to(get(f, "ps_l1d_miss_rate", ""), 5);
    assert_true(isnan(get(f, "ipc", "cpu1")));
    assert_int_equal(zm_find(&f->z, "ipc", "slot0"), -1);
}

static void test_ps_metrics_with_divider(void **state)
{
    fx *f = *state;
    double p = 0;
    assert_int_equal(socmon_device_param(socmon_target_device(f->t), "pmu_ccnt_div", &p), SOCMON_OK);
    assert_true(p == 64);
    fill(f, 260417);   /* 16666688 cycles / 64 */
    assert_int_equal(socmon_metrics_eval(f->z.m, f->d, 0.05, f->z.out), SOCMON_OK);
    close_to(get(f, "cpu_util", "cpu0"), 100.0 * 260417 * 64 / (0.05 * 666666667.0));
    close_to(get(f, "ipc", "cpu0"), 12500000.0 / (260417.0 * 64));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_pl_metrics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ps_metrics, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ps_metrics_with_divider, setup_div64, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
