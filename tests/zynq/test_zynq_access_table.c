/* The Zynq models' plain registers behave as their access tables say
 * (src/hw/zynq_apm.h ZAPM_REGINFO, src/hw/a9_pmu.h ZA9_REGINFO): reset
 * values, read-only and reserved bits, write-1-to-clear. Each register is
 * reached over the bus as a driver would; the table gives the expectation,
 * and the facts the spec states are also checked by value, so a wrong table
 * fails here too. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>

#include "models/zynq/zynq_model.h"

typedef struct fx {
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    socmon_zynq_desc_default(&f->d);
    assert_int_equal(smn_zynq_soc_new(&f->d, &f->soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
    free(f);
    return 0;
}

static uint32_t rd(fx *f, uint64_t addr)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, addr, &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, uint64_t addr, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, addr, v), SOCMON_OK);
}

/* What a register holding `old` reads after writing `val`, per its entry. */
static uint32_t expect_after(const smn_reginfo *ri, uint32_t old, uint32_t val)
{
    uint32_t keep = ri->ro | ri->w1c | ri->rsvd;
    return ((old & keep) | (val & ~keep)) & ~(val & ri->w1c) & ~ri->rsvd;
}

static int apm_computed(int r)
{
    return r == ZAPM_REG_GCC_HIGH || r == ZAPM_REG_GCC_LOW || r == ZAPM_REG_SR;
}

static void test_apm_reset_values_and_masks(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.apm_base;
    /* the spec's facts (§1.2-1.4): SICR resets to 0x100, everything else to 0 */
    assert_int_equal(ZAPM_REGINFO[ZAPM_REG_SICR].reset, 0x100u);
    /* Profile mode: CR reads back bits 0-2, 4-7 (HDL register_module_profile.v
     * :571-573), IE only the lapse enable bit 1 (:570, :845), IS bits 1..2
     * (:848; eejlny/S2NN-HLS @ 170c1667, spec §1.6) */
    assert_int_equal(ZAPM_REGINFO[ZAPM_REG_CTL].rsvd, ~0x000000F7u);
    assert_int_equal(ZAPM_REGINFO[ZAPM_REG_IE].rsvd, ~0x2u);
    assert_int_equal(ZAPM_IXR_MASK, 0x6u);
    assert_int_equal(ZAPM_REGINFO[ZAPM_REG_IS].w1c, ZAPM_IXR_MASK);
    for (int r = 0; r < ZAPM_NREGS; r++) {
        const smn_reginfo *ri = &ZAPM_REGINFO[r];
        assert_int_equal(zapm_reg_index(ri->addr), r);
        if (apm_computed(r))
            continue;
        assert_int_equal(rd(f, b + ri->addr), ri->reset & ~ri->rsvd);
    }
    assert_int_equal(rd(f, b + A_ZAPM_SICR), 0x100u);
    /* all ones, then all zeros, into each plain register: the table's masks */
    for (int r = 0; r < ZAPM_NREGS; r++) {
        const smn_reginfo *ri = &ZAPM_REGINFO[r];
        if (apm_computed(r))
            continue;
        uint32_t old = rd(f, b + ri->addr);
        wr(f, b + ri->addr, 0xFFFFFFFFu);
        uint32_t now = rd(f, b + ri->addr);
        assert_int_equal(now, expect_after(ri, old, 0xFFFFFFFFu));
        wr(f, b + ri->addr, 0);
        assert_int_equal(rd(f, b + ri->addr), expect_after(ri, now, 0));
    }
    /* by value: CR reads back bits 0-2, 4-7; SICR bits 0, 1, 8; IE the lapse
     * enable; IS cannot be set by a write */
    wr(f, b + A_ZAPM_CTL, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_CTL), 0x000000F7u);
    wr(f, b + A_ZAPM_IE, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_IE), 0x2u);
    wr(f, b + A_ZAPM_IE, 0);
    wr(f, b + A_ZAPM_CTL, 0);
    wr(f, b + A_ZAPM_SICR, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_SICR), 0x103u);
    wr(f, b + A_ZAPM_SI_HIGH, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_SI_HIGH), 0);
    wr(f, b + A_ZAPM_IS, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_IS), 0);
}

static void test_apm_read_only_registers_ignore_writes(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.apm_base;
    /* GCC stopped at 0 and the first SR read (0) ignore writes */
    wr(f, b + A_ZAPM_GCC_LOW, 0xFFFFFFFFu);
    wr(f, b + A_ZAPM_GCC_HIGH, 0xFFFFFFFFu);
    wr(f, b + A_ZAPM_SR, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZAPM_GCC_HIGH), 0);
    assert_int_equal(rd(f, b + A_ZAPM_GCC_LOW), 0);
    assert_int_equal(rd(f, b + A_ZAPM_SR), 0);
    /* a live counter ignores writes too */
    assert_int_equal(smn_zynq_apm_poke(f->soc, 0, 1234), SOCMON_OK);
    wr(f, b + socmon_zapm_mc_offset(0), 0);
    assert_int_equal(rd(f, b + socmon_zapm_mc_offset(0)), 1234);
}

static void test_apm_is_is_write_one_to_clear(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.apm_base;
    /* a sample-interval lapse sets IS; stop the counter so it stays put */
    wr(f, b + A_ZAPM_SI_LOW, 10);
    wr(f, b + A_ZAPM_SICR, R_ZAPM_SICR_LOAD_MASK);
    wr(f, b + A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK);
    wr(f, b + A_ZAPM_SICR, R_ZAPM_SICR_EN_MASK);
    assert_int_equal(socmon_zynq_soc_advance(f->soc, 1000, NULL), SOCMON_OK);
    wr(f, b + A_ZAPM_CTL, 0);
    uint32_t is = rd(f, b + A_ZAPM_IS);
    assert_int_equal(is, ZAPM_IXR_SIC_LAPSE);
    wr(f, b + A_ZAPM_IS, 0);                        /* zeros leave it */
    assert_int_equal(rd(f, b + A_ZAPM_IS), is);
    wr(f, b + A_ZAPM_IS, ~ZAPM_IXR_SIC_LAPSE);      /* other bits leave it */
    assert_int_equal(rd(f, b + A_ZAPM_IS), is);
    wr(f, b + A_ZAPM_IS, ZAPM_IXR_SIC_LAPSE);       /* its one clears it */
    assert_int_equal(rd(f, b + A_ZAPM_IS), 0);
}

static void test_pmu_reset_values_and_masks(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.pmu_base[1];
    /* the spec's facts (§5.1): PMCR 0x41093000 with N = 6, PMDEVTYPE 0x16 */
    assert_int_equal(ZA9_REGINFO[ZA9_REG_CR].reset, 0x41093000u);
    assert_int_equal(SM_FIELD_EX32(ZA9_REGINFO[ZA9_REG_CR].reset, ZA9_PMCR, N), 6);
    assert_int_equal(ZA9_REGINFO[ZA9_REG_OVSR].w1c, 0x8000003Fu);
    for (int r = 0; r < ZA9_NREGS; r++) {
        const smn_reginfo *ri = &ZA9_REGINFO[r];
        assert_int_equal(za9_reg_index(ri->addr), r);
        assert_int_equal(rd(f, b + ri->addr), ri->reset & ~ri->rsvd);
    }
    assert_int_equal(rd(f, b + A_ZA9_PMCR), 0x41093000u);
    assert_int_equal(rd(f, b + A_ZA9_PMDEVTYPE), 0x16u);
    wr(f, b + A_ZA9_PMLAR, ZA9_LAR_KEY);
    for (int r = 0; r < ZA9_NREGS; r++) {
        const smn_reginfo *ri = &ZA9_REGINFO[r];
        uint32_t old = rd(f, b + ri->addr);
        wr(f, b + ri->addr, 0xFFFFFFFFu);
        uint32_t want = expect_after(ri, old, 0xFFFFFFFFu);
        if (r == ZA9_REG_CR)
            want &= ~(R_ZA9_PMCR_P_MASK | R_ZA9_PMCR_C_MASK);   /* actions: done, then read 0 */
        uint32_t now = rd(f, b + ri->addr);
        assert_int_equal(now, want);
        wr(f, b + ri->addr, 0);
        assert_int_equal(rd(f, b + ri->addr), expect_after(ri, now, 0));
    }
    wr(f, b + A_ZA9_PMCR, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZA9_PMCR), 0x41093039u);   /* E, D, X, DP */
    wr(f, b + za9_pmxevtyper(2), 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + za9_pmxevtyper(2)), 0xFFu);
    wr(f, b + A_ZA9_PMUSERENR, 0xFFFFFFFFu);
    assert_int_equal(rd(f, b + A_ZA9_PMUSERENR), 1);
}

static void test_pmu_ovsr_is_write_one_to_clear(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.pmu_base[0];
    socmon_zynq_cpu_profile busy = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.3,
        .store_frac = 0.3, .l1d_miss = 0.05, .stall_per_miss = 10, .wstall_per_store = 0.1,
        .br_per_inst = 0.1, .br_miss = 0.05};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &busy), SOCMON_OK);
    wr(f, b + A_ZA9_PMLAR, ZA9_LAR_KEY);
    assert_int_equal(smn_zynq_pmu_poke(f->soc, 0, 31, 0xFFFFFFF0u), SOCMON_OK);
    assert_int_equal(smn_zynq_pmu_poke(f->soc, 0, 0, 0xFFFFFFF0u), SOCMON_OK);
    wr(f, b + za9_pmxevtyper(0), 0x11);   /* CPU_CYCLES: one per active cycle */
    wr(f, b + A_ZA9_PMCNTENSET, ZA9_CCNT_BIT | 1u);
    wr(f, b + A_ZA9_PMCR, R_ZA9_PMCR_E_MASK);
    assert_int_equal(socmon_zynq_soc_advance(f->soc, 1000, NULL), SOCMON_OK);
    wr(f, b + A_ZA9_PMCR, 0);
    assert_int_equal(rd(f, b + A_ZA9_PMOVSR), ZA9_CCNT_BIT | 1u);
    wr(f, b + A_ZA9_PMOVSR, 0);
    assert_int_equal(rd(f, b + A_ZA9_PMOVSR), ZA9_CCNT_BIT | 1u);
    wr(f, b + A_ZA9_PMOVSR, 1u);
    assert_int_equal(rd(f, b + A_ZA9_PMOVSR), ZA9_CCNT_BIT);
    wr(f, b + A_ZA9_PMOVSR, ZA9_CCNT_BIT);
    assert_int_equal(rd(f, b + A_ZA9_PMOVSR), 0);
}

static void test_pmu_table_writes_need_the_unlock(void **state)
{
    fx *f = *state;
    const uint64_t b = f->d.pmu_base[0];
    wr(f, b + A_ZA9_PMCR, R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_D_MASK);
    wr(f, b + za9_pmxevcntr(3), 77);
    assert_int_equal(rd(f, b + A_ZA9_PMCR), 0x41093000u);
    assert_int_equal(rd(f, b + za9_pmxevcntr(3)), 0);
    assert_int_equal(rd(f, b + A_ZA9_PMLSR), R_ZA9_PMLSR_SLI_MASK | R_ZA9_PMLSR_SLK_MASK);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_apm_reset_values_and_masks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_apm_read_only_registers_ignore_writes, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_apm_is_is_write_one_to_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pmu_reset_values_and_masks, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pmu_ovsr_is_write_one_to_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_pmu_table_writes_need_the_unlock, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
