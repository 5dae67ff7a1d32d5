/* Internal to src/models/zynq: the pieces zynq_soc.c assembles. */
#ifndef SOCMON_MODELS_ZYNQ_INTERNAL_H
#define SOCMON_MODELS_ZYNQ_INTERNAL_H

#include <stdint.h>
#include "models/zynq/zynq_model.h"

#define ZAPM_DEPTH 32u   /* the APM pairs latency timestamps through 32-deep FIFOs */

typedef struct zapm_txn {
    uint64_t issue;      /* address valid (cycle) */
    uint64_t accept;     /* address handshake */
    uint64_t end;        /* last data beat */
    uint32_t beats;      /* as issued: a reconfigured channel keeps its old bursts */
    uint32_t bytes;
    uint32_t beats_seen; /* read beats already counted */
} zapm_txn;

/* One direction of one slot: a rate-driven master with in-order,
 * non-interleaved completion and at most ZAPM_DEPTH outstanding. */
typedef struct zapm_chan {
    int is_read;
    double period;        /* cycles between issues; 0: idle */
    uint32_t beats, bytes;
    double lat, jit;      /* cycles */
    uint64_t base;        /* schedule origin: issue k is due at base + k*period */
    uint64_t k;
    uint64_t last_accept, last_end;
    zapm_txn q[ZAPM_DEPTH];
    unsigned head, n;
    uint64_t stalls;
    uint64_t rng;
} zapm_chan;

typedef struct zapm_slot {
    uint32_t mc[SOCMON_ZAPM_PER_SLOT], smc[SOCMON_ZAPM_PER_SLOT];
    uint32_t wr_minmax, rd_minmax, s_wr_minmax, s_rd_minmax;  /* {max[15:0], min[15:0]} */
    zapm_chan wr, rd;
} zapm_slot;

typedef struct zapm_model {
    unsigned nslots, bus_width;
    int advanced;                   /* 0: Profile mode (no global clock counter) */
    int gcc_width;                  /* Advanced mode only */
    uint64_t now;                   /* core clock cycles */
    uint32_t reg[ZAPM_NREGS];       /* ZAPM_REGINFO's registers (GCC and SR computed) */
    /* sample interval counter */
    int sic_running;
    uint64_t sic_next, sic_left;
    /* global clock counter */
    int gcc_running;
    uint64_t gcc_acc, gcc_start;
    /* sample register */
    int sr_started;
    uint64_t sr_base;
    zapm_slot slot[SOCMON_ZAPM_MAX_SLOTS];
} zapm_model;

void zapm_init(zapm_model *m, unsigned nslots, unsigned bus_width, int gcc_width, uint64_t seed);
/* lat/jit in cycles; period in cycles (0: idle); restarts the schedule at now. */
void zapm_set_chan(zapm_model *m, unsigned slot, int is_read, double period, uint32_t bytes,
                   double lat, double jit);
void zapm_advance_to(zapm_model *m, uint64_t cycle);
int zapm_irq(const zapm_model *m);
extern const socmon_regmodel_ops zapm_regops;

typedef struct za9_model {
    uint32_t reg[ZA9_NREGS];        /* ZA9_REGINFO's registers: counters, types, PMOVSR, PMCR... */
    uint32_t cnten, inten;          /* behind the SET/CLR pairs */
    int locked;
    socmon_zynq_cpu_profile prof;
    double active_frac;             /* fractional non-idle cycles carried over */
    uint64_t div_left;              /* non-idle cycles not yet counted by CCNT under /64 */
    double acc[256];                /* fractional events carried over, per event number */
} za9_model;

void za9_init(za9_model *p);
/* Runs the core for `cycles` cycles of its clock with its current profile. */
void za9_advance(za9_model *p, uint64_t cycles);
int za9_irq(const za9_model *p);
/* Events per non-idle cycle of event `code` under profile p (0 if unimplemented). */
double za9_event_rate(const socmon_zynq_cpu_profile *p, unsigned code);
extern const socmon_regmodel_ops za9_regops;

#endif
