/* The APM driver and the "zynq" target in Advanced mode: selections (given
 * and default), what the device reads on known traffic, count scale, the
 * global clock counter, metrics binding, and the target's options.
 *
 * Traffic as in test_zynq_apm_adv.c: slot 0 writes 128-byte bursts every 64
 * cycles, reads every 32, 50-cycle latency, 200 MHz; by cycle 6400 100
 * writes and 200 reads issued, 100 writes and 199 reads done. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drivers/zynq/zynq_drv.h"
#include "models/zynq/zynq_model.h"
#include "zynq/zynq_metrics_helper.h"

typedef struct fx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
    socmon_device *dev;
} fx;

static void make(fx *f, unsigned scale, const smn_zapm_config *ac_in)
{
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.apm.scale = scale;
    assert_int_equal(smn_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    /* exact counts over exactly the advanced time: accesses take no time (issue 13) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    assert_int_equal(smn_zapm_device_new(f->bus, d.apm_base, ac_in, &f->dev), SOCMON_OK);
    socmon_zynq_traffic t = {.wr_mbps = 400, .rd_mbps = 800, .burst_bytes = 128, .lat_ns = 250,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 0, &t), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_advance(f->soc, 6400 * 5, NULL), SOCMON_OK);
}

static void unmake(fx *f)
{
    socmon_device_free(f->dev);
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
}

static uint64_t get(fx *f, const char *name)
{
    uint32_t i;
    uint64_t v = 0;
    if (socmon_device_find(f->dev, name, &i) != SOCMON_OK)
        fail_msg("no counter %s", name);
    assert_int_equal(socmon_device_read(f->dev, &i, 1, &v), SOCMON_OK);
    return v;
}

static void test_given_selection_end_to_end(void **state)
{
    (void)state;
    fx f;
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .bus_width_bytes = 8,
                             .mode = SOCMON_ZAPM_ADVANCED, .ncounters = 10, .nsel = 6,
                             .sel = {{0, 0}, {0, 2}, {0, 4}, {0, 13}, {0, 3}, {1, 0}},
                             .gcc_width = 64};
    make(&f, 1, &ac);
    assert_int_equal(socmon_device_ncounters(f.dev), 7);
    assert_int_equal(get(&f, "slot0.wr_txns"), 100);
    assert_int_equal(get(&f, "slot0.wr_bytes"), 100 * 128);
    assert_int_equal(get(&f, "slot0.wr_beats"), 100 * 16);
    assert_int_equal(get(&f, "slot0.wr_lat_max"), 50);
    assert_int_equal(get(&f, "slot0.rd_bytes"), 199 * 128);
    assert_int_equal(get(&f, "slot1.wr_txns"), 0);
    /* GCC enabled at the driver's programming (time 0), read hi-lo-hi */
    assert_int_equal(get(&f, "apm.gcc"), 6400);
    uint32_t i;
    assert_int_equal(socmon_device_find(f.dev, "apm.gcc", &i), SOCMON_OK);
    assert_int_equal(socmon_device_counter(f.dev, i)->width, 64);
    assert_int_equal(socmon_device_counter(f.dev, 0)->width, 32);
    /* latency counters bound their rate at 32 outstanding x clock */
    assert_true(socmon_device_counter(f.dev, 1)->max_rate_hz == 200e6 * 8);
    unmake(&f);
}

static void test_default_selection(void **state)
{
    (void)state;
    smn_zapm_sel sel[SOCMON_ZAPM_MAX_SEL];
    /* slot 0's SPA six, then slot 1's bytes and transactions */
    assert_int_equal(smn_zapm_default_sel(3, 10, sel), 10);
    static const char *want[10] = {"wr_bytes", "wr_txns", "wr_lat", "rd_bytes", "rd_txns",
                                   "rd_lat", "wr_bytes", "rd_bytes", "wr_txns", "rd_txns"};
    for (unsigned k = 0; k < 10; k++) {
        assert_string_equal(smn_zapm_metric_name(sel[k].metric), want[k]);
        assert_int_equal(sel[k].slot, k < 6 ? 0 : 1);
    }
    assert_int_equal(smn_zapm_default_sel(1, 10, sel), 6);    /* one slot: six */
    assert_int_equal(smn_zapm_default_sel(3, 4, sel), 4);
    assert_null(smn_zapm_metric_name(23));
    assert_string_equal(smn_zapm_metric_name(30), "ext_events");
    fx f;
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .mode = SOCMON_ZAPM_ADVANCED};
    make(&f, 1, &ac);
    assert_int_equal(socmon_device_ncounters(f.dev), 10);
    assert_int_equal(get(&f, "slot0.wr_lat"), 100 * 50);
    assert_int_equal(get(&f, "slot0.rd_txns"), 200);
    assert_int_equal(get(&f, "slot1.rd_bytes"), 0);
    unmake(&f);
}

static void test_scale_widens_counters(void **state)
{
    /* scale 4: the register shows accumulator / 4 (spec §1.7); the driver
     * hands out register * 4 over 34 bits, so deltas are in bytes */
    (void)state;
    fx f;
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .mode = SOCMON_ZAPM_ADVANCED,
                             .nsel = 2, .sel = {{0, 2}, {0, 0}}, .scale = 4};
    make(&f, 4, &ac);
    assert_int_equal(socmon_device_counter(f.dev, 0)->width, 34);
    assert_int_equal(get(&f, "slot0.wr_bytes"), 100 * 128);
    assert_int_equal(get(&f, "slot0.wr_txns"), 100);
    unmake(&f);
}

static void test_live_counters_without_sampled(void **state)
{
    (void)state;
    fx f;
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .mode = SOCMON_ZAPM_ADVANCED,
                             .nsel = 1, .sel = {{0, 1}}, .no_sampled = 1};
    make(&f, 1, &ac);
    assert_int_equal(socmon_device_counter(f.dev, 0)->reg,
                     SOCMON_ZYNQ_APM_DEFAULT_BASE + zapm_adv_mc_offset(0));
    assert_int_equal(get(&f, "slot0.rd_txns"), 200);
    unmake(&f);
}

static void config_fails(const smn_zapm_config *ac, socmon_status want, const char *needle)
{
    socmon_bus *bus;
    socmon_device *dev = NULL;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(smn_zapm_device_new(bus, 0, ac, &dev), want);
    assert_null(dev);
    if (!strstr(socmon_errmsg(), needle))
        fail_msg("message '%s' does not name '%s'", socmon_errmsg(), needle);
    socmon_bus_free(bus);
}

static void test_driver_config_errors(void **state)
{
    (void)state;
    smn_zapm_config ac = {.nslots = 2, .clock_hz = 200e6, .mode = SOCMON_ZAPM_ADVANCED,
                             .nsel = 2, .sel = {{0, 2}, {0, 2}}};
    config_fails(&ac, SOCMON_EINVAL, "slot0.wr_bytes selected twice");
    ac.sel[1] = (smn_zapm_sel){2, 2};
    config_fails(&ac, SOCMON_ERANGE, "slot 2 out of range 0..1");
    ac.sel[1] = (smn_zapm_sel){1, 25};
    config_fails(&ac, SOCMON_ERANGE, "metric 25");
    ac.sel[1] = (smn_zapm_sel){1, 2};
    ac.ncounters = 1;
    config_fails(&ac, SOCMON_ERANGE, "2 selections for 1 counters");
    ac.ncounters = 11;
    config_fails(&ac, SOCMON_ERANGE, "ncounters 11");
    ac.ncounters = 0;
    ac.scale = 3;
    config_fails(&ac, SOCMON_ERANGE, "scale 3");
    ac.scale = 0;
    ac.gcc_width = 48;
    config_fails(&ac, SOCMON_ERANGE, "gcc_width 48");
    ac.gcc_width = 0;
    ac.mode = 5;
    config_fails(&ac, SOCMON_ERANGE, "mode 5");
}

static void open_fails(const char *spec, socmon_status want, const char *needle)
{
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), want);
    assert_null(t);
    if (!strstr(socmon_errmsg(), needle))
        fail_msg("'%s': message '%s' does not name '%s'", spec, socmon_errmsg(), needle);
}

/* Metric numbers are decimal, as the help says: "010" is metric 10 (wr_lasts),
 * not octal 8 (wr_slave_idle); spec §1.5 numbers them in decimal. */
static void test_sel_numbers_are_decimal(void **state)
{
    (void)state;
    smn_zapm_sel sel[SOCMON_ZAPM_MAX_SEL];
    unsigned n = 0;
    assert_int_equal(smn_zapm_sel_parse("0:010+1:8", sel, &n), SOCMON_OK);
    assert_int_equal(n, 2);
    assert_int_equal(sel[0].slot, 0);
    assert_int_equal(sel[0].metric, 10);
    assert_int_equal(sel[1].slot, 1);
    assert_int_equal(sel[1].metric, 8);
}

static void test_target_option_errors(void **state)
{
    (void)state;
    open_fails("zynq:apm_mode=turbo", SOCMON_EINVAL, "apm_mode=turbo");
    open_fails("zynq:apm_mode=advanced,apm_counters=11", SOCMON_ERANGE, "apm_counters=11");
    open_fails("zynq:apm_mode=advanced,apm_scale=3", SOCMON_EINVAL, "apm_scale=3");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:nope", SOCMON_ENOENT, "'nope'");
    open_fails("zynq:apm_mode=advanced,apm_sel=9:wr_bytes", SOCMON_ERANGE, "9:wr_bytes");
    open_fails("zynq:apm_mode=advanced,apm_sel=wr_bytes", SOCMON_EINVAL, "SLOT:METRIC");
    open_fails("zynq:apm_mode=advanced,apm_sel=:2", SOCMON_EINVAL, "SLOT:METRIC");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:2x", SOCMON_ENOENT, "'2x'");
    open_fails("zynq:apm_mode=advanced,apm_sel=+", SOCMON_EINVAL, "empty item");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:2++1:3", SOCMON_EINVAL, "empty item");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:2+", SOCMON_EINVAL, "empty item");
    open_fails("zynq:apm_mode=advanced,apm_sel= 0:2", SOCMON_ERANGE, "slot must be");
    open_fails("zynq:apm_mode=advanced,apm_sel=-0:2", SOCMON_ERANGE, "slot must be");
    open_fails("zynq:apm_mode=advanced,apm_sel=0: 2", SOCMON_ENOENT, "' 2'");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:1+0:2+0:3+0:4+0:5+0:6+0:7+0:8+0:9+0:10+0:11",
               SOCMON_ERANGE, "more than 10");
    open_fails("zynq:apm_mode=advanced,apm_counters=2,apm_sel=0:1+0:2+0:3", SOCMON_ERANGE,
               "3 selections for apm_counters=2");
    open_fails("zynq:apm_sel=0:wr_bytes", SOCMON_EINVAL, "apm_mode=advanced");
    open_fails("zynq:apm_mode=advanced,slots=2,apm_sel=0:2+3:2", SOCMON_ERANGE, "slot 3");
    open_fails("zynq:apm_mode=advanced,apm_sel=0:2+0:wr_bytes", SOCMON_EINVAL, "selected twice");
}

static void test_target_advanced(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("zynq:apm_mode=advanced,slots=2", &t), SOCMON_OK);
    socmon_device *dev = socmon_target_device(t);
    /* 10 selected counters + the GCC, then 2 cores x 7 */
    assert_int_equal(socmon_device_ncounters(dev), 10 + 1 + 2 * 7);
    uint32_t i;
    assert_int_equal(socmon_device_find(dev, "slot1.rd_txns", &i), SOCMON_OK);
    assert_int_equal(i, 9);
    assert_int_equal(socmon_device_find(dev, "apm.gcc", &i), SOCMON_OK);
    assert_int_equal(i, 10);
    /* metrics/zynq.json binds where its counters exist and skips the rest */
    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(dev, "*", &set), SOCMON_OK);
    zm z;
    assert_int_equal(zm_bind(&z, set), SOCMON_OK);
    assert_true(zm_find(&z, "avg_wr_latency", "slot0") >= 0);
    assert_true(zm_find(&z, "wr_throughput", "slot1") >= 0);
    assert_int_equal(zm_find(&z, "avg_wr_latency", "slot1"), -1);
    zm_free(&z);
    socmon_set_free(set);
    socmon_target_close(t);
    /* a given selection and scale */
    assert_int_equal(socmon_target_open("zynq:apm_mode=advanced,apm_counters=4,apm_scale=8,"
                                        "apm_sel=0:wr_bytes+1:rd_lat_max+0:9",
                                        &t),
                     SOCMON_OK);
    dev = socmon_target_device(t);
    assert_int_equal(socmon_device_find(dev, "slot1.rd_lat_max", &i), SOCMON_OK);
    assert_int_equal(i, 1);
    assert_int_equal(socmon_device_find(dev, "slot0.wr_resps", &i), SOCMON_OK);
    assert_int_equal(socmon_device_counter(dev, i)->width, 35);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_given_selection_end_to_end),
        cmocka_unit_test(test_default_selection),
        cmocka_unit_test(test_scale_widens_counters),
        cmocka_unit_test(test_live_counters_without_sampled),
        cmocka_unit_test(test_driver_config_errors),
        cmocka_unit_test(test_target_option_errors),
        cmocka_unit_test(test_sel_numbers_are_decimal),
        cmocka_unit_test(test_target_advanced),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
