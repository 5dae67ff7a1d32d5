/* Register maps of the Zynq monitors: the AXI Performance Monitor (APM, Xilinx
 * axi_perf_mon v5.0, Profile mode) and the Cortex-A9 PMU's memory-mapped window.
 *
 * Shared by the drivers (src/drivers/zynq) and the register models
 * (src/models/zynq): both sides of the bus must agree on the map, and this is
 * the one place it is written down. Sources for every offset: docs/zynq.md. */
#ifndef SOCMON_DRIVERS_ZYNQ_REGS_H
#define SOCMON_DRIVERS_ZYNQ_REGS_H

#include <stdint.h>

/* ---- APM (PG037 / axi_perf_mon HDL, ESW xaxipmon_hw.h) ---- */
#define SOCMON_ZAPM_WINDOW      0x10000u   /* 16-bit AXI4-Lite address space */
#define SOCMON_ZAPM_MAX_SLOTS   8u
#define SOCMON_ZAPM_PER_SLOT    6u         /* profile counters per monitored slot */
#define SOCMON_ZAPM_MAX_COUNTERS (SOCMON_ZAPM_MAX_SLOTS * SOCMON_ZAPM_PER_SLOT)

#define SOCMON_ZAPM_GCC_HIGH    0x000u
#define SOCMON_ZAPM_GCC_LOW     0x004u
#define SOCMON_ZAPM_SI_HIGH     0x020u     /* not implemented: reads 0 */
#define SOCMON_ZAPM_SI_LOW      0x024u
#define SOCMON_ZAPM_SICR        0x028u
#define SOCMON_ZAPM_SR          0x02Cu     /* read latches counters into the sampled copies */
#define SOCMON_ZAPM_GIE         0x030u
#define SOCMON_ZAPM_IE          0x034u
#define SOCMON_ZAPM_IS          0x038u     /* write 1 to clear */
#define SOCMON_ZAPM_CTL         0x300u

/* Control register bits. */
#define SOCMON_ZAPM_CR_MCNTR_EN        0x00000001u
#define SOCMON_ZAPM_CR_MCNTR_RESET     0x00000002u  /* level: counters held at 0 while set */
#define SOCMON_ZAPM_CR_EXTTRIG         0x00000004u
#define SOCMON_ZAPM_CR_IDFILTER        0x00000008u
#define SOCMON_ZAPM_CR_WRLAT_START     0x00000010u  /* 1: address accept, 0: address issue */
#define SOCMON_ZAPM_CR_WRLAT_END       0x00000020u  /* 1: first write beat, 0: last write beat */
#define SOCMON_ZAPM_CR_RDLAT_START     0x00000040u  /* 1: address accept, 0: address issue */
#define SOCMON_ZAPM_CR_RDLAT_END       0x00000080u  /* 1: first read beat, 0: last read beat */
#define SOCMON_ZAPM_CR_GCC_EN          0x00010000u
#define SOCMON_ZAPM_CR_GCC_RESET       0x00020000u  /* level */
/* Readable CR bits of a counting (no event log) configuration. */
#define SOCMON_ZAPM_CR_READ_MASK       0x000300FFu
/* SPA's latency: address accept to last data beat. */
#define SOCMON_ZAPM_CR_SPA_LATENCY     (SOCMON_ZAPM_CR_WRLAT_START | SOCMON_ZAPM_CR_RDLAT_START)

/* Sample interval control register bits; reset value 0x100. */
#define SOCMON_ZAPM_SICR_EN            0x001u
#define SOCMON_ZAPM_SICR_LOAD          0x002u       /* level: reloads while set */
#define SOCMON_ZAPM_SICR_MCNTR_RST     0x100u       /* reset metric counters on each sample */
#define SOCMON_ZAPM_SICR_RESET_VALUE   0x100u

/* Profile-mode interrupt bits (HDL Intr_In = {FIFO_full, sample_lapse}); the
 * ESW XAPM_IXR_* masks describe the Advanced-mode layout instead. */
#define SOCMON_ZAPM_IXR_SIC_LAPSE      0x1u
#define SOCMON_ZAPM_IXR_FIFO_FULL      0x2u
#define SOCMON_ZAPM_IXR_MASK           0x3u

/* The six profile counters of a slot, j in counter index k = 6*slot + j. */
enum {
    SOCMON_ZAPM_WR_BYTES = 0,
    SOCMON_ZAPM_WR_TXNS = 1,
    SOCMON_ZAPM_WR_LAT = 2,
    SOCMON_ZAPM_RD_BYTES = 3,
    SOCMON_ZAPM_RD_TXNS = 4,
    SOCMON_ZAPM_RD_LAT = 5
};

/* Metric counter k (0..47): 0x100+16k up to k=11, then banks at 0x500, 0x700, 0x900. */
static inline uint32_t socmon_zapm_mc_offset(unsigned k)
{
    if (k < 12)
        return 0x100u + 16u * k;
    return 0x500u + 0x200u * ((k - 12) / 12) + 16u * ((k - 12) % 12);
}

/* The sampled copy of counter k lives 0x100 above it. */
static inline uint32_t socmon_zapm_smc_offset(unsigned k)
{
    return socmon_zapm_mc_offset(k) + 0x100u;
}

/* Profile-mode min/max latency words {max[15:0], min[15:0]} of a slot; the
 * sampled copies are again 0x100 above. */
static inline uint32_t socmon_zapm_wr_minmax_offset(unsigned slot)
{
    return socmon_zapm_mc_offset(6 * slot + 5) + 4u;
}
static inline uint32_t socmon_zapm_rd_minmax_offset(unsigned slot)
{
    return socmon_zapm_mc_offset(6 * slot + 5) + 8u;
}

/* ---- Cortex-A9 PMU, memory-mapped (debug APB) window of one core ---- */
#define SOCMON_ZA9_WINDOW        0x1000u
#define SOCMON_ZA9_CPU0_BASE     0xF8891000ull
#define SOCMON_ZA9_CPU1_BASE     0xF8893000ull
#define SOCMON_ZA9_NCOUNTERS     6u

#define SOCMON_ZA9_PMXEVCNTR(n)  (0x000u + 4u * (n))
#define SOCMON_ZA9_PMCCNTR       0x07Cu
#define SOCMON_ZA9_PMXEVTYPER(n) (0x400u + 4u * (n))
#define SOCMON_ZA9_PMCNTENSET    0xC00u
#define SOCMON_ZA9_PMCNTENCLR    0xC20u
#define SOCMON_ZA9_PMINTENSET    0xC40u
#define SOCMON_ZA9_PMINTENCLR    0xC60u
#define SOCMON_ZA9_PMOVSR        0xC80u     /* write 1 to clear */
#define SOCMON_ZA9_PMSWINC       0xCA0u
#define SOCMON_ZA9_PMCR          0xE04u
#define SOCMON_ZA9_PMUSERENR     0xE08u
#define SOCMON_ZA9_PMLAR         0xFB0u     /* CoreSight lock access */
#define SOCMON_ZA9_PMLSR         0xFB4u
#define SOCMON_ZA9_PMAUTHSTATUS  0xFB8u
#define SOCMON_ZA9_PMDEVTYPE     0xFCCu

#define SOCMON_ZA9_LAR_KEY       0xC5ACCE55u
#define SOCMON_ZA9_PMCR_RESET    0x41093000u  /* IMP 0x41, IDCODE 0x09, N = 6 */
#define SOCMON_ZA9_PMCR_E        0x01u
#define SOCMON_ZA9_PMCR_P        0x02u        /* reset event counters (write-only action) */
#define SOCMON_ZA9_PMCR_C        0x04u        /* reset the cycle counter (write-only action) */
#define SOCMON_ZA9_PMCR_D        0x08u        /* CCNT counts every 64th cycle */
#define SOCMON_ZA9_PMCR_X        0x10u
#define SOCMON_ZA9_PMCR_DP       0x20u
#define SOCMON_ZA9_PMCR_WMASK    0x3Fu
#define SOCMON_ZA9_CCNT_BIT      0x80000000u  /* CCNT's bit in PMCNTEN*, PMINTEN*, PMOVSR */
#define SOCMON_ZA9_CNT_MASK      (SOCMON_ZA9_CCNT_BIT | 0x3Fu)

/* The Cortex-A9 events the SPA monitor framework programs. */
#define SOCMON_ZA9_EV_L1D_REFILL      0x03u
#define SOCMON_ZA9_EV_L1D_ACCESS      0x04u
#define SOCMON_ZA9_EV_BR_MIS_PRED     0x10u
#define SOCMON_ZA9_EV_DCACHE_STALL    0x61u
#define SOCMON_ZA9_EV_INST_RENAME     0x68u
#define SOCMON_ZA9_EV_MEM_WRITE_STALL 0x81u

#endif
