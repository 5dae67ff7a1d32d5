/* The ESP model's tile window behaves as the access table of
 * src/hw/esp_monitor.h says, word by word: reset values, plain storage of
 * the burst register and config CSRs, read-only monitor words, reserved
 * (read-0) unused words, nothing past 0x200. And the table itself holds the
 * facts of the spec (../shared/specs/esp_monitors.md §2.1, §2.3). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "hw/esp_monitor.h"
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

static uint64_t addr(const fx *f, unsigned t, uint32_t off)
{
    return f->d.monitor_base + (uint64_t)t * ESP_TILE_SIZE + off;
}

static uint32_t rd(fx *f, unsigned t, uint32_t off)
{
    uint32_t v = 0xdeadbeef;
    assert_int_equal(socmon_bus_read32(f->bus, addr(f, t, off), &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, unsigned t, uint32_t off, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, addr(f, t, off), v), SOCMON_OK);
}

static uint32_t reset_value(const smn_reginfo *ri, unsigned t)
{
    return ri->addr == A_ESP_CSR0 + 4u * ESP_CSR_TILE_ID ? t : ri->reset;
}

/* The table covers every word of the window and states the spec's facts. */
static void test_table_facts(void **state)
{
    (void)state;
    for (uint32_t off = 0; off < ESP_TILE_SIZE; off += 4)
        assert_non_null(esp_tile_reginfo(off));
    assert_null(esp_tile_reginfo(ESP_TILE_SIZE));
    /* Monitor m at 4*(m+1); 59 of them; then the unused words. */
    assert_int_equal(esp_mon_offset(0), 0x004);
    assert_int_equal(esp_mon_offset(ESP_NMON - 1), 0x0EC);
    assert_ptr_equal(esp_tile_reginfo(0x0EC), &ESP_MON_REGINFO);
    assert_ptr_equal(esp_tile_reginfo(0x0F0), &ESP_UNUSED_REGINFO);
    assert_ptr_equal(esp_tile_reginfo(0x17C), &ESP_UNUSED_REGINFO);
    assert_int_equal(ESP_MON_REGINFO.ro, 0xFFFFFFFFu);
    assert_int_equal(ESP_UNUSED_REGINFO.rsvd, 0xFFFFFFFFu);
    /* Burst register: all 32 bits stored (burst <= pwdata), reset 0. */
    const smn_reginfo *b = esp_tile_reginfo(A_ESP_BURST);
    assert_string_equal(b->name, "BURST");
    assert_int_equal(b->reset | b->ro | b->rsvd, 0);
    /* VALID reads 1 after reset; 32 CSRs from 0x180. */
    assert_string_equal(esp_tile_reginfo(0x180)->name, "VALID");
    assert_int_equal(esp_tile_reginfo(0x180)->reset, 1);
    assert_string_equal(esp_tile_reginfo(0x184)->name, "TILE_ID");
    assert_string_equal(esp_tile_reginfo(0x1FC)->name, "CSR31");
    /* Only the tile reset clears (spec §2.3): no W1C, no clear-on-read. */
    for (unsigned i = 0; i < ESP_TILE_NREGS; i++) {
        assert_int_equal(ESP_TILE_REGINFO[i].w1c | ESP_TILE_REGINFO[i].cor, 0);
        for (unsigned j = 0; j < i; j++) {
            assert_int_not_equal(ESP_TILE_REGINFO[i].addr, ESP_TILE_REGINFO[j].addr);
            assert_string_not_equal(ESP_TILE_REGINFO[i].name, ESP_TILE_REGINFO[j].name);
        }
    }
}

/* After reset every word reads its table value (TILE_ID: the tile's index;
 * monitors: 0). */
static void test_reset_values(void **state)
{
    fx *f = *state;
    for (unsigned t = 0; t < f->d.rows * f->d.cols; t++)
        for (uint32_t off = 0; off < ESP_TILE_SIZE; off += 4) {
            const smn_reginfo *ri = esp_tile_reginfo(off);
            uint32_t want = ri == &ESP_MON_REGINFO ? 0 : reset_value(ri, t);
            if (rd(f, t, off) != want)
                fail_msg("tile %u offset 0x%x (%s): read 0x%x, table says 0x%x", t, off, ri->name,
                         rd(f, t, off), want);
        }
}

/* A write leaves what socmon_reg_write says: the stored registers take the
 * value (read back), monitor words keep counting what they counted, unused
 * words stay 0. Only config CSR writes are counted. */
static void test_writes_follow_table(void **state)
{
    fx *f = *state;
    const unsigned t = 2;   /* the accelerator with an L2: many monitors defined */
    for (unsigned m = 0; m < ESP_NMON; m++)
        if (socmon_esp_soc_defined(f->soc, t, m))
            assert_int_equal(socmon_esp_soc_poke(f->soc, t, m, 0x100u + m), SOCMON_OK);
    static const uint32_t pats[] = {0xFFFFFFFFu, 0xA5A5A5A4u, 0};
    uint64_t csr_writes = 0;
    for (size_t p = 0; p < sizeof pats / sizeof pats[0]; p++)
        for (uint32_t off = 0; off < ESP_TILE_SIZE; off += 4) {
            const smn_reginfo *ri = esp_tile_reginfo(off);
            uint32_t before = rd(f, t, off);
            wr(f, t, off, pats[p]);
            uint32_t want;
            if (ri == &ESP_MON_REGINFO) {
                unsigned m = (off - A_ESP_MON0) / 4;
                want = socmon_esp_soc_defined(f->soc, t, m) ? 0x100u + m : 0;
                assert_int_equal(socmon_reg_write(ri, before, pats[p]), before);
            } else {
                want = socmon_reg_write(ri, before, pats[p]);
            }
            if (off >= A_ESP_CSR0)
                csr_writes++;
            /* The burst register is read while bit 0 may freeze the monitors:
             * release it before the monitor words are checked. */
            uint32_t got = rd(f, t, off);
            if (off == A_ESP_BURST)
                wr(f, t, off, 0);
            if (got != want)
                fail_msg("offset 0x%x (%s): wrote 0x%x over 0x%x, read 0x%x, table says 0x%x", off,
                         ri->name, pats[p], before, got, want);
        }
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t), csr_writes);
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t + 1), 0);
    /* Reset restores every table value. */
    assert_int_equal(socmon_esp_soc_reset(f->soc), SOCMON_OK);
    for (unsigned i = 0; i < ESP_TILE_NREGS; i++)
        assert_int_equal(rd(f, t, ESP_TILE_REGINFO[i].addr), reset_value(&ESP_TILE_REGINFO[i], t));
    assert_int_equal(socmon_esp_soc_config_writes(f->soc, t), 0);
}

/* Past the window is no register: the model refuses (the next tile's window
 * starts there, so probe after the last tile). */
static void test_past_window(void **state)
{
    fx *f = *state;
    uint32_t v;
    unsigned n = f->d.rows * f->d.cols;
    assert_int_not_equal(socmon_bus_read32(f->bus, addr(f, n, 0), &v), SOCMON_OK);
    assert_int_not_equal(socmon_bus_write32(f->bus, addr(f, n, 0), 1), SOCMON_OK);
}

/* The wiring table as ESP's RTL wires the monitors (spec §2.2; src/hw/esp_monitor.h). */
static void test_wiring_table(void **state)
{
    (void)state;
    uint64_t noc = ESP_MON_RANGE(ESP_MON_NOC_INJ, ESP_NMON - 1);
    uint64_t dvfs = ESP_MON_RANGE(ESP_MON_DVFS, ESP_MON_DVFS + 3);   /* every non-empty tile */
    uint64_t queues = ESP_MON_RANGE(ESP_MON_COH_REQ, ESP_MON_COH_DMA_RSP);
    assert_int_equal(esp_tile_wired(ESP_TILE_IO, 0, 1, 6, 5), noc | dvfs);
    assert_int_equal(esp_tile_wired(ESP_TILE_EMPTY, 0, 1, 6, 5), noc);
    /* the memory tile's queues are there without the LLC; its hit and miss are not */
    assert_int_equal(esp_tile_wired(ESP_TILE_MEM, 0, 0, 6, 5), noc | dvfs | ESP_MON_BIT(ESP_MON_DDR) | queues);
    assert_int_equal(esp_tile_wired(ESP_TILE_MEM, 0, 1, 6, 5),
                     noc | dvfs | ESP_MON_RANGE(ESP_MON_DDR, ESP_MON_COH_DMA_RSP) |
                         ESP_MON_RANGE(ESP_MON_LLC_HIT, ESP_MON_LLC_MISS));
    assert_int_equal(esp_tile_wired(ESP_TILE_CPU, 1, 1, 6, 5),
                     noc | dvfs | ESP_MON_RANGE(ESP_MON_L2_HIT, ESP_MON_L2_MISS));
    assert_int_equal(esp_tile_wired(ESP_TILE_CPU, 1, 0, 6, 5), noc | dvfs);
    assert_int_equal(esp_tile_wired(ESP_TILE_ACC, 0, 1, 6, 5),
                     noc | dvfs | ESP_MON_RANGE(ESP_MON_ACC_TLB, ESP_MON_ACC_INVOC));
    assert_int_equal(esp_tile_wired(ESP_TILE_ACC, 1, 0, 6, 5),
                     noc | dvfs | ESP_MON_RANGE(ESP_MON_ACC_TLB, ESP_MON_ACC_INVOC));
    assert_int_equal(esp_tile_wired(ESP_TILE_ACC, 1, 1, 6, 5),
                     noc | dvfs | ESP_MON_RANGE(ESP_MON_L2_HIT, ESP_MON_L2_MISS) |
                         ESP_MON_RANGE(ESP_MON_ACC_TLB, ESP_MON_ACC_INVOC));
    /* Fewer planes or queues: fewer NoC monitors. */
    assert_int_equal(esp_tile_wired(ESP_TILE_IO, 0, 0, 1, 2),
                     dvfs | ESP_MON_BIT(ESP_MON_NOC_INJ) | ESP_MON_RANGE(ESP_MON_NOC_QFULL, ESP_MON_NOC_QFULL + 1));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_facts),
        cmocka_unit_test_setup_teardown(test_reset_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writes_follow_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_past_window, setup, teardown),
        cmocka_unit_test(test_wiring_table),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
