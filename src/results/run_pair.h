/* Two runs paired for socmon diff and socmon check: each read (a recording or stat's JSON, with
 * a metric file), then paired value by value, only the counters and function values of the
 * comma-separated globs `events` and the metrics of `metrics` (NULL: all). */
#ifndef SOCMON_RESULTS_RUN_PAIR_H
#define SOCMON_RESULTS_RUN_PAIR_H

#include "socmon/compare.h"

#define SMN_RUN_PAIR_MAX_GLOBS 64

typedef struct smn_run_pair {
    socmon_run *a, *b;
    socmon_diff *d;
    char *ebuf, *mbuf;           /* events and metrics split into globs */
} smn_run_pair;

/* SOCMON_OK, or the failure naming the bad input (the pair is then closed). */
socmon_status smn_run_pair_open(smn_run_pair *p, const char *baseline, const char *next, const char *metric_file,
                                const char *events, const char *metrics, int only_changed);
void smn_run_pair_close(smn_run_pair *p);

#endif
