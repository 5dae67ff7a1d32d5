/* Ibex (lowRISC/ibex at 0a13971f31691153c9c3f552f22f859888cdbfa0): the CSR
 * addresses, fields and reset values the model and a future driver share,
 * plus the memory map of examples/simple_system the model implements.
 *
 * Sources: rtl/ibex_pkg.sv (csr_num_e, bit positions), rtl/ibex_cs_registers.sv
 * (read/write decode, mcountinhibit and mhpmevent layout, reset values),
 * rtl/smn_ibex_counter.sv (counter update rule), examples/simple_system/rtl/
 * ibex_simple_system.sv, shared/rtl/timer.sv, shared/rtl/sim/simulator_ctrl.sv.
 * The facts are also summarised in ../shared/specs/riscv_hpm_ibex.md §1 and §7.
 * Like every src/hw header this includes nothing from socmon. */
#ifndef SOCMON_HW_IBEX_CSR_H
#define SOCMON_HW_IBEX_CSR_H

#include <stdint.h>

/* ---- CSR addresses (csr_num_e) ---- */
enum {
    IBEX_CSR_MSTATUS = 0x300,
    IBEX_CSR_MISA = 0x301,
    IBEX_CSR_MIE = 0x304,
    IBEX_CSR_MTVEC = 0x305,
    IBEX_CSR_MCOUNTEREN = 0x306,   /* at 0a13971f: reads 0, writes ignored */
    IBEX_CSR_MENVCFG = 0x30A,
    IBEX_CSR_MSTATUSH = 0x310,
    IBEX_CSR_MENVCFGH = 0x31A,
    IBEX_CSR_MCOUNTINHIBIT = 0x320,
    IBEX_CSR_MHPMEVENT3 = 0x323,   /* .. 0x33F = mhpmevent31 */
    IBEX_CSR_MHPMEVENT31 = 0x33F,
    IBEX_CSR_MSCRATCH = 0x340,
    IBEX_CSR_MEPC = 0x341,
    IBEX_CSR_MCAUSE = 0x342,
    IBEX_CSR_MTVAL = 0x343,
    IBEX_CSR_MIP = 0x344,
    IBEX_CSR_TSELECT = 0x7A0,      /* trigger CSRs: illegal without DbgTriggerEn */
    IBEX_CSR_TDATA1 = 0x7A1,
    IBEX_CSR_TDATA2 = 0x7A2,
    IBEX_CSR_TDATA3 = 0x7A3,
    IBEX_CSR_MCONTEXT = 0x7A8,
    IBEX_CSR_MSCONTEXT = 0x7AA,
    IBEX_CSR_DCSR = 0x7B0,         /* debug CSRs: illegal outside debug mode */
    IBEX_CSR_DPC = 0x7B1,
    IBEX_CSR_DSCRATCH0 = 0x7B2,
    IBEX_CSR_DSCRATCH1 = 0x7B3,
    IBEX_CSR_CPUCTRLSTS = 0x7C0,
    IBEX_CSR_SECURESEED = 0x7C1,
    IBEX_CSR_SCONTEXT = 0x5A8,
    IBEX_CSR_MCYCLE = 0xB00,       /* mcycle, (0xB01 illegal), minstret, mhpmcounter3..31 */
    IBEX_CSR_MINSTRET = 0xB02,
    IBEX_CSR_MHPMCOUNTER3 = 0xB03,
    IBEX_CSR_MHPMCOUNTER31 = 0xB1F,
    IBEX_CSR_MCYCLEH = 0xB80,      /* the high halves, same layout + 0x80 */
    IBEX_CSR_MINSTRETH = 0xB82,
    IBEX_CSR_MHPMCOUNTER31H = 0xB9F,
    IBEX_CSR_CYCLE = 0xC00,        /* at 0a13971f every 0xC00..0xC9F access is illegal */
    IBEX_CSR_MVENDORID = 0xF11,
    IBEX_CSR_MARCHID = 0xF12,
    IBEX_CSR_MIMPID = 0xF13,
    IBEX_CSR_MHARTID = 0xF14,
    IBEX_CSR_MCONFIGPTR = 0xF15,
};

/* ---- counter indices (= CSR address bits 4:0 = mcountinhibit bit) ---- */
enum {
    IBEX_CNT_CYCLE = 0,
    IBEX_CNT_TIME = 1,           /* no counter; mcountinhibit bit 1 reads 0 */
    IBEX_CNT_INSTRET = 2,
    IBEX_CNT_LSU_WAIT = 3,       /* NumCyclesLSU */
    IBEX_CNT_IF_WAIT = 4,        /* NumCyclesIF */
    IBEX_CNT_LOADS = 5,
    IBEX_CNT_STORES = 6,
    IBEX_CNT_JUMPS = 7,          /* jal, jalr, c.j*, c.jr, c.jalr and fence.i */
    IBEX_CNT_BRANCHES = 8,
    IBEX_CNT_TAKEN = 9,
    IBEX_CNT_COMPRESSED = 10,    /* retired compressed instructions */
    IBEX_CNT_MUL_WAIT = 11,
    IBEX_CNT_DIV_WAIT = 12,
    IBEX_CNT_EVENTS = 13,        /* counters 13..31 exist if MHPMCounterNum > 10 but never count */
    IBEX_CNT_MAX = 32,
};

#define IBEX_MHPM_NUM_MAX 29u     /* MHPMCounterNum: counters 3 .. 3+num-1 */
#define IBEX_MHPM_WIDTH_MAX 64u   /* MHPMCounterWidth: 1..64 (no RTL assertion, smn_ibex_counter works) */

/* mcountinhibit: bit 0, bit 2 and bits 3..(2+num) are writable; bit 1 and
 * the bits of unimplemented counters read 0 (since e53a02ab). Reset 0. */
static inline uint32_t ibex_mcountinhibit_mask(unsigned mhpm_num)
{
    uint32_t hpm = mhpm_num >= 29 ? 0xFFFFFFF8u : (((1u << mhpm_num) - 1u) << 3);
    return 0x5u | hpm;
}

/* mhpmeventN (read-only, writes ignored without a trap): 1 << (N-3) for an
 * implemented counter N, else 0. The doc's table (1 << N) is stale. */
static inline uint32_t ibex_mhpmevent_value(unsigned n, unsigned mhpm_num)
{
    return (n >= 3 && n < 3 + mhpm_num) ? 1u << (n - 3) : 0u;
}

/* ---- mstatus / mie / mip / mtvec / mcause ---- */
enum {
    IBEX_MSTATUS_MIE = 1u << 3,
    IBEX_MSTATUS_MPIE = 1u << 7,
    IBEX_MSTATUS_MPP_SHIFT = 11,       /* 2 bits: 3 = M, 0 = U (others read as U) */
    IBEX_MSTATUS_MPRV = 1u << 17,
    IBEX_MSTATUS_TW = 1u << 21,
};
/* mstatus after reset: MPIE = 1, MPP = U (MSTATUS_RST_VAL). */
#define IBEX_MSTATUS_RESET IBEX_MSTATUS_MPIE

enum {
    IBEX_MIX_MSI = 1u << 3,
    IBEX_MIX_MTI = 1u << 7,
    IBEX_MIX_MEI = 1u << 11,
    IBEX_MIX_FAST_MASK = 0x7FFF0000u,  /* irq_fast 0..14 at bits 16..30 */
};
#define IBEX_MIE_MASK (IBEX_MIX_MSI | IBEX_MIX_MTI | IBEX_MIX_MEI | IBEX_MIX_FAST_MASK)

/* mtvec: MODE is fixed to 01 (vectored), BASE is 256-byte aligned; reset
 * {boot_addr[31:8], 0, 01}. Exceptions go to BASE, interrupt i to BASE + 4*i. */
#define IBEX_MTVEC_BASE_MASK 0xFFFFFF00u
#define IBEX_MTVEC_MODE 0x1u

enum {
    IBEX_CAUSE_INSN_ACCESS = 1,
    IBEX_CAUSE_ILLEGAL = 2,
    IBEX_CAUSE_BREAKPOINT = 3,
    IBEX_CAUSE_LOAD_ACCESS = 5,
    IBEX_CAUSE_STORE_ACCESS = 7,
    IBEX_CAUSE_ECALL_U = 8,
    IBEX_CAUSE_ECALL_M = 11,
    IBEX_CAUSE_IRQ_TIMER = 7,   /* with bit 31 set */
};
#define IBEX_MCAUSE_IRQ 0x80000000u

/* misa for RV32IMC + U (M cleared with RV32M = none), MXL = 1. */
#define IBEX_MISA_BASE ((1u << 30) | (1u << 20) | (1u << 8) | (1u << 2))
#define IBEX_MISA_M (1u << 12)
#define IBEX_MARCHID 22u

/* cpuctrlsts (0x7C0): without ICache and SecureIbex only these two bits
 * hold state (set by the trap logic, written by software). */
#define IBEX_CPUCTRLSTS_SYNC_EXC_SEEN (1u << 6)
#define IBEX_CPUCTRLSTS_DOUBLE_FAULT (1u << 7)

/* ---- examples/simple_system memory map ---- */
#define IBEX_SS_RAM_BASE 0x00100000u
#define IBEX_SS_RAM_SIZE 0x00100000u    /* 1 MiB, 1-cycle latency */
#define IBEX_SS_BOOT_ADDR 0x00100000u   /* boot_addr_i; mtvec resets here */
#define IBEX_SS_RESET_PC 0x00100080u    /* boot_addr + 0x80 */
#define IBEX_SS_SIMCTRL_BASE 0x00020000u
#define IBEX_SS_SIMCTRL_SIZE 0x400u
#define IBEX_SS_SIMCTRL_OUT 0x0u        /* byte lane 0 of a write is printed */
#define IBEX_SS_SIMCTRL_CTRL 0x8u       /* writing bit 0 = 1 halts (2 cycles later) */
#define IBEX_SS_TIMER_BASE 0x00030000u
#define IBEX_SS_TIMER_SIZE 0x400u
#define IBEX_SS_TIMER_MTIME 0x0u        /* low, high at +4 */
#define IBEX_SS_TIMER_MTIMECMP 0x8u     /* low, high at +0xC */

/* ---- socmon's view of the CSRs as a register space ----
 * Ibex's counters are CSRs, read by csrr inside the core or by a debugger
 * through the debug module. socmon's driver reads them over a socmon bus on
 * which CSR number N is the 32-bit register at byte address N * 4 (the
 * model maps its CSR file there), so mcycle/mcycleh are 0x2C00/0x2E00 and a
 * 64-bit counter is a lo/hi register pair read hi-lo-hi. */
#define IBEX_CSRBUS_BASE 0x0u
#define IBEX_CSRBUS_SIZE (0x1000u * 4u)
#define IBEX_CSRBUS_ADDR(csr) (IBEX_CSRBUS_BASE + (uint32_t)(csr) * 4u)
#define IBEX_CSR_HI(csr) ((csr) + 0x80u)   /* mcycle -> mcycleh, mhpmcounterN -> mhpmcounterNh */

/* Per-function attribution (socmon's, not Ibex's): a table the target
 * maps after the CSRs, one block of IBEX_CNT_EVENTS 64-bit counters (lo
 * word, then hi word) per function, in the order the target lists them.
 * Its registers are 64 bits wide: a 64-bit access reads a counter whole
 * (the driver reads them so: one access where the bus has 64-bit accesses,
 * else hi-lo-hi over the two words), a 32-bit access reads one word. No
 * silicon has it, so its width is ours to choose: reading 1,128 counters
 * (CoreMark's 94 functions) hi-lo-hi was 3 accesses each at every sample. */
#define IBEX_ATTRBUS_BASE 0x10000u
#define IBEX_ATTRBUS_STRIDE 0x80u          /* bytes per function: 13 counters * 8, rounded up */
#define IBEX_ATTRBUS_MAX_FUNCS 0x2000u     /* 1 MiB of table */
#define IBEX_ATTRBUS_ADDR(f, k) (IBEX_ATTRBUS_BASE + (uint32_t)(f) * IBEX_ATTRBUS_STRIDE + (uint32_t)(k) * 8u)

#endif
