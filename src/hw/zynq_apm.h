/* Xilinx AXI Performance Monitor (axi_perf_mon v5.0): every
 * register-level fact, once.
 *
 * Included by the driver (src/drivers/zynq) and by the model
 * (src/models/zynq); neither includes the other. Holds the register map, the
 * fields of CR, SICR and the interrupt registers, the access table of the
 * registers with plain behaviour, and the Profile-mode counter layout (six
 * counters per slot, their piecewise addresses and sampled copies).
 *
 * Sources (docs/zynq.md, "Sources", names them in full), all from
 * ../shared/specs/xilinx_apm_pmu.md:
 *  - §1.2 (ESW xaxipmon_hw.h cross-checked with the HDL address decode):
 *    offsets, the 16-bit AXI4-Lite window, SI_HIGH not implemented;
 *  - §1.3 (HDL *_register_module.v, *_register_module_profile.v): CR bits,
 *    levels, the read-back masks per mode;
 *  - §1.4 (HDL *_samp_intl_cnt.v, *_register_module.v): SICR bits and its
 *    reset value 0x100, the SR read's sample pulse, reset values;
 *  - §1.5 (HDL *_metric_counters_profile.v): the six counters per slot, the
 *    MC/SMC address rule, min/max latency words;
 *  - §1.6 (HDL *_interrupt_module.v, *_profile.v): IS is write-1-to-clear,
 *    the interrupt bit placement per mode.
 * HDL file:line references are to eejlny/S2NN-HLS at commit 170c1667,
 * vivado_ip/system.ip_user_files/ipstatic/axi_perf_mon_v5_0/hdl/src/verilog/
 * (file names axi_perf_mon_v5_0_*.v). */
#ifndef SOCMON_HW_ZYNQ_APM_H
#define SOCMON_HW_ZYNQ_APM_H

#include <stddef.h>
#include <stdint.h>

#include "hw/regfields.h"

#define SOCMON_ZAPM_WINDOW      0x10000u   /* s_axi_awaddr[15:0] */
#define SOCMON_ZAPM_MAX_SLOTS   8u         /* XAPM_MAX_AGENTS; slot id is 3 bits */
#define SOCMON_ZAPM_PER_SLOT    6u         /* profile counters per monitored slot */
#define SOCMON_ZAPM_MAX_COUNTERS (SOCMON_ZAPM_MAX_SLOTS * SOCMON_ZAPM_PER_SLOT)

/* ---- registers (spec §1.2) ---- */
SM_REG32(ZAPM_GCC_HIGH, 0x000)   /* global clock counter [63:32] */
SM_REG32(ZAPM_GCC_LOW, 0x004)
SM_REG32(ZAPM_SI_HIGH, 0x020)    /* not implemented: reads 0 */
SM_REG32(ZAPM_SI_LOW, 0x024)     /* sample-interval reload value */
SM_REG32(ZAPM_SICR, 0x028)
SM_REG32(ZAPM_SR, 0x02C)         /* a read latches the counters into their sampled copies */
SM_REG32(ZAPM_GIE, 0x030)
SM_REG32(ZAPM_IE, 0x034)
SM_REG32(ZAPM_IS, 0x038)
SM_REG32(ZAPM_CTL, 0x300)

/* Control register (spec §1.3). MCNTR_RESET and GCC_RESET are levels: the
 * counters are held at 0 while the bit is set. Latency points: START 1 =
 * address accept, 0 = address issue; END 1 = first data beat, 0 = last. */
SM_FIELD(ZAPM_CTL, MCNTR_EN, 0, 1)
SM_FIELD(ZAPM_CTL, MCNTR_RESET, 1, 1)
SM_FIELD(ZAPM_CTL, EXTTRIG, 2, 1)
SM_FIELD(ZAPM_CTL, IDFILTER, 3, 1)
SM_FIELD(ZAPM_CTL, WRLAT_START, 4, 1)
SM_FIELD(ZAPM_CTL, WRLAT_END, 5, 1)
SM_FIELD(ZAPM_CTL, RDLAT_START, 6, 1)
SM_FIELD(ZAPM_CTL, RDLAT_END, 7, 1)
SM_FIELD(ZAPM_CTL, GCC_EN, 16, 1)
SM_FIELD(ZAPM_CTL, GCC_RESET, 17, 1)
/* Bits the control register reads back. Profile mode (HDL
 * *_register_module_profile.v:571-573, GEN_CNTRL_REG_PROFILE): 0-2 and 4-7;
 * bit 3 (ID filter) and 16/17 (no global clock counter) read 0, and bits
 * 8/9/25 (event log) are stored but not read back, which the model, having
 * no event log, folds into "reserved". Advanced count-only configuration
 * (spec §1.3): 0-7, 16, 17. */
#define ZAPM_CR_PROFILE_READ_MASK 0x000000F7u
#define ZAPM_CR_READ_MASK    0x000300FFu
/* SPA's latency: address accept to last data beat. */
#define ZAPM_CR_SPA_LATENCY  (R_ZAPM_CTL_WRLAT_START_MASK | R_ZAPM_CTL_RDLAT_START_MASK)

/* Sample interval control (spec §1.4). LOAD is a level: the down-counter
 * reloads while it is set. MCNTR_RST: each sample also clears the counters. */
SM_FIELD(ZAPM_SICR, EN, 0, 1)
SM_FIELD(ZAPM_SICR, LOAD, 1, 1)
SM_FIELD(ZAPM_SICR, MCNTR_RST, 8, 1)
#define ZAPM_SICR_RESET      0x100u       /* MCNTR_RST set */
#define ZAPM_SICR_DECODED    0x103u       /* EN, LOAD, MCNTR_RST; the rest reads 0 */

/* Interrupt bits (spec §1.6): the ESW XAPM_IXR_* masks, valid in both modes.
 * Advanced: bit 0 GCC overflow, 1 sample-interval lapse, 2 FIFO full, 3..12
 * metric counter n overflow. Profile mode has only the two middle sources:
 * the HDL (*_profile.v:1225 Intr_In = {FIFO_full, lapse}, :1252 writes take
 * Bus2IP_Data[2:1]; *_register_module_profile.v:845/848 read {IER,1'b0} and
 * {ISR,1'b0}) puts them on bits 2:1, so bit 0 reads 0; and IE reads back only
 * the lapse enable (:570 IER_Int = {1'b0, IER[0]}). */
#define ZAPM_IXR_GCC_OVF     0x1u
#define ZAPM_IXR_SIC_LAPSE   0x2u
#define ZAPM_IXR_FIFO_FULL   0x4u
#define ZAPM_IXR_MC_OVF(n)   (0x8u << (n))
#define ZAPM_IXR_MASK        0x6u     /* Profile-mode sources: IS bits that exist */
#define ZAPM_IE_PROFILE_READ 0x2u     /* Profile-mode IE read-back: lapse enable only */
SM_FIELD(ZAPM_GIE, EN, 0, 1)

/* ---- access table (spec §1.2, §1.4 reset values, §1.6 W1C) ----
 * Every register here resets to 0 except SICR (0x100). GCC and SR are
 * read-only and computed by the model (their table value is unused for
 * reads). SI_HIGH is not implemented (reserved). IS is write-1-to-clear.
 * Bits a register does not decode read 0 (reserved): CR keeps only its
 * Profile-mode read-back bits, IE only the lapse enable. (The HDL stores IE's
 * FIFO-full enable without reading it back; the model has no event log, so
 * that bit can never matter and is reserved here.) The metric counters, their sampled copies and
 * the min/max words are not here: all read-only and computed. */
enum {
    ZAPM_REG_GCC_HIGH, ZAPM_REG_GCC_LOW, ZAPM_REG_SI_HIGH, ZAPM_REG_SI_LOW, ZAPM_REG_SICR,
    ZAPM_REG_SR, ZAPM_REG_GIE, ZAPM_REG_IE, ZAPM_REG_IS, ZAPM_REG_CTL, ZAPM_NREGS
};
/* The rows both modes share; IE, IS and CR differ per mode. */
#define ZAPM_REGINFO_COMMON_ROWS \
    [ZAPM_REG_GCC_HIGH] = {"GCC_HIGH", A_ZAPM_GCC_HIGH, 0, 0xFFFFFFFFu, 0, 0, 0}, \
    [ZAPM_REG_GCC_LOW] = {"GCC_LOW", A_ZAPM_GCC_LOW, 0, 0xFFFFFFFFu, 0, 0, 0}, \
    [ZAPM_REG_SI_HIGH] = {"SI_HIGH", A_ZAPM_SI_HIGH, 0, 0, 0, 0, 0xFFFFFFFFu}, \
    [ZAPM_REG_SI_LOW] = {"SI_LOW", A_ZAPM_SI_LOW, 0, 0, 0, 0, 0}, \
    [ZAPM_REG_SICR] = {"SICR", A_ZAPM_SICR, ZAPM_SICR_RESET, 0, 0, 0, ~ZAPM_SICR_DECODED}, \
    [ZAPM_REG_SR] = {"SR", A_ZAPM_SR, 0, 0xFFFFFFFFu, 0, 0, 0}, \
    [ZAPM_REG_GIE] = {"GIE", A_ZAPM_GIE, 0, 0, 0, 0, ~1u},

static const smn_reginfo ZAPM_REGINFO[ZAPM_NREGS] SM_UNUSED = {
    ZAPM_REGINFO_COMMON_ROWS
    [ZAPM_REG_IE] = {"IE", A_ZAPM_IE, 0, 0, 0, 0, ~ZAPM_IE_PROFILE_READ},
    [ZAPM_REG_IS] = {"IS", A_ZAPM_IS, 0, 0, ZAPM_IXR_MASK, 0, ~ZAPM_IXR_MASK},
    [ZAPM_REG_CTL] = {"CR", A_ZAPM_CTL, 0, 0, 0, 0, ~ZAPM_CR_PROFILE_READ_MASK},
};

/* The same registers in Advanced mode (spec §1.3, §1.6): CR reads back bits
 * 0-7, 16, 17; IE and IS hold the 13 interrupt bits (ZAPM_IXR_ADV_MASK,
 * src/hw/zynq_apm_adv.h). Same indices as ZAPM_REGINFO. */
static const smn_reginfo ZAPM_REGINFO_ADV[ZAPM_NREGS] SM_UNUSED = {
    ZAPM_REGINFO_COMMON_ROWS
    [ZAPM_REG_IE] = {"IE", A_ZAPM_IE, 0, 0, 0, 0, ~0x1FFFu},
    [ZAPM_REG_IS] = {"IS", A_ZAPM_IS, 0, 0, 0x1FFFu, 0, ~0x1FFFu},
    [ZAPM_REG_CTL] = {"CR", A_ZAPM_CTL, 0, 0, 0, 0, ~ZAPM_CR_READ_MASK},
};

/* Index of the register at byte offset off in ZAPM_REGINFO, or -1. */
static inline int zapm_reg_index(uint64_t off)
{
    const smn_reginfo *ri =
        off < SOCMON_ZAPM_WINDOW ? socmon_reginfo_find(ZAPM_REGINFO, ZAPM_NREGS, (uint32_t)off)
                                 : NULL;
    return ri ? (int)(ri - ZAPM_REGINFO) : -1;
}

/* ---- Profile-mode counters (spec §1.5) ----
 * The six counters of a slot, j in counter index k = 6*slot + j. */
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

/* Min/max latency words {max[15:0], min[15:0]} of a slot (min resets to
 * 0xFFFF, max to 0); the sampled copies are again 0x100 above. */
#define ZAPM_MINMAX_RESET 0x0000FFFFu
static inline uint32_t socmon_zapm_wr_minmax_offset(unsigned slot)
{
    return socmon_zapm_mc_offset(6 * slot + 5) + 4u;
}
static inline uint32_t socmon_zapm_rd_minmax_offset(unsigned slot)
{
    return socmon_zapm_mc_offset(6 * slot + 5) + 8u;
}

#include "hw/zynq_apm_adv.h"

/* ZAPM_REGINFO_ADV spells the 13 Advanced interrupt bits before the
 * Advanced header is included: keep the two in step. */
_Static_assert(ZAPM_IXR_ADV_MASK == 0x1FFFu, "ZAPM_REGINFO_ADV IE/IS masks");

#endif
