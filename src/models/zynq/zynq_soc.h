/* The Zynq model's state, internal to src/models/zynq: what zynq_soc.c
 * (clocks, workloads, knobs), zynq_time.c (time on register access),
 * zynq_irq.c (interrupt lines, handler, waiting) and zynq_uio.c (the UIO
 * device) share.
 *
 * The struct is in two parts. Everything before `irq` is the model: plain
 * values, no heap pointers, so the interrupt edge search can copy it away and
 * back (zynq_time.c) to find the exact nanosecond a line rises. `irq` holds
 * what is not model state: the access cost, the handler, the line levels last
 * seen, the scratch copy itself. Keep new model fields above `irq`. */
#ifndef SOCMON_MODELS_ZYNQ_SOC_H
#define SOCMON_MODELS_ZYNQ_SOC_H

#include <pthread.h>
#include <stddef.h>
#include <stdint.h>

#include "models/zynq/zynq_internal.h"

#define ZYNQ_NLINES 3u                  /* APM, PMU0, PMU1: socmon_zynq_irq */
#define ZYNQ_TIME_MAX 100000000000000000ull   /* 1e17 ns: every clock's cycle count fits 64 bits */

/* One mapped register window: the context the model bus hands back to the
 * access wrappers, so each access can charge time to its SoC. */
typedef struct zynq_window {
    socmon_zynq_soc *soc;
    const socmon_regmodel_ops *ops;   /* the block's own register model */
    void *model;
} zynq_window;

struct socmon_zynq_uio;

typedef struct zynq_irq_state {
    uint64_t access_ns;        /* simulated time one bus access takes */
    socmon_zynq_irq_fn fn;     /* the user's handler, or NULL */
    void *ctx;
    struct socmon_zynq_uio *uio;   /* the UIO device's "kernel" handler (APM line) */
    unsigned level;            /* line levels as last seen, bit = socmon_zynq_irq */
    unsigned pending;          /* rising edges not yet handed to the handlers */
    uint64_t edge_ns[ZYNQ_NLINES];
    uint64_t stop_ns;          /* when smn_zynq_time_to last stopped at an edge */
    int depth;                 /* register accesses in progress */
    int in_handler;            /* a handler is running: edges queue, never nest */
    void *snap;                /* scratch copy of the model part for the edge search */
    /* Held by every register access, CP15 call, advance and wait: code on two cores (two
     * threads, as on the board) shares the line levels, the queue and the other core's state.
     * Recursive: a handler runs inside an access and makes accesses of its own. */
    pthread_mutex_t lock;
    zynq_window win[1 + SOCMON_ZYNQ_NCORES];   /* APM, then each core's PMU */
    /* the contexts socmon_zynq_cp15_of hands out: a CP15 write must reach
     * the SoC to deliver the PMU interrupt it may raise */
    struct zynq_cp15_port {
        socmon_zynq_soc *soc;
        unsigned core;
    } cp15[SOCMON_ZYNQ_NCORES];
} zynq_irq_state;

struct socmon_zynq_soc {
    socmon_zynq_desc d;
    uint64_t apm_hz, cpu_hz;
    uint64_t now_ns, start_ns, duration_ns;
    int workload, phase, started;
    zapm_model apm;
    za9_model pmu[SOCMON_ZYNQ_NCORES];
    /* What the workload asks of each slot: the rate now (B/s, after the phase's and the slot's
     * scale) and the bytes asked since the model was made, so the findings weigh what a port
     * carried against what was asked of it over the same time, phase by phase. */
    double asked_bps[SOCMON_ZAPM_MAX_SLOTS][2];     /* [slot][0 write, 1 read] */
    double asked_bytes[SOCMON_ZAPM_MAX_SLOTS][2];
    /* not model state: never copied by the edge search (see above) */
    zynq_irq_state irq;
};

#define ZYNQ_MODEL_BYTES offsetof(struct socmon_zynq_soc, irq)

/* zynq_soc.c: plays the model (workload phases included) to time t, with no
 * regard for interrupts; the workload's end does not stop it. */
void smn_zynq_soc_run_plain(socmon_zynq_soc *soc, uint64_t t);

/* The model's lock (irq.lock), taken around each public entry that runs it. */
static inline void zynq_lock(socmon_zynq_soc *soc)
{
    pthread_mutex_lock(&soc->irq.lock);
}
static inline void zynq_unlock(socmon_zynq_soc *soc)
{
    pthread_mutex_unlock(&soc->irq.lock);
}

/* zynq_time.c */
socmon_status smn_zynq_time_init(socmon_zynq_soc *soc);
void smn_zynq_time_free(socmon_zynq_soc *soc);
/* The window contexts' ops: every access costs irq.access_ns, then acts. */
extern const socmon_regmodel_ops smn_zynq_window_ops;
/* Runs the model to time t, stopping at each rising edge someone listens to
 * (a handler, a waiter, the UIO device) so it is seen at its exact
 * nanosecond; outside a register access the handlers run there. Returns the
 * lines of `stop` that rose (then the clock is at that edge, or later if a
 * handler's own accesses took time; irq.stop_ns holds the edge), or 0 once
 * at t. */
unsigned smn_zynq_time_to(socmon_zynq_soc *soc, uint64_t t, unsigned stop);

/* zynq_irq.c */
/* Line levels now: bit SOCMON_ZYNQ_IRQ_APM = GIE & |(IS & IE), bit PMUn =
 * |(PMOVSR & PMINTEN) of core n. */
unsigned smn_zynq_irq_lines(const socmon_zynq_soc *soc);
/* Lines that are low but could rise by time alone (their enables are set). */
unsigned smn_zynq_irq_armed(const socmon_zynq_soc *soc);
/* Lines whose edges a handler (the user's, the UIO device's) needs at their
 * exact time. */
unsigned smn_zynq_irq_listened(const socmon_zynq_soc *soc);
/* Compares the lines with the levels last seen: a rising edge is queued for
 * the handlers at the current time; returns the lines that rose. */
unsigned smn_zynq_irq_note(socmon_zynq_soc *soc);
/* Runs the handlers for queued edges unless inside a register access or a
 * handler (then the outermost caller does). */
void smn_zynq_irq_deliver(socmon_zynq_soc *soc);
/* SOCMON_EAGAIN naming the line and the registers that gate it. */
socmon_status smn_zynq_irq_wait_failed(const socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t max_ns);
/* For register paths that do not go through the bus (the A9's CP15
 * accessor): note and deliver what the access changed. */
void smn_zynq_irq_sync(socmon_zynq_soc *soc);

/* zynq_uio.c: the UIO device's interrupt handler, run on an APM edge. */
void smn_zynq_uio_kernel_irq(struct socmon_zynq_uio *u);

#endif
