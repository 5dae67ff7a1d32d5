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

#define APM(off) (SOCMON_ZYNQ_APM_DEFAULT_BASE + (off))
#define NS_PER_CYCLE 5u
#define RUN 6400u
#define WR_N 100u
#define RD_N 200u
#define RD_DONE 199u

typedef struct fx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static fx *make(unsigned ncounters, unsigned scale, int id32, int gcc_width)
{
    fx *f = calloc(1, sizeof *f);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    d.gcc_width = gcc_width;
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.apm.ncounters = ncounters;
    d.apm.scale = scale;
    d.apm.id32 = id32;
    assert_int_equal(socmon_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    return f;
}

static int setup(void **state)
{
    *state = make(10, 1, 0, 64);
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    socmon_zynq_soc_free(f->soc);
    free(f);
    return 0;
}

static uint32_t rd(fx *f, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    assert_int_equal(socmon_bus_read32(f->bus, APM(off), &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, uint32_t off, uint32_t v)
{
    assert_int_equal(socmon_bus_write32(f->bus, APM(off), v), SOCMON_OK);
}

static void cycles(fx *f, uint64_t n)
{
    assert_int_equal(socmon_zynq_soc_advance(f->soc, n * NS_PER_CYCLE, NULL), SOCMON_OK);
}

static uint32_t msr(const uint8_t *sel, unsigned first)
{
    uint32_t v = 0;
    for (unsigned b = 0; b < 4; b++)
        v |= (uint32_t)sel[first + b] << (8 * b);
    return v;
}

/* Selects sel[0..9] (zapm_msr_byte), enables counting with SPA's latency
 * points, starts the traffic with IDs id_base + k mod id_count, runs RUN
 * cycles. */
static void run(fx *f, const uint8_t sel[12], uint32_t id_base, uint32_t id_count)
{
    wr(f, A_ZAPM_MSR0, msr(sel, 0));
    wr(f, A_ZAPM_MSR1, msr(sel, 4));
    wr(f, A_ZAPM_MSR2, msr(sel, 8));
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY |
                          (rd(f, A_ZAPM_CTL) & R_ZAPM_CTL_IDFILTER_MASK));
    socmon_zynq_traffic t = {400, 800, 128, 250, 0, id_base, id_count};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 0, &t), SOCMON_OK);
    cycles(f, RUN);
}

#define S0(m) zapm_msr_byte(0, (m))
#define S1(m) zapm_msr_byte(1, (m))

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
    socmon_zynq_traffic t = {400, 0, 128, 250, 0, 0, 0};
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
    assert_int_equal(socmon_zynq_apm_poke(f->soc, 1, 0xFFFFFFF0u), SOCMON_OK);
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
    assert_int_equal(socmon_zynq_apm_poke(f->soc, 0, 0xFFFFFFF0u), SOCMON_OK);
    run(f, sel, 0, 1);
    /* (0xFFFFFFF0 * 8 + 12800) / 8 mod 2^32 = 12800 / 8 - 16 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(0)), WR_N * 128 / 8 - 16);
    assert_int_equal(rd(f, zapm_adv_mc_offset(1)), WR_N / 8);   /* 100 >> 3 */
    assert_int_equal(rd(f, zapm_adv_mc_offset(2)), WR_N * 128 / 8);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_MC_OVF(0));
    /* the same 12800 bytes from 0x1FFFFFF0 carry the accumulator past 2^32
     * but the register (>> 3) does not wrap: no overflow */
    wr(f, A_ZAPM_IS, 0x1FFFu);
    assert_int_equal(socmon_zynq_apm_poke(f->soc, 0, 0x1FFFFFF0u), SOCMON_OK);
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
    assert_int_equal(socmon_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "ncounters 11"));
    d.apm.ncounters = 10;
    d.apm.scale = 3;
    assert_int_equal(socmon_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "scale 3"));
    d.apm.scale = 1;
    d.apm.mode = 7;
    assert_int_equal(socmon_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "mode 7"));
    d.apm.mode = SOCMON_ZAPM_ADVANCED;
    d.traffic.id_count = 257;
    assert_int_equal(socmon_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
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
        cmocka_unit_test_setup_teardown(test_reset_values_and_readback, setup, teardown),
        cmocka_unit_test(test_desc_checks),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
