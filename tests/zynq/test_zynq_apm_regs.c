/* AXI Performance Monitor model: register behaviour as the hardware has it. */
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
#define NS_PER_CYCLE 5u   /* the default 200 MHz APM clock */

typedef struct fx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
} fx;

static int setup_gcc(void **state, int gcc_width)
{
    fx *f = calloc(1, sizeof *f);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.nslots = 2;
    d.gcc_width = gcc_width;
    assert_int_equal(smn_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    /* exact cycle counts below: accesses take no time (issue 13 gave them some) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    *state = f;
    return 0;
}

static int setup(void **state)
{
    return setup_gcc(state, 64);
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
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

/* 400 MB/s of 128-byte writes at 200 MHz: one every 64 cycles, 50-cycle latency. */
static void traffic(fx *f, unsigned slot, double wr_mbps, double rd_mbps, double lat_ns)
{
    socmon_zynq_traffic t = {.wr_mbps = wr_mbps, .rd_mbps = rd_mbps, .burst_bytes = 128,
        .lat_ns = lat_ns, .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, slot, &t), SOCMON_OK);
}

static void test_reset_values(void **state)
{
    fx *f = *state;
    assert_int_equal(rd(f, A_ZAPM_SICR), ZAPM_SICR_RESET);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    assert_int_equal(rd(f, A_ZAPM_SI_LOW), 0);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 0);
    for (unsigned k = 0; k < 12; k++)
        assert_int_equal(rd(f, socmon_zapm_mc_offset(k)), 0);
    /* min latency starts all-ones, max at 0 */
    assert_int_equal(rd(f, socmon_zapm_wr_minmax_offset(1)), 0x0000FFFF);
    /* an undecoded address reads 0 and ignores writes */
    wr(f, 0x3F0, 0x1234);
    assert_int_equal(rd(f, 0x3F0), 0);
}

static void test_counter_offsets(void **state)
{
    (void)state;
    /* piecewise map of the profile counters (ESW GetMetricCounter, HDL decode) */
    assert_int_equal(socmon_zapm_mc_offset(0), 0x100);
    assert_int_equal(socmon_zapm_mc_offset(9), 0x190);
    assert_int_equal(socmon_zapm_mc_offset(10), 0x1A0);
    assert_int_equal(socmon_zapm_mc_offset(11), 0x1B0);
    assert_int_equal(socmon_zapm_mc_offset(12), 0x500);
    assert_int_equal(socmon_zapm_mc_offset(23), 0x5B0);
    assert_int_equal(socmon_zapm_mc_offset(24), 0x700);
    assert_int_equal(socmon_zapm_mc_offset(36), 0x900);
    assert_int_equal(socmon_zapm_mc_offset(47), 0x9B0);
    assert_int_equal(socmon_zapm_smc_offset(12), 0x600);
    assert_int_equal(socmon_zapm_wr_minmax_offset(0), 0x154);
    assert_int_equal(socmon_zapm_rd_minmax_offset(1), 0x1B8);
    assert_int_equal(socmon_zapm_wr_minmax_offset(2), 0x554);
    assert_int_equal(socmon_zapm_rd_minmax_offset(7), 0x9B8);
}

static void test_disabled_counts_nothing(void **state)
{
    fx *f = *state;
    traffic(f, 0, 400, 800, 250);
    cycles(f, 10000);
    assert_int_equal(smn_zynq_apm_peek(f->soc, SOCMON_ZAPM_WR_TXNS), 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    cycles(f, 6400);
    /* one write every 64 cycles */
    uint32_t n = smn_zynq_apm_peek(f->soc, SOCMON_ZAPM_WR_TXNS);
    assert_in_range(n, 99, 101);
    assert_in_range(smn_zynq_apm_peek(f->soc, SOCMON_ZAPM_RD_TXNS), 199, 201);
    /* slot 1 has no traffic */
    assert_int_equal(smn_zynq_apm_peek(f->soc, 6 + SOCMON_ZAPM_WR_TXNS), 0);
}

static void test_sample_read_latches(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);   /* no reset on sample */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    traffic(f, 0, 400, 800, 250);
    cycles(f, 5000);
    uint32_t live = rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_BYTES));
    assert_true(live > 0);
    /* the sampled copy moves only on a sample pulse */
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_BYTES)), 0);
    assert_int_equal(rd(f, A_ZAPM_SR), 0);   /* first read: the SR clock starts */
    for (unsigned j = 0; j < SOCMON_ZAPM_PER_SLOT; j++)
        assert_int_equal(rd(f, socmon_zapm_smc_offset(j)), rd(f, socmon_zapm_mc_offset(j)));
    cycles(f, 5000);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_BYTES)), live);
    assert_true(rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_BYTES)) > live);
    /* SR counts register clocks since its first read */
    assert_int_equal(rd(f, A_ZAPM_SR), 5000);
    assert_true(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_BYTES)) > live);
    /* counters keep running (free-running, cumulative) */
    assert_int_equal(rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_BYTES)),
                     rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_BYTES)));
}

static void test_reset_on_sample(void **state)
{
    fx *f = *state;
    /* SICR keeps its reset value 0x100: every sample also clears the live counters */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    traffic(f, 0, 400, 0, 250);
    cycles(f, 6400);
    uint32_t before = rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_TXNS));
    assert_true(before > 0);
    (void)rd(f, A_ZAPM_SR);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_TXNS)), before);
    assert_int_equal(rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_TXNS)), 0);
}

static void test_reset_bit_is_a_level(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    traffic(f, 0, 400, 800, 250);
    cycles(f, 5000);
    (void)rd(f, A_ZAPM_SR);
    assert_true(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_BYTES)) > 0);
    /* held in reset: live and sampled counters read 0 however long it lasts */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | R_ZAPM_CTL_MCNTR_RESET_MASK);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_BYTES)), 0);
    cycles(f, 5000);
    (void)rd(f, A_ZAPM_SR);
    for (unsigned j = 0; j < SOCMON_ZAPM_PER_SLOT; j++) {
        assert_int_equal(rd(f, socmon_zapm_mc_offset(j)), 0);
        assert_int_equal(rd(f, socmon_zapm_smc_offset(j)), 0);
    }
    assert_int_equal(rd(f, socmon_zapm_wr_minmax_offset(0)), 0x0000FFFF);
    /* released: counting resumes from 0 */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    cycles(f, 6400);
    assert_in_range(rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_TXNS)), 99, 101);
}

static void test_interval_lapse_and_w1c(void **state)
{
    fx *f = *state;
    const uint32_t si = 997;   /* lapse period SI + 3 = 1000 cycles */
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    traffic(f, 0, 400, 800, 250);
    wr(f, A_ZAPM_SI_LOW, si);
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_LOAD_MASK);
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_EN_MASK);
    cycles(f, 999);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_TXNS)), 0);
    cycles(f, 1);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_SIC_LAPSE);
    /* the lapse latched the counters without any SR read */
    uint32_t at_lapse = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_TXNS));
    assert_int_equal(at_lapse, rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_WR_TXNS)));
    assert_true(at_lapse > 0);
    /* IRQ needs both the enable bit and the global enable */
    assert_false(socmon_zynq_apm_irq(f->soc));
    wr(f, A_ZAPM_IE, ZAPM_IXR_SIC_LAPSE);
    assert_false(socmon_zynq_apm_irq(f->soc));
    wr(f, A_ZAPM_GIE, 1);
    assert_true(socmon_zynq_apm_irq(f->soc));
    /* write 0 changes nothing; write 1 clears */
    wr(f, A_ZAPM_IS, 0);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_SIC_LAPSE);
    wr(f, A_ZAPM_IS, ZAPM_IXR_SIC_LAPSE);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    assert_false(socmon_zynq_apm_irq(f->soc));
    /* and the next lapse comes one period later */
    cycles(f, 999);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    cycles(f, 1);
    assert_int_equal(rd(f, A_ZAPM_IS), ZAPM_IXR_SIC_LAPSE);
    assert_true(socmon_zynq_apm_irq(f->soc));
    /* stopping the metric counters stops the interval counter too */
    wr(f, A_ZAPM_IS, ZAPM_IXR_MASK);
    wr(f, A_ZAPM_CTL, 0);
    cycles(f, 5000);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
}

/* HDL references below: eejlny/S2NN-HLS @ 170c1667,
 * vivado_ip/system.ip_user_files/ipstatic/axi_perf_mon_v5_0/hdl/src/verilog/,
 * files axi_perf_mon_v5_0_<name>.v; spec = ../shared/specs/xilinx_apm_pmu.md. */

static void test_profile_has_no_gcc(void **state)
{
    /* Profile mode has no global clock counter, whatever gcc_width says
     * (the fixture asks for 64 bits): register_module_profile.v decodes no
     * address in 0x00-0x0F (its decodes, :293-325, start at 0x20) and its
     * Control_Reg (:571-573) has no bit 16/17; spec §1.1, §1.6. */
    fx *f = *state;
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK);
    cycles(f, 1000);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 0);
    assert_int_equal(rd(f, A_ZAPM_GCC_HIGH), 0);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK | R_ZAPM_CTL_GCC_RESET_MASK);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_GCC_EN_MASK);
    cycles(f, 1000);
    assert_int_equal(rd(f, A_ZAPM_GCC_LOW), 0);
}

static void test_profile_cr_readback(void **state)
{
    /* register_module_profile.v:355-365 stores bits 0-2, 4-9, 25 on a CR
     * write; :571-573 (GEN_CNTRL_REG_PROFILE) reads back bits 0-2 and 4-7:
     * bit 3 (ID filter), 8/9/25 (event log) and 16/17 read 0. Spec §1.6. */
    fx *f = *state;
    wr(f, A_ZAPM_CTL, 0xFFFFFFFFu & ~R_ZAPM_CTL_MCNTR_EN_MASK);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0xF6u);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_IDFILTER_MASK | 0x00030300u);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0);
    wr(f, A_ZAPM_CTL, 0xD1u);
    assert_int_equal(rd(f, A_ZAPM_CTL), 0xD1u);
}

static void test_profile_interrupt_bits(void **state)
{
    /* profile.v:670 C_NUM_INTR_INPUTS = 2, :1225 Intr_In = {FIFO full,
     * lapse}, :1252 Wr_Data = Bus2IP_Data[2:1]; register_module_profile.v
     * :845 IE reads {IER_Int,1'b0} with :570 IER_Int = {1'b0, IER[0]}, :848
     * IS reads {ISR,1'b0}. So the lapse is bit 1 (0x2, ESW
     * XAPM_IXR_SIC_OVERFLOW_MASK), FIFO full bit 2, bit 0 reads 0, and IE
     * reads back only the lapse enable. Spec §1.6. */
    fx *f = *state;
    assert_int_equal(ZAPM_IXR_SIC_LAPSE, 0x2u);
    assert_int_equal(ZAPM_IXR_FIFO_FULL, 0x4u);
    wr(f, A_ZAPM_IE, 0xFFFFFFFFu);
    assert_int_equal(rd(f, A_ZAPM_IE), 0x2u);
    wr(f, A_ZAPM_IE, 0x1u);             /* the old (wrong) placement enables nothing */
    assert_int_equal(rd(f, A_ZAPM_IE), 0);
    wr(f, A_ZAPM_GIE, 1);
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK);
    wr(f, A_ZAPM_SI_LOW, 97);           /* lapse every 100 cycles */
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_LOAD_MASK);
    wr(f, A_ZAPM_SICR, R_ZAPM_SICR_EN_MASK);
    cycles(f, 100);
    assert_int_equal(rd(f, A_ZAPM_IS), 0x2u);   /* bit 0 stays 0 */
    assert_false(socmon_zynq_apm_irq(f->soc));  /* IE bit 0 is not the lapse */
    wr(f, A_ZAPM_IE, 0x2u);
    assert_int_equal(rd(f, A_ZAPM_IE), 0x2u);
    assert_true(socmon_zynq_apm_irq(f->soc));
    /* W1C on bits 1..2 only: bit 0 and bit 2 do not clear the lapse */
    wr(f, A_ZAPM_IS, 0x5u);
    assert_int_equal(rd(f, A_ZAPM_IS), 0x2u);
    wr(f, A_ZAPM_IS, 0x2u);
    assert_int_equal(rd(f, A_ZAPM_IS), 0);
    assert_false(socmon_zynq_apm_irq(f->soc));
}

static void test_latency_points(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);
    traffic(f, 0, 400, 400, 250);   /* 50 cycles, 16-beat bursts */
    /* SPA: address accept to last beat */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    cycles(f, 64000);
    (void)rd(f, A_ZAPM_SR);
    uint32_t n = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_TXNS));
    uint32_t lat = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_LAT));
    assert_in_range(n, 999, 1001);
    /* transactions count at the address, latency at the end: at most one apart */
    assert_in_range(lat, (n - 1) * 50u, n * 50u);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_WR_BYTES)) % 128, 0);
    /* min/max words: both 50 */
    assert_int_equal(rd(f, socmon_zapm_smc_offset(5) + 4), (50u << 16) | 50u);
    /* end at the first beat: 16 beats earlier, 15 cycles less */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY |
                               R_ZAPM_CTL_RDLAT_END_MASK);
    cycles(f, 64000);
    (void)rd(f, A_ZAPM_SR);
    n = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_TXNS));
    lat = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_LAT));
    assert_in_range(lat, (n - 1) * 35u, n * 35u);
    assert_int_equal(rd(f, socmon_zapm_smc_offset(5) + 8), (35u << 16) | 35u);
    assert_int_equal(rd(f, A_ZAPM_CTL) & 0xFF, 0xD1);
}

static void test_latency_distribution_bounds(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    /* 300 +- 100 ns = 60 +- 20 cycles, drawn per transaction */
    socmon_zynq_traffic t = {.wr_mbps = 0, .rd_mbps = 400, .burst_bytes = 128, .lat_ns = 300,
        .lat_jitter_ns = 100, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 1, &t), SOCMON_OK);
    cycles(f, 2000000);
    (void)rd(f, A_ZAPM_SR);
    uint32_t mm = rd(f, socmon_zapm_rd_minmax_offset(1) + 0x100);
    uint32_t mn = mm & 0xFFFF, mx = mm >> 16;
    assert_in_range(mn, 40, 42);   /* the extremes of 30k draws sit at the bounds */
    assert_in_range(mx, 78, 80);
    uint32_t n = rd(f, socmon_zapm_smc_offset(6 + SOCMON_ZAPM_RD_TXNS));
    uint32_t lat = rd(f, socmon_zapm_smc_offset(6 + SOCMON_ZAPM_RD_LAT));
    assert_in_range(n, 31000, 31300);
    /* mean 60 cycles: in order, no interleaving adds a little where a short
     * draw follows a long one */
    assert_true((double)lat / n >= 59.5 && (double)lat / n < 61);
}

static void test_32_outstanding(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    /* 64-byte reads wanted every 4 cycles with 400-cycle latency: 100 would
     * be in flight; the slot accepts 32, so 32 per 400 cycles get through */
    socmon_zynq_traffic t = {.wr_mbps = 0, .rd_mbps = 3200, .burst_bytes = 64, .lat_ns = 2000,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(f->soc, 0, &t), SOCMON_OK);
    cycles(f, 400000);
    (void)rd(f, A_ZAPM_SR);
    uint32_t n = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_TXNS));
    uint32_t lat = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_LAT));
    assert_in_range(n, 31000, 32100);
    /* accept to last data stays the slave's 400 cycles: the wait is before accept */
    assert_in_range(lat / (n - 32), 399, 401);
    assert_true(smn_zynq_apm_stalls(f->soc, 0) > 1000);
    /* from address issue instead, the waiting shows in the latency */
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK);
    cycles(f, 40000);
    (void)rd(f, A_ZAPM_SR);
    n = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_TXNS));
    lat = rd(f, socmon_zapm_smc_offset(SOCMON_ZAPM_RD_LAT));
    assert_true(lat / n > 800);
}

static void test_counters_wrap(void **state)
{
    fx *f = *state;
    wr(f, A_ZAPM_SICR, 0);
    wr(f, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY);
    assert_int_equal(smn_zynq_apm_poke(f->soc, SOCMON_ZAPM_RD_BYTES, 0xFFFFFF00u), SOCMON_OK);
    traffic(f, 0, 0, 800, 250);
    cycles(f, 3200);   /* 100 reads of 128 bytes */
    uint32_t v = rd(f, socmon_zapm_mc_offset(SOCMON_ZAPM_RD_BYTES));
    assert_true(v < 0x10000u);
    assert_in_range(socmon_delta(0xFFFFFF00u, v, 32), 99 * 128, 101 * 128);
    assert_int_equal(smn_zynq_apm_poke(f->soc, 99, 1), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "99"));
}

static void test_bus_errors(void **state)
{
    fx *f = *state;
    uint32_t v;
    assert_int_equal(socmon_bus_read32(f->bus, APM(0x102), &v), SOCMON_EIO);
    assert_int_equal(socmon_bus_read32(f->bus, APM(SOCMON_ZAPM_WINDOW), &v), SOCMON_EIO);
}

static void test_desc_errors(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_soc *soc = NULL;
    socmon_zynq_desc_default(&d);
    d.nslots = 9;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slots 9"));
    socmon_zynq_desc_default(&d);
    d.traffic.burst_bytes = 100;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "burst 100"));
    socmon_zynq_desc_default(&d);
    d.gcc_width = 48;
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "48"));
    socmon_zynq_desc_default(&d);
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_start(soc, "bogus", 0), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "bogus"));
    assert_int_equal(socmon_zynq_soc_advance(soc, UINT64_MAX / 4, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "advance of"));
    socmon_zynq_traffic t = {.wr_mbps = 100, .rd_mbps = 100, .burst_bytes = 128, .lat_ns = 0,
        .lat_jitter_ns = 0, .id_base = 0, .id_count = 0};
    assert_int_equal(socmon_zynq_soc_set_traffic(soc, 0, &t), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "lat_ns 0"));
    assert_int_equal(socmon_zynq_soc_set_traffic(soc, 7, &t), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 7"));
    smn_zynq_soc_free(soc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_values, setup, teardown),
        cmocka_unit_test(test_counter_offsets),
        cmocka_unit_test_setup_teardown(test_disabled_counts_nothing, setup, teardown),
        cmocka_unit_test_setup_teardown(test_sample_read_latches, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_on_sample, setup, teardown),
        cmocka_unit_test_setup_teardown(test_reset_bit_is_a_level, setup, teardown),
        cmocka_unit_test_setup_teardown(test_interval_lapse_and_w1c, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_has_no_gcc, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_cr_readback, setup, teardown),
        cmocka_unit_test_setup_teardown(test_profile_interrupt_bits, setup, teardown),
        cmocka_unit_test_setup_teardown(test_latency_points, setup, teardown),
        cmocka_unit_test_setup_teardown(test_latency_distribution_bounds, setup, teardown),
        cmocka_unit_test_setup_teardown(test_32_outstanding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counters_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bus_errors, setup, teardown),
        cmocka_unit_test(test_desc_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
