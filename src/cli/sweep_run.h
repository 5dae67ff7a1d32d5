/* Running a sweep's points (socmon sweep): each point is `socmon stat --json` (and, with a
 * recording directory, `socmon record`) in a process of its own, up to `jobs` at once. A process
 * per point keeps points apart: one that fails, hangs on a bad input or crashes costs its own
 * row only, and the values are the very ones `socmon stat` prints for that point. */
#ifndef SOCMON_CLI_SWEEP_RUN_H
#define SOCMON_CLI_SWEEP_RUN_H

#include <stddef.h>
#include "socmon/sweep.h"

enum {
    SWEEP_PROGRESS_NONE,
    SWEEP_PROGRESS_BAR,          /* a bar drawn over itself (a terminal) */
    SWEEP_PROGRESS_LINES,        /* a line at most every SWEEP_LINE_EVERY_S (a log, CI) */
};
#define SWEEP_LINE_EVERY_S 10.0

typedef struct sweep_run_opts {
    const socmon_sweep_grid *grid;
    const size_t *todo;          /* the points to run, by index */
    size_t ntodo;
    unsigned jobs;
    const char *record_dir;      /* NULL: no recordings */
    int progress;                /* SWEEP_PROGRESS_*: how stderr shows the sweep going */
    size_t done_before;          /* points already in the table (resumed), for the bar */
    /* called in the parent as each point ends (run NULL: failed, error says why); returns 0 to
     * go on, else the sweep stops starting points */
    int (*point_done)(void *user, const socmon_sweep_point *p, const socmon_run *run, const char *error,
                      const char *recording);
    void *user;
} sweep_run_opts;

typedef struct sweep_run_result {
    size_t ok, failed;           /* points that ended either way in this run */
    int stopped;                 /* a signal (SIGINT/SIGTERM) stopped the sweep */
} sweep_run_result;

/* Runs the points; returns SOCMON_OK unless the sweep itself could not run (no temporary
 * directory, no program to run), with the message set. */
socmon_status sweep_run(const sweep_run_opts *o, sweep_run_result *res);

#endif
