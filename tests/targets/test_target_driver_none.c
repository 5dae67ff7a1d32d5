/* driver=none on the esp and tensix targets, through public calls only: the
 * model behind the target with no socmon driver attached and every register
 * at its reset value, for a user's own driver over socmon_target_bus (the
 * zynq target's own test, with a full reset-to-sample sequence, is
 * tests/zynq/test_zynq_pristine.c). The reset values are the spec's
 * (../shared/specs/esp_monitors.md §2, ../shared/specs/tensix_counters.md §1),
 * written here as the user's own register map. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "socmon/bus.h"
#include "socmon/esp.h"
#include "socmon/target.h"
#include "socmon/tensix.h"

static uint32_t rd(socmon_bus *bus, uint64_t a)
{
    uint32_t v = 0xDEADBEEFu;
    assert_int_equal(socmon_bus_read32(bus, a, &v), SOCMON_OK);
    return v;
}

/* ---- esp: tile t's 0x200-byte window at monitor_base + t*0x200 ---- */
#define ESP_BURST 0x000u        /* snapshot control */
#define ESP_MON0 0x004u         /* 59 monitors, one word each */
#define ESP_NMON 59u
#define ESP_UNUSED0 0x0F0u      /* 0x0F0..0x17C read 0 */
#define ESP_CSR0 0x180u         /* 32 config CSRs: VALID (reset 1), TILE_ID (the tile), the rest 0 */

static void test_esp_driver_none_reset_values(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("esp:driver=none", &t), SOCMON_OK);
    socmon_esp_soc *soc = socmon_esp_soc_of_target(t);
    assert_non_null(soc);
    const socmon_esp_soc_desc *d = socmon_esp_soc_get_desc(soc);
    socmon_bus *bus = socmon_target_bus(t);
    assert_non_null(bus);
    assert_int_equal(socmon_device_ncounters(socmon_target_device(t)), 0);
    unsigned ntiles = d->rows * d->cols;
    for (unsigned tile = 0; tile < ntiles; tile++) {
        uint64_t w = d->monitor_base + (uint64_t)tile * SOCMON_ESP_TILE_SIZE;
        assert_int_equal(rd(bus, w + ESP_BURST), 0);
        for (unsigned m = 0; m < ESP_NMON; m++)
            assert_int_equal(rd(bus, w + ESP_MON0 + 4 * m), 0);
        for (uint32_t off = ESP_UNUSED0; off < ESP_CSR0; off += 4)
            assert_int_equal(rd(bus, w + off), 0);
        assert_int_equal(rd(bus, w + ESP_CSR0), 1);            /* VALID */
        assert_int_equal(rd(bus, w + ESP_CSR0 + 4), tile);     /* TILE_ID */
        for (unsigned i = 2; i < 32; i++)
            assert_int_equal(rd(bus, w + ESP_CSR0 + 4 * i), 0);
    }
    /* the model runs without a driver: its default workload makes the monitors count */
    assert_int_equal(socmon_target_advance(t, 100000, NULL), SOCMON_OK);
    uint64_t sum = 0;
    for (unsigned tile = 0; tile < ntiles; tile++)
        for (unsigned m = 0; m < ESP_NMON; m++)
            sum += rd(bus, d->monitor_base + (uint64_t)tile * SOCMON_ESP_TILE_SIZE + ESP_MON0 + 4 * m);
    assert_true(sum > 0);
    socmon_target_close(t);
}

/* ---- tensix: the debug registers at SOCMON_TENSIX_REGS_BASE, L1 at 0 ---- */
static const uint32_t tensix_regs[] = {
    0x000, 0x004, 0x008,   /* INSTRN_THREAD REF, MODE, CTRL */
    0x00C, 0x010, 0x014,   /* TDMA_UNPACK */
    0x018, 0x01C, 0x020,   /* FPU */
    0x030, 0x034, 0x038,   /* L1 */
    0x03C,                 /* PERF_CNT_ALL */
    0x0F0, 0x0F4, 0x0F8,   /* TDMA_PACK */
    0x100, 0x104, 0x108, 0x10C, 0x110, 0x114, 0x118, 0x11C, 0x120, 0x124,   /* OUT_L/OUT_H */
    0x218,                 /* PERF_CNT_MUX_CTRL */
};
#define TENSIX_NTHREADS 3u
#define TENSIX_CONFIG_WORDS 86u

/* 1 if every register and every thread's config area reads 0 (reset). */
static int tensix_pristine(socmon_bus *bus)
{
    for (size_t i = 0; i < sizeof tensix_regs / sizeof tensix_regs[0]; i++)
        if (rd(bus, SOCMON_TENSIX_REGS_BASE + tensix_regs[i]) != 0)
            return 0;
    for (unsigned th = 0; th < TENSIX_NTHREADS; th++)
        for (unsigned i = 0; i < TENSIX_CONFIG_WORDS; i++)
            if (rd(bus, socmon_tensix_config_addr(th) + 4u * i) != 0)
                return 0;
    return 1;
}

static void test_tensix_driver_none_reset_values(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("tensix:driver=none", &t), SOCMON_OK);
    assert_non_null(socmon_tensix_core_of_target(t));
    socmon_bus *bus = socmon_target_bus(t);
    assert_non_null(bus);
    assert_int_equal(socmon_device_ncounters(socmon_target_device(t)), 0);
    assert_true(tensix_pristine(bus));
    /* the kernel runs to its end with nobody's counter calls: the banks stay as reset */
    int done = 0;
    for (int i = 0; i < 1000 && !done; i++)
        assert_int_equal(socmon_target_advance(t, 1000000, &done), SOCMON_OK);
    assert_true(done);
    assert_true(socmon_tensix_core_now(socmon_tensix_core_of_target(t)) > 0);
    assert_true(tensix_pristine(bus));
    socmon_target_close(t);

    /* socmon's driver, attached by default, has written every thread's config */
    assert_int_equal(socmon_target_open("tensix", &t), SOCMON_OK);
    assert_false(tensix_pristine(socmon_target_bus(t)));
    socmon_target_close(t);
}

static void test_driver_option_only_where_declared(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("tensix:driver=bogus", &t), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "driver=bogus"));
    /* driver=socmon is the default, said explicitly */
    assert_int_equal(socmon_target_open("esp:driver=socmon", &t), SOCMON_OK);
    assert_true(socmon_device_ncounters(socmon_target_device(t)) > 0);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_esp_driver_none_reset_values),
        cmocka_unit_test(test_tensix_driver_none_reset_values),
        cmocka_unit_test(test_driver_option_only_where_declared),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
