/* AXI Performance Monitor model, Advanced mode: every metric number on known
 * traffic, selectors, incrementers and ranges, ID filtering, the global
 * clock counter, overflow interrupts with count scale, sampling.
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

static void test_metrics_0_to_9(void **state)
{
    /* what each metric adds: HDL metric_sel_n_cnt.v:403-465, spec §1.5 */
    fx *f = *state;
    const uint8_t sel[12] = {S0(0), S0(1), S0(2), S0(3), S0(4), S0(5), S0(6), S0(7), S0(8), S0(9)};
    run(f, sel, 0, 1);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N);                 /* AW handshakes */
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), RD_N);                 /* AR handshakes */
    assert_int_equal(rd(f, zapm_adv_mc_offset(2)), WR_N * 128);           /* WSTRB lanes at WLAST */
    assert_int_equal(rd(f, zapm_adv_mc_offset(3)), RD_DONE * 128);        /* 8 bytes per R beat */
    assert_int_equal(rd(f, zapm_adv_mc_offset(4)), WR_N * 16);            /* write beats */
    assert_int_equal(rd(f, zapm_adv_mc_offset(5)), RD_DONE * 50);         /* read latency at completion */
    assert_int_equal(rd(f, zapm_adv_mc_offset(6)), WR_N * 50);
    /* slave write idle: data offered from accept + 1, taken in the last 16
     * of the 50 cycles: 34 per burst (docs/zynq.md, the model's definition) */
    assert_int_equal(rd(f, zapm_adv_mc_offset(7)), WR_N * 34);
    assert_int_equal(rd(f, zapm_adv_mc_offset(8)), 0);                    /* masters always ready */
    assert_int_equal(rd(f, zapm_adv_mc_offset(9)), WR_N);                 /* BVALIDs */
}

static void test_metrics_10_to_15_stream_and_external(void **state)
{
    /* :456-535: 10 WLASTs, 11 RLASTs, 12-15 live min/max (not accumulated),
     * 16-22 AXI4-Stream and 30 external events: 0 on memory-mapped slots;
     * slot 1 has no traffic: min stays all-ones, max 0 */
    fx *f = *state;
    const uint8_t sel[12] = {S0(10), S0(11), S0(12), S0(13), S0(14),
                             S0(15), S0(16), S0(22), S0(30), S1(12)};
    run(f, sel, 0, 1);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), RD_DONE);
    for (unsigned k = 2; k < 6; k++)
        assert_int_equal(rd(f, zapm_adv_mc_offset(k)), 50);
    for (unsigned k = 6; k < 9; k++)
        assert_int_equal(rd(f, zapm_adv_mc_offset(k)), 0);
    assert_int_equal(rd(f, zapm_adv_mc_offset(9)), 0xFFFFFFFFu);
    /* a metric number the HDL does not decode (23..29, 31) counts nothing */
    wr(f, A_ZAPM_MSR0, S0(25));
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK);
    cycles(f, 1000);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0);
}

static void test_selector_registers(void **state)
{
    /* MSR0..2 at 0x44/0x48/0x4C, byte n = counter n, [4:0] metric [7:5]
     * slot (spec §1.5, ESW XAxiPmon_SetMetrics); MSR2 bytes 2-3 read 0 */
    fx *f = *state;
    wr(f, A_ZAPM_MSR0, 0xFFFFFFFFu);
    wr(f, A_ZAPM_MSR1, 0x12345678u);
    wr(f, A_ZAPM_MSR2, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_MSR0), 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_MSR1), 0x12345678u);
    assert_int_equal(rd(f, A_ZAPM_MSR2), 0x0000FFFFu);
    assert_int_equal(zapm_msr_byte(3, 5), 0x65);
    assert_int_equal(zapm_msr_offset(9), A_ZAPM_MSR2);
    assert_int_equal(zapm_msr_shift(9), 8);
    /* the same slot-1 selection counts slot 1's traffic only */
    wr(f, A_ZAPM_MSR0, S1(0) | (uint32_t)S0(0) << 8);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK);
    socmon_zynq_traffic t = {.wr_mbps = 400, .rd_mbps = 0, .burst_bytes = 128, .lat_ns = 250,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 1, &t), SOCMON_OK);
    cycles(f, RUN);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), 0);
}

static void test_fewer_counters(void **state)
{
    /* 5 counters: selector bytes of the absent ones are tied to 0 (HDL
     * register_module.v:1122), their registers read 0 */
    fx *f = make(5, 1, 0, 64);
    *state = f;
    wr(f, A_ZAPM_MSR1, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_MSR1), 0x000000FFu);
    wr(f, A_ZAPM_MSR2, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_MSR2), 0);
    wr(f, zapm_adv_range_offset(5), 0xFFFF0000u);
    assert_int_equal(rd(f, zapm_adv_range_offset(5)), 0);
    wr(f, zapm_adv_range_offset(4), 0xFFFF0000u);
    assert_int_equal(rd(f, zapm_adv_range_offset(4)), 0xFFFF0000u);
}

static void test_incrementers_and_ranges(void **state)
{
    /* acc_n_incr.v: the incrementer steps by incrementer_input_reg_val when
     * the event's Add_in[15:0] lies in [RANGE[15:0], RANGE[31:16]]; step is
     * the burst's beats for metrics 2 and 4, 1 for the others
     * (metric_sel_n_cnt.v:405-437); spec §1.7 */
    fx *f = *state;
    const uint8_t sel[12] = {S0(6), S0(6), S0(2), S0(2), S0(3), S0(3), S0(0), S0(5)};
    wr(f, zapm_adv_range_offset(0), 60u << 16 | 40u);    /* 50 in [40, 60] */
    wr(f, zapm_adv_range_offset(1), 60u << 16 | 51u);    /* 50 not in [51, 60] */
    wr(f, zapm_adv_range_offset(2), 128u << 16 | 128u);  /* bytes 128: + 16 beats */
    wr(f, zapm_adv_range_offset(3), 127u << 16 | 0u);
    wr(f, zapm_adv_range_offset(4), 8u << 16 | 8u);      /* 8 bytes per read beat */
    wr(f, zapm_adv_range_offset(5), 7u << 16 | 0u);
    wr(f, zapm_adv_range_offset(6), 1u << 16 | 1u);      /* a transaction adds 1 */
    wr(f, zapm_adv_range_offset(7), 50u << 16 | 50u);    /* edges inclusive */
    assert_int_equal(rd(f, zapm_adv_range_offset(0)), 60u << 16 | 40u);
    run(f, sel, 0, 1);
    assert_int_equal(rd(f, zapm_adv_inc_offset(0)), WR_N);
    assert_int_equal(rd(f, zapm_adv_inc_offset(1)), 0);
    assert_int_equal(rd(f, zapm_adv_inc_offset(2)), WR_N * 16);
    assert_int_equal(rd(f, zapm_adv_inc_offset(3)), 0);
    assert_int_equal(rd(f, zapm_adv_inc_offset(4)), RD_DONE * 16);
    assert_int_equal(rd(f, zapm_adv_inc_offset(5)), 0);
    assert_int_equal(rd(f, zapm_adv_inc_offset(6)), WR_N);
    assert_int_equal(rd(f, zapm_adv_inc_offset(7)), RD_DONE);
    /* the metric counters count regardless of the range */
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), WR_N * 50);
    /* reset with the metric counters (CR bit 1) */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK);
    assert_int_equal(rd(f, zapm_adv_inc_offset(0)), 0);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0);
    assert_int_equal(rd(f, zapm_adv_range_offset(0)), 60u << 16 | 40u);   /* kept */
}

static void test_reset_values_and_readback(void **state)
{
    /* spec §1.4: every register resets to 0 but SICR (0x100); §1.3 CR reads
     * back 0-7, 16, 17; §1.6 IE/IS 13 bits */
    fx *f = *state;
    assert_int_equal(rd(f, A_ZAPM_SICR), 0x100u);
    for (int x = 0; x < ZAPM_NXREGS; x++)
        if (x != ZAPM_XREG_RID && x != ZAPM_XREG_RIDMASK)
            assert_int_equal(rd(f, ZAPM_XREGINFO[x].addr), 0);
    for (unsigned n = 0; n < 10; n++) {
        assert_int_equal(rd(f, zapm_adv_mc_offset(n)), 0);
        assert_int_equal(rd(f, zapm_adv_inc_offset(n)), 0);
        assert_int_equal(rd(f, zapm_adv_range_offset(n)), 0);
        assert_int_equal(rd(f, zapm_adv_logen_offset(n)), 0);
        assert_int_equal(rd(f, zapm_adv_smc_offset(n)), 0);
        assert_int_equal(rd(f, zapm_adv_sinc_offset(n)), 0);
    }
    wr(f, A_ZAPM_CTL, 0xFFFFFFFFu & ~R_ZAPM_CTL_MCNTR_EN_MASK);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0x000300FEu);
    wr(f, A_ZAPM_CTL, 0);
    wr(f, A_ZAPM_IE, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_IE), 0x1FFFu);
    wr(f, A_ZAPM_IS, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    /* FEC, SWD, LOGEN: stored (the event log is not modelled) */
    wr(f, A_ZAPM_FEC, 0xFFFFFFFFu);
    wr(f, A_ZAPM_SWD, 0xA5A5A5A5u);
    wr(f, zapm_adv_logen_offset(9), 0x00100001u);
    assert_int_equal(rd(f, A_ZAPM_FEC), 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_SWD), 0xA5A5A5A5u);
    assert_int_equal(rd(f, zapm_adv_logen_offset(9)), 0x00100001u);
    /* counters ignore writes; Profile-only addresses read 0 */
    wr(f, zapm_adv_mc_offset(0), 5);
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), 0);
    assert_int_equal(rd(f, 0x1A0), 0);
    assert_int_equal(rd(f, 0x500), 0);
}

static void test_desc_checks(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_soc *soc = NULL;
    socmon_zynq_desc_default(&d);
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.apm.ncounters = 11;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "ncounters 11"));
    d.apm.ncounters = 10;
    d.apm.scale = 3;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "scale 3"));
    d.apm.scale = 1;
    d.apm.mode = 7;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "mode 7"));
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.traffic.id_count = 257;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "id_count 257"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_metrics_0_to_9, setup, teardown),
        cmocka_unit_test_setup_teardown(test_metrics_10_to_15_stream_and_external, setup, teardown),
        cmocka_unit_test_setup_teardown(test_selector_registers, setup, teardown),
        cmocka_unit_test_teardown(test_fewer_counters, teardown),
        cmocka_unit_test_setup_teardown(test_incrementers_and_ranges, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_values_and_readback, setup, teardown),
        cmocka_unit_test(test_desc_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
