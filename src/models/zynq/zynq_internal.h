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
    uint32_t id;         /* AXI ID (AWID/ARID; the ID filter's input) */
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
    uint32_t id_base, id_count;   /* transaction k carries ID id_base + k mod id_count */
} zapm_chan;

typedef struct zapm_slot {
    uint32_t mc[SOCMON_ZAPM_PER_SLOT], smc[SOCMON_ZAPM_PER_SLOT];
    uint32_t wr_minmax, rd_minmax, s_wr_minmax, s_rd_minmax;  /* {max[15:0], min[15:0]} */
    zapm_chan wr, rd;
    uint32_t wr_min, wr_max, rd_min, rd_max;   /* Advanced metrics 12-15 (32-bit) */
} zapm_slot;

/* One Advanced-mode metric counter (HDL acc_n_incr.v): a 36-bit accumulator
 * whose register view is acc >> log2(scale), its incrementer, and the
 * sampled copies of both as registers show them. */
typedef struct zapm_adv_ctr {
    uint64_t acc;
    uint32_t inc, smc, sinc;
} zapm_adv_ctr;

/* The configuration an Advanced-mode APM is built with (IP parameters). */
typedef struct zapm_cfg {
    int advanced;           /* 0: Profile mode */
    unsigned ncounters;     /* Advanced: 1..10 */
    int event_count;        /* incrementers and ranges present */
    int sampled;            /* sampled counters present */
    unsigned scale_log2;    /* metric count scale 1, 2, 4, 8 as 0..3 */
    int id32;               /* 32-bit ID filter (RID/RIDMASK at 0x30C/0x310) */
    int gcc_width;          /* 0, 32, 64 */
} zapm_cfg;

typedef struct zapm_model {
    unsigned nslots, bus_width;
    int advanced;                   /* 0: Profile mode (no global clock counter) */
    int gcc_width;                  /* Advanced mode only */
    zapm_cfg cfg;
    const smn_reginfo *ri;       /* ZAPM_REGINFO or ZAPM_REGINFO_ADV */
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
    /* Advanced mode */
    uint32_t xreg[ZAPM_NXREGS];     /* ZAPM_XREGINFO's registers */
    uint32_t range[SOCMON_ZAPM_ADV_COUNTERS], logen[SOCMON_ZAPM_ADV_COUNTERS];
    zapm_adv_ctr ctr[SOCMON_ZAPM_ADV_COUNTERS];
} zapm_model;

/* Metric counters count: CR enable set and the (level) reset clear. */
static inline int zapm_counting(const zapm_model *m)
{
    uint32_t cr = m->reg[ZAPM_REG_CTL];
    return (cr & R_ZAPM_CTL_MCNTR_EN_MASK) && !(cr & R_ZAPM_CTL_MCNTR_RESET_MASK);
}
/* Plays every slot's traffic up to and including cycle T (apm_traffic.c). */
void smn_zapm_run_all(zapm_model *m, uint64_t T);

void smn_zapm_init(zapm_model *m, unsigned nslots, unsigned bus_width, const zapm_cfg *cfg,
               uint64_t seed);
/* AXI IDs of a channel's transactions from its next one on (count >= 1). */
void smn_zapm_set_ids(zapm_model *m, unsigned slot, int is_read, uint32_t base, uint32_t count);

/* Advanced mode (apm_advanced.c). One event of a slot: n events each adding
 * add to the metric, with incrementer value incval each (HDL
 * metric_sel_n_cnt.v); id is the transaction's AXI ID for the filter. */
void smn_zadv_event(zapm_model *m, unsigned slot, int is_read, unsigned metric, uint32_t id,
                uint64_t n, uint64_t add, uint64_t incval);
/* Live metrics 12-15 and their incrementers over `cycles` cycles of counting. */
void smn_zadv_tick(zapm_model *m, uint64_t cycles);
int smn_zadv_id_match(const zapm_model *m, int is_read, uint32_t id);
void smn_zadv_reset(zapm_model *m, int sampled_too);
void smn_zadv_latch(zapm_model *m);
/* Registers only Advanced mode has, and its counters: 1 if off is one. */
int smn_zadv_read(zapm_model *m, uint64_t off, uint32_t *val);
int smn_zadv_write(zapm_model *m, uint64_t off, uint32_t v);
/* lat/jit in cycles; period in cycles (0: idle); restarts the schedule at now. */
void smn_zapm_set_chan(zapm_model *m, unsigned slot, int is_read, double period, uint32_t bytes,
                   double lat, double jit);
void smn_zapm_advance_to(zapm_model *m, uint64_t cycle);
int smn_zapm_irq(const zapm_model *m);
extern const socmon_regmodel_ops smn_zapm_regops;

typedef struct za9_model {
    uint32_t reg[ZA9_NREGS];        /* ZA9_REGINFO's registers: counters, types, PMOVSR, PMCR... */
    uint32_t cnten, inten;          /* behind the SET/CLR pairs */
    int locked;
    uint32_t selr;                  /* PMSELR.SEL (CP15 only) */
    socmon_zynq_cpu_profile prof;
    double active_frac;             /* fractional non-idle cycles carried over */
    uint64_t div_left;              /* non-idle cycles not yet counted by CCNT under /64 */
    double acc[256];                /* fractional events carried over, per event number */
} za9_model;

void smn_za9_init(za9_model *p);
/* Runs the core for `cycles` cycles of its clock with its current profile. */
void smn_za9_advance(za9_model *p, uint64_t cycles);
int smn_za9_irq(const za9_model *p);
/* Events per non-idle cycle of event `code` under profile p (0 if unimplemented). */
double smn_za9_event_rate(const socmon_zynq_cpu_profile *p, unsigned code);
extern const socmon_regmodel_ops smn_za9_regops;
/* A register of the window by offset, as the memory-mapped interface sees it
 * but without the CoreSight lock (CP15 accesses come this way too). */
uint32_t smn_za9_read(za9_model *p, uint64_t off);
void smn_za9_write(za9_model *p, uint64_t off, uint32_t v);
/* Core `core`'s PMU state, or NULL if core is out of range (zynq_soc.c). */
za9_model *smn_zynq_soc_pmu(socmon_zynq_soc *soc, unsigned core);

#endif
