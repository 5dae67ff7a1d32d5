/* Internal: running a sweep's points (socmon sweep): each point is `EXE stat --json` (and, with a
 * recording directory, `EXE record`) in a process of its own, up to `jobs` at once. A process
 * per point keeps points apart: one that fails, hangs on a bad input or crashes costs its own
 * row only, and the values are the very ones `socmon stat` prints for that point.
 *
 * The library prints nothing: what the sweep tells its user (the progress bar, a failed point's
 * line) is text handed to the caller's say callback, written as it comes (the CLI: to stderr). */
#ifndef SOCMON_RESULTS_SWEEP_EXEC_H
#define SOCMON_RESULTS_SWEEP_EXEC_H

#include <stddef.h>
#include "socmon/sweep.h"

enum {
    SMN_SWEEP_PROGRESS_NONE,
    SMN_SWEEP_PROGRESS_BAR,      /* a bar drawn over itself (a terminal) */
    SMN_SWEEP_PROGRESS_LINES,    /* a line at most every SMN_SWEEP_LINE_EVERY_S (a log, CI) */
};
#define SMN_SWEEP_LINE_EVERY_S 10.0

/* How a sweep talks to its user: say gets text to show as is (lines ending in '\n', or the bar's
 * "\r\033[K..." redrawn over itself); error a failure to report as the caller reports its own
 * (the CLI: "socmon: WHAT: message", the message socmon_errmsg()'s). Either may be NULL. */
typedef struct smn_sweep_talk {
    void (*say)(void *user, const char *text);
    void (*error)(void *user, const char *what, socmon_status st);
    void *user;
} smn_sweep_talk;

/* printf into t's say (any length: a message names paths). */
void smn_sweep_sayf(const smn_sweep_talk *t, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

typedef struct smn_sweep_exec_opts {
    const char *exe;             /* the socmon program the points run (the CLI: its own path) */
    const socmon_sweep_grid *grid;
    const size_t *todo;          /* the points to run, by index */
    size_t ntodo;
    unsigned jobs;
    const char *record_dir;      /* NULL: no recordings */
    int progress;                /* SMN_SWEEP_PROGRESS_*: how talk shows the sweep going */
    size_t done_before;          /* points already in the table (resumed), for the bar */
    /* called as each point ends (run NULL: failed, error says why); returns 0 to go on, else the
     * sweep stops starting points */
    int (*point_done)(void *user, const socmon_sweep_point *p, const socmon_run *run, const char *error,
                      const char *recording);
    /* nonzero once the sweep is asked to stop (the CLI: SIGINT or SIGTERM came): no point starts
     * after it, the running ones are passed SIGTERM, and a point it cut short stays to do */
    int (*should_stop)(void *user);
    void *user;                  /* of point_done and should_stop */
    smn_sweep_talk talk;
} smn_sweep_exec_opts;

typedef struct smn_sweep_exec_result {
    size_t ok, failed;           /* points that ended either way in this run */
    int stopped;                 /* should_stop stopped the sweep */
} smn_sweep_exec_result;

/* Runs the points, waiting for any child of the process (waitpid(-1)): the caller has no other
 * child running meanwhile (the CLI has none). Returns SOCMON_OK unless the sweep itself could not run (no temporary
 * directory, no recording directory), with the message set. */
socmon_status smn_sweep_exec(const smn_sweep_exec_opts *o, smn_sweep_exec_result *res);

#endif
