/* Firmware API for RISC-V machine-mode performance counters (mcycle, minstret,
 * mhpmcounter3..31, mcountinhibit, mhpmevent), with the names of Ibex's
 * hardwired events.
 *
 * Header-only and freestanding: no libc, nothing from the socmon library is
 * called or linked, so RV32 and RV64 firmware (M-mode) includes it as is, on
 * Ibex silicon or under socmon's Ibex model. Usable from C and C++.
 *
 * Two parts:
 *  - Portable (every compiler): counter indices and masks, Ibex's event
 *    names, a snapshot struct and the wrap-safe delta helpers. A host tool
 *    that decodes snapshots a firmware dumped uses these.
 *  - CSR access (only where __riscv is defined): inhibit/uninhibit, zero,
 *    start/stop, read/write counters and mhpmevent, snapshots, probes. On any
 *    other host these functions are NOT declared: using one is a compile
 *    error rather than a silent 0 (a stub would make a host build "work" and
 *    measure nothing).
 *
 * CSR numbers must be assembler constants, so every access by index goes
 * through a switch over the index whose cases name each CSR (0xB00+N,
 * 0xB80+N, 0x320+N); with a constant index the compiler keeps just one case.
 * Indices outside 0, 2..31 (1 is `time`, which Ibex does not implement as a
 * CSR: 0xB01 traps) read 0 and ignore writes without touching any CSR.
 *
 * RV32: a 64-bit read is hi-lo-hi (read the high half, the low half, the high
 * half again; retry if the two high halves differ), the sequence of the
 * unprivileged spec's Zicntr chapter, so a carry between the two halves never
 * tears a value. A 64-bit write is low = 0, high, low (a carry out of the old
 * low half cannot reach the new high half), as OpenSBI does.
 *
 * Ibex facts (lowRISC/ibex 0a13971f; docs/ibex.md, ../shared/specs/
 * riscv_hpm_ibex.md §1.4-1.5, §7): events are hardwired by counter index
 * (mhpmevent is read-only, writes are ignored); mhpmcounter3..12 count
 * NumCyclesLSU .. NumCyclesDivWait; unimplemented counters read 0 and ignore
 * writes; mhpmcounter widths are MHPMCounterWidth (1..64); mcountinhibit
 * resets to 0 (everything counts from reset) and is registered: the writing
 * instruction still follows the old value. Every counter, mcountinhibit or
 * mhpmevent write flushes Ibex's pipeline (3 cycles). */
#ifndef SOCMON_RISCV_HPM_H
#define SOCMON_RISCV_HPM_H

#include "socmon/export.h"
#include "socmon/delta.h"

#include <stdint.h>

SOCMON_BEGIN_DECLS

/* ---- portable part ---- */

/* Counter indices: the low 5 bits of the CSR number, and the bit of each
 * counter in mcountinhibit (and in every mask argument below). */
#define SOCMON_HPM_MCYCLE    0u
#define SOCMON_HPM_MINSTRET  2u
#define SOCMON_HPM_FIRST     3u   /* mhpmcounter3 */
#define SOCMON_HPM_LAST      31u  /* mhpmcounter31 */
#define SOCMON_HPM_COUNT     32u  /* size of a snapshot's value array */

#define SOCMON_HPM_BIT(i)    ((uint32_t)1 << (i))
/* Every counter: bit 1 (time) does not exist in mcountinhibit. */
#define SOCMON_HPM_ALL       UINT32_C(0xFFFFFFFD)
/* mcycle, minstret and Ibex's ten event counters mhpmcounter3..12. */
#define SOCMON_HPM_IBEX_EVENTS UINT32_C(0x00001FFD)

/* Ibex's hardwired events by counter index (names as in Ibex's
 * performance_counters.rst). */
enum socmon_hpm_ibex_counter {
    SOCMON_HPM_IBEX_CYCLES = 0,          /* NumCycles (mcycle) */
    SOCMON_HPM_IBEX_INSTR_RET = 2,       /* NumInstrRet (minstret) */
    SOCMON_HPM_IBEX_CYCLES_LSU = 3,      /* NumCyclesLSU: waiting for data memory */
    SOCMON_HPM_IBEX_CYCLES_IF = 4,       /* NumCyclesIF: waiting for instruction fetch */
    SOCMON_HPM_IBEX_LOADS = 5,           /* NumLoads: one per load instruction */
    SOCMON_HPM_IBEX_STORES = 6,          /* NumStores: one per store instruction */
    SOCMON_HPM_IBEX_JUMPS = 7,           /* NumJumps: jal, jalr, fence.i */
    SOCMON_HPM_IBEX_BRANCHES = 8,        /* NumBranches: conditional branches */
    SOCMON_HPM_IBEX_BRANCHES_TAKEN = 9,  /* NumBranchesTaken */
    SOCMON_HPM_IBEX_INSTR_RET_C = 10,    /* NumInstrRetC: compressed instructions retired */
    SOCMON_HPM_IBEX_CYCLES_MUL_WAIT = 11,/* NumCyclesMulWait */
    SOCMON_HPM_IBEX_CYCLES_DIV_WAIT = 12 /* NumCyclesDivWait */
};

/* Ibex's name of the event counter i counts ("NumCycles", "NumCyclesLSU",
 * ...), or 0 (a null pointer) for an index with no event: 1, 13..31 (Ibex
 * builds those as plain registers that never count) and anything else. */
static inline const char *socmon_hpm_ibex_event_name(unsigned i)
{
    switch (i) {
    case 0: return "NumCycles";
    case 2: return "NumInstrRet";
    case 3: return "NumCyclesLSU";
    case 4: return "NumCyclesIF";
    case 5: return "NumLoads";
    case 6: return "NumStores";
    case 7: return "NumJumps";
    case 8: return "NumBranches";
    case 9: return "NumBranchesTaken";
    case 10: return "NumInstrRetC";
    case 11: return "NumCyclesMulWait";
    case 12: return "NumCyclesDivWait";
    default: return 0;
    }
}

/* The machine-mode CSR name of counter i ("mcycle", "minstret",
 * "mhpmcounter3" .. "mhpmcounter31"), or 0 for 1 and anything above 31. */
static inline const char *socmon_hpm_csr_name(unsigned i)
{
    static const char names[32][14] = {
        "mcycle", "", "minstret", "mhpmcounter3", "mhpmcounter4", "mhpmcounter5",
        "mhpmcounter6", "mhpmcounter7", "mhpmcounter8", "mhpmcounter9", "mhpmcounter10",
        "mhpmcounter11", "mhpmcounter12", "mhpmcounter13", "mhpmcounter14", "mhpmcounter15",
        "mhpmcounter16", "mhpmcounter17", "mhpmcounter18", "mhpmcounter19", "mhpmcounter20",
        "mhpmcounter21", "mhpmcounter22", "mhpmcounter23", "mhpmcounter24", "mhpmcounter25",
        "mhpmcounter26", "mhpmcounter27", "mhpmcounter28", "mhpmcounter29", "mhpmcounter30",
        "mhpmcounter31"};
    return (i < 32 && i != 1) ? names[i] : 0;
}

/* Values of every counter at one moment; value[i] is counter i (value[1] and
 * counters outside the mask it was taken with stay 0). */
typedef struct socmon_hpm_snapshot {
    uint64_t value[SOCMON_HPM_COUNT];
} socmon_hpm_snapshot;

/* Events between two readings of a counter `width` bits wide (mcycle and
 * minstret: 64; mhpmcounterN: the core's MHPMCounterWidth, 40 on socmon's Ibex
 * default): (after - before) mod 2^width, exact if it wrapped at most once.
 * Width 0 gives 0; widths above 64 count as 64. socmon_delta does the work. */
static inline uint64_t socmon_hpm_delta(uint64_t before, uint64_t after, unsigned width)
{
    return socmon_delta(before, after, width);
}

/* out = after - before for every counter: mcycle and minstret 64 bits wide,
 * mhpmcounterN hpm_width bits. out may be either input. */
static inline void socmon_hpm_snapshot_delta(const socmon_hpm_snapshot *before,
                                             const socmon_hpm_snapshot *after,
                                             unsigned hpm_width, socmon_hpm_snapshot *out)
{
    unsigned i;
    for (i = 0; i < SOCMON_HPM_COUNT; i++) {
        unsigned w = (i == SOCMON_HPM_MCYCLE || i == SOCMON_HPM_MINSTRET) ? 64u : hpm_width;
        out->value[i] = i == 1 ? 0 : socmon_hpm_delta(before->value[i], after->value[i], w);
    }
}

/* ---- CSR access: RISC-V firmware in M-mode only ---- */
#if defined(__riscv)

/* The by-index accessors must be inlined for a constant index to fold to one
 * csrr/csrw: GCC's heuristics otherwise keep the 31-case switches out of line,
 * and every read would cost a call and a jump table (~30 cycles on Ibex, all
 * inside the measured window). */
#if defined(__GNUC__) || defined(__clang__)
#define SOCMON_HPM_INLINE static inline __attribute__((always_inline))
#else
#define SOCMON_HPM_INLINE static inline
#endif

#if __riscv_xlen == 32
typedef uint32_t socmon_hpm_xreg;
#else
typedef uint64_t socmon_hpm_xreg;
#endif

/* Internal: one switch case per counter index; X(index) expands to a case. */
#define SOCMON_HPM__EACH(X) \
    X(0) X(2) X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) \
    X(17) X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)
#define SOCMON_HPM__EACH_EVENT(X) \
    X(3) X(4) X(5) X(6) X(7) X(8) X(9) X(10) X(11) X(12) X(13) X(14) X(15) X(16) X(17) \
    X(18) X(19) X(20) X(21) X(22) X(23) X(24) X(25) X(26) X(27) X(28) X(29) X(30) X(31)

/* Internal: the low XLEN bits of counter i (mcycle/minstret/mhpmcounterN). */
SOCMON_HPM_INLINE socmon_hpm_xreg socmon_hpm__read_lo(unsigned i)
{
    socmon_hpm_xreg v = 0;
    switch (i) {
#define SOCMON_HPM__RD(n) \
    case n: __asm__ volatile("csrr %0, 0xB00+" #n : "=r"(v)); break;
    SOCMON_HPM__EACH(SOCMON_HPM__RD)
#undef SOCMON_HPM__RD
    default: break;
    }
    return v;
}

SOCMON_HPM_INLINE void socmon_hpm__write_lo(unsigned i, socmon_hpm_xreg v)
{
    switch (i) {
#define SOCMON_HPM__WR(n) \
    case n: __asm__ volatile("csrw 0xB00+" #n ", %0" : : "r"(v) : "memory"); break;
    SOCMON_HPM__EACH(SOCMON_HPM__WR)
#undef SOCMON_HPM__WR
    default: break;
    }
}

#if __riscv_xlen == 32
/* Internal: the high half (mcycleh/minstreth/mhpmcounterNh, 0xB80+N). */
SOCMON_HPM_INLINE uint32_t socmon_hpm__read_hi(unsigned i)
{
    uint32_t v = 0;
    switch (i) {
#define SOCMON_HPM__RD(n) \
    case n: __asm__ volatile("csrr %0, 0xB80+" #n : "=r"(v)); break;
    SOCMON_HPM__EACH(SOCMON_HPM__RD)
#undef SOCMON_HPM__RD
    default: break;
    }
    return v;
}

SOCMON_HPM_INLINE void socmon_hpm__write_hi(unsigned i, uint32_t v)
{
    switch (i) {
#define SOCMON_HPM__WR(n) \
    case n: __asm__ volatile("csrw 0xB80+" #n ", %0" : : "r"(v) : "memory"); break;
    SOCMON_HPM__EACH(SOCMON_HPM__WR)
#undef SOCMON_HPM__WR
    default: break;
    }
}

/* RV32 only: write one half of counter i; the other half keeps counting
 * (a carry out of the low half still reaches the high half). */
SOCMON_HPM_INLINE void socmon_hpm_write_lo(unsigned i, uint32_t v) { socmon_hpm__write_lo(i, v); }
SOCMON_HPM_INLINE void socmon_hpm_write_hi(unsigned i, uint32_t v) { socmon_hpm__write_hi(i, v); }
#endif

/* ---- mcountinhibit (0x320): bit i set = counter i stopped ---- */

static inline uint32_t socmon_hpm_get_inhibit(void)
{
    socmon_hpm_xreg v;
    __asm__ volatile("csrr %0, 0x320" : "=r"(v));
    return (uint32_t)v;
}

/* Replaces the whole register (one csrw). */
static inline void socmon_hpm_set_inhibit(uint32_t mask)
{
    __asm__ volatile("csrw 0x320, %0" : : "r"((socmon_hpm_xreg)mask) : "memory");
}

/* Stops the counters in mask, leaves the others as they are (csrs). */
static inline void socmon_hpm_inhibit(uint32_t mask)
{
    __asm__ volatile("csrs 0x320, %0" : : "r"((socmon_hpm_xreg)mask) : "memory");
}

/* Lets the counters in mask count, leaves the others as they are (csrc). */
static inline void socmon_hpm_uninhibit(uint32_t mask)
{
    __asm__ volatile("csrc 0x320, %0" : : "r"((socmon_hpm_xreg)mask) : "memory");
}

/* Starts every counter: one instruction, `csrw mcountinhibit, x0`. */
static inline void socmon_hpm_start(void)
{
    __asm__ volatile("csrw 0x320, x0" : : : "memory");
}

/* Stops every counter: `li r, -1; csrw mcountinhibit, r` in one asm block, so
 * nothing the compiler schedules lands inside a measured window. On Ibex an
 * empty start/stop window therefore reads (small config) mcycle 4, minstret 2,
 * NumCyclesIF 1: the start's flush, the li and the stopping write itself
 * (spec §7: the writing instruction follows the old inhibit value). */
static inline void socmon_hpm_stop(void)
{
    socmon_hpm_xreg t;
    __asm__ volatile("li %0, -1\n\tcsrw 0x320, %0" : "=&r"(t) : : "memory");
}

/* Aliases in the words of the mask-taking calls. */
static inline void socmon_hpm_inhibit_all(void) { socmon_hpm_stop(); }
static inline void socmon_hpm_uninhibit_all(void) { socmon_hpm_start(); }

/* ---- counters ---- */

/* Counter i (0 mcycle, 2 minstret, 3..31 mhpmcounterN) as a 64-bit value;
 * RV32 reads hi-lo-hi. 0 for any other index. */
SOCMON_HPM_INLINE uint64_t socmon_hpm_read(unsigned i)
{
#if __riscv_xlen == 32
    uint32_t hi, lo, hi2;
    hi = socmon_hpm__read_hi(i);
    for (;;) {
        lo = socmon_hpm__read_lo(i);
        hi2 = socmon_hpm__read_hi(i);
        if (hi2 == hi)
            break;
        hi = hi2;       /* a carry came between: the low half read before it is stale */
    }
    return ((uint64_t)hi << 32) | lo;
#else
    return socmon_hpm__read_lo(i);
#endif
}

SOCMON_HPM_INLINE uint64_t socmon_hpm_read_mcycle(void) { return socmon_hpm_read(SOCMON_HPM_MCYCLE); }
SOCMON_HPM_INLINE uint64_t socmon_hpm_read_minstret(void) { return socmon_hpm_read(SOCMON_HPM_MINSTRET); }

/* Sets counter i to v (an implemented counter keeps its low MHPMCounterWidth
 * bits; an unimplemented one ignores it). RV32: low = 0, high, low, so a
 * running counter's carry cannot corrupt the high half; inhibit it first if
 * the value must not move while it is written. */
SOCMON_HPM_INLINE void socmon_hpm_write(unsigned i, uint64_t v)
{
#if __riscv_xlen == 32
    socmon_hpm__write_lo(i, 0);
    socmon_hpm__write_hi(i, (uint32_t)(v >> 32));
    socmon_hpm__write_lo(i, (uint32_t)v);
#else
    socmon_hpm__write_lo(i, v);
#endif
}

/* Writes 0 to every counter in mask (both halves on RV32). Counters still
 * counting have counted a little past 0 by the time this returns: inhibit
 * them first for an exact zero (socmon_hpm_stop(); socmon_hpm_zero(m);). */
static inline void socmon_hpm_zero(uint32_t mask)
{
    unsigned i;
    for (i = 0; i < SOCMON_HPM_COUNT; i++) {
        if (!(mask & SOCMON_HPM_BIT(i)) || i == 1)
            continue;
        socmon_hpm__write_lo(i, 0);
#if __riscv_xlen == 32
        socmon_hpm__write_hi(i, 0);
#endif
    }
}

/* Reads every counter in mask into s (others 0). Counters that are counting
 * are read one after another, not at one instant: stop them first for a
 * consistent set. */
static inline void socmon_hpm_snapshot_read(socmon_hpm_snapshot *s, uint32_t mask)
{
    unsigned i;
    for (i = 0; i < SOCMON_HPM_COUNT; i++)
        s->value[i] = (i != 1 && (mask & SOCMON_HPM_BIT(i))) ? socmon_hpm_read(i) : 0;
}

/* ---- mhpmevent3..31 (0x323..0x33F) ---- */

/* mhpmeventN, N 3..31 (0 otherwise). On Ibex a read-only constant: 1 << (N-3)
 * for an implemented counter, 0 for the others. */
SOCMON_HPM_INLINE socmon_hpm_xreg socmon_hpm_read_event(unsigned n)
{
    socmon_hpm_xreg v = 0;
    switch (n) {
#define SOCMON_HPM__RD(k) \
    case k: __asm__ volatile("csrr %0, 0x320+" #k : "=r"(v)); break;
    SOCMON_HPM__EACH_EVENT(SOCMON_HPM__RD)
#undef SOCMON_HPM__RD
    default: break;
    }
    return v;
}

/* Selects the event of counter N on cores with programmable events; Ibex
 * ignores the write (its events are hardwired) but still flushes. */
SOCMON_HPM_INLINE void socmon_hpm_write_event(unsigned n, socmon_hpm_xreg event)
{
    switch (n) {
#define SOCMON_HPM__WR(k) \
    case k: __asm__ volatile("csrw 0x320+" #k ", %0" : : "r"(event) : "memory"); break;
    SOCMON_HPM__EACH_EVENT(SOCMON_HPM__WR)
#undef SOCMON_HPM__WR
    default: break;
    }
}

/* ---- probes (they change counters: call them before measuring) ---- */

/* The counters that exist: all-ones into mcountinhibit reads back as the
 * writable bits (Ibex: 0, 2 and 3..2+MHPMCounterNum; 0x1FFD with ten
 * counters). mcountinhibit is restored afterwards. */
static inline uint32_t socmon_hpm_implemented(void)
{
    uint32_t old = socmon_hpm_get_inhibit(), mask;
    socmon_hpm_set_inhibit(SOCMON_HPM_ALL);
    mask = socmon_hpm_get_inhibit();
    socmon_hpm_set_inhibit(old);
    return mask;
}

/* Width in bits of counter i (1..64), 0 if it is not implemented: writes
 * all-ones with the counter inhibited, counts the bits that stick, then
 * restores the counter's value and mcountinhibit (as OpenSBI probes). */
static inline unsigned socmon_hpm_width(unsigned i)
{
    uint32_t old = socmon_hpm_get_inhibit();
    uint64_t saved, ones;
    unsigned w = 0;
    socmon_hpm_inhibit(SOCMON_HPM_BIT(i & 31u));
    saved = socmon_hpm_read(i);
    socmon_hpm_write(i, UINT64_MAX);
    ones = socmon_hpm_read(i);
    socmon_hpm_write(i, saved);
    socmon_hpm_set_inhibit(old);
    while (w < 64 && (ones >> w) & 1u)
        w++;
    return w;
}

#undef SOCMON_HPM__EACH
#undef SOCMON_HPM__EACH_EVENT

#endif /* __riscv */

SOCMON_END_DECLS
#endif
