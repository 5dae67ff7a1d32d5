/* Internal: a sweep campaign (socmon sweep; docs/sweep.md), what the CLI's argv becomes. The
 * campaign opens the table to fill (a new one, or the -o table of an earlier run to resume), runs
 * the points it lacks of its shard (results/sweep_exec.h), keeps the table written as points end,
 * and writes it last; merging joins the tables of shards. It lives in the export layer because it
 * writes the table through the output interface's sweep document (smn_output_sweep).
 *
 * Nothing is printed: each line the user is told (the messages of bad input, "resuming", the
 * progress, the summary) goes to the talk's say, and each failure to its error, as the CLI has
 * always said them. */
#ifndef SOCMON_EXPORT_SWEEP_CAMPAIGN_H
#define SOCMON_EXPORT_SWEEP_CAMPAIGN_H

#include "results/sweep_exec.h"

typedef struct smn_sweep_campaign {
    const socmon_sweep_grid *grid;
    const char *output;          /* -o: the table (and resume) file, or DIR/ for one file per shard
                                    (DIR/shard-K-of-N.parquet, .json with json); NULL: CSV on stdout */
    int json, parquet;           /* the format asked (--json, --parquet); else by output's name */
    const char *shard;           /* "K/N", or NULL: every point */
    unsigned jobs;
    const char *record_dir;      /* NULL: no recordings */
    int quiet;                   /* no "resuming" line and no summary (unless stopped) */
    int progress;                /* SMN_SWEEP_PROGRESS_* */
    const char *exe;             /* the socmon program the points run */
    void (*arm_stop)(void);      /* called just before the points start (the CLI's signal handlers) */
    int (*should_stop)(void *user);   /* as smn_sweep_exec_opts' (user: talk.user) */
    smn_sweep_talk talk;
} smn_sweep_campaign;

typedef struct smn_sweep_outcome {
    int exit;                    /* 0; 1 when a point failed or the table was not written; 2 for
                                    bad input (a shard, -o, a table not to resume) */
    int stopped;                 /* should_stop stopped the sweep: the caller says by what and exits
                                    as a stopped command does (the table holds the points done) */
} smn_sweep_outcome;

/* Runs the campaign. Returns SOCMON_OK when the points ran (some may have failed: out->exit), else
 * the status of what stopped it, already told through talk. */
socmon_status smn_sweep_campaign_run(const smn_sweep_campaign *c, smn_sweep_outcome *out);

/* socmon sweep merge: the tables at paths (CSV or JSON) joined into one, written to output (NULL:
 * stdout) as JSON with json, else as its name says (CSV, .json, .parquet). out->exit: 0; 1 when
 * points are missing or failed, or the table was not written; 2 when a table could not be read or
 * merged. Returns SOCMON_OK or the status of what failed, told through t. */
socmon_status smn_sweep_campaign_merge(const char *const *paths, size_t npaths, int json, const char *output,
                                       const smn_sweep_talk *t, smn_sweep_outcome *out);

/* The table in format ("csv", "json", "parquet") at path, replaced whole when written without
 * error (never half a file), or on stdout when path is NULL. */
socmon_status smn_sweep_table_write(const char *format, const char *path, const socmon_sweep *table);

#endif
