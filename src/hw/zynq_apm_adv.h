/* Xilinx AXI Performance Monitor, Advanced mode: the register facts that
 * Profile mode does not have. Included by src/hw/zynq_apm.h (never directly).
 *
 * Advanced mode has up to 10 metric counters, each counting one metric of
 * one slot chosen by a metric selector, each with an incrementer and its
 * range, optional sampled copies, the global clock counter, ID filtering and
 * 13 interrupt sources.
 *
 * Sources (spec = ../shared/specs/xilinx_apm_pmu.md; HDL = eejlny/S2NN-HLS
 * @ 170c1667, .../axi_perf_mon_v5_0/hdl/src/verilog/axi_perf_mon_v5_0_*.v):
 *  - offsets: spec §1.2 (ESW xaxipmon_hw.h), HDL register_module.v decode
 *    (0x304/0x308 at :452-457; 0x30C/0x310 are ESW-only, ZynqMP 32-bit IDs);
 *  - MSR byte = metric [4:0] | slot [7:5]: spec §1.5, metric_sel_n_cnt.v:403;
 *  - metric numbers and what each adds: metric_sel_n_cnt.v:403-535;
 *  - CR read-back (count-only configuration 0-7, 16, 17): spec §1.3;
 *  - 13 interrupt sources, bit order: advanced.v:829 and :1755, spec §1.6. */
#ifndef SOCMON_HW_ZYNQ_APM_ADV_H
#define SOCMON_HW_ZYNQ_APM_ADV_H

#define SOCMON_ZAPM_ADV_COUNTERS 10u   /* metric counters 0..9 */

/* Per-counter registers, n = 0..9 (spec §1.2). */
static inline uint32_t zapm_adv_mc_offset(unsigned n) { return 0x100u + 16u * n; }
static inline uint32_t zapm_adv_inc_offset(unsigned n) { return 0x104u + 16u * n; }
static inline uint32_t zapm_adv_range_offset(unsigned n) { return 0x108u + 16u * n; }
static inline uint32_t zapm_adv_logen_offset(unsigned n) { return 0x10Cu + 16u * n; }
static inline uint32_t zapm_adv_smc_offset(unsigned n) { return 0x200u + 16u * n; }
static inline uint32_t zapm_adv_sinc_offset(unsigned n) { return 0x204u + 16u * n; }

SM_REG32(ZAPM_MSR0, 0x044)   /* selectors of counters 0-3, byte n = counter n */
SM_REG32(ZAPM_MSR1, 0x048)   /* counters 4-7 */
SM_REG32(ZAPM_MSR2, 0x04C)   /* counters 8-9 in bytes 0-1; bytes 2-3 read 0 */
SM_REG32(ZAPM_ID, 0x304)     /* 16-bit filter: [15:0] write ID, [31:16] read ID; 32-bit: write ID */
SM_REG32(ZAPM_IDMASK, 0x308) /* same layout, masks */
SM_REG32(ZAPM_RID, 0x30C)    /* 32-bit filter only: read ID */
SM_REG32(ZAPM_RIDMASK, 0x310)
SM_REG32(ZAPM_FEC, 0x400)    /* event-log flag enables: stored, the event log is not modelled */
SM_REG32(ZAPM_SWD, 0x404)    /* software data for the event log: stored */

/* One selector byte. */
SM_FIELD(ZAPM_MSR, METRIC, 0, 5)
SM_FIELD(ZAPM_MSR, SLOT, 5, 3)
static inline uint32_t zapm_msr_offset(unsigned n) { return A_ZAPM_MSR0 + 4u * (n / 4); }
static inline unsigned zapm_msr_shift(unsigned n) { return 8u * (n % 4); }
static inline uint8_t zapm_msr_byte(unsigned slot, unsigned metric)
{
    return (uint8_t)(((slot & 7u) << 5) | (metric & 0x1Fu));
}

/* RANGEn and MCnLOGEN: [15:0] low, [31:16] high, both inclusive
 * (acc_n_incr.v comparator: low <= value[15:0] <= high). */
SM_FIELD(ZAPM_RANGE, LOW, 0, 16)
SM_FIELD(ZAPM_RANGE, HIGH, 16, 16)

/* Metric numbers (spec §1.5; ESW XAPM_METRIC_SET_n; metric_sel_n_cnt.v). */
enum {
    ZAPM_M_WR_TXNS = 0,      /* +1 per AW handshake */
    ZAPM_M_RD_TXNS = 1,      /* +1 per AR handshake */
    ZAPM_M_WR_BYTES = 2,     /* + WSTRB lanes of the burst at WLAST; incrementer + beats */
    ZAPM_M_RD_BYTES = 3,     /* + bus width per R beat */
    ZAPM_M_WR_BEATS = 4,     /* + beats of the burst at WLAST; incrementer + beats */
    ZAPM_M_RD_LAT = 5,       /* + latency at completion */
    ZAPM_M_WR_LAT = 6,
    ZAPM_M_WR_SLV_IDLE = 7,  /* + cycles WVALID & !WREADY of the burst at WLAST */
    ZAPM_M_RD_MST_IDLE = 8,  /* +1 per cycle RVALID & !RREADY */
    ZAPM_M_BVALIDS = 9,
    ZAPM_M_WLASTS = 10,
    ZAPM_M_RLASTS = 11,
    ZAPM_M_WR_LAT_MIN = 12,  /* 12..15: the live value, not accumulated */
    ZAPM_M_WR_LAT_MAX = 13,
    ZAPM_M_RD_LAT_MIN = 14,
    ZAPM_M_RD_LAT_MAX = 15,
    ZAPM_M_STREAM_FIRST = 16,/* 16..22: AXI4-Stream metrics */
    ZAPM_M_STREAM_LAST = 22,
    ZAPM_M_EXT_EVENT = 30,
    ZAPM_NMETRICS = 32
};

/* Advanced-mode read-back of the registers Profile mode also has: CR bits
 * 0-7, 16, 17 (count-only configuration, spec §1.3), the 13 interrupt bits
 * in IE and IS (IS W1C). */
#define ZAPM_IXR_ADV_MASK 0x1FFFu

/* The Advanced-only plain registers. Reset 0 (spec §1.4). RID/RIDMASK
 * exist only with the 32-bit ID filter; MSR bytes and RANGE/LOGEN words of
 * counters the configuration lacks read 0: the model applies those. */
enum {
    ZAPM_XREG_MSR0, ZAPM_XREG_MSR1, ZAPM_XREG_MSR2, ZAPM_XREG_ID, ZAPM_XREG_IDMASK,
    ZAPM_XREG_RID, ZAPM_XREG_RIDMASK, ZAPM_XREG_FEC, ZAPM_XREG_SWD, ZAPM_NXREGS
};
static const smn_reginfo ZAPM_XREGINFO[ZAPM_NXREGS] SM_UNUSED = {
    [ZAPM_XREG_MSR0] = {"MSR0", A_ZAPM_MSR0, 0, 0, 0, 0, 0},
    [ZAPM_XREG_MSR1] = {"MSR1", A_ZAPM_MSR1, 0, 0, 0, 0, 0},
    [ZAPM_XREG_MSR2] = {"MSR2", A_ZAPM_MSR2, 0, 0, 0, 0, 0xFFFF0000u},
    [ZAPM_XREG_ID] = {"ID", A_ZAPM_ID, 0, 0, 0, 0, 0},
    [ZAPM_XREG_IDMASK] = {"IDMASK", A_ZAPM_IDMASK, 0, 0, 0, 0, 0},
    [ZAPM_XREG_RID] = {"RID", A_ZAPM_RID, 0, 0, 0, 0, 0},
    [ZAPM_XREG_RIDMASK] = {"RIDMASK", A_ZAPM_RIDMASK, 0, 0, 0, 0, 0},
    [ZAPM_XREG_FEC] = {"FEC", A_ZAPM_FEC, 0, 0, 0, 0, 0},
    [ZAPM_XREG_SWD] = {"SWD", A_ZAPM_SWD, 0, 0, 0, 0, 0},
};

static inline int zapm_xreg_index(uint64_t off)
{
    const smn_reginfo *ri =
        off < 0x10000u ? socmon_reginfo_find(ZAPM_XREGINFO, ZAPM_NXREGS, (uint32_t)off) : NULL;
    return ri ? (int)(ri - ZAPM_XREGINFO) : -1;
}

#endif
