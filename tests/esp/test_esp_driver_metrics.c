/* metrics/esp.json bound to the ESP device's schema: each derived metric
 * from deltas chosen so the answer is known. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/esp/esp_driver.h"
#include "models/esp/esp_soc.h"
#include "socmon/socmon.h"

typedef struct fx {
    socmon_esp_soc *soc;
    socmon_bus *bus;
    socmon_device *dev;
    socmon_counter *ctr;
    const char **pn;
    double *pv;
    socmon_metrics *m;
    socmon_metricset *ms;
    uint64_t *delta;
    double *out;
    size_t n;
} fx;

static fx f;

static int setup(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    assert_int_equal(socmon_bus_model_new(&f.bus), SOCMON_OK);
    assert_int_equal(smn_esp_soc_new(&d, &f.soc), SOCMON_OK);
    assert_int_equal(smn_esp_soc_map(f.soc, f.bus), SOCMON_OK);
    assert_int_equal(smn_esp_device_new(f.bus, &d, "esp", 1, &f.dev), SOCMON_OK);
    f.n = socmon_device_ncounters(f.dev);
    f.ctr = calloc(f.n, sizeof *f.ctr);
    for (size_t i = 0; i < f.n; i++)
        f.ctr[i] = *socmon_device_counter(f.dev, i);
    size_t np = socmon_device_nparams(f.dev);
    f.pn = calloc(np, sizeof *f.pn);
    f.pv = calloc(np, sizeof *f.pv);
    for (size_t i = 0; i < np; i++)
        assert_int_equal(socmon_device_param_at(f.dev, i, &f.pn[i], &f.pv[i]), SOCMON_OK);
    const char *text = socmon_builtin_metrics("esp");
    assert_non_null(text);
    assert_int_equal(socmon_metricset_load_string(text, "esp.json", &f.ms), SOCMON_OK);
    socmon_metric_schema sc = {.ncounters = f.n, .counters = f.ctr, .nparams = np,
        .param_names = f.pn, .param_values = f.pv};
    if (socmon_metrics_bind(f.ms, &sc, &f.m) != SOCMON_OK)
        fail_msg("bind: %s", socmon_errmsg());
    f.delta = calloc(f.n, sizeof *f.delta);
    f.out = calloc(socmon_metrics_nresults(f.m), sizeof *f.out);
    return 0;
}

static int teardown(void **state)
{
    socmon_metrics_free(f.m);
    socmon_metricset_free(f.ms);
    free(f.delta);
    free(f.out);
    free(f.ctr);
    free(f.pn);
    free(f.pv);
    socmon_device_free(f.dev);
    socmon_bus_free(f.bus);
    smn_esp_soc_free(f.soc);
    return 0;
}

static void set(const char *name, uint64_t v)
{
    uint32_t i;
    if (socmon_device_find(f.dev, name, &i) != SOCMON_OK)
        fail_msg("no counter %s", name);
    f.delta[i] = v;
}

static double get(const char *metric, const char *inst)
{
    for (size_t i = 0; i < socmon_metrics_nresults(f.m); i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(f.m, i);
        if (!strcmp(r->def->name, metric) && !strcmp(r->instance, inst))
            return f.out[i];
    }
    fail_msg("no result %s for '%s'", metric, inst);
    return NAN;
}

static int has(const char *metric, const char *inst)
{
    for (size_t i = 0; i < socmon_metrics_nresults(f.m); i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(f.m, i);
        if (!strcmp(r->def->name, metric) && !strcmp(r->instance, inst))
            return 1;
    }
    return 0;
}

static void test_metrics(void **state)
{
    const double interval = 0.001, clk = 78e6;
    memset(f.delta, 0, f.n * sizeof *f.delta);
    set("tile0.l2_hits", 3);
    set("tile0.l2_misses", 1);
    set("tile2.l2_hits", 1);
    set("tile2.l2_misses", 3);
    set("tile1.llc_hits", 9);
    set("tile1.llc_misses", 1);
    set("tile1.ddr_accesses", 5000);
    set("tile1.coh_reqs", 7);
    set("tile1.dma_reqs", 11);
    set("tile1.dma_rsps", 11);
    set("tile3.acc_tot_cycles", (uint64_t)(clk * interval / 2));   /* 50 % busy */
    set("tile3.acc_mem_cycles", (uint64_t)(clk * interval / 8));   /* 25 % of that */
    set("tile3.acc_invocations", 2);
    set("tile4.acc_tot_cycles", (uint64_t)(clk * interval));       /* 100 % busy */
    set("tile0.noc_inj_p3", 40);
    set("tile5.noc_inj_p3", 2);
    set("tile4.noc_stop_p2_east", 100);
    set("tile5.noc_stop_p2_east", 50);
    set("tile0.noc_stop_p1_north", 10);
    assert_int_equal(socmon_metrics_eval(f.m, f.delta, interval, f.out), SOCMON_OK);

    assert_true(fabs(get("l2_hit_rate", "tile0") - 75) < 1e-9);
    assert_true(fabs(get("l2_hit_rate", "tile2") - 25) < 1e-9);
    assert_false(has("l2_hit_rate", "tile3"));      /* no L2 there */
    assert_true(fabs(get("l2_hit_rate_all", "") - 50) < 1e-9);
    assert_true(fabs(get("llc_hit_rate", "tile1") - 90) < 1e-9);
    assert_true(fabs(get("ddr_rate", "tile1") - 5) < 1e-9);
    assert_true(get("ddr_accesses_total", "") == 5000);
    assert_true(get("coh_traffic", "") == 7);
    assert_true(get("dma_traffic", "") == 22);
    assert_true(fabs(get("acc_util", "tile3") - 50) < 1e-6);
    assert_true(fabs(get("acc_util", "tile4") - 100) < 1e-6);
    assert_true(get("acc_util", "tile2") == 0);
    assert_true(fabs(get("acc_comm_share", "tile3") - 25) < 1e-6);
    assert_true(isnan(get("acc_comm_share", "tile2")));   /* idle: undefined, shown "-" */
    assert_true(fabs(get("acc_util_avg", "") - 50) < 1e-6);
    assert_true(get("acc_runs", "tile3") == 2);
    assert_true(get("noc_inj_plane3", "") == 42);
    assert_true(get("noc_injections", "tile0") == 40);
    assert_true(get("noc_backpressure", "tile4") == 100);
    assert_true(get("noc_bp_total", "") == 160);
    assert_true(get("noc_bp_plane2", "") == 150);
    assert_true(get("noc_bp_hot_plane", "") == 2);
    assert_true(get("noc_bp_east", "") == 150);
    assert_true(get("noc_bp_hot_dir", "") == 1);   /* local, east, ... */
}

static void test_no_backpressure_has_no_hot_spot(void **state)
{
    memset(f.delta, 0, f.n * sizeof *f.delta);
    set("tile0.noc_inj_p3", 40);
    assert_int_equal(socmon_metrics_eval(f.m, f.delta, 0.001, f.out), SOCMON_OK);
    /* argmax of all zeros would name plane 0 and "local": a false hot spot. */
    assert_true(isnan(get("noc_bp_hot_plane", "")));
    assert_true(isnan(get("noc_bp_hot_dir", "")));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_metrics),
        cmocka_unit_test(test_no_backpressure_has_no_hot_spot),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
