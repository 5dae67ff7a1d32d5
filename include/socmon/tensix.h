/* Tenstorrent Tensix performance counters: the public API.
 *
 * Three parts, usable alone or together:
 *  - the counter facts of the Tensix Performance Counters Guide: banks,
 *    threads, the 94 documented counters, the slot (config word) encoding
 *    and the per-thread L1 buffer layout;
 *  - the driver's calls a kernel thread and the host make: store and load a
 *    thread's slots, start and stop its banks around a kernel, over any
 *    socmon_bus (silicon through an mmio bus, or the model below);
 *  - the model behind a "tensix" target: a Tensix core whose five counter
 *    banks and L1 answer on the target's bus at register level, with a kernel model (unpack -> math -> pack
 *    over N tiles) whose knobs (kernel, tiles, format, fidelity, bound,
 *    platform) make every counter count self-consistent events. A user's own
 *    driver can run against it in CI.
 *
 * docs/tensix.md describes the register behaviour and the protocol. Every
 * call that can fail returns a socmon_status and leaves a message naming the
 * bad value (socmon_errmsg()). */
#ifndef SOCMON_TENSIX_H
#define SOCMON_TENSIX_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* ==== facts ==== */

/* Where the counters live: the debug registers on Wormhole B0 and Blackhole,
 * the window they span, and the size of the L1 the model maps. */
#define SOCMON_TENSIX_REGS_BASE 0xFFB12000ull
#define SOCMON_TENSIX_REGS_SIZE 0x1000u
#define SOCMON_TENSIX_L1_SIZE 0x16E000u

/* Bank ids, as slot words number them. */
enum {
    SOCMON_TENSIX_BANK_INSTRN_THREAD = 0,
    SOCMON_TENSIX_BANK_FPU = 1,
    SOCMON_TENSIX_BANK_TDMA_UNPACK = 2,
    SOCMON_TENSIX_BANK_L1 = 3,
    SOCMON_TENSIX_BANK_TDMA_PACK = 4,
    SOCMON_TENSIX_NBANKS = 5
};

/* The kernel threads, each with its own L1 counter buffer. */
enum { SOCMON_TENSIX_THREAD_UNPACK = 0, SOCMON_TENSIX_THREAD_MATH = 1,
       SOCMON_TENSIX_THREAD_PACK = 2, SOCMON_TENSIX_NTHREADS = 3 };

/* Slots per thread (config words), and data words ((cycles, count) pairs). */
#define SOCMON_TENSIX_CONFIG_WORDS 86u
#define SOCMON_TENSIX_DATA_WORDS 172u
/* The data-area pair written for an undefined L1 result (socmon's choice:
 * the guide has no encoding for it). */
#define SOCMON_TENSIX_UNDEF_WORD 0xFFFFFFFFu

/* "INSTRN_THREAD", "FPU", ...; "?" past the end. */
const char *socmon_tensix_bank_name(unsigned bank);
/* "instrn_thread", "fpu", ...: the instance of the bank's socmon counters. */
const char *socmon_tensix_bank_instance(unsigned bank);
/* Bank id by (case-insensitive) name; SOCMON_ENOENT naming the valid set. */
socmon_status socmon_tensix_bank_by_name(const char *name, unsigned *bank);

/* "UNPACK", "MATH", "PACK"; "?" past the end. */
const char *socmon_tensix_thread_name(unsigned thread);
/* L1 addresses of a thread's config and data areas. */
uint32_t socmon_tensix_config_addr(unsigned thread);
uint32_t socmon_tensix_data_addr(unsigned thread);

/* One counter the guide documents. */
typedef struct socmon_tensix_event {
    unsigned bank;
    unsigned counter_id;
    unsigned l1_mux;      /* L1 only (the signal set); 0 elsewhere */
    const char *name;     /* the guide's name, e.g. "FPU_OR_SFPU_INSTRN" */
    const char *desc;
} socmon_tensix_event;

/* 94 counters, ordered as the guide's configure_counters builds them:
 * INSTRN_THREAD, FPU, TDMA_UNPACK, TDMA_PACK, L1 mux 0, L1 mux 1. */
size_t socmon_tensix_nevents(void);
const socmon_tensix_event *socmon_tensix_event_at(size_t i);   /* NULL past the end */
/* NULL if the id is not a documented counter of that bank (and mux). */
const socmon_tensix_event *socmon_tensix_event_find(unsigned bank, unsigned counter_id,
                                                    unsigned l1_mux);
const socmon_tensix_event *socmon_tensix_event_by_name(const char *name);
/* The name tt-llk's read_counters gives a counter (counters.py at 9fa02aa, lines 281-291):
 * the guide's name if documented, else "{BANK}_UNKNOWN_{id}", on L1
 * "L1_UNKNOWN_{id}_{mux}", and for a bank past 4 "UNKNOWN_{bank}_UNKNOWN_{id}". Ids
 * the guide does not list are legal 9-bit selects (0..511). snprintf-like: writes at
 * most cap bytes (NUL included) and returns the full length; buf must not be NULL when cap > 0. */
size_t socmon_tensix_counter_name(unsigned bank, unsigned counter_id, unsigned l1_mux, char *buf,
                                  size_t cap);
/* A bank's name as tt-llk gives it: socmon_tensix_bank_name(), or "UNKNOWN_{bank}" past 4.
 * snprintf-like as socmon_tensix_counter_name (buf must not be NULL when cap > 0). */
size_t socmon_tensix_bank_name_tt(unsigned bank, char *buf, size_t cap);

/* A counter slot: config word bit 31 valid, bit 17 l1_mux, bits 16:8 counter
 * id, bits 7:0 bank id; bits 30:18 must be 0. */
typedef struct socmon_tensix_slot {
    int valid;
    unsigned bank;        /* 0..4 */
    unsigned counter_id;  /* 0..511 */
    unsigned l1_mux;      /* 0..1 */
} socmon_tensix_slot;

uint32_t socmon_tensix_slot_encode(unsigned bank, unsigned counter_id, unsigned l1_mux);
/* Field extraction only; never fails (s must not be NULL). */
void socmon_tensix_slot_decode(uint32_t word, socmon_tensix_slot *s);
/* Decodes and validates one word: bank <= 4 (SOCMON_ERANGE: tt-llk would
 * touch address 0), reserved bits clear and l1_mux only on L1 (SOCMON_EINVAL).
 * Any 9-bit counter id is accepted, documented or not (an undocumented one
 * reads what the hardware routes for that select; the model gives 0). Words
 * with bit 31 clear are accepted with s->valid = 0. Errors name the slot
 * index, the word and the field. s may be NULL. */
socmon_status socmon_tensix_slot_check(unsigned slot, uint32_t word, socmon_tensix_slot *s);
/* Checks n <= 86 words as above, and that all L1 slots agree on the mux (one
 * window latches one mux). out (may be NULL) gets the n decoded slots,
 * *nvalid (may be NULL) the count of valid ones. */
socmon_status socmon_tensix_slots_check(const uint32_t *words, size_t n, socmon_tensix_slot *out,
                                        size_t *nvalid);
/* The guide's default configuration: all counters with L1 on mux 0 (86 words), at most max of
 * them written to words (which must not be NULL when max > 0); returns how many. */
size_t socmon_tensix_default_slots(uint32_t *words, size_t max);

/* ==== driver ====
 * The banks' protocol over a bus of the caller's (silicon, or the bus of an open "tensix"
 * target): what a kernel thread and the host do with the counters. The rest of the driver (the
 * raw start/stop/read, the sampling device) is internal (src/drivers/tensix/tensix_drv.h); the
 * "tensix" target samples through it. */

typedef struct socmon_tensix_drv socmon_tensix_drv;

/* One slot's reading. */
typedef struct socmon_tensix_result {
    uint32_t cycles;      /* OUT_L: the bank's elapsed cycles */
    uint32_t count;       /* OUT_H: the selected counter */
    unsigned bank, counter_id, l1_mux;
    unsigned slot;        /* the config slot it came from */
    int undefined;        /* 1: L1 mux changed while running; cycles/count are 0 */
} socmon_tensix_result;

/* A driver for one core. bus is not owned; regs_base: the debug registers
 * (SOCMON_TENSIX_REGS_BASE on silicon); l1_base: the bus address of L1 byte 0. */
socmon_status socmon_tensix_drv_new(socmon_bus *bus, uint64_t regs_base, uint64_t l1_base,
                                    socmon_tensix_drv **out);
void socmon_tensix_drv_free(socmon_tensix_drv *d);

/* Reads a thread's 86 config words from L1; writes n <= 86 of them (the rest
 * of the config area and the whole data area are zeroed). SOCMON_ERANGE for a
 * thread > 2 or too many words; bus errors pass through. */
socmon_status socmon_tensix_drv_load_config(socmon_tensix_drv *d, unsigned thread, uint32_t *words);
socmon_status socmon_tensix_drv_store_config(socmon_tensix_drv *d, unsigned thread,
                                             const uint32_t *words, size_t n);

/* What a kernel thread does around its kernel (tt-llk's PerfCounters, device side; the llk_perf
 * API of compat/llk_perf_counters.h is these two calls). thread_start reads the thread's 86 slots
 * from L1 into words[86] and starts every bank a valid slot names (L1: after setting the mux the
 * slots ask for), in the order of their first slot; bad slots are errors naming the slot.
 * thread_stop stops those banks, reads each valid slot into res[0..*nres) and writes the
 * (cycles, count) pairs, in slot order, to the thread's L1 data area. SOCMON_ERANGE if cap is
 * smaller than the valid slots; SOCMON_EUNDEF (after everything else is read and written) if L1
 * results are undefined: those entries have undefined = 1 and their L1 pair is
 * SOCMON_TENSIX_UNDEF_WORD twice. */
socmon_status socmon_tensix_drv_thread_start(socmon_tensix_drv *d, unsigned thread, uint32_t *words);
socmon_status socmon_tensix_drv_thread_stop(socmon_tensix_drv *d, unsigned thread, const uint32_t *words,
                                            socmon_tensix_result *res, size_t cap, size_t *nres);



/* ==== model ==== */

typedef enum socmon_tensix_format {
    SOCMON_TENSIX_FMT_FLOAT32 = 0,
    SOCMON_TENSIX_FMT_FLOAT16,
    SOCMON_TENSIX_FMT_FLOAT16_B,
    SOCMON_TENSIX_FMT_BFP8_B,
    SOCMON_TENSIX_FMT_BFP4_B,
    SOCMON_TENSIX_NFORMATS
} socmon_tensix_format;

typedef enum socmon_tensix_fidelity {
    SOCMON_TENSIX_LOFI = 0, SOCMON_TENSIX_HIFI2, SOCMON_TENSIX_HIFI3, SOCMON_TENSIX_HIFI4,
    SOCMON_TENSIX_NFIDELITIES
} socmon_tensix_fidelity;

typedef enum socmon_tensix_bound {
    SOCMON_TENSIX_BOUND_NATURAL = 0, /* stage costs follow format and fidelity */
    SOCMON_TENSIX_BOUND_MATH,        /* math made 3x the slowest other stage */
    SOCMON_TENSIX_BOUND_UNPACK,
    SOCMON_TENSIX_BOUND_PACK,
    SOCMON_TENSIX_BOUND_BALANCED,    /* unpack, math and pack cost the same */
    SOCMON_TENSIX_NBOUNDS
} socmon_tensix_bound;

/* Which kernel runs (docs/tensix.md, "Kernels"). Every counter of the guide
 * is driven by at least one of them. */
typedef enum socmon_tensix_kernel {
    SOCMON_TENSIX_KERNEL_MATMUL = 0, /* unpack A and B -> FPU matmul -> pack */
    SOCMON_TENSIX_KERNEL_SFPU,       /* eltwise unary: unpack A -> datacopy + SFPU op -> pack */
    SOCMON_TENSIX_KERNEL_REDUCE,     /* reduce with transpose: MOVE + FPU pool, THCON reconfiguration */
    SOCMON_TENSIX_KERNEL_TOPK,       /* search: XSEARCH on every thread, SFPU compare/swap */
    SOCMON_TENSIX_KERNEL_SYNC,       /* synthetic: every thread issues every type, waits on every condition */
    SOCMON_TENSIX_NKERNELS
} socmon_tensix_kernel;
#define SOCMON_TENSIX_KERNEL_NAMES "matmul, sfpu, reduce, topk, sync"

/* The guide's platform bandwidth table, plus a clock for cycles <-> ns. */
typedef struct socmon_tensix_platform {
    const char *name;           /* "wormhole_b0", "blackhole", "quasar" */
    double noc_word_bytes;
    double unpack_peak_bpc;
    double pack_peak_bpc;
    double clock_hz;
} socmon_tensix_platform;

const socmon_tensix_platform *socmon_tensix_platform_at(size_t i);   /* NULL past the end */
/* Case-insensitive; SOCMON_ENOENT naming the valid set. */
socmon_status socmon_tensix_platform_find(const char *name, const socmon_tensix_platform **out);
const char *socmon_tensix_format_name(socmon_tensix_format f);
const char *socmon_tensix_fidelity_name(socmon_tensix_fidelity f);
const char *socmon_tensix_bound_name(socmon_tensix_bound b);
const char *socmon_tensix_kernel_name(socmon_tensix_kernel k);
/* Case-insensitive names; SOCMON_ENOENT naming the valid set. */
socmon_status socmon_tensix_format_parse(const char *s, socmon_tensix_format *out);
socmon_status socmon_tensix_fidelity_parse(const char *s, socmon_tensix_fidelity *out);
socmon_status socmon_tensix_bound_parse(const char *s, socmon_tensix_bound *out);
socmon_status socmon_tensix_kernel_parse(const char *s, socmon_tensix_kernel *out);

/* The model's knobs. */
typedef struct socmon_tensix_kernel_params {
    uint64_t tiles;                   /* 1..2^24 */
    socmon_tensix_format format;      /* input and output format */
    socmon_tensix_fidelity fidelity;
    socmon_tensix_bound bound;
    const socmon_tensix_platform *platform;  /* NULL: Wormhole B0 */
    socmon_tensix_kernel kernel;      /* default matmul */
} socmon_tensix_kernel_params;

/* The defaults above; p must not be NULL. */
void socmon_tensix_kernel_params_default(socmon_tensix_kernel_params *p);
/* Sets one knob from text: tiles=N, format=, fidelity=, bound=, platform=,
 * kernel=. Unknown keys and bad values are errors naming them and the valid set. */
socmon_status socmon_tensix_kernel_params_set(socmon_tensix_kernel_params *p, const char *key,
                                              const char *value);
#define SOCMON_TENSIX_OPTION_KEYS "tiles, format, fidelity, bound, platform, kernel"

/* Per-tile stage costs in cycles, as the kernel model derives them. */
typedef struct socmon_tensix_stage_costs {
    uint64_t unpack;     /* per unpacker (srcA and srcB move one operand each) */
    uint64_t math;
    uint64_t pack;
    uint64_t noc;        /* flits per input channel */
    uint64_t overhead;   /* unpack-thread issue gap per tile */
    uint64_t period;     /* steady-state cycles per tile */
    uint64_t total;      /* whole kernel: fill + tiles * period + drain */
} socmon_tensix_stage_costs;

/* SOCMON_EINVAL/ERANGE naming a knob out of range. */
socmon_status socmon_tensix_kernel_costs(const socmon_tensix_kernel_params *p,
                                         socmon_tensix_stage_costs *out);

/* The core model behind a "tensix" target: open the target (socmon_target_open("tensix:..."),
 * socmon/target.h), take its bus (socmon_target_bus: the debug registers at
 * SOCMON_TENSIX_REGS_BASE, L1 at 0) and its model (socmon_tensix_core_of_target, below). */
typedef struct socmon_tensix_core socmon_tensix_core;


/* Begins the kernel at the current cycle (again from tile 0 if it ran before). */
socmon_status socmon_tensix_core_kernel_start(socmon_tensix_core *c);
/* Selects the kernel the next kernel_start runs; a kernel still running is
 * cut short where it is (its counts so far are kept, no counter goes back). */
socmon_status socmon_tensix_core_set_kernel(socmon_tensix_core *c, socmon_tensix_kernel k);
/* Runs `cycles` clock cycles; *done (may be NULL) = 1 once the kernel has ended. */
socmon_status socmon_tensix_core_advance(socmon_tensix_core *c, uint64_t cycles, int *done);
/* The core's clock, in cycles; c must not be NULL. */
uint64_t socmon_tensix_core_now(const socmon_tensix_core *c);
const socmon_tensix_kernel_params *socmon_tensix_core_params(const socmon_tensix_core *c);

/* Ground truth, for checking a driver: a counter's events since the core was
 * created, whether or not a bank counts it (all 94 are driven, both L1 mux
 * sets included); UINT64_MAX for an undocumented counter. c must not be NULL, here and below. */
uint64_t socmon_tensix_core_signal(const socmon_tensix_core *c, unsigned bank, unsigned counter_id,
                                   unsigned l1_mux);
/* 1 if PERF_CNT_MUX_CTRL changed while the L1 bank was running (until L1's next start); c must
 * not be NULL. */
int socmon_tensix_core_l1_undefined(const socmon_tensix_core *c);

/* The core model behind an open "tensix" target (socmon/target.h); NULL if t
 * is another target. The target owns it. */
struct socmon_target;
socmon_tensix_core *socmon_tensix_core_of_target(const struct socmon_target *t);

SOCMON_END_DECLS
#endif
