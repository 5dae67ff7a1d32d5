/* Internal state of the Tensix core model, shared by its source files.
 *
 * The model's public API is in include/socmon/tensix.h; the register facts
 * it implements are in src/hw/tensix_bank.h. */
#ifndef SOCMON_MODELS_TENSIX_INTERNAL_H
#define SOCMON_MODELS_TENSIX_INTERNAL_H

#include "hw/tensix_bank.h"
#include "models/tensix/tensix_model.h"

#define TX_NSIG TENSIX_NEVENTS   /* one signal per event of TENSIX_EVENTS, same index */
#define TX_RATIO_ONE (1u << 20)

enum { TX_PH_FILL, TX_PH_STEADY, TX_PH_DRAIN, TX_PH_IDLE, TX_NPHASES };

typedef struct tx_bank {
    int running;
    unsigned mode;                          /* latched at the start edge */
    uint32_t ref_period;                    /* latched at the start edge */
    unsigned mux;                           /* L1 only: MUX_CTRL bit 4 at the start edge */
    uint64_t start_cycle, stop_cycle;
    uint64_t start_cnt[TX_NSIG], stop_cnt[TX_NSIG];
} tx_bank;

struct socmon_tensix_core {
    socmon_tensix_kernel_params p;
    socmon_tensix_stage_costs costs;
    uint64_t now;                           /* cycles since creation */

    /* Kernel: each signal counts floor(ratio * parent's count) within a
     * phase, so a child never advances more than its parent in any window. */
    int phase;
    uint64_t phase_left;                    /* cycles left in phase (IDLE: unbounded) */
    uint64_t phase_root;                    /* cycles elapsed in the current phase */
    int parent[TX_NSIG];                    /* -1: the cycle count */
    unsigned order[TX_NSIG];                /* parents before children */
    uint32_t ratio[TX_NPHASES][TX_NSIG];    /* fixed point, TX_RATIO_ONE = 1.0 */
    uint64_t base[TX_NSIG];                 /* totals at the start of the phase */
    uint64_t inphase[TX_NSIG];

    tx_bank bank[TENSIX_NBANKS];
    uint32_t reg[TENSIX_NREGS];             /* storage of TENSIX_REGINFO's registers */
    int l1_undef;

    uint8_t *l1;
};

/* What the pipeline does in one phase, per "period" of P cycles. */
typedef struct tx_activity {
    double P;              /* cycles per period */
    double U0, U1, g;      /* unpacker write cycles, issue gap */
    double M, K;           /* math and pack cycles */
    double nin, nout;      /* NoC flits per input channel, output flits */
    double iu, im, ik;     /* instructions per period per thread */
    int tu, tm, tk;        /* thread active (may stall) */
} tx_activity;

/* tensix_kernel.c */
/* Sets a signal's ratio to its parent in phase ph, clamped to 0..1. */
void smn_tx_set_ratio(socmon_tensix_core *c, int ph, const char *name, double r);
socmon_status smn_tx_kernel_init(socmon_tensix_core *c);
void smn_tx_kernel_begin(socmon_tensix_core *c);
/* Runs n cycles of the kernel (crossing phases as needed). */
void smn_tx_kernel_step(socmon_tensix_core *c, uint64_t n);
uint64_t smn_tx_signal_total(const socmon_tensix_core *c, unsigned sig);
int smn_tx_signal_index(unsigned bank, unsigned counter_id, unsigned l1_mux);

/* tensix_shapes.c: the kernels as data */
typedef struct tx_shape tx_shape;
const tx_shape *smn_tx_shape_of(socmon_tensix_kernel k);   /* NULL if out of range */
/* Unscaled math-stage cycles per tile by kind. */
void smn_tx_shape_math(const tx_shape *s, unsigned fidelity_phases, int float32, double *fpu, double *sfpu,
                   double *move);
unsigned smn_tx_shape_operands(const tx_shape *s);
unsigned smn_tx_shape_out_tiles(const tx_shape *s);
/* The kernel's changes to the pipeline's rules in phase ph (none for matmul). */
void smn_tx_shape_rates(socmon_tensix_core *c, int ph, const tx_activity *a);

/* tensix_regs.c */
void smn_tx_regs_reset(socmon_tensix_core *c);
/* Cycles until the earliest mode-1 auto-stop; UINT64_MAX if none pending. */
uint64_t smn_tx_regs_next_deadline(const socmon_tensix_core *c);
void smn_tx_regs_expire(socmon_tensix_core *c);

/* The two regions the core maps on a model bus; tests drive them directly. */
extern const socmon_regmodel_ops smn_tensix_regs_ops;
extern const socmon_regmodel_ops smn_tensix_l1_ops;

#endif
