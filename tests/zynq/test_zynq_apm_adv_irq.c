/* AXI Performance Monitor model, Advanced mode: ID filtering, the global
 * clock counter, overflow interrupts with count scale, sampling. Traffic
 * and fixture: zynq_apm_adv_fx.h (counts explained in test_zynq_apm_adv.c).
 *
 * Sources of expected values: spec = ../shared/specs/xilinx_apm_pmu.md;
 * HDL = eejlny/S2NN-HLS @ 170c1667, vivado_ip/system.ip_user_files/ipstatic/
 * axi_perf_mon_v5_0/hdl/src/verilog/axi_perf_mon_v5_0_<file>.v.
 *
 * The traffic: slot 0 writes 128-byte bursts (16 beats of 8 bytes) every 64
 * cycles and reads one every 32 (400 / 800 MB/s at 200 MHz), latency 50
 * cycles from address accept to last beat, first issue at cycle 1. By cycle
 * 6400: writes k = 0..99 issued (1 + 64k <= 6400) and all done (1 + 64k + 50
 * <= 6400); reads k = 0..199 issued and k = 0..198 done, none of read 199's
 * beats (cycles 6404..6419) seen. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

#include "zynq/zynq_apm_adv_fx.h"

static void id_filter(fx *f, uint32_t id, uint32_t mask)
{
    wr(f, A_ZAPM_ID, id);
    wr(f, A_ZAPM_IDMASK, mask);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_IDFILTER_MASK);
}

static void test_id_filter_16(void **state)
{
    /* metric_calc.v:419-431 id_matched: bit j matches if mask[j] |
     * (filter[j] XNOR id[j]): a mask bit of 1 is "don't care". 16-bit IDs:
     * write ID/mask in [15:0], read in [31:16] (register_module.v:2200-2204,
     * spec §1.7). Traffic IDs 4, 5, 6, 7, 4, ... */
    fx *f = *state;
    const uint8_t sel[12] = {S0(0), S0(1), S0(2), S0(6), S0(3)};
    id_filter(f, 6u << 16 | 5u, 0);
    run(f, sel, 4, 4);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N / 4);       /* k = 1 mod 4 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), RD_N / 4);       /* k = 2 mod 4 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(2)), WR_N / 4 * 128);
    assert_int_equal(rd(f, zapm_adv_mc_offset(3)), WR_N / 4 * 50);
    assert_int_equal(rd(f, zapm_adv_mc_offset(4)), 50u * 128);     /* reads 2, 6, .., 198 done */
}

static void test_id_filter_mask_and_miss(void **state)
{
    fx *f = *state;
    const uint8_t sel[12] = {S0(0), S0(1)};
    /* write mask bit 1 set: 5 and 7 match; read filter 9 matches none */
    id_filter(f, 9u << 16 | 5u, 0x0002u);
    run(f, sel, 4, 4);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N / 2);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), 0);
    assert_int_equal(rd(f, A_ZAPM_ID), 9u << 16 | 5u);
    assert_int_equal(rd(f, A_ZAPM_IDMASK), 0x0002u);
}

static void test_id_filter_off_counts_all(void **state)
{
    fx *f = *state;
    const uint8_t sel[12] = {S0(0)};
    wr(f, A_ZAPM_ID, 5u);
    run(f, sel, 4, 4);   /* CR bit 3 clear */
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N);
}

static void test_id_filter_32(void **state)
{
    /* 32-bit filter (ESW XAxiPmon_SetWriteId/SetReadId with
     * Is32BitFiltering): write ID/mask at 0x304/0x308, read at 0x30C/0x310,
     * all 32 bits compared. IDs 0x10005..0x10008. */
    fx *f = make(10, 1, 1, 64);
    *state = f;
    const uint8_t sel[12] = {S0(0), S0(1)};
    wr(f, A_ZAPM_RID, 0x10006u);
    wr(f, A_ZAPM_RIDMASK, 0);
    assert_int_equal(rd(f, A_ZAPM_RID), 0x10006u);
    id_filter(f, 0x5u, 0);   /* the low 16 bits alone do not match */
    run(f, sel, 0x10005u, 4);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), RD_N / 4);
}

static void test_id_filter_16_ignores_high_bits(void **state)
{
    /* without the 32-bit option RID/RIDMASK do not exist (read 0) and only
     * ID[15:0] is compared */
    fx *f = *state;
    const uint8_t sel[12] = {S0(0)};
    wr(f, A_ZAPM_RID, 0x1234u);
    assert_int_equal(rd(f, A_ZAPM_RID), 0);
    id_filter(f, 0x5u, 0);
    run(f, sel, 0x10005u, 4);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N / 4);
}

static void test_global_clock_counter(void **state)
{
    /* CR bit 16 enables, bit 17 resets (level; HDL glbl_clk_cnt.v), 64-bit
     * read hi-lo-hi (spec §1.8: the HDL re-latches on every read) */
    fx *f = *state;
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK);
    cycles(f, 12345);
    uint64_t v = 0;
    assert_int_equal(socmon_bus_read64_hilohi(f->bus, APM(A_ZAPM_GCC_LOW), APM(A_ZAPM_GCC_HIGH),
                                              0, &v),
                     SOCMON_OK);
    assert_int_equal(v, 12345);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK | R_ZAPM_CTL_GCC_RESET_MASK);
    cycles(f, 100);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK);
    cycles(f, 77);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 77);
    assert_int_equal(rd(f, A_ZAPM_CTL), R_ZAPM_CTL_GCC_EN_MASK);   /* reads back (§1.3) */
    wr(f, A_ZAPM_CTL, 0);
    cycles(f, 1000);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 77);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
}

static void test_gcc32_overflow_irq(void **state)
{
    /* a 32-bit GCC's carry out sets IS bit 0 (XAPM_IXR_GCC_OVERFLOW_MASK;
     * HDL advanced.v:1755 Intr_In order, spec §1.6) */
    fx *f = make(10, 1, 0, 32);
    *state = f;
    wr(f, A_ZAPM_IE, ZAPM_IXR_GCC_OVF);
    wr(f, A_ZAPM_GIE, 1);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK);
    cycles(f, 0xFFFFFFFFull);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_GCC_HIGH), 0);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    assert_false(socmon_zynq_apm_irq(f->soc));
    cycles(f, 11);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 10);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_GCC_OVF);
    assert_true(socmon_zynq_apm_irq(f->soc));
    wr(f, A_ZAPM_IS, ZAPM_IXR_GCC_OVF);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
}

static void test_mc_overflow_scale1(void **state)
{
    /* counter n's overflow sets IS bit 3 + n (XAPM_IXR_MCn_OVERFLOW_MASK,
     * spec §1.6) */
    fx *f = *state;
    const uint8_t sel[12] = {S0(1), S0(0)};
    assert_int_equal(smn_zynq_apm_poke(f->soc, 1, 0xFFFFFFF0u), SOCMON_OK);
    wr(f, A_ZAPM_IE, 0x1FFFu);
    assert_int_equal(rd(f, A_ZAPM_IE), 0x1FFFu);
    wr(f, A_ZAPM_GIE, 1);
    /* run() must not reset: select and enable by hand */
    run(f, sel, 0, 1);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), WR_N - 16);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_MC_OVF(1));
    assert_int_equal(ZAPM_IXR_MC_OVF(1), 0x10u);
    assert_true(socmon_zynq_apm_irq(f->soc));
}

static void test_mc_overflow_scale8(void **state)
{
    /* scale 8: the register shows the 36-bit accumulator >> 3 and wraps at
     * 2^35 (HDL acc_n_incr.v C_SCALE == 8 branch; spec §1.7) */
    fx *f = make(10, 8, 0, 64);
    *state = f;
    const uint8_t sel[12] = {S0(2), S0(0), S0(2)};
    assert_int_equal(smn_zynq_apm_poke(f->soc, 0, 0xFFFFFFF0u), SOCMON_OK);
    run(f, sel, 0, 1);
    /* (0xFFFFFFF0 * 8 + 12800) / 8 mod 2^32 = 12800 / 8 - 16 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N * 128 / 8 - 16);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), WR_N / 8);   /* 100 >> 3 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(2)), WR_N * 128 / 8);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_MC_OVF(0));
    /* the same 12800 bytes from 0x1FFFFFF0 carry the accumulator past 2^32
     * but the register (>> 3) does not wrap: no overflow */
    wr(f, A_ZAPM_IS, 0x1FFFu);
    assert_int_equal(smn_zynq_apm_poke(f->soc, 0, 0x1FFFFFF0u), SOCMON_OK);
    cycles(f, RUN);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0x1FFFFFF0u + WR_N * 128 / 8);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
}

static void test_sample_latches_smc_and_sinc(void **state)
{
    /* an SR read is a sample pulse: MCn -> SMCn, INCn -> SINCn; with SICR
     * bit 8 the live counters then clear (spec §1.4, HDL register_module.v
     * Metrics_Cnt_Reset_Final) */
    fx *f = *state;
    const uint8_t sel[12] = {S0(0), S0(6)};
    wr(f, zapm_adv_range_offset(1), 0xFFFF0000u);
    wr(f, A_ZAPM_SICR, 0);
    run(f, sel, 0, 1);
    assert_int_equal(rd(f, zapm_adv_smc_offset(0)), 0);
    (void)rd(f, A_ZAPM_SR);
    assert_int_equal(rd(f, zapm_adv_smc_offset(0)), WR_N);
    assert_int_equal(rd(f, zapm_adv_smc_offset(1)), WR_N * 50);
    assert_int_equal(rd(f, zapm_adv_sinc_offset(1)), WR_N);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N);   /* SICR bit 8 clear: runs on */
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_MCNTR_RST_MASK);
    cycles(f, 64);
    uint32_t live = rd(f, zapm_adv_mc_offset(0));
    (void)rd(f, A_ZAPM_SR);
    assert_int_equal(rd(f, zapm_adv_smc_offset(0)), live);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0);
    assert_int_equal(rd(f, zapm_adv_inc_offset(1)), 0);
    assert_int_equal(rd(f, zapm_adv_sinc_offset(1)), WR_N + 1);
    /* a sample-interval lapse sets IS bit 1 and latches the same way */
    wr(f, A_ZAPM_SI_LOW, 997);
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_LOAD_MASK);
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_EN_MASK);
    cycles(f, 1000);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_SIC_LAPSE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_id_filter_16, setup, teardown),
        cmocka_unit_test_setup_teardown(test_id_filter_mask_and_miss, setup, teardown),
        cmocka_unit_test_setup_teardown(test_id_filter_off_counts_all, setup, teardown),
        cmocka_unit_test_teardown(test_id_filter_32, teardown),
        cmocka_unit_test_setup_teardown(test_id_filter_16_ignores_high_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_global_clock_counter, setup, teardown),
        cmocka_unit_test_teardown(test_gcc32_overflow_irq, teardown),
        cmocka_unit_test_setup_teardown(test_mc_overflow_scale1, setup, teardown),
        cmocka_unit_test_teardown(test_mc_overflow_scale8, teardown),
        cmocka_unit_test_setup_teardown(test_sample_latches_smc_and_sinc, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
