/* Internal: how a run (socmon/compare.h) is built by its readers, run_json.c (stat's JSON) and
 * run_recording.c (a recording, through the pipeline). run.c owns the storage: the readers
 * only add values and, for a recording, the timeline. */
#ifndef SOCMON_ANALYSIS_RUN_INTERNAL_H
#define SOCMON_ANALYSIS_RUN_INTERNAL_H

#include "socmon/compare.h"
#include "socmon/target.h"   /* socmon_grid_tile */

/* An empty run read from path, of kind ("recording", "stat"). */
socmon_status smn_run_new(const char *path, const char *kind, socmon_run **out);
/* The run's facts (strings are copied; NULL keeps them unknown). */
socmon_status smn_run_set_facts(socmon_run *r, const char *target, const char *workload, unsigned runs,
                                int simulated);
/* Adds a copy of v (its strings copied; its key made from kind, name, instance and event, so
 * v->key is ignored). */
socmon_status smn_run_add(socmon_run *r, const socmon_value *v);
/* Gives the run a timeline of nrows rows: times (taken over, malloc'd) and, per value added so
 * far, its series (series[i] taken over, or NULL; the array itself stays the caller's). */
void smn_run_set_timeline(socmon_run *r, double *times, size_t nrows, double **series);
/* Where the run's instances sit: a copy of tiles[0..n) (their type strings are static text),
 * from the target's grid op; a run without one has none. */
socmon_status smn_run_set_grid(socmon_run *r, const socmon_grid_tile *tiles, size_t n);
const socmon_grid_tile *smn_run_grid(const socmon_run *r, size_t *n);
/* The statistics of a mean over n > 1 runs from its sample standard deviation: sets v->n,
 * v->sd and the 95 % confidence interval (Student t). */
void smn_value_set_spread(socmon_value *v, unsigned n, double sd);

/* v's value from JSON x (run_json.c): an exact integer for a counter, a number, or null or
 * absent (v stays undefined). 0, or -1 when x is something else. Stat's JSON and sweep tables
 * (sweep_read.c) read their numbers the same way. */
struct json_t;
int smn_value_from_json(socmon_value *v, const struct json_t *x);

/* The readers (run_json.c, run_recording.c); socmon_run_open picks one by the file's content. */
socmon_status smn_run_read_json(const char *path, socmon_run **out);
socmon_status smn_run_read_recording(const char *path, const char *metric_file, size_t max_points,
                                     socmon_run **out);

#endif
