/* Sweeps: one run per point of a grid (target options x workloads x programs) and the table of
 * their values (socmon sweep; docs/sweep.md).
 *
 *   grid    the points: each target spec with its braces expanded to a cross product
 *           ("esp:soc={esp_2x3,esp_4x4}" is two specs), times each workload, times each program.
 *           Points are numbered in that order (the first brace varies slowest), so a point's
 *           number is the same on every machine: shards (K/N) are fixed subsets of numbers.
 *   table   per point its target, workload, program and options, whether it ran, and the values
 *           of its run (socmon_value: counters' totals and metrics' results). Tables of one grid
 *           share its id; merging joins shards and refuses tables of another grid. */
#ifndef SOCMON_SWEEP_H
#define SOCMON_SWEEP_H

#include "socmon/export.h"

#include <stddef.h>
#include "socmon/compare.h"
#include "socmon/status.h"
#include "socmon/target.h"

SOCMON_BEGIN_DECLS

/* ---- the grid ---- */

typedef struct socmon_sweep_point {
    size_t index;               /* the point's number in its grid, from 0 */
    const char *target;         /* the target spec with its braces expanded */
    const char *workload;       /* NULL: the target's default */
    const char *program;        /* NULL: none */
    size_t noptions;
    const socmon_kv *options;   /* the spec's options in its order (keys checked against the
                                   target's option table; values are the target's to check) */
} socmon_sweep_point;

typedef struct socmon_sweep_spec {
    size_t size;                    /* sizeof(socmon_sweep_spec), or 0 */
    const char *const *targets;     /* target specs; an option's value may hold {a,b,...} */
    size_t ntargets;
    const char *workloads;          /* comma-separated, or NULL: each target's default */
    const char *const *programs;    /* programs to run (a target that runs one: ibex), or none */
    size_t nprograms;
    const char *const *run_args;    /* what every point's run is also given (-e, -I, ...): part
                                       of the grid's identity, since they change its values */
    size_t nrun_args;
} socmon_sweep_spec;

typedef struct socmon_sweep_grid socmon_sweep_grid;

/* Expands a spec. Errors (SOCMON_EINVAL, naming the spec and what is wrong): unbalanced or
 * nested braces, an empty choice, an unknown target or option key, no point at all. */
socmon_status socmon_sweep_grid_new(const socmon_sweep_spec *spec, socmon_sweep_grid **out);
/* A sweep file: "target SPEC", "workload W[,W...]", "program PATH..." and "run ARG..." lines,
 * '#' comments (docs/sweep.md); name names it in messages. */
socmon_status socmon_sweep_grid_parse(const char *text, size_t len, const char *name, socmon_sweep_grid **out);
socmon_status socmon_sweep_grid_load(const char *path, socmon_sweep_grid **out);
void socmon_sweep_grid_free(socmon_sweep_grid *g);
size_t socmon_sweep_grid_count(const socmon_sweep_grid *g);
const socmon_sweep_point *socmon_sweep_grid_point(const socmon_sweep_grid *g, size_t i);
/* The arguments every point's run is also given. */
size_t socmon_sweep_grid_nrun_args(const socmon_sweep_grid *g);
const char *const *socmon_sweep_grid_run_args(const socmon_sweep_grid *g);
/* 16 hex digits naming the grid's points and run arguments. */
const char *socmon_sweep_grid_id(const socmon_sweep_grid *g);

/* "K/N" (1 <= K <= N): *k and *n, or SOCMON_EINVAL naming the bad text. Point i is in shard K of
 * N when i % N == K - 1. */
socmon_status socmon_sweep_shard_parse(const char *text, unsigned *k, unsigned *n);

/* ---- the table of results ---- */

typedef struct socmon_sweep_row {
    socmon_sweep_point point;
    int ok;                     /* the point ran; 0: it failed */
    const char *error;          /* a failed point: why; else NULL */
    const char *recording;      /* the point's recording, if one was kept; else NULL */
    size_t nvalues;
    const socmon_value *values; /* counters and metrics (keys as socmon diff pairs them) */
} socmon_sweep_row;

typedef struct socmon_sweep socmon_sweep;

/* An empty table for the grid named id (1..64 letters, digits, '_', '-') with total points. */
socmon_status socmon_sweep_new(const char *id, size_t total, socmon_sweep **out);
void socmon_sweep_free(socmon_sweep *s);
const char *socmon_sweep_id(const socmon_sweep *s);
size_t socmon_sweep_total(const socmon_sweep *s);
/* Rows held, in point order. */
size_t socmon_sweep_count(const socmon_sweep *s);
const socmon_sweep_row *socmon_sweep_row_at(const socmon_sweep *s, size_t i);
/* The row of point index, or NULL. */
const socmon_sweep_row *socmon_sweep_find(const socmon_sweep *s, size_t index);

/* Sets point p's row (replacing one the table has): with run, its counters and metrics; without,
 * a failure with error. So run may be NULL (a point that failed). And error may be NULL (a point
 * that ran); one of the two is needed. recording may be NULL. */
socmon_status socmon_sweep_set(socmon_sweep *s, const socmon_sweep_point *p, const socmon_run *run,
                               const char *error, const char *recording);
/* Adds from's rows to into. Errors: another grid (ids differ), another total, or a point both
 * hold with different contents. from_name (NULL: "the table") is what messages call from. */
socmon_status socmon_sweep_merge(socmon_sweep *into, const socmon_sweep *from, const char *from_name);

/* Reads a table written by socmon sweep: its JSON or CSV (told apart by content). Errors name
 * the file and, for a damaged one, where. */
socmon_status socmon_sweep_load(const char *path, socmon_sweep **out);
socmon_status socmon_sweep_parse(const char *text, size_t len, const char *name, socmon_sweep **out);

SOCMON_END_DECLS

#endif
