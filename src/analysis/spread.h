/* Internal: the spread of a repeated run (stat -r N), as perf stat prints it: per value the
 * mean over the runs and the standard deviation of that mean, sqrt(M2 / (n - 1) / n), kept with
 * Welford's running update (one pass, no per-run storage, no cancellation when values are large
 * and close, as counter totals are). Here rather than in the CLI so a unit test can check the
 * figures against known values. */
#ifndef SOCMON_ANALYSIS_SPREAD_H
#define SOCMON_ANALYSIS_SPREAD_H

#include <stddef.h>

typedef struct smn_spread {
    size_t n;            /* values per run */
    double *mean, *m2;   /* after smn_spread_finish, m2 holds the standard deviation of the mean */
} smn_spread;

/* Returns 0, or -1 when out of memory (then smn_spread_free is still safe). */
int smn_spread_init(smn_spread *s, size_t n);
/* Adds run number run (1 for the first) of s->n values x. */
void smn_spread_add(smn_spread *s, unsigned run, const double *x);
/* After the last of runs runs: m2[i] becomes the standard deviation of mean[i] (0 for one run). */
void smn_spread_finish(smn_spread *s, unsigned runs);
void smn_spread_free(smn_spread *s);

#endif
