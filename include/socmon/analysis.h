/* The analysis layer: sources -> one pipeline -> consumers.
 *
 * Every command that turns samples into numbers (stat, record, report, serve, the agent's live
 * page) does it through this one path:
 *
 *   source      a stream of samples of one schema, with their sequence numbers, gaps and an end:
 *               a target sampled here (socmon_source_target), a recording (socmon_source_recording),
 *               an agent's stream (the collector's source, agent/collector.h), the totals of a
 *               regions handle (socmon_source_regions)
 *   pipeline    wrap-safe deltas between consecutive samples (socmon_delta), perf multiplex
 *               scaling (socmon/scaling.h), metric evaluation, rows per interval (merged as each
 *               consumer asks), totals over the run, and the mean and spread over repeated runs
 *   consumer    whatever uses the numbers: an output format (table, CSV, JSON, live lines,
 *               Prometheus, HTML), the recording writer, the live store behind the HTTP page
 *
 * Metrics are evaluated here and nowhere else: consumers receive values, never an evaluator.
 *
 * A pipeline is fed either by running a source (socmon_pipeline_run) or by pushing samples itself
 * (socmon_pipeline_sample and friends: a source's run does). Single-threaded: one
 * producer per pipeline. */
#ifndef SOCMON_ANALYSIS_H
#define SOCMON_ANALYSIS_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/device.h"
#include "socmon/metrics.h"
#include "socmon/recording.h"
#include "socmon/region.h"
#include "socmon/sample.h"
#include "socmon/sampler.h"
#include "socmon/scaling.h"
#include "socmon/status.h"
#include "socmon/target.h"

SOCMON_BEGIN_DECLS

/* ---- what a source describes ---- */

/* The schema and the facts of a run. Strings and arrays belong to the source (valid until it is
 * closed). */
typedef struct socmon_source_info {
    const char *kind;                 /* "target", "recording", "remote", "regions" */
    const char *target;               /* the target spec ("esp:rows=4,cols=4", "host;esp") */
    const char *device;               /* the device's name, or NULL */
    const char *workload;             /* or NULL when not known */
    uint64_t interval_ns;             /* the sampling interval (0: not known) */
    int simulated;                    /* time is a model's simulated time */
    int hardware;                     /* sampled on silicon: runs are paced, a duration is needed */
    int recording;                    /* read back from a file: samples and missed are known */
    size_t samples;                   /* with recording: how many samples it holds */
    size_t ncounters;
    const socmon_counter *counters;   /* in sample order */
    const char *const *names;         /* their full names ("tile0.l2_hits") */
    size_t nparams;                   /* the device's parameters (clock_hz, rows, ...) */
    const char *const *param_names;
    const double *param_values;
    const socmon_set *set;            /* the live set the samples are of, or NULL (a file) */
    const socmon_target_ops *ops;     /* the target's declaration when known (hot spots, grid), or NULL */
    size_t nunsupported;              /* events the machine could not count (perf: <not supported>) */
    const char *const *unsupported;
    const char *end_reason;           /* set by the source when its stream ends (an agent's END), or NULL */
    const char *lost;                 /* what of its run the source lost (a recording's gaps, damaged
                                         blocks, cut-short end), one sentence a line, each ending in
                                         '\n': a reader says where they come from (report: "socmon
                                         report: FILE: ..."). NULL or "": nothing was lost. */
} socmon_source_info;

typedef struct socmon_source socmon_source;
typedef struct socmon_pipeline socmon_pipeline;

/* A source's implementation. run() pushes its samples into the pipeline (socmon_pipeline_sample,
 * _gap) until its stream ends, a push fails or socmon_pipeline_should_stop says so, and returns
 * SOCMON_OK at the natural end; it calls socmon_pipeline_tick at least every 200 ms while it waits.
 * close() frees self. The struct may grow: set size to sizeof(socmon_source_ops) (0 reads as the
 * first version). */
typedef struct socmon_source_ops {
    size_t size;
    const char *kind;
    socmon_status (*run)(void *self, socmon_pipeline *p);
    void (*close)(void *self);
} socmon_source_ops;

/* A source from an implementation; info is copied by reference (it must live as long as self). */
socmon_status socmon_source_new(const socmon_source_ops *ops, void *self, const socmon_source_info *info,
                                           socmon_source **out);
const socmon_source_info *socmon_source_info_of(const socmon_source *s);
/* The source's own state (for the implementation's helpers), or NULL. */
void *socmon_source_self(const socmon_source *s);
/* Closes the source and what it owns; NULL is fine. */
void socmon_source_close(socmon_source *s);

/* The metric definitions that go with a source's target: those of metric_file if given (not
 * NULL), else the target's built-in ones (a combined run's: its members', merged). *out is NULL
 * when there are none. metric_file NULL: the built-in ones. */
socmon_status socmon_source_metricset(const socmon_source_info *info, const char *metric_file,
                                      socmon_metricset **out);

/* A target sampled here: starts `workload` (NULL: the target's default) and samples set every
 * interval through socmon_sampler_run. The target and the set stay the caller's. Sequence numbers
 * count from 0. */
typedef struct socmon_source_target_opts {
    size_t size;                      /* sizeof(socmon_source_target_opts), or 0 */
    const char *workload;
    socmon_sampler_opts sampler;
    int started;                      /* the workload is already started: run only samples */
} socmon_source_target_opts;
socmon_status socmon_source_target(socmon_target *t, socmon_set *set, const socmon_source_target_opts *o,
                                              socmon_source **out);
/* The sampler's figures of the source's last run (samples, missed, jitter). */
void socmon_source_target_stats(const socmon_source *s, socmon_sampler_stats *out);

/* A recording (borrowed: it must outlive the source). Each sample's sequence number is its
 * position in the file; a gap the file records comes as a gap. Its strings reach consumers
 * escaped (no control byte of a file reaches a terminal). */
socmon_status socmon_source_recording(socmon_recording *rec, socmon_source **out);

/* The totals of a regions handle (socmon/region.h) so far: one instance per region, two samples
 * (zeros at the handle's open, the totals now). The handle must outlive the source. */
socmon_status socmon_source_regions(socmon_regions *r, socmon_source **out);

/* ---- what the pipeline hands to consumers ---- */

/* At the start of each run; valid until the pipeline is freed (its src until the source is closed). */
typedef struct socmon_analysis_info {
    const socmon_source_info *src;
    const socmon_metricset *ms;       /* the metric definitions, or NULL */
    const socmon_metrics *metrics;    /* bound to the source's counters, or NULL: rows and totals
                                         then carry no metric values */
    const socmon_scaling *scaling;    /* which counters are perf time counters, or NULL: none are */
    unsigned run;                     /* 1-based run number (-r N) */
} socmon_analysis_info;

/* How a consumer wants its rows, said at begin (all 0: every interval, unmerged). */
typedef struct socmon_row_policy {
    int rows;                         /* 0: no rows at all (only samples, gaps and totals) */
    unsigned every;                   /* show only every Nth interval (1 or 0: each) */
    size_t merge;                     /* merge this many intervals into a row (0/1: none) */
    uint64_t merge_ns;                /* or merge into rows at least this long: of the wall clock
                                         (clock) for live samples, of the samples' own time for
                                         samples of the past (SOCMON_PAST) */
    uint64_t (*clock)(void *user);    /* merge_ns's wall clock; NULL: CLOCK_MONOTONIC */
    void *clock_user;
} socmon_row_policy;

/* One interval, or several merged: deltas summed, metrics evaluated over the merged span. A
 * missed interval (SOCMON_SAMPLE_MISSED) always starts a row of its own, so a hole stays a hole. */
typedef struct socmon_row {
    uint64_t seq, first_seq;          /* the sequence numbers of its last and first samples */
    uint64_t t_ns;                    /* the last sample's timestamp */
    uint64_t since_ns;                /* since the run's first sample (what people read) */
    uint64_t dt_ns;                   /* its length (0 when time went backwards) */
    unsigned flags;                   /* SOCMON_SAMPLE_* OR-ed over its samples */
    unsigned missed;                  /* intervals missed before and within it */
    size_t intervals;                 /* how many were merged */
    uint64_t index;                   /* the run's count of intervals up to its last, 0-based */
    const uint64_t *raw;              /* per counter: the wrap-safe deltas */
    const uint64_t *deltas;           /* per counter: the multiplex-scaled estimates (= raw for
                                         counters without time counters) */
    const double *metrics;            /* per metric result, or NULL (no metrics) */
    uint64_t samples;                 /* samples of the run so far, the first included */
    uint64_t run_missed;              /* intervals missed and samples lost in gaps, so far */
    /* What the pipeline knows about the row's values (SOCMON_VALUE_*; added in issue 28). */
    unsigned value_flags;
    double min_running;               /* SOCMON_VALUE_SCALED: the smallest share of time (percent)
                                         any of its perf counters counted; 100 when all counted
                                         throughout; NaN: no perf time counters */
    const double *counter_running;    /* per counter its share (percent), or NULL (no scaling) */
    uint64_t lost;                    /* SOCMON_VALUE_LOST: samples lost in the gap before it */
    /* Per counter, SOCMON_VALUE_IMPLAUSIBLE and SOCMON_VALUE_DEAD_BUS bits of its delta (0: a
     * plausible one); set whenever the row has either flag, else NULL (added in issue 37). */
    const unsigned char *implausible;
} socmon_row;

/* What a value is, besides its number (socmon_row.value_flags, socmon_totals.value_flags):
 *   SCALED     a multiplexed perf count, estimated from the share of time it counted (running)
 *   SHORT      the interval is shorter than the sampling interval (the run's last, a stop)
 *   LOST       samples were lost in a gap just before (an agent's ring overran, a recording's
 *              gap): the row's deltas start after the gap
 *   INHIBITED  a counter was stopped by the program for part of the span (Ibex mcountinhibit)
 *   UNDEFINED  a metric has no value (NaN: a zero denominator, below its undefined_below)
 *   IMPLAUSIBLE a counter's delta is more than its declared maximum rate (socmon_counter
 *              .max_rate_hz) allows in the interval, with a margin: the counter went backwards
 *              (set back or zeroed by software), jumped, or read a broken value. The delta is
 *              kept as read, and every metric computed from it is undefined.
 *   DEAD_BUS   every counter of a block (an instance with two or more counters) read all-ones:
 *              no device answered the read (an unclocked or absent slave, a dead bus) */
enum {
    SOCMON_VALUE_SCALED = 1u << 0,
    SOCMON_VALUE_SHORT = 1u << 1,
    SOCMON_VALUE_LOST = 1u << 2,
    SOCMON_VALUE_INHIBITED = 1u << 3,
    SOCMON_VALUE_UNDEFINED = 1u << 4,
    SOCMON_VALUE_IMPLAUSIBLE = 1u << 5,
    SOCMON_VALUE_DEAD_BUS = 1u << 6
};

/* Samples lost between two received ones (an agent's ring overran, a recording's gap). */
typedef struct socmon_gap {
    uint64_t first_seq, count;
    uint64_t t0_ns, t1_ns;            /* the samples before and after it (0: not known) */
} socmon_gap;

/* Over a run, or with repeated runs (socmon_pipeline_finish) their means. */
typedef struct socmon_totals {
    unsigned runs;
    uint64_t elapsed_ns;              /* the intervals' lengths summed (the mean over runs) */
    uint64_t samples, missed, lost;   /* samples received, intervals missed, samples lost in gaps */
    uint64_t intervals;               /* intervals summed */
    const uint64_t *raw;              /* per counter: deltas summed (the last run's) */
    const uint64_t *values;           /* per counter: the scaled sums (rounded means over runs) */
    const double *running;            /* per counter: share of time it counted (NULL: no scaling) */
    const double *metrics;            /* per metric result (NULL: no metrics) */
    const double *counter_stddev;     /* runs > 1: standard deviation of each mean, else NULL */
    const double *metric_stddev;
    const double *counter_mean;       /* runs > 1: each counter's mean unrounded (values holds it
                                         rounded), else NULL */
    unsigned value_flags;             /* SOCMON_VALUE_* over the run (added in issue 28) */
    double min_running;               /* the smallest running share of a perf counter (NaN: none) */
    /* Per counter, SOCMON_VALUE_IMPLAUSIBLE / SOCMON_VALUE_DEAD_BUS bits of any of its intervals
     * in the run (the last run's), or NULL when none had either (added in issue 37); with them,
     * implausible_intervals counts the intervals flagged. Metrics over such a counter's total are
     * undefined. */
    const unsigned char *implausible;
    uint64_t implausible_intervals;
} socmon_totals;

/* What happens at each step; any op may be NULL. A non-OK return stops the run with it, except
 * from a consumer marked optional (socmon_consumer.optional), whose failures are kept for it. */
typedef struct socmon_consumer_ops {
    size_t size;                      /* sizeof(socmon_consumer_ops), or 0 */
    socmon_status (*begin)(void *self, const socmon_analysis_info *a, socmon_row_policy *want);
    socmon_status (*sample)(void *self, uint64_t seq, const socmon_sample *s);   /* every raw sample */
    socmon_status (*row)(void *self, const socmon_row *r);
    socmon_status (*gap)(void *self, const socmon_gap *g);
    socmon_status (*tick)(void *self);                          /* while a source waits */
    /* The end of a run: its totals; reason: the source's words on why it ended (or NULL). */
    socmon_status (*end)(void *self, const socmon_totals *t, const char *reason);
    /* After all runs (socmon_pipeline_finish): the means over them. */
    socmon_status (*finish)(void *self, const socmon_totals *t);
} socmon_consumer_ops;

typedef struct socmon_consumer {
    const socmon_consumer_ops *ops;
    void *self;
    int optional;                     /* its failures do not stop the run (live lines to a terminal) */
} socmon_consumer;

/* ---- the pipeline ---- */

typedef struct socmon_pipeline_opts {
    size_t size;                      /* sizeof(socmon_pipeline_opts), or 0 */
    const socmon_metricset *ms;       /* metrics to evaluate, bound to the source's schema; NULL: none */
    int (*should_stop)(void *user);   /* polled between samples: nonzero ends the run (SOCMON_ESTATE) */
    void *user;
} socmon_pipeline_opts;

/* A pipeline for samples of schema's counters (the schema must outlive it when samples are
 * pushed by hand; socmon_pipeline_run uses its source's). o may be NULL (no metrics).
 * Every socmon_pipeline_* call that returns a status refuses a NULL pipeline (SOCMON_EINVAL);
 * those that return anything else need one (p must not be NULL), socmon_pipeline_free excepted. */
socmon_status socmon_pipeline_new(const socmon_source_info *schema, const socmon_pipeline_opts *o,
                                  socmon_pipeline **out);
void socmon_pipeline_free(socmon_pipeline *p);
/* Replaces opts.should_stop (a pipeline made by another, the live store's). p must not be NULL. */
void socmon_pipeline_set_should_stop(socmon_pipeline *p, int (*should_stop)(void *user), void *user);
/* Adds a consumer (its ops and self stay the caller's); before the first run. At most 8. */
socmon_status socmon_pipeline_add(socmon_pipeline *p, const socmon_consumer *c);
const socmon_metrics *socmon_pipeline_metrics(const socmon_pipeline *p);
const socmon_scaling *socmon_pipeline_scaling(const socmon_pipeline *p);

/* One run: begin, the source's samples, end. A later run (stat -r) takes a fresh source of the
 * same schema. SOCMON_ESTATE from should_stop ends the run normally (its totals are given). */
socmon_status socmon_pipeline_run(socmon_pipeline *p, socmon_source *src);
/* The mean and spread over the runs so far, to every consumer's finish. */
socmon_status socmon_pipeline_finish(socmon_pipeline *p);
/* The last run's totals (valid until the next run or free), or the means after finish. */
const socmon_totals *socmon_pipeline_totals(const socmon_pipeline *p);
/* The first failure of an optional consumer (SOCMON_OK if none); its message was kept. */
socmon_status socmon_pipeline_consumer_status(const socmon_pipeline *p, const socmon_consumer *c);

/* ---- feeding a pipeline by hand (a source's run) ---- */

enum { SOCMON_PAST = 1u << 0 };       /* the sample is of the past (a ring replayed at connect) */

/* Starts a run without a source (begin); socmon_pipeline_run does it itself. */
socmon_status socmon_pipeline_begin(socmon_pipeline *p);
/* A sample and its sequence number. The first sample, and the first after a gap, is the baseline
 * of the next one's deltas. A seq that jumps is a gap of the samples skipped; one going back is
 * refused (SOCMON_EINVAL). */
socmon_status socmon_pipeline_sample(socmon_pipeline *p, uint64_t seq, const socmon_sample *s,
                                                unsigned flags);
socmon_status socmon_pipeline_gap(socmon_pipeline *p, const socmon_gap *g);
/* Lets consumers do what is due (a recording's periodic flush) while the source waits. */
socmon_status socmon_pipeline_tick(socmon_pipeline *p);
/* What opts.should_stop says now (0 without one); p must not be NULL. */
int socmon_pipeline_should_stop(socmon_pipeline *p);
/* The end of the run: pending rows, then the totals to every consumer; reason (may be NULL) is
 * the source's words on why it ended. */
socmon_status socmon_pipeline_end(socmon_pipeline *p, const char *reason);

/* ---- per function: a program's recording (socmon record -t ibex -- prog.elf) ---- */

/* Such a source counts every instruction's events to the function it belongs to: counter
 * "fn_<column>" with the function as its instance, and "<column>" device-wide for the whole
 * program. The columns, in order: */
#define SOCMON_FUNCTION_COLS 10
/* "cycles", "instret", "lsu_wait", "fetch_wait", "mul_wait", "div_wait", "loads", "stores",
 * "branches", "branches_taken" for k in 0..9, NULL past them. */
const char *socmon_function_col(size_t k);

typedef struct socmon_function_row {
    const char *name;                 /* the function; "total", "whole program" */
    /* Signed modulo the counter's width: a program that writes a counter (zeroes mcycle) has
     * that change counted to the writing instruction, so its function can show a negative count. */
    int64_t v[SOCMON_FUNCTION_COLS];
    unsigned has;                     /* bit k: the source has column k */
    double cpi;                       /* cycles / instret; NaN without instret or when it is 0 */
    double share;                     /* percent of the functions' total cycles (0 if that is 0) */
} socmon_function_row;

typedef struct socmon_functions {
    size_t n;
    socmon_function_row *rows;        /* by cycles, most first, then by name */
    socmon_function_row total;        /* the functions summed modulo width */
    socmon_function_row whole;        /* the whole-program counters */
    /* Each instruction's counts went to exactly one function, so total must equal whole; 1 if a
     * column both have differs. */
    int mismatch;
} socmon_functions;

/* The rows of a run's totals (t->raw: as counted, unscaled) over info's counters; idle: keep
 * functions whose counters all read 0 (they are left out otherwise). Names are info's (it must
 * outlive *out). SOCMON_ENOENT when the source has no per-function counters. */
socmon_status socmon_functions_from_totals(const socmon_source_info *info, const socmon_totals *t, int idle,
                                           socmon_functions **out);
void socmon_functions_free(socmon_functions *f);

SOCMON_END_DECLS

#endif
