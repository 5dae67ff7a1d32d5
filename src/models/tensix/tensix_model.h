/* A Tensix core model: the five counter banks at register level, the L1
 * counter buffers, and a kernel model (unpack -> math -> pack over N tiles)
 * that makes every counter of the guide count self-consistent events.
 *
 * Contract between the model (src/models/tensix/) and its users (the Tensix
 * driver's tests, the vendor APIs' simulator, the "tensix" target). The model
 * appears on a model bus as two regions: the debug registers and L1. Register
 * behaviour (edges, modes, mux latch) is described in docs/tensix.md. */
#ifndef SOCMON_MODELS_TENSIX_MODEL_H
#define SOCMON_MODELS_TENSIX_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/status.h"

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
socmon_status socmon_tensix_format_parse(const char *s, socmon_tensix_format *out);
socmon_status socmon_tensix_fidelity_parse(const char *s, socmon_tensix_fidelity *out);
socmon_status socmon_tensix_bound_parse(const char *s, socmon_tensix_bound *out);
const char *socmon_tensix_kernel_name(socmon_tensix_kernel k);
socmon_status socmon_tensix_kernel_parse(const char *s, socmon_tensix_kernel *out);

typedef struct socmon_tensix_kernel_params {
    uint64_t tiles;                   /* 1..2^24 */
    socmon_tensix_format format;      /* input and output format */
    socmon_tensix_fidelity fidelity;
    socmon_tensix_bound bound;
    const socmon_tensix_platform *platform;  /* NULL: Wormhole B0 */
    socmon_tensix_kernel kernel;      /* default matmul */
} socmon_tensix_kernel_params;

void socmon_tensix_kernel_params_default(socmon_tensix_kernel_params *p);
/* Sets one option: tiles=N, format=, fidelity=, bound=, platform=, kernel=. Unknown
 * keys and bad values are errors naming them and the valid set. */
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

socmon_status socmon_tensix_kernel_costs(const socmon_tensix_kernel_params *p,
                                         socmon_tensix_stage_costs *out);

typedef struct socmon_tensix_core socmon_tensix_core;

socmon_status socmon_tensix_core_new(const socmon_tensix_kernel_params *p, socmon_tensix_core **out);
void socmon_tensix_core_free(socmon_tensix_core *c);
/* Maps the debug registers at regs_base and L1 at l1_base on a model bus. */
socmon_status socmon_tensix_core_map(socmon_tensix_core *c, socmon_bus *model_bus,
                                     uint64_t regs_base, uint64_t l1_base);

/* Begins the kernel at the current cycle (again from tile 0 if it ran before). */
socmon_status socmon_tensix_core_kernel_start(socmon_tensix_core *c);
/* Selects the kernel the next kernel_start runs; a kernel still running is
 * cut short where it is (its counts so far are kept, no counter goes back). */
socmon_status socmon_tensix_core_set_kernel(socmon_tensix_core *c, socmon_tensix_kernel k);
/* Runs `cycles` clock cycles; *done (may be NULL) = 1 once the kernel has ended. */
socmon_status socmon_tensix_core_advance(socmon_tensix_core *c, uint64_t cycles, int *done);
uint64_t socmon_tensix_core_now(const socmon_tensix_core *c);
const socmon_tensix_kernel_params *socmon_tensix_core_params(const socmon_tensix_core *c);

/* Test back door: a signal's count since the model was created (all 94 are
 * driven, both L1 mux sets included); UINT64_MAX for an unknown counter. */
uint64_t socmon_tensix_core_signal(const socmon_tensix_core *c, unsigned bank, unsigned counter_id,
                                   unsigned l1_mux);
/* 1 if PERF_CNT_MUX_CTRL changed while the L1 bank was running. */
int socmon_tensix_core_l1_undefined(const socmon_tensix_core *c);

/* Region callbacks, exposed so tests can drive a model without a bus. */
extern const socmon_regmodel_ops socmon_tensix_regs_ops;
extern const socmon_regmodel_ops socmon_tensix_l1_ops;

#endif
