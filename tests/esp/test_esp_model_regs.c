/* The ESP tile monitor window: addresses, burst snapshots, unused words,
 * the config region, definedness per tile type, and bad back-door input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "models/esp/esp_soc.h"
#include "esp/esp_fixture.h"
#include "socmon/bus.h"

static int setup(void **state)
{
    static fx f;
    if (fx_open(&f))
        return -1;
    *state = &f;
    return 0;
}

static uint64_t mon_addr(unsigned t, unsigned m)
{
    return SOCMON_ESP_DEFAULT_BASE + (uint64_t)t * 0x200 + 4u * (m + 1);
}

static uint32_t rd(fx *f, uint64_t addr)
{
    uint32_t v = 0xdeadbeef;
    assert_int_equal(socmon_bus_read32(f->bus, addr, &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, uint64_t addr, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, addr, v), SOCMON_OK);
}

/* Every defined monitor of every tile is at base + t*0x200 + 4*(m+1). */
static void test_addresses(void **state)
{
    fx *f = *state;
    unsigned n = f->d.rows * f->d.cols, poked = 0;
    for (unsigned t = 0; t < n; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
            if (socmon_esp_soc_defined(f->soc, t, m)) {
                assert_int_equal(socmon_esp_soc_poke(f->soc, t, m, 0x10000u * t + m + 1), SOCMON_OK);
                poked++;
            }
    assert_true(poked > 6 * 30);
    for (unsigned t = 0; t < n; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++) {
            uint32_t want = socmon_esp_soc_defined(f->soc, t, m) ? 0x10000u * t + m + 1 : 0;
            assert_int_equal(rd(f, mon_addr(t, m)), want);
            assert_int_equal(socmon_esp_soc_peek(f->soc, t, m), want);
        }
    /* The window ends at 0x200 per tile: past the last tile is unmapped. */
    uint32_t v;
    assert_int_not_equal(socmon_bus_read32(f->bus, SOCMON_ESP_DEFAULT_BASE + n * 0x200, &v), SOCMON_OK);
}

static void test_burst_freezes_and_releases(void **state)
{
    fx *f = *state;
    const unsigned t = 1, m = SOCMON_ESP_MON_DDR; /* the memory tile */
    assert_int_equal(socmon_esp_soc_poke(f->soc, t, m, 100), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(f->soc, t, SOCMON_ESP_MON_LLC_HIT, 7), SOCMON_OK);
    uint64_t burst = SOCMON_ESP_DEFAULT_BASE + t * 0x200;
    assert_int_equal(rd(f, burst), 0);
    wr(f, burst, 1);
    assert_int_equal(rd(f, burst), 1);
    assert_int_equal(socmon_esp_soc_poke(f->soc, t, m, 250), SOCMON_OK);
    assert_int_equal(rd(f, mon_addr(t, m)), 100);                 /* frozen */
    assert_int_equal(rd(f, mon_addr(t, SOCMON_ESP_MON_LLC_HIT)), 7);
    assert_int_equal(socmon_esp_soc_peek(f->soc, t, m), 250);      /* counter keeps going */
    /* Writing 1 again is no rising edge: the old snapshot stays. */
    wr(f, burst, 1);
    assert_int_equal(rd(f, mon_addr(t, m)), 100);
    /* Other tiles are not frozen by this tile's burst register. */
    assert_int_equal(socmon_esp_soc_poke(f->soc, 0, SOCMON_ESP_MON_L2_HIT, 5), SOCMON_OK);
    assert_int_equal(rd(f, mon_addr(0, SOCMON_ESP_MON_L2_HIT)), 5);
    wr(f, burst, 0);
    assert_int_equal(rd(f, mon_addr(t, m)), 250);                 /* live again */
    /* Only bit 0 matters, but the register keeps all 32 bits. */
    wr(f, burst, 0xA5A5A5A5);
    assert_int_equal(rd(f, burst), 0xA5A5A5A5);
    assert_int_equal(socmon_esp_soc_poke(f->soc, t, m, 300), SOCMON_OK);
    assert_int_equal(rd(f, mon_addr(t, m)), 250);
    wr(f, burst, 0xA5A5A5A4);                                      /* bit 0 low: live */
    assert_int_equal(rd(f, mon_addr(t, m)), 300);
}

static void test_monitor_words_read_only(void **state)
{
    fx *f = *state;
    assert_int_equal(socmon_esp_soc_poke(f->soc, 0, SOCMON_ESP_MON_L2_MISS, 42), SOCMON_OK);
    wr(f, mon_addr(0, SOCMON_ESP_MON_L2_MISS), 9999);
    assert_int_equal(rd(f, mon_addr(0, SOCMON_ESP_MON_L2_MISS)), 42);
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, 0), 0);
}

static void test_unused_words_read_zero(void **state)
{
    fx *f = *state;
    for (unsigned t = 0; t < 6; t++)
        for (uint64_t off = 0x0F0; off < 0x180; off += 4) {
            wr(f, SOCMON_ESP_DEFAULT_BASE + t * 0x200 + off, 0xffffffffu);
            assert_int_equal(rd(f, SOCMON_ESP_DEFAULT_BASE + t * 0x200 + off), 0);
        }
}

static void test_config_region(void **state)
{
    fx *f = *state;
    const unsigned t = 4;
    uint64_t cfg = SOCMON_ESP_DEFAULT_BASE + t * 0x200 + 0x180;
    assert_int_equal(rd(f, cfg), 1);           /* VALID */
    assert_int_equal(rd(f, cfg + 4), t);       /* TILE_ID */
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t), 0);
    uint32_t before[SOCMON_ESP_NMON];
    for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
        before[m] = socmon_esp_soc_peek(f->soc, t, m);
    wr(f, cfg + 0x14, 1);                      /* SRST: software must not do this */
    wr(f, cfg + 0x7C, 0x1234);
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t), 2);
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t - 1), 0);
    assert_int_equal(rd(f, cfg + 0x7C), 0x1234);
    for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
        assert_int_equal(socmon_esp_soc_peek(f->soc, t, m), before[m]);
    assert_int_equal(socmon_esp_soc_reset(f->soc), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t), 0);
}

static void test_reset_clears(void **state)
{
    fx *f = *state;
    assert_int_equal(socmon_esp_soc_poke(f->soc, 1, SOCMON_ESP_MON_DDR, 77), SOCMON_OK);
    wr(f, SOCMON_ESP_DEFAULT_BASE + 0x200, 1);
    assert_int_equal(socmon_esp_soc_reset(f->soc), SOCMON_OK);
    assert_int_equal(rd(f, SOCMON_ESP_DEFAULT_BASE + 0x200), 0);
    assert_int_equal(rd(f, mon_addr(1, SOCMON_ESP_MON_DDR)), 0);
    assert_int_equal(socmon_esp_soc_peek(f->soc, 1, SOCMON_ESP_MON_DDR), 0);
}

static void expect_defined(const socmon_esp_soc *soc, unsigned t, const unsigned *mons, size_t n)
{
    uint64_t want = 0;
    for (size_t i = 0; i < n; i++)
        want |= UINT64_C(1) << mons[i];
    for (unsigned m = SOCMON_ESP_MON_NOC_INJ; m < SOCMON_ESP_NMON; m++)
        want |= UINT64_C(1) << m; /* NoC monitors: every tile */
    for (unsigned m = 0; m < SOCMON_ESP_NMON; m++) {
        if (socmon_esp_soc_defined(soc, t, m) != (int)((want >> m) & 1))
            fail_msg("tile %u monitor %u: defined=%d, want %d", t, m,
                     socmon_esp_soc_defined(soc, t, m), (int)((want >> m) & 1));
    }
}

static void test_definedness_default(void **state)
{
    fx *f = *state;
    static const unsigned cpu[] = {9, 10, 19, 20, 21, 22};
    static const unsigned mem[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 12, 19, 20, 21, 22};
    static const unsigned acc_l2[] = {9, 10, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22};
    static const unsigned acc[] = {13, 14, 15, 16, 17, 18, 19, 20, 21, 22};
    expect_defined(f->soc, 0, cpu, 6);
    expect_defined(f->soc, 1, mem, 15);
    expect_defined(f->soc, 2, acc_l2, 12);
    expect_defined(f->soc, 3, acc, 10);
    static const unsigned io[] = {19, 20, 21, 22}; /* the RTL wires DVFS in every non-empty tile */
    expect_defined(f->soc, 5, io, 4);
    /* Undefined monitors cannot be made nonzero, even through the back door. */
    assert_int_equal(socmon_esp_soc_poke(f->soc, 5, SOCMON_ESP_MON_DDR, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "monitor 0"));
    assert_non_null(strstr(socmon_errmsg(), "io"));
    assert_int_equal(rd(f, mon_addr(5, SOCMON_ESP_MON_DDR)), 0);
}

static void test_definedness_options(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc;
    socmon_esp_soc_desc_default(&d);
    d.cache_hierarchy = 0;
    d.dvfs = 0;
    d.tiles[5].type = SOCMON_ESP_TILE_EMPTY;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_OK);
    /* DVFS off changes nothing (the RTL's op point is hard-wired); without the LLC the memory
     * tile keeps its queue monitors */
    static const unsigned cpu[] = {19, 20, 21, 22};
    static const unsigned mem[] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 19, 20, 21, 22};
    static const unsigned acc[] = {13, 14, 15, 16, 17, 18, 19, 20, 21, 22};
    expect_defined(soc, 0, cpu, 4);
    expect_defined(soc, 1, mem, 13);
    expect_defined(soc, 2, acc, 10); /* has_l2, but no cache hierarchy */
    expect_defined(soc, 3, acc, 10);
    expect_defined(soc, 5, NULL, 0); /* empty */
    smn_esp_soc_free(soc);
}

static void test_backdoor_bad_input(void **state)
{
    fx *f = *state;
    assert_int_equal(socmon_esp_soc_poke(f->soc, 6, 0, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "tile 6 out of range 0..5"));
    assert_int_equal(socmon_esp_soc_poke(f->soc, 1, 59, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "monitor 59 out of range 0..58"));
    assert_int_equal(socmon_esp_soc_peek(f->soc, 99, 0), 0);
    assert_int_equal(smn_esp_soc_map(f->soc, NULL), SOCMON_EINVAL);
    /* Mapping twice overlaps the first mapping: the bus refuses, naming the tile. */
    assert_int_not_equal(smn_esp_soc_map(f->soc, f->bus), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "tile 0"));
}

static void test_new_bad_desc(void **state)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc *soc = (socmon_esp_soc *)&d;
    socmon_esp_soc_desc_default(&d);
    d.rows = 17;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_null(soc);
    assert_non_null(strstr(socmon_errmsg(), "rows 17"));
    socmon_esp_soc_desc_default(&d);
    d.noc_planes = 4;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "noc_planes 4"));
    socmon_esp_soc_desc_default(&d);
    d.clock_hz = 0;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "clock_hz 0"));
    socmon_esp_soc_desc_default(&d);
    d.monitor_base = 0x60090004;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "0x60090004"));
    socmon_esp_soc_desc_default(&d);
    d.tiles[0].has_l2 = 1;
    assert_int_equal(smn_esp_soc_new(&d, &soc), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "tile 0 (cpu)"));
    assert_int_equal(smn_esp_soc_new(NULL, &soc), SOCMON_EINVAL);
}

static void test_tiles_of(void **state)
{
    socmon_esp_soc_desc d;
    unsigned idx[8];
    socmon_esp_soc_desc_default(&d);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, idx, 8), 3);
    assert_int_equal(idx[0], 2);
    assert_int_equal(idx[1], 3);
    assert_int_equal(idx[2], 4);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_MEM, idx, 8), 1);
    assert_int_equal(idx[0], 1);
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_CPU, NULL, 0), 1);
    /* max limits what is written, not the count. */
    idx[1] = 77;
    assert_int_equal(socmon_esp_desc_tiles_of(&d, SOCMON_ESP_TILE_ACC, idx, 1), 3);
    assert_int_equal(idx[1], 77);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_addresses, setup, teardown),
        cmocka_unit_test_setup_teardown(test_burst_freezes_and_releases, setup, teardown),
        cmocka_unit_test_setup_teardown(test_monitor_words_read_only, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unused_words_read_zero, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_region, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_clears, setup, teardown),
        cmocka_unit_test_setup_teardown(test_definedness_default, setup, teardown),
        cmocka_unit_test(test_definedness_options),
        cmocka_unit_test_setup_teardown(test_backdoor_bad_input, setup, teardown),
        cmocka_unit_test(test_new_bad_desc),
        cmocka_unit_test(test_tiles_of),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
