/* Comparing runs: the values of a run read back from a file, two runs paired value by value,
 * and rules that gate the changes (socmon diff, socmon check; docs/compare.md).
 *
 *   run     the values of one run: every counter's total, every metric's result over the run,
 *           and per function of a program (a recording made with symbols) each counter. From a
 *           recording (through the analysis pipeline: socmon/analysis.h) or from the JSON of
 *           `socmon stat` (also `stat -r N`, whose values carry their statistics)
 *   diff    two runs paired by kind, name, instance and event: baseline, new, delta, ratio and,
 *           where either side has repeat statistics, whether the change is significant
 *   check   rules ("PATTERN LIMIT" lines) applied to a diff: which rows break which rule
 *
 * A model's run is exact (the same program gives the same counts), so any change in it is real;
 * runs on hardware or the host are noisy, and a change there counts only when it is significant
 * (Welch's t-test at the 5 % level, docs/compare.md). */
#ifndef SOCMON_COMPARE_H
#define SOCMON_COMPARE_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* ---- the values of a run ---- */

typedef enum socmon_value_kind {
    SOCMON_VALUE_COUNTER,
    SOCMON_VALUE_METRIC,
    SOCMON_VALUE_FUNCTION
} socmon_value_kind;

/* "counter", "metric", "function" (NULL for another value). */
const char *socmon_value_kind_name(socmon_value_kind k);

typedef struct socmon_value {
    socmon_value_kind kind;
    const char *name;        /* counter: its full name ("tile0.l2_hits"); metric: the metric
                                ("l2_hit_rate"); function: the function ("crc32") */
    const char *instance;    /* the instance ("tile0", a function's for its counters), or NULL:
                                device-wide */
    const char *event;       /* function values: the counter ("cycles", "instret"); else NULL */
    const char *key;         /* what rules and -e/-M globs match: a counter's full name, a
                                metric's "instance.metric" (or "metric" device-wide), a
                                function's "fn.FUNCTION.EVENT" */
    const char *unit;        /* "" when none */
    int defined;             /* 0: the run has no value (a metric over nothing, not counted) */
    int integer;             /* an exact count: i holds it (counters, function counts) */
    int64_t i;
    double v;                /* the value; with repeated runs their mean */
    unsigned n;              /* runs behind it: 1 is one run (no statistics) */
    double sd;               /* n > 1: the standard deviation of the runs */
    double ci_low, ci_high;  /* n > 1: the mean's 95 % confidence interval (Student t) */
} socmon_value;

typedef struct socmon_run socmon_run;

typedef struct socmon_run_opts {
    size_t size;             /* sizeof(socmon_run_opts), or 0 */
    const char *metric_file; /* a recording's metrics from this file instead of its target's */
    size_t max_points;       /* a recording's timeline is merged to at most this many rows
                                (0: 600) */
} socmon_run_opts;

/* Reads a run from path: a recording or stat's JSON (told apart by content). Errors name the
 * file: it is missing, is neither, or is damaged (a recording that lost samples or blocks is
 * refused with its reader's words: its totals would be short). */
socmon_status socmon_run_open(const char *path, const socmon_run_opts *o, socmon_run **out);
void socmon_run_free(socmon_run *r);

/* The file it was read from, "recording" or "stat" (the JSON), and its target spec and
 * workload (NULL when not known). */
const char *socmon_run_path(const socmon_run *r);
const char *socmon_run_kind(const socmon_run *r);
const char *socmon_run_target(const socmon_run *r);
const char *socmon_run_workload(const socmon_run *r);
/* Runs behind its values (stat -r N), 1 for one run. */
unsigned socmon_run_runs(const socmon_run *r);
/* Time is a model's simulated time (its values are exact). */
int socmon_run_simulated(const socmon_run *r);

size_t socmon_run_count(const socmon_run *r);
const socmon_value *socmon_run_value(const socmon_run *r, size_t i);

/* The timeline of a recording (NULL and 0 for stat's JSON): per row, seconds since the run's
 * first sample. */
const double *socmon_run_times(const socmon_run *r, size_t *nrows);
/* Value i over the timeline: per row, a counter's delta or a metric's result (NaN: undefined);
 * NULL when the value has none (functions, stat's JSON). */
const double *socmon_run_series(const socmon_run *r, size_t i);

/* ---- two runs paired ---- */

typedef struct socmon_diff_row {
    const socmon_value *a, *b;    /* baseline and new; NULL: only in the other run */
    size_t ai, bi;                /* their indexes in their runs (for socmon_run_series) */
    int has_delta;                /* both defined */
    int integer;                  /* both integer: idelta is exact */
    double delta;                 /* b - a */
    int64_t idelta;
    int has_ratio;                /* both defined and a is not 0 */
    double ratio;                 /* b / a */
    double change;                /* what rows are sorted by: |ratio - 1|, INFINITY when a is 0
                                     and b is not, 0 when unchanged */
    int significant;              /* 1 or 0; -1: neither side has repeat statistics (an exact
                                     model run: every change is real) */
    double p;                     /* Welch's two-sided p-value, NaN without statistics */
} socmon_diff_row;

typedef struct socmon_diff socmon_diff;

typedef struct socmon_diff_opts {
    size_t size;                  /* sizeof(socmon_diff_opts), or 0 */
    /* Globs (fnmatch) on keys: events over counter and function rows (-e), metrics over metric
     * rows (-M). With any given, a row stays only when a glob of its kind matches it. A glob
     * that matches no row of either run is an error naming it. */
    const char *const *events;
    size_t nevents;
    const char *const *metrics;
    size_t nmetrics;
    int only_changed;             /* drop rows whose value did not change (or is undefined on
                                     both sides) */
} socmon_diff_opts;

/* Pairs a's and b's values (both borrowed: they must outlive the diff). Rows present in both
 * come first, largest change first (then by key); then those only in a, then only in b, each
 * by key. o may be NULL (the defaults). */
socmon_status socmon_diff_new(const socmon_run *a, const socmon_run *b, const socmon_diff_opts *o,
                                         socmon_diff **out);
void socmon_diff_free(socmon_diff *d);
const socmon_run *socmon_diff_baseline(const socmon_diff *d);
const socmon_run *socmon_diff_new_run(const socmon_diff *d);
size_t socmon_diff_count(const socmon_diff *d);
const socmon_diff_row *socmon_diff_row_at(const socmon_diff *d, size_t i);
/* A row's key: its value's (a's, else b's). */
const char *socmon_diff_row_key(const socmon_diff_row *r);
/* How the runs' instances (tiles) were paired: "name" (the same instances, each of one kind in
 * both runs), "coordinates" (two layouts whose shared places each hold one kind in both: by
 * place) or "kind" (two layouts: by kind and order among the tiles of that kind, so a memory
 * tile never meets an accelerator). A kind is what the target's grid calls a tile when both
 * runs are recordings of such a target, else the families of its counters. A row's b may then
 * have another instance than its a. NULL for NULL. */
const char *socmon_diff_pairing(const socmon_diff *d);
/* Which instance paired with which, one sentence; NULL when paired by name. */
const char *socmon_diff_pairing_note(const socmon_diff *d);
/* Warnings about the pairing (kinds the runs have different numbers of, tiles of one name and
 * two kinds), one sentence each; 0 and NULL when there are none. */
size_t socmon_diff_warning_count(const socmon_diff *d);
const char *socmon_diff_warning(const socmon_diff *d, size_t i);

/* ---- statistics (Student t) ---- */

/* The two-sided 95 % quantile of Student's t with df degrees of freedom (df >= 1): the factor
 * of a 95 % confidence interval. NaN for df < 1. */
double socmon_t95(double df);
/* Welch's t-test of two means with their sample standard deviations and counts (n >= 2 each):
 * the two-sided p-value; NaN when either n < 2. Both spreads 0: 1 for equal means, 0 else. */
double socmon_welch_p(double mean_a, double sd_a, unsigned n_a, double mean_b, double sd_b,
                                 unsigned n_b);

SOCMON_END_DECLS

#endif
