/* ESP driver: register protocol, counter schema, snapshot reads and their bus cost. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "drivers/esp/esp_driver.h"
#include "models/esp/esp_soc.h"
#include "socmon/socmon.h"

typedef struct fx {
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_bus *bus;
    socmon_device *dev;
} fx;

static void fx_open(fx *f, const socmon_esp_soc_desc *d)
{
    f->d = *d;
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_esp_soc_new(&f->d, &f->soc), SOCMON_OK);
    assert_int_equal(smn_esp_soc_map(f->soc, f->bus), SOCMON_OK);
    assert_int_equal(smn_esp_device_new(f->bus, &f->d, "esp", 1, &f->dev), SOCMON_OK);
}

/* Without the model behind the bus (a target on silicon), no model-only counter. */
static void test_no_model_only_on_silicon(void **state)
{
    (void)state;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    socmon_bus *bus = NULL;
    socmon_esp_soc *soc = NULL;
    socmon_device *dev = NULL;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(smn_esp_soc_map(soc, bus), SOCMON_OK);
    assert_int_equal(smn_esp_device_new(bus, &d, "esp", 0, &dev), SOCMON_OK);
    uint32_t i;
    assert_int_not_equal(socmon_device_find(dev, "tile0.noc_stop_p0_north", &i), SOCMON_OK);
    assert_int_not_equal(socmon_device_find(dev, "tile0.noc_pkts_p0", &i), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "tile0.noc_out_p0_north", &i), SOCMON_OK);
    socmon_device_free(dev);
    socmon_bus_free(bus);
    smn_esp_soc_free(soc);
}

static void fx_close(fx *f)
{
    socmon_device_free(f->dev);
    socmon_bus_free(f->bus);
    smn_esp_soc_free(f->soc);
}

static uint32_t find(socmon_device *dev, const char *name)
{
    uint32_t i = UINT32_MAX;
    assert_int_equal(socmon_device_find(dev, name, &i), SOCMON_OK);
    return i;
}

/* The driver's notion of "defined" must be exactly the model's wiring, for
 * every tile type and each SoC option, or it would skip live counters. */
static void test_defined_matches_model(void **state)
{
    socmon_esp_soc_desc d;
    for (int variant = 0; variant < 4; variant++) {
        socmon_esp_soc_desc_default(&d);
        d.cache_hierarchy = variant & 1;
        d.dvfs = (variant >> 1) & 1;
        d.tiles[5].type = SOCMON_ESP_TILE_EMPTY;   /* cover every tile type */
        socmon_esp_soc *soc = NULL;
        assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
        for (unsigned t = 0; t < 6; t++)
            for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
                if (socmon_esp_mon_defined(&d, t, m) != socmon_esp_soc_defined(soc, t, m))
                    fail_msg("variant %d tile %u mon %u: driver %d model %d", variant, t, m,
                             socmon_esp_mon_defined(&d, t, m), socmon_esp_soc_defined(soc, t, m));
        smn_esp_soc_free(soc);
    }
}

static void test_schema(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    uint32_t i;
    /* tile 1 is the memory tile, 0 the CPU, 2 the accelerator with an L2. */
    assert_int_equal(socmon_device_find(f.dev, "tile1.ddr_accesses", &i), SOCMON_OK);
    assert_int_not_equal(socmon_device_find(f.dev, "tile0.ddr_accesses", &i), SOCMON_OK);
    assert_int_equal(socmon_device_find(f.dev, "tile2.l2_hits", &i), SOCMON_OK);
    assert_int_not_equal(socmon_device_find(f.dev, "tile3.l2_hits", &i), SOCMON_OK);
    assert_int_not_equal(socmon_device_find(f.dev, "tile1.acc_invocations", &i), SOCMON_OK);
    const socmon_counter *c = socmon_device_counter(f.dev, find(f.dev, "tile3.acc_tot_cycles"));
    assert_int_equal(c->width, 64);
    assert_int_equal(c->reg, 0x60090000u + 3 * 0x200 + 4 * (16 + 1));
    assert_int_equal(c->reg_hi, c->reg + 4);
    /* queue_full(Q) of plane P is monitor 29 + 5P + Q, Q in the RTL's order N, S, W, E, L */
    c = socmon_device_counter(f.dev, find(f.dev, "tile5.noc_out_p5_north"));
    assert_int_equal(c->width, 32);
    assert_int_equal(c->reg, 0x60090000u + 5 * 0x200 + 4 * (54 + 1));
    c = socmon_device_counter(f.dev, find(f.dev, "tile5.noc_out_p5_local"));
    assert_int_equal(c->reg, 0x60090000u + 5 * 0x200 + 4 * (58 + 1));
    /* the model-only counters, in the model's own window 0x100000 above the monitors */
    c = socmon_device_counter(f.dev, find(f.dev, "tile5.noc_stop_p1_west"));
    assert_int_equal(c->reg, 0x60090000u + 0x100000u + 5 * 0x100 + 4 * (5 * 1 + 2));
    c = socmon_device_counter(f.dev, find(f.dev, "tile5.noc_pkts_p3"));
    assert_int_equal(c->reg, 0x60090000u + 0x100000u + 5 * 0x100 + 4 * (30 + 3));
    assert_non_null(socmon_device_counter(f.dev, find(f.dev, "tile0.dvfs_op3")));
    /* Every defined monitor is one counter, the hi words folded into pairs. */
    size_t want = 0;
    for (unsigned t = 0; t < 6; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
            want += socmon_esp_mon_defined(&d, t, m) && m != 15 && m != 17;
    assert_int_equal(socmon_device_ncounters(f.dev), want + 6 * 36); /* + the model-only ones */
    double v = 0;
    assert_int_equal(socmon_device_param(f.dev, "clock_hz", &v), SOCMON_OK);
    assert_true(v == d.clock_hz);
    assert_int_equal(socmon_device_param(f.dev, "nacc", &v), SOCMON_OK);
    assert_true(v == 3);
    fx_close(&f);
}

/* Values poked into the model come back through the device, a 64-bit pair
 * combined, and the read costs exactly: one burst write on and off per touched
 * tile, one read per 32-bit counter, two per 64-bit one. */
static void test_read_values_and_cost(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 1, SOCMON_ESP_MON_DDR, 12345), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 1, SOCMON_ESP_MON_LLC_MISS, 77), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 3, SOCMON_ESP_MON_ACC_TOT_LO, 0xDEADBEEF), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 3, SOCMON_ESP_MON_ACC_TOT_HI, 0x5), SOCMON_OK);
    uint32_t idx[3] = {find(f.dev, "tile1.ddr_accesses"), find(f.dev, "tile3.acc_tot_cycles"),
                       find(f.dev, "tile1.llc_misses")};
    uint64_t out[3] = {0};
    socmon_bus_stats_reset(f.bus);
    assert_int_equal(socmon_device_read(f.dev, idx, 3, out), SOCMON_OK);
    assert_int_equal(out[0], 12345);
    assert_int_equal(out[1], 0x5DEADBEEFull);
    assert_int_equal(out[2], 77);
    socmon_bus_stats s;
    socmon_bus_stats_get(f.bus, &s);
    assert_int_equal(s.reads, 4);
    assert_int_equal(s.writes, 4);
    fx_close(&f);
}

typedef struct trace {
    socmon_bus_access a[64];
    unsigned n;
} trace;

static void rec(void *user, const socmon_bus_access *acc)
{
    trace *t = user;
    if (t->n < 64)
        t->a[t->n] = *acc;
    t->n++;
}

/* The order on the bus: freeze (write 1 to word 0 of the tile), read, release. */
static void test_snapshot_protocol(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    trace tr = {.n = 0};
    socmon_bus *rb = NULL;
    assert_int_equal(socmon_bus_record_new(f.bus, rec, &tr, &rb), SOCMON_OK);
    socmon_device *dev = NULL;
    assert_int_equal(smn_esp_device_new(rb, &d, "esp", 1, &dev), SOCMON_OK);
    tr.n = 0;
    uint32_t idx[2] = {find(dev, "tile4.noc_inj_p2"), find(dev, "tile4.acc_invocations")};
    uint64_t out[2];
    assert_int_equal(socmon_device_read(dev, idx, 2, out), SOCMON_OK);
    uint64_t base = 0x60090000u + 4 * 0x200;
    unsigned k = 0;
    for (unsigned i = 0; i < tr.n; i++)
        if (tr.a[i].op != 'F')
            tr.a[k++] = tr.a[i];
    assert_int_equal(k, 4);
    assert_int_equal(tr.a[0].op, 'W');
    assert_int_equal(tr.a[0].addr, base);
    assert_int_equal(tr.a[0].val, 1);
    assert_int_equal(tr.a[1].op, 'R');
    assert_int_equal(tr.a[1].addr, base + 4 * (23 + 2 + 1));
    assert_int_equal(tr.a[2].op, 'R');
    assert_int_equal(tr.a[2].addr, base + 4 * (18 + 1));
    assert_int_equal(tr.a[3].op, 'W');
    assert_int_equal(tr.a[3].addr, base);
    assert_int_equal(tr.a[3].val, 0);
    /* The driver never writes the config CSRs. */
    for (unsigned t = 0; t < 6; t++)
        assert_int_equal(socmon_esp_soc_config_writes(f.soc, t), 0);
    socmon_device_free(dev);
    socmon_bus_free(rb);
    fx_close(&f);
}

/* A burst left at 1 by a crashed user would freeze stale values forever:
 * opening the device releases every tile. */
static void test_stale_burst_released(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    assert_int_equal(socmon_bus_write32(f.bus, 0x60090000u + 1 * 0x200, 1), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 1, SOCMON_ESP_MON_DDR, 999), SOCMON_OK);
    socmon_device *dev = NULL;
    assert_int_equal(smn_esp_device_new(f.bus, &d, "esp", 1, &dev), SOCMON_OK);
    uint32_t burst = 7;
    assert_int_equal(socmon_bus_read32(f.bus, 0x60090000u + 1 * 0x200, &burst), SOCMON_OK);
    assert_int_equal(burst, 0);
    uint32_t idx = find(dev, "tile1.ddr_accesses");
    uint64_t v = 0;
    assert_int_equal(socmon_device_read(dev, &idx, 1, &v), SOCMON_OK);
    assert_int_equal(v, 999);
    socmon_device_free(dev);
    fx_close(&f);
}

static void test_live_reads_and_errors(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    smn_esp_drv *drv = NULL;
    assert_int_equal(smn_esp_drv_new(f.bus, &d, &drv), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 2, SOCMON_ESP_MON_ACC_MEM_LO, 0xFFFFFFFF), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 2, SOCMON_ESP_MON_ACC_MEM_HI, 2), SOCMON_OK);
    uint64_t v64 = 0;
    socmon_bus_stats_reset(f.bus);
    assert_int_equal(smn_esp_drv_read64_live(drv, 2, SOCMON_ESP_MON_ACC_MEM_LO, &v64), SOCMON_OK);
    assert_int_equal(v64, 0x2FFFFFFFFull);
    socmon_bus_stats s;
    socmon_bus_stats_get(f.bus, &s);
    assert_int_equal(s.reads, 3);   /* hi, lo, hi */

    uint32_t v = 0;
    assert_int_equal(smn_esp_drv_read(drv, 6, 0, &v), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "tile_index 6 out of range 0..5"));
    assert_int_equal(smn_esp_drv_read(drv, 0, 59, &v), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "mon_index 59 out of range 0..58"));
    assert_int_equal(smn_esp_drv_read64_live(drv, 2, 13, &v64), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "mon_index 13"));
    assert_int_equal(smn_esp_drv_burst(drv, 9, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "tile_index 9"));
    smn_esp_drv_free(drv);

    socmon_esp_soc_desc bad = d;
    bad.noc_planes = 7;
    assert_int_equal(smn_esp_drv_new(f.bus, &bad, &drv), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "noc_planes 7"));
    bad = d;
    bad.rows = 0;
    assert_int_equal(smn_esp_drv_new(f.bus, &bad, &drv), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "rows 0"));
    assert_int_equal(smn_esp_drv_new(NULL, &d, &drv), SOCMON_EINVAL);
    fx_close(&f);
}

/* A device read across a counter wrap: socmon_delta of the two samples is
 * the true count. */
static void test_wrap_delta(void **state)
{
    fx f;
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    fx_open(&f, &d);
    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(f.dev, "tile1.ddr_accesses", &set), SOCMON_OK);
    socmon_sample a, b;
    assert_int_equal(socmon_sample_alloc(set, &a), SOCMON_OK);
    assert_int_equal(socmon_sample_alloc(set, &b), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 1, 0, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(socmon_set_read(set, 0, &a), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f.soc, 1, 0, 0x10u), SOCMON_OK);
    assert_int_equal(socmon_set_read(set, 1, &b), SOCMON_OK);
    uint64_t delta = 0;
    assert_int_equal(socmon_set_diff(set, &a, &b, &delta), SOCMON_OK);
    assert_int_equal(delta, 32);
    socmon_sample_free(&a);
    socmon_sample_free(&b);
    socmon_set_free(set);
    fx_close(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_defined_matches_model),
        cmocka_unit_test(test_schema),
        cmocka_unit_test(test_no_model_only_on_silicon),
        cmocka_unit_test(test_read_values_and_cost),
        cmocka_unit_test(test_snapshot_protocol),
        cmocka_unit_test(test_stale_burst_released),
        cmocka_unit_test(test_live_reads_and_errors),
        cmocka_unit_test(test_wrap_delta),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
