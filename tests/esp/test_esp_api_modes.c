/* ESP Monitors API: every mode and mask bit, against values placed in the
 * virtual SoC's monitors, and what each call costs on the bus. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "esp_monitors.h"
#include "drivers/esp/esp_driver.h"
#include "compat/esp/esp_api.h"

#define NT SOC_NTILES
static const unsigned MEM = 1, CPU = 0, ACC_L2 = 2;
static const unsigned ACC[3] = {2, 3, 4};

static uint32_t val_of(unsigned t, unsigned m)
{
    return 0x1000u * (t + 1) + m + 1;
}

static socmon_esp_soc_desc desc(void)
{
    socmon_esp_soc_desc d;
    socmon_esp_soc_desc_default(&d);
    return d;
}

/* Puts val_of(t, m) into every defined monitor; returns how many there are. */
static unsigned poke_all(void)
{
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    assert_non_null(soc);
    socmon_esp_soc_desc d = desc();
    unsigned n = 0;
    for (unsigned t = 0; t < NT; t++)
        for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
            if (socmon_esp_mon_defined(&d, t, m)) {
                assert_int_equal(socmon_esp_soc_poke(soc, t, m, val_of(t, m)), SOCMON_OK);
                n++;
            }
    return n;
}

static void bus_cost(socmon_bus_stats *s)
{
    socmon_bus_stats_get(smn_esp_api_bus(), s);
    socmon_bus_stats_reset(smn_esp_api_bus());
}

/* The expected result of a read of the given mode/mask, built field by field
 * from the guide's description, independently of the implementation. */
static void expect(const esp_monitor_args_t *a, esp_monitor_vals_t *e)
{
    socmon_esp_soc_desc d = desc();
    int all = a->read_mode == ESP_MON_READ_ALL;
    unsigned mask = all ? 0x1ff : a->read_mask;
    memset(e, 0, sizeof *e);
    if (mask & 1)
        e->ddr_accesses[0] = val_of(MEM, 0);
    if (mask & 2) {
        unsigned *r = &e->mem_reqs[0].coh_reqs;
        for (unsigned k = 0; k < 8; k++)
            r[k] = val_of(MEM, 1 + k);
    }
    if (mask & 4) {
        e->l2_stats[CPU].hits = val_of(CPU, 9);
        e->l2_stats[CPU].misses = val_of(CPU, 10);
        e->l2_stats[ACC_L2].hits = val_of(ACC_L2, 9);
        e->l2_stats[ACC_L2].misses = val_of(ACC_L2, 10);
    }
    if (mask & 8) {
        e->llc_stats[0].hits = e->l2_stats[MEM].hits = val_of(MEM, 11);
        e->llc_stats[0].misses = e->l2_stats[MEM].misses = val_of(MEM, 12);
    }
    for (unsigned x = 0; x < 3; x++)
        if ((mask & 16) && (all || x == a->acc_index)) {
            unsigned *r = &e->acc_stats[x].acc_tlb;
            for (unsigned k = 0; k < 6; k++)
                r[k] = val_of(ACC[x], 13 + k);
        }
    for (unsigned t = 0; t < NT; t++) {
        int tt = all || t == a->tile_index;
        int dv = d.tiles[t].type != SOCMON_ESP_TILE_EMPTY; /* the RTL wires DVFS in every non-empty tile */
        for (unsigned p = 0; p < 4; p++)
            if (tt && (mask & 32) && dv)
                e->dvfs_op[t][p] = val_of(t, 19 + p);
        for (unsigned p = 0; p < 6; p++) {
            if (tt && (mask & 64))
                e->noc_injects[t][p] = val_of(t, 23 + p);
            for (unsigned q = 0; q < 5; q++)
                if ((tt && (mask & 128)) || (p == a->noc_index && (mask & 256)))
                    e->noc_queue_full[t][p][q] = val_of(t, 29 + p * 5 + q);
        }
    }
}

static unsigned nonzero_words(const esp_monitor_vals_t *v)
{
    const unsigned *w = (const unsigned *)v;
    unsigned n = 0;
    for (size_t i = 0; i < sizeof *v / sizeof *w; i++)
        n += w[i] != 0;
    return n;
}

static void test_single_is_live(void **state)
{
    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    esp_monitor_args_t a;
    a.read_mode = ESP_MON_READ_SINGLE;
    a.tile_index = MEM;
    a.mon_index = MON_DDR_WORD_TRANSFER_INDEX;
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, 0, 41), SOCMON_OK);
    socmon_bus_stats s;
    bus_cost(&s);
    assert_int_equal(esp_monitor(a, NULL), 41);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    bus_cost(&s);
    assert_int_equal(s.reads, 1);
    assert_int_equal(s.writes, 0);
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, 0, 4000000000u), SOCMON_OK);
    assert_int_equal(esp_monitor(a, NULL), 4000000000u);
    /* The clock trick of ESP users: DVFS op point 3 of the CPU tile. */
    a.tile_index = CPU;
    a.mon_index = MON_DVFS_BASE_INDEX + 3;
    assert_int_equal(socmon_esp_soc_poke(soc, CPU, 22, 777), SOCMON_OK);
    assert_int_equal(esp_monitor(a, NULL), 777);
}

static void test_all_fills_every_field(void **state)
{
    unsigned ndefined = poke_all();
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0xffff, 0, 0, 0, 0};
    esp_monitor_vals_t v, e;
    memset(&v, 0xA5, sizeof v);   /* stale garbage must not survive */
    socmon_bus_stats s;
    bus_cost(&s);
    assert_int_equal(esp_monitor(a, &v), 0);
    assert_int_equal(esp_monitor_status(), SOCMON_OK);
    bus_cost(&s);
    expect(&a, &e);
    assert_memory_equal(&v, &e, sizeof v);
    /* One read per defined monitor and one freeze + release per tile; the
     * reference reads 40 NoC/DVFS words in every tile plus the typed ones. */
    assert_int_equal(s.reads, ndefined);
    assert_int_equal(s.writes, 2 * NT);
    /* every tile of this SoC wires its 4 DVFS and 36 NoC words (no empty tile), so the two read
     * the same; the reference reads undefined words too where a SoC has them */
    unsigned reference_reads = 40 * NT + 11 * SOC_NMEM + 2 * SOC_NCPU + 2 * 1 + 6 * SOC_NACC;
    assert_true(s.reads <= reference_reads);
}

/* Each mask bit alone reads exactly its set and freezes only the tiles it needs. */
static void test_many_each_bit(void **state)
{
    poke_all();
    static const unsigned tiles_touched[9] = {1, 1, 2, 1, 1, 1, 1, 1, NT};
    for (unsigned b = 0; b < 9; b++) {
        esp_monitor_args_t a = {ESP_MON_READ_MANY, (uint16_t)(1u << b), 3, 1, 0, 2};
        esp_monitor_vals_t v, e;
        memset(&v, 0x5A, sizeof v);
        socmon_bus_stats s;
        bus_cost(&s);
        assert_int_equal(esp_monitor(a, &v), 0);
        assert_int_equal(esp_monitor_status(), SOCMON_OK);
        bus_cost(&s);
        expect(&a, &e);
        if (memcmp(&v, &e, sizeof v) != 0)
            fail_msg("mask bit %u: result differs from the guide's definition", b);
        unsigned fields = nonzero_words(&e);
        if (b == ESP_MON_READ_LLC_STATS)
            fields /= 2;   /* each LLC value sits in llc_stats and in l2_stats[mem] */
        assert_true(fields > 0);
        if (s.reads != fields || s.writes != 2 * tiles_touched[b])
            fail_msg("mask bit %u: %llu reads %llu writes, want %u and %u", b,
                     (unsigned long long)s.reads, (unsigned long long)s.writes, fields,
                     2 * tiles_touched[b]);
    }
}

/* The guide's example 3 mask, all at once; and an empty mask reads nothing. */
static void test_many_combined_and_empty(void **state)
{
    poke_all();
    esp_monitor_args_t a = {ESP_MON_READ_MANY, 0, 0, 0, 0, 0};
    a.read_mask = 1 << ESP_MON_READ_DDR_ACCESSES | 1 << ESP_MON_READ_L2_STATS |
                  1 << ESP_MON_READ_LLC_STATS | 1 << ESP_MON_READ_ACC_STATS |
                  1 << ESP_MON_READ_NOC_INJECTS | 1 << ESP_MON_READ_NOC_QUEUE_FULL_PLANE;
    esp_monitor_vals_t v, e;
    assert_int_equal(esp_monitor(a, &v), 0);
    expect(&a, &e);
    assert_memory_equal(&v, &e, sizeof v);
    a.read_mask = 0;
    socmon_bus_stats s;
    bus_cost(&s);
    memset(&v, 1, sizeof v);
    assert_int_equal(esp_monitor(a, &v), 0);
    bus_cost(&s);
    assert_int_equal(nonzero_words(&v), 0);
    assert_int_equal(s.reads + s.writes, 0);
}

/* diff is exact modulo 2^32 across a wrap (ESP's reference gives 31 here),
 * and exact for the 64-bit accelerator pairs. */
static void test_wrap(void **state)
{
    assert_int_equal(sub_monitor_vals(0xFFFFFFF0u, 0x10u), 32);
    assert_int_equal(sub_monitor_vals(5, 5), 0);
    assert_int_equal(sub_monitor_vals(0, 0xFFFFFFFFu), 0xFFFFFFFFu);
    assert_true(sub_monitor_vals64(UINT64_MAX - 1, 3) == 5);

    socmon_esp_soc *soc = smn_esp_api_virtual_soc();
    esp_monitor_args_t a = {ESP_MON_READ_ALL, 0, 0, 0, 0, 0};
    esp_monitor_vals_t s, e;
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, 0, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 14, 0xFFFFFFFFu), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 15, 1), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 16, 10), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 17, 0), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, 5, 23, 0xFFFFFFFFu), SOCMON_OK);
    esp_monitor(a, &s);
    assert_int_equal(socmon_esp_soc_poke(soc, MEM, 0, 0x10u), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 14, 5), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 15, 2), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, ACC[1], 16, 5), SOCMON_OK);
    assert_int_equal(socmon_esp_soc_poke(soc, 5, 23, 6), SOCMON_OK);
    esp_monitor(a, &e);
    esp_monitor_vals_t d = esp_monitor_diff(s, e);
    assert_int_equal(d.ddr_accesses[0], 32);
    assert_int_equal(d.noc_injects[5][0], 7);
    /* 0x1_FFFFFFFF -> 0x2_00000005: 6 cycles. */
    assert_int_equal(d.acc_stats[1].acc_mem_lo, 6);
    assert_int_equal(d.acc_stats[1].acc_mem_hi, 0);
    /* 10 -> 5 is a wrap of the 64-bit counter: 2^64 - 5. */
    assert_int_equal(d.acc_stats[1].acc_tot_lo, 0xFFFFFFFBu);
    assert_int_equal(d.acc_stats[1].acc_tot_hi, 0xFFFFFFFFu);
}

/* Every field of a diff is written, whatever the inputs held. */
static void test_diff_every_field(void **state)
{
    esp_monitor_vals_t s, e;
    unsigned *ws = (unsigned *)&s, *we = (unsigned *)&e;
    uint32_t x = 12345;
    for (size_t i = 0; i < sizeof s / 4; i++) {
        x = x * 1103515245u + 12345u;
        ws[i] = x;
        we[i] = x + (uint32_t)i;   /* wraps for the large ones */
    }
    for (unsigned k = 0; k < SOC_NACC; k++) {   /* keep the 64-bit pairs free of borrows */
        s.acc_stats[k].acc_mem_lo = s.acc_stats[k].acc_tot_lo = 0;
    }
    esp_monitor_vals_t d = esp_monitor_diff(s, e);
    unsigned *wd = (unsigned *)&d;
    for (size_t i = 0; i < sizeof s / 4; i++) {
        uint32_t want = (uint32_t)(we[i] - ws[i]);
        if (wd[i] != want)
            fail_msg("word %zu: %u, want %u", i, wd[i], want);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_single_is_live),
        cmocka_unit_test(test_all_fills_every_field),
        cmocka_unit_test(test_many_each_bit),
        cmocka_unit_test(test_many_combined_and_empty),
        cmocka_unit_test(test_wrap),
        cmocka_unit_test(test_diff_every_field),
    };
    int rc = cmocka_run_group_tests(tests, NULL, NULL);
    esp_monitor_free();
    return rc;
}
