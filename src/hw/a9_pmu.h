/* Cortex-A9 PMU (ARMv7 PMUv1) through its memory-mapped (debug APB) window,
 * as on the Zynq-7000: every register-level fact, once.
 *
 * Included by the driver (src/drivers/zynq) and by the model
 * (src/models/zynq); neither includes the other. Holds the window layout, the
 * Zynq-7000 bases, PMCR's fields and reset value, the counter-bit layout of
 * the enable/overflow registers, the CoreSight lock, the access table of the
 * registers with plain behaviour, and the events the SPA framework programs.
 *
 * Sources (docs/zynq.md, "Sources"), from ../shared/specs/xilinx_apm_pmu.md:
 *  - §5.1 (Zynq-7000 PMU headers derived from UG585, Linux perf_event_v7.c,
 *    QEMU cortex_a9_initfn, A9 TRM Table 11-2): offsets, bases 0xF8891000 and
 *    0xF8893000, PMCR reset 0x41093000 (IMP 0x41, IDCODE 0x09, N = 6), the
 *    writable PMCR mask 0x3F, P and C read as zero, PMOVSR write-1-to-clear;
 *  - CoreSight: the lock key 0xC5ACCE55 and PMDEVTYPE 0x16 are the standard
 *    CoreSight values (the spec marks the key as not re-verified);
 *  - §5.2 / §4 (A9 TRM Table 11-6, SPA Table 4): the SPA event numbers;
 *  - §5.1 (Linux perf_event_v7.c, ESW-BSP xreg_cortexa9.h): the CP15
 *    encodings, and PMSELR (CP15 only). */
#ifndef SOCMON_HW_A9_PMU_H
#define SOCMON_HW_A9_PMU_H

#include <stddef.h>
#include <stdint.h>

#include "hw/regfields.h"

#define SOCMON_ZA9_WINDOW        0x1000u
#define SOCMON_ZA9_CPU0_BASE     0xF8891000ull
#define SOCMON_ZA9_CPU1_BASE     0xF8893000ull
#define SOCMON_ZA9_NCOUNTERS     6u         /* event counters per core: PMCR.N */

/* ---- registers (spec §5.1, memory-mapped offsets) ---- */
SM_REG32(ZA9_PMXEVCNTR0, 0x000)   /* event counter n at 0x000 + 4n */
SM_REG32(ZA9_PMCCNTR, 0x07C)
SM_REG32(ZA9_PMXEVTYPER0, 0x400)  /* event type n at 0x400 + 4n */
SM_REG32(ZA9_PMCNTENSET, 0xC00)
SM_REG32(ZA9_PMCNTENCLR, 0xC20)
SM_REG32(ZA9_PMINTENSET, 0xC40)
SM_REG32(ZA9_PMINTENCLR, 0xC60)
SM_REG32(ZA9_PMOVSR, 0xC80)
SM_REG32(ZA9_PMSWINC, 0xCA0)
SM_REG32(ZA9_PMCR, 0xE04)
SM_REG32(ZA9_PMUSERENR, 0xE08)
SM_REG32(ZA9_PMLAR, 0xFB0)        /* CoreSight lock access */
SM_REG32(ZA9_PMLSR, 0xFB4)
SM_REG32(ZA9_PMAUTHSTATUS, 0xFB8)
SM_REG32(ZA9_PMDEVTYPE, 0xFCC)

static inline uint32_t za9_pmxevcntr(unsigned n)
{
    return A_ZA9_PMXEVCNTR0 + 4u * n;
}
static inline uint32_t za9_pmxevtyper(unsigned n)
{
    return A_ZA9_PMXEVTYPER0 + 4u * n;
}

/* PMCR: E enables; P and C are write-only actions (reset the event counters,
 * the cycle counter) and read 0; D makes CCNT count every 64th cycle. */
SM_FIELD(ZA9_PMCR, E, 0, 1)
SM_FIELD(ZA9_PMCR, P, 1, 1)
SM_FIELD(ZA9_PMCR, C, 2, 1)
SM_FIELD(ZA9_PMCR, D, 3, 1)
SM_FIELD(ZA9_PMCR, X, 4, 1)
SM_FIELD(ZA9_PMCR, DP, 5, 1)
SM_FIELD(ZA9_PMCR, N, 11, 5)
SM_FIELD(ZA9_PMCR, IDCODE, 16, 8)
SM_FIELD(ZA9_PMCR, IMP, 24, 8)
#define ZA9_PMCR_WMASK    0x3Fu          /* E..DP: the writable bits (ARMV7_PMNC_MASK) */
#define ZA9_PMCR_RESET    0x41093000u

/* PMCNTEN*, PMINTEN*, PMOVSR: bit 31 is CCNT, bits 0..5 the event counters. */
#define ZA9_CCNT_BIT      0x80000000u
#define ZA9_CNT_MASK      (ZA9_CCNT_BIT | 0x3Fu)

#define ZA9_LAR_KEY       0xC5ACCE55u
SM_FIELD(ZA9_PMLSR, SLI, 0, 1)           /* lock implemented */
SM_FIELD(ZA9_PMLSR, SLK, 1, 1)           /* locked: memory-mapped writes ignored */
#define ZA9_DEVTYPE       0x16u          /* performance monitor, processor */

/* ---- access table ----
 * The registers with plain behaviour, in ZA9_REG_* order: the counters and
 * event types (plain storage; the model counts into the counters), PMOVSR
 * (write-1-to-clear), PMCR (reset 0x41093000; bits 31:6 read-only), PMUSERENR
 * (bit 0), PMAUTHSTATUS (reads 0) and PMDEVTYPE (read-only 0x16). Special,
 * and so not here: the SET/CLR pairs, PMSWINC (an action), PMLAR (the key)
 * and PMLSR (the lock state). P and C of PMCR are actions the model clears
 * after acting on them. */
enum {
    ZA9_REG_EVCNTR0 = 0,
    ZA9_REG_CCNTR = ZA9_REG_EVCNTR0 + SOCMON_ZA9_NCOUNTERS,
    ZA9_REG_EVTYPER0,
    ZA9_REG_OVSR = ZA9_REG_EVTYPER0 + SOCMON_ZA9_NCOUNTERS,
    ZA9_REG_CR,
    ZA9_REG_USERENR,
    ZA9_REG_AUTHSTATUS,
    ZA9_REG_DEVTYPE,
    ZA9_NREGS
};
#define ZA9_EVCNTR_INFO(n) [ZA9_REG_EVCNTR0 + n] = {"PMXEVCNTR" #n, 0x000u + 4u * n, 0, 0, 0, 0, 0}
#define ZA9_EVTYPER_INFO(n) \
    [ZA9_REG_EVTYPER0 + n] = {"PMXEVTYPER" #n, 0x400u + 4u * n, 0, 0, 0, 0, ~0xFFu}
static const smn_reginfo ZA9_REGINFO[ZA9_NREGS] SM_UNUSED = {
    ZA9_EVCNTR_INFO(0), ZA9_EVCNTR_INFO(1), ZA9_EVCNTR_INFO(2),
    ZA9_EVCNTR_INFO(3), ZA9_EVCNTR_INFO(4), ZA9_EVCNTR_INFO(5),
    [ZA9_REG_CCNTR] = {"PMCCNTR", A_ZA9_PMCCNTR, 0, 0, 0, 0, 0},
    ZA9_EVTYPER_INFO(0), ZA9_EVTYPER_INFO(1), ZA9_EVTYPER_INFO(2),
    ZA9_EVTYPER_INFO(3), ZA9_EVTYPER_INFO(4), ZA9_EVTYPER_INFO(5),
    [ZA9_REG_OVSR] = {"PMOVSR", A_ZA9_PMOVSR, 0, 0, ZA9_CNT_MASK, 0, ~ZA9_CNT_MASK},
    [ZA9_REG_CR] = {"PMCR", A_ZA9_PMCR, ZA9_PMCR_RESET, ~ZA9_PMCR_WMASK, 0, 0, 0},
    [ZA9_REG_USERENR] = {"PMUSERENR", A_ZA9_PMUSERENR, 0, 0, 0, 0, ~1u},
    [ZA9_REG_AUTHSTATUS] = {"PMAUTHSTATUS", A_ZA9_PMAUTHSTATUS, 0, 0, 0, 0, 0xFFFFFFFFu},
    [ZA9_REG_DEVTYPE] = {"PMDEVTYPE", A_ZA9_PMDEVTYPE, ZA9_DEVTYPE, 0xFFFFFFFFu, 0, 0, 0},
};

/* Index of the register at byte offset off in ZA9_REGINFO, or -1. */
static inline int za9_reg_index(uint64_t off)
{
    const smn_reginfo *ri =
        off < SOCMON_ZA9_WINDOW ? socmon_reginfo_find(ZA9_REGINFO, ZA9_NREGS, (uint32_t)off)
                                : NULL;
    return ri ? (int)(ri - ZA9_REGINFO) : -1;
}

/* ---- CP15 (MRC/MCR p15, opc1, Rt, CRn, CRm, opc2) ----
 * Spec §5.1's table (Linux perf_event_v7.c, ESW-BSP xreg_cortexa9.h): the
 * same registers as the window, one state per core. opc1 is 0 and CRn is c9
 * for all of them. PMSELR exists only here: it selects the counter that
 * PMXEVTYPER and PMXEVCNTR reach (the window has one register per counter
 * instead). Every other encoding is an Undefined Instruction on the A9 (a
 * PMUv1: no PMCEID0/1 at c9,c12,6/7). */
enum { ZA9_CP15_WINDOW = 0, ZA9_CP15_SELR, ZA9_CP15_SEL_TYPER, ZA9_CP15_SEL_CNTR };
typedef struct za9_cp15_enc {
    const char *name;
    uint8_t crm, opc2;
    uint8_t kind;        /* ZA9_CP15_*: the window offset below, or PMSELR and what it selects */
    uint16_t off;        /* memory-mapped offset for ZA9_CP15_WINDOW */
} za9_cp15_enc;
#define ZA9_CP15_OPC1  0u
#define ZA9_CP15_CRN   9u
#define ZA9_SELR_MASK  0x1Fu   /* PMSELR.SEL[4:0]; bits 31:5 reserved */
static const za9_cp15_enc ZA9_CP15[] SM_UNUSED = {
    {"PMCR", 12, 0, ZA9_CP15_WINDOW, A_ZA9_PMCR},
    {"PMCNTENSET", 12, 1, ZA9_CP15_WINDOW, A_ZA9_PMCNTENSET},
    {"PMCNTENCLR", 12, 2, ZA9_CP15_WINDOW, A_ZA9_PMCNTENCLR},
    {"PMOVSR", 12, 3, ZA9_CP15_WINDOW, A_ZA9_PMOVSR},
    {"PMSWINC", 12, 4, ZA9_CP15_WINDOW, A_ZA9_PMSWINC},
    {"PMSELR", 12, 5, ZA9_CP15_SELR, 0},
    {"PMCCNTR", 13, 0, ZA9_CP15_WINDOW, A_ZA9_PMCCNTR},
    {"PMXEVTYPER", 13, 1, ZA9_CP15_SEL_TYPER, 0},
    {"PMXEVCNTR", 13, 2, ZA9_CP15_SEL_CNTR, 0},
    {"PMUSERENR", 14, 0, ZA9_CP15_WINDOW, A_ZA9_PMUSERENR},
    {"PMINTENSET", 14, 1, ZA9_CP15_WINDOW, A_ZA9_PMINTENSET},
    {"PMINTENCLR", 14, 2, ZA9_CP15_WINDOW, A_ZA9_PMINTENCLR},
};
#define ZA9_CP15_N (sizeof ZA9_CP15 / sizeof ZA9_CP15[0])
/* Indexes into ZA9_CP15, for code that names a register. */
enum {
    ZA9_CP_PMCR, ZA9_CP_PMCNTENSET, ZA9_CP_PMCNTENCLR, ZA9_CP_PMOVSR, ZA9_CP_PMSWINC,
    ZA9_CP_PMSELR, ZA9_CP_PMCCNTR, ZA9_CP_PMXEVTYPER, ZA9_CP_PMXEVCNTR, ZA9_CP_PMUSERENR,
    ZA9_CP_PMINTENSET, ZA9_CP_PMINTENCLR
};

/* The PMU register at p15, opc1, c<crn>, c<crm>, opc2, or NULL (undefined). */
static inline const za9_cp15_enc *za9_cp15_find(unsigned opc1, unsigned crn, unsigned crm,
                                                unsigned opc2)
{
    if (opc1 != ZA9_CP15_OPC1 || crn != ZA9_CP15_CRN)
        return NULL;
    for (size_t i = 0; i < ZA9_CP15_N; i++)
        if (ZA9_CP15[i].crm == crm && ZA9_CP15[i].opc2 == opc2)
            return &ZA9_CP15[i];
    return NULL;
}

/* The Cortex-A9 events the SPA monitor framework programs (SPA Table 4 and
 * the sixth counter Vitis adds, spec §4). */
#define ZA9_EV_L1D_REFILL      0x03u
#define ZA9_EV_L1D_ACCESS      0x04u
#define ZA9_EV_BR_MIS_PRED     0x10u
#define ZA9_EV_DCACHE_STALL    0x61u
#define ZA9_EV_INST_RENAME     0x68u
#define ZA9_EV_MEM_WRITE_STALL 0x81u

#endif
