/* Internal to src/analysis: the state behind a pipeline and its consumers' mergers. */
#ifndef SOCMON_ANALYSIS_PIPELINE_INTERNAL_H
#define SOCMON_ANALYSIS_PIPELINE_INTERNAL_H

#include "analysis/spread.h"
#include "socmon/analysis.h"

#define PIPELINE_MAX_CONSUMERS 8

/* A consumer and the row it is merging. */
typedef struct pipeline_merger {
    socmon_consumer c;
    socmon_row_policy want;
    socmon_status st;          /* its first failure */
    char msg[256];             /* and its message (an optional consumer's outlives later errors) */
    int off;                   /* failed: not called again */
    size_t n;                  /* intervals in the pending row */
    uint64_t seen;             /* intervals seen this run (for `every`) */
    uint64_t seq, first_seq, t, dt;
    unsigned flags, missed;
    uint64_t lost;             /* samples lost in a gap before the pending row */
    uint64_t *raw, *scaled;    /* the pending row's deltas; its scaled ones */
    double *running, *tmp, *mv;
    uint64_t last_wall;
    int have_wall;
    unsigned char *bad;        /* per counter: SOCMON_VALUE_IMPLAUSIBLE/DEAD_BUS of its intervals */
    unsigned badflags;         /* those bits OR-ed over the pending row */
} pipeline_merger;

struct socmon_pipeline {
    socmon_pipeline_opts opts;
    const socmon_source_info *src_info;
    socmon_analysis_info ainfo;   /* what consumers were given at begin */
    size_t n, nm;
    socmon_metrics *m;
    socmon_scaling *sc;
    pipeline_merger c[PIPELINE_MAX_CONSUMERS];
    size_t nc;
    unsigned run;
    /* the run */
    uint64_t *prev, *d, *raw;
    uint64_t prev_t, first_t, last_seq;
    int have_prev, have_seq, have_first;
    uint64_t samples, missed, lost, elapsed, intervals, missed_so_far;
    /* plausibility (value_flags.c): the last interval's per-counter bits and their OR, the
     * run's, and the blocks (runs of counters of one instance) a dead bus is judged by */
    unsigned char *bad, *run_bad;
    unsigned badflags, run_badflags;
    uint64_t bad_intervals;
    size_t *group_end;        /* per counter: one past the last counter of its block */
    double *max_rate;         /* per counter: its max_rate_hz, and its all-ones value (its width's */
    uint64_t *ones;           /* mask), in arrays of their own: read at every sample */
    /* the totals */
    uint64_t *values;
    double *running, *x, *mv;
    socmon_totals t;
    smn_spread csp, msp;
    double el_mean;
};

socmon_status smn_pipeline_begin(socmon_pipeline *p, const socmon_source_info *info);
socmon_status smn_pipeline_call(pipeline_merger *m, socmon_status st);
void smn_pipeline_scale(const socmon_scaling *sc, size_t n, const uint64_t *d, uint64_t *out, double *running, double *tmp);
/* bad (or NULL): per counter, nonzero where its delta is implausible: metrics over it are NaN */
void smn_pipeline_eval(const socmon_pipeline *p, const uint64_t *d, const unsigned char *bad, uint64_t dt_ns, double *mv);
/* The blocks of info's counters for the dead-bus check (value_flags.c). */
void smn_pipeline_plausible_begin(socmon_pipeline *p, const socmon_source_info *info);
/* Judges the interval of dt_ns that ended with values v and deltas p->d: p->bad[i] gets
 * SOCMON_VALUE_IMPLAUSIBLE where counter i's delta exceeds its maximum rate over dt_ns (with
 * a margin), SOCMON_VALUE_DEAD_BUS where its whole block reads all-ones; returns their OR. */
unsigned smn_pipeline_plausible(socmon_pipeline *p, const uint64_t *v, uint64_t dt_ns);
/* SOCMON_VALUE_* of values with these running shares (p->n of them), metric results mv (or
 * NULL), SOCMON_SAMPLE_* flags and samples lost before them; *min_running: the smallest share
 * of a perf counter (NaN: none). value_flags.c */
unsigned smn_pipeline_value_flags(const socmon_pipeline *p, const double *running, const double *mv, unsigned sflags,
                              uint64_t lost, double *min_running);

/* rows.c: a consumer's rows */
int smn_pipeline_merger_init(pipeline_merger *m, size_t n, size_t nm);
void smn_pipeline_merger_free(pipeline_merger *m);
void smn_pipeline_merger_reset(pipeline_merger *m);
socmon_status smn_pipeline_merger_add(socmon_pipeline *p, pipeline_merger *m, uint64_t seq, const socmon_sample *s,
                                  uint64_t dt, unsigned flags);
socmon_status smn_pipeline_merger_flush(socmon_pipeline *p, pipeline_merger *m);

/* source.c */
socmon_status smn_source_run(socmon_source *s, socmon_pipeline *p);
const char *smn_source_end_reason(const socmon_source *s);

#endif
