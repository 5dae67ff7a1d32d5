/* socmon/esp.h used the way a user would: only the public headers. Open the
 * "esp" target, drive its virtual SoC with raw register accesses on the
 * target's bus and with the monitor calls on its device, turn the activity knobs and run a workload,
 * and see the monitors move by the counts docs/esp-model.md §3 promises. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "esp/esp_fixture.h"
#include "socmon/bus.h"
#include "socmon/esp.h"

static int setup(void **state)
{
    static fx f;
    if (fx_open(&f) || socmon_esp_desc_tiles_of(&f.d, SOCMON_ESP_TILE_CPU, &f.cpu, 1) < 1 ||
        socmon_esp_desc_tiles_of(&f.d, SOCMON_ESP_TILE_MEM, &f.mem, 1) < 1 ||
        socmon_esp_desc_tiles_of(&f.d, SOCMON_ESP_TILE_ACC, &f.acc, 1) < 1)
        return -1;
    *state = &f;
    return 0;
}

/* A user's own driver: the register map as ESP documents it. */
static uint64_t burst_reg(const fx *f, unsigned t)
{
    return f->d.monitor_base + (uint64_t)t * SOCMON_ESP_TILE_SIZE;
}

static uint32_t raw_mon(fx *f, unsigned t, unsigned m)
{
    uint32_t v = 0xdeadbeef;
    assert_int_equal(socmon_bus_read32(f->bus, burst_reg(f, t) + 4u * (m + 1), &v), SOCMON_OK);
    return v;
}

/* 100 loads over 1 KiB (64 lines) touch 50 line pairs: 50 L2 misses, 50
 * hits; each miss is one LLC miss and one DDR access at the memory tile. A
 * burst freezes what reads see while the counters go on. */
static void test_raw_registers_and_cpu_knob(void **state)
{
    fx *f = *state;
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_HIT), 0);
    assert_int_equal(socmon_esp_soc_cpu_access(f->soc, 0, 100, 0, 1024), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_MISS), 50);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_HIT), 50);
    assert_int_equal(raw_mon(f, f->mem, SOCMON_ESP_MON_LLC_MISS), 50);
    assert_int_equal(raw_mon(f, f->mem, SOCMON_ESP_MON_DDR), 50 * 2); /* AHB beats */
    /* Undefined monitors read 0: no DDR monitor in a CPU tile. */
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_DDR), 0);

    assert_int_equal(socmon_bus_write32(f->bus, burst_reg(f, f->cpu), 1), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_cpu_access(f->soc, 0, 100, 0, 1024), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_HIT), 50);       /* frozen */
    assert_int_equal(socmon_bus_write32(f->bus, burst_reg(f, f->cpu), 0), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_HIT), 150);      /* warm: all hits */
    assert_int_equal(socmon_esp_soc_peek(f->soc, f->cpu, SOCMON_ESP_MON_L2_HIT), 150);
    /* Monitor words are read-only. */
    assert_int_equal(socmon_bus_write32(f->bus, burst_reg(f, f->cpu) + 4u * (SOCMON_ESP_MON_L2_HIT + 1), 7),
                     SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_HIT), 150);
    /* The driver-side rule: never write the config registers. */
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, f->cpu), 0);
}

/* The driver's protocol through the target's device: one snapshot of several
 * tiles (each frozen once, released after), live reads, and an accelerator
 * invocation counted where the docs say. */
static void test_monitors_and_acc_knob(void **state)
{
    fx *f = *state;
    socmon_device *dev = socmon_target_device(f->t);
    assert_int_equal(socmon_esp_monitors_release(dev), SOCMON_OK);

    const uint64_t bytes = 4096;
    assert_int_equal(socmon_esp_soc_acc_invoke(f->soc, 0, bytes, SOCMON_ESP_COH_LLC), SOCMON_OK);
    const unsigned tile[] = {f->acc, f->mem, f->acc, f->acc};
    const unsigned mon[] = {SOCMON_ESP_MON_ACC_INVOC, SOCMON_ESP_MON_COH_DMA_REQ, SOCMON_ESP_MON_ACC_TOT_LO,
                            SOCMON_ESP_MON_ACC_TOT_HI};
    uint32_t w[4] = {0};
    socmon_bus_stats s;
    socmon_bus_stats_reset(f->bus);
    assert_int_equal(socmon_esp_monitors_read(dev, 4, tile, mon, w), SOCMON_OK);
    socmon_bus_stats_get(f->bus, &s);
    assert_int_equal(w[0], 1);
    /* LLC-coherent DMA reads the LLC's coherent-DMA queue: the requests' flits (half the lines
     * read with 2-flit requests, half written with 4) */
    assert_int_equal(w[1], (bytes / 16 / 2) * 2 + (bytes / 16 / 2) * 4);
    uint64_t tot = ((uint64_t)w[3] << 32) | w[2];
    assert_true(tot > 0 && tot <= socmon_esp_soc_cycles(f->soc));
    /* two tiles: frozen once each and released: 4 burst writes, 4 reads */
    assert_int_equal(s.writes, 4);
    assert_int_equal(s.reads, 4);
    uint32_t live = 0;
    assert_int_equal(socmon_esp_monitor_read_live(dev, f->acc, SOCMON_ESP_MON_ACC_INVOC, &live), SOCMON_OK);
    assert_int_equal(live, 1);
    /* every burst register released: a raw read is live again */
    assert_int_equal(socmon_esp_soc_cpu_access(f->soc, 0, 100, 0, 1024), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_MISS), 50);

    /* Errors name the bad value; another target's device is refused. */
    const unsigned bad_tile[] = {99};
    assert_int_equal(socmon_esp_monitors_read(dev, 1, bad_tile, mon, w), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "99"));
    assert_int_equal(socmon_esp_monitor_read_live(dev, f->acc, 59, &live), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "59"));
    socmon_target *tx = NULL;
    assert_int_equal(socmon_target_open("tensix", &tx), SOCMON_OK);
    assert_int_equal(socmon_esp_monitors_read(socmon_target_device(tx), 1, tile, mon, w), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "not an ESP monitor device"));
    assert_int_equal(socmon_esp_monitors_release(NULL), SOCMON_EINVAL);
    socmon_target_close(tx);
}

/* A user's wrap test: poke a monitor near 2^32 and see it wrap. */
static void test_poke_wraps(void **state)
{
    fx *f = *state;
    assert_int_equal(socmon_esp_soc_poke(f->soc, f->cpu, SOCMON_ESP_MON_L2_MISS, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_cpu_access(f->soc, 0, 100, 0, 1024), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_MISS), (uint32_t)(0xFFFFFFF0u + 50));
    /* A monitor the tile does not define cannot be poked. */
    assert_int_equal(socmon_esp_soc_poke(f->soc, f->cpu, SOCMON_ESP_MON_DDR, 1), SOCMON_ERANGE);
    /* Reset is the only clear. */
    assert_int_equal(socmon_esp_soc_reset(f->soc), SOCMON_OK);
    assert_int_equal(raw_mon(f, f->cpu, SOCMON_ESP_MON_L2_MISS), 0);
}

/* The target's device, a built-in workload, time moving. */
static void test_device_and_workload(void **state)
{
    fx *f = *state;
    socmon_device *dev = socmon_target_device(f->t);
    assert_string_equal(socmon_device_name(dev), "esp");
    char name[64];
    snprintf(name, sizeof name, "tile%u.ddr_accesses", f->mem);
    uint32_t idx[2];
    assert_int_equal(socmon_device_find(dev, name, &idx[0]), SOCMON_OK);
    snprintf(name, sizeof name, "tile%u.acc_tot_cycles", f->acc);
    assert_int_equal(socmon_device_find(dev, name, &idx[1]), SOCMON_OK);
    assert_int_equal(socmon_device_counter(dev, idx[1])->width, 64);
    uint64_t before[2], after[2];
    assert_int_equal(socmon_device_read(dev, idx, 2, before), SOCMON_OK);

    assert_string_equal(socmon_esp_workloads()[0], "multifft");
    assert_int_equal(socmon_esp_soc_start(f->soc, "no_such_workload"), SOCMON_ENOENT);
    assert_int_equal(socmon_esp_soc_start(f->soc, "multifft"), SOCMON_OK);
    int done = 0;
    for (int i = 0; i < 10000 && !done; i++)
        assert_int_equal(socmon_esp_soc_advance(f->soc, 100000, &done), SOCMON_OK);
    assert_true(done);
    assert_true(socmon_esp_soc_now_ns(f->soc) > 0);
    assert_int_equal(socmon_device_read(dev, idx, 2, after), SOCMON_OK);
    assert_true(after[0] > before[0]);
    assert_true(after[1] > before[1]);
    assert_int_equal(after[0], socmon_esp_soc_peek(f->soc, f->mem, SOCMON_ESP_MON_DDR));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_raw_registers_and_cpu_knob, setup, teardown),
        cmocka_unit_test_setup_teardown(test_monitors_and_acc_knob, setup, teardown),
        cmocka_unit_test_setup_teardown(test_poke_wraps, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device_and_workload, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
