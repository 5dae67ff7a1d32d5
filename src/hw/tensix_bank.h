/* Tensix performance-counter banks: every register-level fact, once.
 *
 * Included by the driver (src/drivers/tensix) and by the model
 * (src/models/tensix); neither includes the other. Holds the debug-register
 * map of the five banks, their field layouts and access table, the counter
 * slot (config word) encoding, the per-thread L1 buffer layout and the table
 * of every counter the guide lists.
 *
 * Sources (docs/tensix.md, "Sources", names them in full):
 *  - the Tensix Performance Counters Guide (tt-llk V1 9fa02aa,
 *    docs/performance_counters): register map, bank and counter ids, slot
 *    encoding, L1 layout;
 *  - ../shared/specs/tensix_counters.md §1 (tt-metal tensix.h, Quasar
 *    t6_debug_map.h): base 0xFFB12000, START = bit 0 and STOP = bit 1,
 *    32-bit registers with reset 0;
 *  - §3 (config word), §4 (L1 layout) of the same notes. */
#ifndef SOCMON_HW_TENSIX_BANK_H
#define SOCMON_HW_TENSIX_BANK_H

#include <stddef.h>
#include <stdint.h>
#include <strings.h>

#include "hw/regfields.h"

/* RISCV_DEBUG_REGS_START_ADDR on Wormhole B0 and Blackhole (tt-metal tensix.h). */
#define TENSIX_REGS_BASE 0xFFB12000ull
#define TENSIX_REGS_SIZE 0x1000u
/* Wormhole B0 L1 is 1464 KiB; the counter buffers sit at 0x16A000. */
#define TENSIX_L1_SIZE 0x16E000u

/* Bank ids as the slot word and tt-llk's CounterBank number them (spec §3). */
enum {
    TENSIX_BANK_INSTRN_THREAD = 0,
    TENSIX_BANK_FPU = 1,
    TENSIX_BANK_TDMA_UNPACK = 2,
    TENSIX_BANK_L1 = 3,
    TENSIX_BANK_TDMA_PACK = 4,
    TENSIX_NBANKS = 5
};

/* ---- debug registers (spec §1; offsets from TENSIX_REGS_BASE) ----
 * Each bank has three control registers at consecutive words (*0 reference
 * period, *1 mode, *2 start/stop) and an OUT_L/OUT_H pair. The OUT pairs are
 * in the order INSTRN, UNPACK, PACK, L1, FPU, not bank-id order. */
SM_REG32(TENSIX_INSTRN_THREAD_REF, 0x000)
SM_REG32(TENSIX_INSTRN_THREAD_MODE, 0x004)
SM_REG32(TENSIX_INSTRN_THREAD_CTRL, 0x008)
SM_REG32(TENSIX_TDMA_UNPACK_REF, 0x00C)
SM_REG32(TENSIX_TDMA_UNPACK_MODE, 0x010)
SM_REG32(TENSIX_TDMA_UNPACK_CTRL, 0x014)
SM_REG32(TENSIX_FPU_REF, 0x018)
SM_REG32(TENSIX_FPU_MODE, 0x01C)
SM_REG32(TENSIX_FPU_CTRL, 0x020)
SM_REG32(TENSIX_L1_REF, 0x030)
SM_REG32(TENSIX_L1_MODE, 0x034)
SM_REG32(TENSIX_L1_CTRL, 0x038)
SM_REG32(TENSIX_PERF_CNT_ALL, 0x03C)      /* START/STOP of INSTRN_THREAD and FPU together */
SM_REG32(TENSIX_TDMA_PACK_REF, 0x0F0)
SM_REG32(TENSIX_TDMA_PACK_MODE, 0x0F4)
SM_REG32(TENSIX_TDMA_PACK_CTRL, 0x0F8)
SM_REG32(TENSIX_INSTRN_THREAD_OUT_L, 0x100)
SM_REG32(TENSIX_INSTRN_THREAD_OUT_H, 0x104)
SM_REG32(TENSIX_TDMA_UNPACK_OUT_L, 0x108)
SM_REG32(TENSIX_TDMA_UNPACK_OUT_H, 0x10C)
SM_REG32(TENSIX_TDMA_PACK_OUT_L, 0x110)
SM_REG32(TENSIX_TDMA_PACK_OUT_H, 0x114)
SM_REG32(TENSIX_L1_OUT_L, 0x118)
SM_REG32(TENSIX_L1_OUT_H, 0x11C)
SM_REG32(TENSIX_FPU_OUT_L, 0x120)
SM_REG32(TENSIX_FPU_OUT_H, 0x124)
SM_REG32(TENSIX_PERF_CNT_MUX_CTRL, 0x218)

/* Mode register (guide): [7:0] mode, [16:8] counter_sel, [31:17] reserved.
 * tt-metal's RTL note has a 5-bit select and a req/grant bit 16 instead; we
 * follow the guide (docs/tensix.md, disagreement 3). */
SM_FIELD(TENSIX_MODE, MODE, 0, 8)
SM_FIELD(TENSIX_MODE, SEL, 8, 9)
enum { TENSIX_MODE_CONTINUOUS = 0, TENSIX_MODE_REF_PERIOD = 1, TENSIX_MODE_NO_REF = 2 };

/* Start/stop register and PERF_CNT_ALL (Quasar t6_debug_map.h): rising edges act. */
SM_FIELD(TENSIX_CTRL, START, 0, 1)
SM_FIELD(TENSIX_CTRL, STOP, 1, 1)

/* PERF_CNT_MUX_CTRL bit 4 selects the L1 signal set on Wormhole (hw_counters.h
 * L1_MUX_MASK); tt-llk touches only this bit, by read-modify-write. */
SM_FIELD(TENSIX_PERF_CNT_MUX_CTRL, L1_MUX, 4, 1)

/* Register roles within a bank, in the order of the access table below. */
enum { TENSIX_ROLE_REF, TENSIX_ROLE_MODE, TENSIX_ROLE_CTRL, TENSIX_ROLE_OUT_L, TENSIX_ROLE_OUT_H,
       TENSIX_NROLES };

/* Access table, bank-major: entry TENSIX_NROLES * bank + role, then
 * PERF_CNT_ALL and PERF_CNT_MUX_CTRL. Every register is 32 bits with reset 0
 * (t6_debug_map.h). OUT_L/OUT_H are read-only: the model computes their value.
 * Mode bits 31:17 are reserved in the guide but stored as written (no source
 * says they read 0). Control registers hold what was written; the model acts
 * on its rising edges. No register is W1C or clear-on-read. */
#define TENSIX_BANK_REGINFO(bank)                                                              \
    {#bank "_REF", A_TENSIX_##bank##_REF, 0, 0, 0, 0, 0},                                      \
    {#bank "_MODE", A_TENSIX_##bank##_MODE, 0, 0, 0, 0, 0},                                    \
    {#bank "_CTRL", A_TENSIX_##bank##_CTRL, 0, 0, 0, 0, 0},                                    \
    {#bank "_OUT_L", A_TENSIX_##bank##_OUT_L, 0, 0xFFFFFFFFu, 0, 0, 0},                        \
    {#bank "_OUT_H", A_TENSIX_##bank##_OUT_H, 0, 0xFFFFFFFFu, 0, 0, 0}

static const smn_reginfo TENSIX_REGINFO[] SM_UNUSED = {
    TENSIX_BANK_REGINFO(INSTRN_THREAD),
    TENSIX_BANK_REGINFO(FPU),
    TENSIX_BANK_REGINFO(TDMA_UNPACK),
    TENSIX_BANK_REGINFO(L1),
    TENSIX_BANK_REGINFO(TDMA_PACK),
    {"PERF_CNT_ALL", A_TENSIX_PERF_CNT_ALL, 0, 0, 0, 0, 0},
    {"PERF_CNT_MUX_CTRL", A_TENSIX_PERF_CNT_MUX_CTRL, 0, 0, 0, 0, 0},
};
enum { TENSIX_REG_ALL = TENSIX_NBANKS * TENSIX_NROLES, TENSIX_REG_MUX_CTRL, TENSIX_NREGS };

/* The index of the register at byte offset off in TENSIX_REGINFO, or -1
 * (an unmodelled register of the debug window). */
static inline int tensix_reg_index(uint32_t off)
{
    const smn_reginfo *ri = socmon_reginfo_find(TENSIX_REGINFO, TENSIX_NREGS, off);
    return ri ? (int)(ri - TENSIX_REGINFO) : -1;
}

/* One bank's registers and names. */
typedef struct tensix_bank_regs {
    const char *name;      /* "INSTRN_THREAD", as the guide writes it */
    const char *lname;     /* "instrn_thread": the socmon counter instance */
    uint32_t ref;          /* reference period (mode 1's auto-stop) */
    uint32_t mode;         /* mode and counter_sel */
    uint32_t ctrl;         /* start/stop */
    uint32_t out_l;        /* elapsed cycles */
    uint32_t out_h;        /* the counter counter_sel selects */
} tensix_bank_regs;

#define TENSIX_BANK_ENTRY(bank, lname)                                                         \
    [TENSIX_BANK_##bank] = {#bank, lname, A_TENSIX_##bank##_REF, A_TENSIX_##bank##_MODE,       \
                            A_TENSIX_##bank##_CTRL, A_TENSIX_##bank##_OUT_L, A_TENSIX_##bank##_OUT_H}

static const tensix_bank_regs TENSIX_BANKS[TENSIX_NBANKS] SM_UNUSED = {
    TENSIX_BANK_ENTRY(INSTRN_THREAD, "instrn_thread"),
    TENSIX_BANK_ENTRY(FPU, "fpu"),
    TENSIX_BANK_ENTRY(TDMA_UNPACK, "tdma_unpack"),
    TENSIX_BANK_ENTRY(L1, "l1"),
    TENSIX_BANK_ENTRY(TDMA_PACK, "tdma_pack"),
};

/* Bank b's registers; NULL for b >= TENSIX_NBANKS. */
static inline const tensix_bank_regs *tensix_bank(unsigned b)
{
    return b < TENSIX_NBANKS ? &TENSIX_BANKS[b] : NULL;
}

/* ---- counter slots: one 32-bit config word each (spec §3) ----
 * config = (1 << 31) | (l1_mux << 17) | (counter_id << 8) | bank_id.
 * Bits 30:18 are unused by every version; we treat a word with any of them
 * set as malformed. */
SM_FIELD(TENSIX_SLOT, BANK, 0, 8)
SM_FIELD(TENSIX_SLOT, ID, 8, 9)
SM_FIELD(TENSIX_SLOT, MUX, 17, 1)
SM_FIELD(TENSIX_SLOT, RESERVED, 18, 13)
SM_FIELD(TENSIX_SLOT, VALID, 31, 1)

/* ---- per-thread L1 buffers (spec §4; tt-llk V1 counters.h, test_config.py) ----
 * Per thread: 86 config words, then 172 data words of (cycles, count) pairs
 * for the valid slots in slot order, compacted. */
enum { TENSIX_THREAD_UNPACK = 0, TENSIX_THREAD_MATH = 1, TENSIX_THREAD_PACK = 2,
       TENSIX_NTHREADS = 3 };
#define TENSIX_CONFIG_WORDS 86u
#define TENSIX_DATA_WORDS 172u
#define TENSIX_COUNTERS_BASE 0x16A000u
#define TENSIX_THREAD_SIZE 0x408u   /* 1032 bytes: (86 + 172) words */
/* Our encoding of an undefined L1 result in the data area (the guide has none). */
#define TENSIX_UNDEF_WORD 0xFFFFFFFFu

static inline uint32_t tensix_config_addr(unsigned thread)
{
    return TENSIX_COUNTERS_BASE + thread * TENSIX_THREAD_SIZE;
}

static inline uint32_t tensix_data_addr(unsigned thread)
{
    return tensix_config_addr(thread) + 4u * TENSIX_CONFIG_WORDS;
}

/* ---- every counter the guide lists: X(bank, counter_id, l1_mux, NAME, description) ----
 * Ordered as the guide's configure_counters builds them: INSTRN_THREAD, FPU,
 * TDMA_UNPACK, TDMA_PACK, L1 mux 0, L1 mux 1. Names and ids follow the guide
 * where tt-metal's RTL tables disagree (docs/tensix.md, disagreement 12). */
#define TENSIX_EVENTS(X)                                                                                 \
    X(INSTRN_THREAD, 0, 0, CFG_INSTRN_AVAILABLE_0, "CFG instruction available, thread 0")               \
    X(INSTRN_THREAD, 1, 0, CFG_INSTRN_AVAILABLE_1, "CFG instruction available, thread 1")               \
    X(INSTRN_THREAD, 2, 0, CFG_INSTRN_AVAILABLE_2, "CFG instruction available, thread 2")               \
    X(INSTRN_THREAD, 3, 0, SYNC_INSTRN_AVAILABLE_0, "SYNC instruction available, thread 0")             \
    X(INSTRN_THREAD, 4, 0, SYNC_INSTRN_AVAILABLE_1, "SYNC instruction available, thread 1")             \
    X(INSTRN_THREAD, 5, 0, SYNC_INSTRN_AVAILABLE_2, "SYNC instruction available, thread 2")             \
    X(INSTRN_THREAD, 6, 0, THCON_INSTRN_AVAILABLE_0, "THCON instruction available, thread 0")           \
    X(INSTRN_THREAD, 7, 0, THCON_INSTRN_AVAILABLE_1, "THCON instruction available, thread 1")           \
    X(INSTRN_THREAD, 8, 0, THCON_INSTRN_AVAILABLE_2, "THCON instruction available, thread 2")           \
    X(INSTRN_THREAD, 9, 0, XSEARCH_INSTRN_AVAILABLE_0, "XSEARCH instruction available, thread 0")       \
    X(INSTRN_THREAD, 10, 0, XSEARCH_INSTRN_AVAILABLE_1, "XSEARCH instruction available, thread 1")      \
    X(INSTRN_THREAD, 11, 0, XSEARCH_INSTRN_AVAILABLE_2, "XSEARCH instruction available, thread 2")      \
    X(INSTRN_THREAD, 12, 0, MOVE_INSTRN_AVAILABLE_0, "MOVE instruction available, thread 0")            \
    X(INSTRN_THREAD, 13, 0, MOVE_INSTRN_AVAILABLE_1, "MOVE instruction available, thread 1")            \
    X(INSTRN_THREAD, 14, 0, MOVE_INSTRN_AVAILABLE_2, "MOVE instruction available, thread 2")            \
    X(INSTRN_THREAD, 15, 0, FPU_INSTRN_AVAILABLE_0, "FPU/SFPU instruction available, thread 0")         \
    X(INSTRN_THREAD, 16, 0, FPU_INSTRN_AVAILABLE_1, "FPU/SFPU instruction available, thread 1")         \
    X(INSTRN_THREAD, 17, 0, FPU_INSTRN_AVAILABLE_2, "FPU/SFPU instruction available, thread 2")         \
    X(INSTRN_THREAD, 18, 0, UNPACK_INSTRN_AVAILABLE_0, "UNPACK instruction available, thread 0")        \
    X(INSTRN_THREAD, 19, 0, UNPACK_INSTRN_AVAILABLE_1, "UNPACK instruction available, thread 1")        \
    X(INSTRN_THREAD, 20, 0, UNPACK_INSTRN_AVAILABLE_2, "UNPACK instruction available, thread 2")        \
    X(INSTRN_THREAD, 21, 0, PACK_INSTRN_AVAILABLE_0, "PACK instruction available, thread 0")            \
    X(INSTRN_THREAD, 22, 0, PACK_INSTRN_AVAILABLE_1, "PACK instruction available, thread 1")            \
    X(INSTRN_THREAD, 23, 0, PACK_INSTRN_AVAILABLE_2, "PACK instruction available, thread 2")            \
    X(INSTRN_THREAD, 24, 0, THREAD_STALLS_0, "Cycles thread 0 was stalled")                             \
    X(INSTRN_THREAD, 25, 0, THREAD_STALLS_1, "Cycles thread 1 was stalled")                             \
    X(INSTRN_THREAD, 26, 0, THREAD_STALLS_2, "Cycles thread 2 was stalled")                             \
    X(INSTRN_THREAD, 27, 0, WAITING_FOR_SRCA_CLEAR, "Cycles waiting for srcA to be cleared")            \
    X(INSTRN_THREAD, 28, 0, WAITING_FOR_SRCB_CLEAR, "Cycles waiting for srcB to be cleared")            \
    X(INSTRN_THREAD, 29, 0, WAITING_FOR_SRCA_VALID, "Cycles waiting for srcA data to be valid")         \
    X(INSTRN_THREAD, 30, 0, WAITING_FOR_SRCB_VALID, "Cycles waiting for srcB data to be valid")         \
    X(INSTRN_THREAD, 31, 0, WAITING_FOR_THCON_IDLE_0, "Cycles thread 0 waited for THCON idle")          \
    X(INSTRN_THREAD, 32, 0, WAITING_FOR_THCON_IDLE_1, "Cycles thread 1 waited for THCON idle")          \
    X(INSTRN_THREAD, 33, 0, WAITING_FOR_THCON_IDLE_2, "Cycles thread 2 waited for THCON idle")          \
    X(INSTRN_THREAD, 34, 0, WAITING_FOR_UNPACK_IDLE_0, "Cycles thread 0 waited for unpack idle")        \
    X(INSTRN_THREAD, 35, 0, WAITING_FOR_UNPACK_IDLE_1, "Cycles thread 1 waited for unpack idle")        \
    X(INSTRN_THREAD, 36, 0, WAITING_FOR_UNPACK_IDLE_2, "Cycles thread 2 waited for unpack idle")        \
    X(INSTRN_THREAD, 37, 0, WAITING_FOR_PACK_IDLE_0, "Cycles thread 0 waited for pack idle")            \
    X(INSTRN_THREAD, 38, 0, WAITING_FOR_PACK_IDLE_1, "Cycles thread 1 waited for pack idle")            \
    X(INSTRN_THREAD, 39, 0, WAITING_FOR_PACK_IDLE_2, "Cycles thread 2 waited for pack idle")            \
    X(INSTRN_THREAD, 40, 0, WAITING_FOR_MATH_IDLE_0, "Cycles thread 0 waited for math idle")            \
    X(INSTRN_THREAD, 41, 0, WAITING_FOR_MATH_IDLE_1, "Cycles thread 1 waited for math idle")            \
    X(INSTRN_THREAD, 42, 0, WAITING_FOR_MATH_IDLE_2, "Cycles thread 2 waited for math idle")            \
    X(INSTRN_THREAD, 43, 0, WAITING_FOR_NONZERO_SEM_0, "Cycles thread 0 waited for semaphore > 0")      \
    X(INSTRN_THREAD, 44, 0, WAITING_FOR_NONZERO_SEM_1, "Cycles thread 1 waited for semaphore > 0")      \
    X(INSTRN_THREAD, 45, 0, WAITING_FOR_NONZERO_SEM_2, "Cycles thread 2 waited for semaphore > 0")      \
    X(INSTRN_THREAD, 46, 0, WAITING_FOR_NONFULL_SEM_0, "Cycles thread 0 waited for semaphore < max")    \
    X(INSTRN_THREAD, 47, 0, WAITING_FOR_NONFULL_SEM_1, "Cycles thread 1 waited for semaphore < max")    \
    X(INSTRN_THREAD, 48, 0, WAITING_FOR_NONFULL_SEM_2, "Cycles thread 2 waited for semaphore < max")    \
    X(INSTRN_THREAD, 49, 0, WAITING_FOR_MOVE_IDLE_0, "Cycles thread 0 waited for MOVE idle")            \
    X(INSTRN_THREAD, 50, 0, WAITING_FOR_MOVE_IDLE_1, "Cycles thread 1 waited for MOVE idle")            \
    X(INSTRN_THREAD, 51, 0, WAITING_FOR_MOVE_IDLE_2, "Cycles thread 2 waited for MOVE idle")            \
    X(INSTRN_THREAD, 52, 0, WAITING_FOR_MMIO_IDLE_0, "Cycles thread 0 waited for MMIO idle")            \
    X(INSTRN_THREAD, 53, 0, WAITING_FOR_MMIO_IDLE_1, "Cycles thread 1 waited for MMIO idle")            \
    X(INSTRN_THREAD, 54, 0, WAITING_FOR_MMIO_IDLE_2, "Cycles thread 2 waited for MMIO idle")            \
    X(INSTRN_THREAD, 55, 0, WAITING_FOR_SFPU_IDLE_0, "Cycles thread 0 waited for SFPU idle")            \
    X(INSTRN_THREAD, 56, 0, WAITING_FOR_SFPU_IDLE_1, "Cycles thread 1 waited for SFPU idle")            \
    X(INSTRN_THREAD, 57, 0, WAITING_FOR_SFPU_IDLE_2, "Cycles thread 2 waited for SFPU idle")            \
    X(INSTRN_THREAD, 256, 0, THREAD_INSTRUCTIONS_0, "Instructions executed by thread 0")                \
    X(INSTRN_THREAD, 257, 0, THREAD_INSTRUCTIONS_1, "Instructions executed by thread 1")                \
    X(INSTRN_THREAD, 258, 0, THREAD_INSTRUCTIONS_2, "Instructions executed by thread 2")                \
    X(FPU, 0, 0, FPU_INSTRUCTION, "Cycles FPU instructions were executed")                              \
    X(FPU, 1, 0, SFPU_INSTRUCTION, "Cycles SFPU instructions were executed")                            \
    X(FPU, 257, 0, FPU_OR_SFPU_INSTRN, "Cycles FPU or SFPU instructions were executed")                 \
    X(TDMA_UNPACK, 1, 0, DATA_HAZARD_STALLS_MOVD2A, "Cycles stalled on MOVD2A data hazards")            \
    X(TDMA_UNPACK, 3, 0, MATH_INSTRN_STARTED, "Math instructions started")                              \
    X(TDMA_UNPACK, 4, 0, MATH_INSTRN_AVAILABLE, "Math instructions available in the buffer")            \
    X(TDMA_UNPACK, 5, 0, SRCB_WRITE_AVAILABLE, "Cycles the srcB write port was available")              \
    X(TDMA_UNPACK, 6, 0, SRCA_WRITE_AVAILABLE, "Cycles the srcA write port was available")              \
    X(TDMA_UNPACK, 7, 0, UNPACK0_BUSY_THREAD0, "Unpacker 0 busy cycles (thread 0)")                     \
    X(TDMA_UNPACK, 8, 0, UNPACK1_BUSY_THREAD0, "Unpacker 1 busy cycles (thread 0)")                     \
    X(TDMA_UNPACK, 9, 0, UNPACK0_BUSY_THREAD1, "Unpacker 0 busy cycles (thread 1)")                     \
    X(TDMA_UNPACK, 10, 0, UNPACK1_BUSY_THREAD1, "Unpacker 1 busy cycles (thread 1)")                    \
    X(TDMA_UNPACK, 259, 0, SRCB_WRITE, "srcB writes completed")                                         \
    X(TDMA_UNPACK, 261, 0, SRCA_WRITE, "srcA writes completed")                                         \
    X(TDMA_PACK, 11, 0, PACKER_DEST_READ_AVAILABLE, "Cycles destination data was available to the packer") \
    X(TDMA_PACK, 18, 0, PACKER_BUSY, "Cycles the packer was working")                                   \
    X(TDMA_PACK, 272, 0, AVAILABLE_MATH, "Cycles math results were available for packing")              \
    X(L1, 0, 0, NOC_RING0_INCOMING_1, "NoC ring 0 incoming channel 1 read/write")                       \
    X(L1, 1, 0, NOC_RING0_INCOMING_0, "NoC ring 0 incoming channel 0 read/write")                       \
    X(L1, 2, 0, NOC_RING0_OUTGOING_1, "NoC ring 0 outgoing channel 1 read/write")                       \
    X(L1, 3, 0, NOC_RING0_OUTGOING_0, "NoC ring 0 outgoing channel 0 read/write")                       \
    X(L1, 4, 0, L1_ARB_TDMA_BUNDLE_1, "L1 arbitration for TDMA bundle 1")                               \
    X(L1, 5, 0, L1_ARB_TDMA_BUNDLE_0, "L1 arbitration for TDMA bundle 0")                               \
    X(L1, 6, 0, L1_ARB_UNPACKER, "L1 arbitration for the unpacker")                                     \
    X(L1, 7, 0, L1_NO_ARB_UNPACKER, "L1 no-arbitration unpacker path")                                  \
    X(L1, 0, 1, NOC_RING1_INCOMING_1, "NoC ring 1 incoming channel 1 read/write")                       \
    X(L1, 1, 1, NOC_RING1_INCOMING_0, "NoC ring 1 incoming channel 0 read/write")                       \
    X(L1, 2, 1, NOC_RING1_OUTGOING_1, "NoC ring 1 outgoing channel 1 read/write")                       \
    X(L1, 3, 1, NOC_RING1_OUTGOING_0, "NoC ring 1 outgoing channel 0 read/write")                       \
    X(L1, 4, 1, TDMA_BUNDLE_1_ARB, "TDMA bundle 1 arbitration")                                         \
    X(L1, 5, 1, TDMA_BUNDLE_0_ARB, "TDMA bundle 0 arbitration")                                         \
    X(L1, 6, 1, TDMA_EXT_UNPACK_9_10, "TDMA extended unpacker interface")                               \
    X(L1, 7, 1, TDMA_PACKER_2_WR, "TDMA packer 2 write interface to L1")

typedef struct tensix_event_fact {
    uint8_t bank, l1_mux;
    uint16_t counter_id;
    const char *name;
} tensix_event_fact;

#define TENSIX_EVENT_FACT(bank, id, mux, name, desc) {TENSIX_BANK_##bank, mux, id, #name},
static const tensix_event_fact TENSIX_EVENT_TABLE[] SM_UNUSED = {TENSIX_EVENTS(TENSIX_EVENT_FACT)};
#define TENSIX_NEVENTS (sizeof TENSIX_EVENT_TABLE / sizeof TENSIX_EVENT_TABLE[0])

/* Index in TENSIX_EVENTS of a documented counter of bank (and mux, which only
 * L1 has), or -1. */
static inline int tensix_event_index(unsigned bank, unsigned counter_id, unsigned l1_mux)
{
    if (bank != TENSIX_BANK_L1)
        l1_mux = 0;
    for (size_t i = 0; i < TENSIX_NEVENTS; i++)
        if (TENSIX_EVENT_TABLE[i].bank == bank && TENSIX_EVENT_TABLE[i].counter_id == counter_id &&
            TENSIX_EVENT_TABLE[i].l1_mux == l1_mux)
            return (int)i;
    return -1;
}

/* Index of the counter named name (case-insensitive), or -1. */
static inline int tensix_event_index_by_name(const char *name)
{
    for (size_t i = 0; name && i < TENSIX_NEVENTS; i++)
        if (strcasecmp(TENSIX_EVENT_TABLE[i].name, name) == 0)
            return (int)i;
    return -1;
}

#endif
