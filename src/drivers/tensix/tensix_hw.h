/* Tensix performance counters: hardware facts shared by the driver, the
 * register model and the vendor APIs.
 *
 * Register offsets, bank ids, counter ids, the config-word (slot) encoding
 * and the per-thread L1 layout come from the Tensix Performance Counters
 * Guide (tt-llk V1, 2026-02); docs/tensix.md names the sources of each fact
 * and where the guide and later code disagree. */
#ifndef SOCMON_DRIVERS_TENSIX_HW_H
#define SOCMON_DRIVERS_TENSIX_HW_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

/* RISCV_DEBUG_REGS_START_ADDR on Wormhole B0 and Blackhole. */
#define SOCMON_TENSIX_REGS_BASE 0xFFB12000ull
#define SOCMON_TENSIX_REGS_SIZE 0x1000u
/* Wormhole B0 L1 is 1464 KiB; the counter buffers sit at 0x16A000. */
#define SOCMON_TENSIX_L1_SIZE 0x16E000u

enum {
    SOCMON_TENSIX_BANK_INSTRN_THREAD = 0,
    SOCMON_TENSIX_BANK_FPU = 1,
    SOCMON_TENSIX_BANK_TDMA_UNPACK = 2,
    SOCMON_TENSIX_BANK_L1 = 3,
    SOCMON_TENSIX_BANK_TDMA_PACK = 4,
    SOCMON_TENSIX_NBANKS = 5
};

/* Register offsets from the debug-register base. */
#define SOCMON_TENSIX_PERF_CNT_ALL 0x03Cu      /* bit0 start, bit1 stop: INSTRN_THREAD + FPU */
#define SOCMON_TENSIX_PERF_CNT_MUX_CTRL 0x218u /* bit 4: L1 signal set */
#define SOCMON_TENSIX_L1_MUX_BIT 4u
#define SOCMON_TENSIX_CTRL_START 0x1u
#define SOCMON_TENSIX_CTRL_STOP 0x2u

/* Mode register fields: [7:0] mode, [16:8] counter_sel, [31:17] reserved. */
#define SOCMON_TENSIX_MODE_CONTINUOUS 0u
#define SOCMON_TENSIX_MODE_REF_PERIOD 1u
#define SOCMON_TENSIX_MODE_NO_REF 2u
#define SOCMON_TENSIX_MODE_SEL_SHIFT 8u
#define SOCMON_TENSIX_MODE_SEL_MASK 0x1FFu

typedef struct socmon_tensix_bank_regs {
    const char *name;      /* "INSTRN_THREAD" */
    const char *lname;     /* "instrn_thread": the socmon counter instance */
    uint32_t ctrl_base;    /* *0 reference period, *1 mode (+4), *2 start/stop (+8) */
    uint32_t out_l;        /* elapsed cycles */
    uint32_t out_h;        /* the selected counter */
} socmon_tensix_bank_regs;

/* Indexed by bank id. */
const socmon_tensix_bank_regs *socmon_tensix_bank(unsigned bank);
/* Bank id by (case-insensitive) name; SOCMON_ENOENT naming the valid set. */
socmon_status socmon_tensix_bank_by_name(const char *name, unsigned *bank);

/* ---- counter slots: one 32-bit config word each ---- */

#define SOCMON_TENSIX_SLOT_VALID 0x80000000u
#define SOCMON_TENSIX_SLOT_MUX_SHIFT 17u
#define SOCMON_TENSIX_SLOT_ID_SHIFT 8u
#define SOCMON_TENSIX_SLOT_ID_MASK 0x1FFu
#define SOCMON_TENSIX_SLOT_BANK_MASK 0xFFu
/* Bits the guide leaves unused (30:18); a word with any of them set is malformed. */
#define SOCMON_TENSIX_SLOT_RESERVED 0x7FFC0000u

typedef struct socmon_tensix_slot {
    int valid;
    unsigned bank;        /* 0..4 */
    unsigned counter_id;  /* 0..511 */
    unsigned l1_mux;      /* 0..1 */
} socmon_tensix_slot;

uint32_t socmon_tensix_slot_encode(unsigned bank, unsigned counter_id, unsigned l1_mux);
/* Field extraction only; never fails. */
void socmon_tensix_slot_decode(uint32_t word, socmon_tensix_slot *s);
/* Decodes and validates a valid slot: bank <= 4, reserved bits clear,
 * counter id known for its bank (and mux). Invalid words (bit 31 clear) are
 * accepted with s->valid = 0. Errors name the slot index and the bad field. */
socmon_status socmon_tensix_slot_check(unsigned slot, uint32_t word, socmon_tensix_slot *s);

/* ---- per-thread L1 layout ---- */

enum { SOCMON_TENSIX_THREAD_UNPACK = 0, SOCMON_TENSIX_THREAD_MATH = 1,
       SOCMON_TENSIX_THREAD_PACK = 2, SOCMON_TENSIX_NTHREADS = 3 };

#define SOCMON_TENSIX_CONFIG_WORDS 86u
#define SOCMON_TENSIX_DATA_WORDS 172u
#define SOCMON_TENSIX_COUNTERS_BASE 0x16A000u
#define SOCMON_TENSIX_THREAD_SIZE 0x408u   /* 1032 bytes */

const char *socmon_tensix_thread_name(unsigned thread);  /* "UNPACK", "MATH", "PACK" */
uint32_t socmon_tensix_config_addr(unsigned thread);
uint32_t socmon_tensix_data_addr(unsigned thread);

/* ---- events: every counter the guide lists ---- */

typedef struct socmon_tensix_event {
    unsigned bank;
    unsigned counter_id;
    unsigned l1_mux;      /* L1 only; 0 elsewhere */
    const char *name;     /* guide name, e.g. "FPU_OR_SFPU_INSTRN" */
    const char *desc;
} socmon_tensix_event;

/* 94 entries, ordered as the guide's configure_counters builds them:
 * INSTRN_THREAD, FPU, TDMA_UNPACK, TDMA_PACK, L1 mux 0, L1 mux 1. */
size_t socmon_tensix_nevents(void);
const socmon_tensix_event *socmon_tensix_event_at(size_t i);
/* NULL if the id is not a documented counter of that bank (and mux). */
const socmon_tensix_event *socmon_tensix_event_find(unsigned bank, unsigned counter_id,
                                                    unsigned l1_mux);
const socmon_tensix_event *socmon_tensix_event_by_name(const char *name);

/* The default configuration: the 86 slots of the guide (all counters with
 * L1 on mux 0, since one measurement window latches one mux setting). */
size_t socmon_tensix_default_slots(uint32_t *words, size_t max);

#endif
