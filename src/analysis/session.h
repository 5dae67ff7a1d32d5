/* Internal: a run plan and the session that runs it (issue 40, item 2). A plan says what a run
 * is: its source (a target with its program or command and workload, a recording, or a source
 * the caller opened such as an agent's stream), how it samples (analysis/target_run.h: the one
 * place a default interval is decided), repeats, the metric file. The session opens the source,
 * the metric set and the pipeline, runs it (each repeat from a fresh target), and says how it
 * ended: the totals, the program's end and the exit status the docs give it. Callers (the CLI's
 * commands, export/document.c, results/run_recording.c) add consumers and read the outcome;
 * none assembles a source and a pipeline itself (tests/arch/run_assembled.py). */
#ifndef SOCMON_ANALYSIS_SESSION_H
#define SOCMON_ANALYSIS_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/target_run.h"
#include "socmon/analysis.h"
#include "socmon/result.h"

typedef enum smn_plan_totals {
    SMN_TOTALS_AUTO = 0,   /* a target's run finishes with its totals; a recording's does not */
    SMN_TOTALS_ALWAYS,     /* the totals to every consumer at the end (report --summary) */
    SMN_TOTALS_NEVER
} smn_plan_totals;

struct smn_session_end;

typedef struct smn_run_plan {
    /* the source: a recording (a path or one the caller opened), a source the caller opened,
     * or else the target `target` wants (no specs: the default target) */
    const char *recording;
    socmon_recording *opened;   /* the caller's; it outlives the session */
    socmon_source *source;      /* the session's from open on (closed by it, also on failure) */
    smn_target_want target;
    const char *workload;       /* NULL: the target's default */
    smn_sampling sampling;      /* a target's; a recording or source samples as it was made */
    unsigned repeat;            /* 0 or 1: one run; N: N runs, each from a fresh target */
    const char *metric_file;    /* NULL: the target's own metrics */
    smn_plan_totals totals;
    int (*should_stop)(void *user);
    void *user;
    /* between repeats: how the run that just ended ended (its program, if it ran one) */
    void (*on_repeat)(void *user, unsigned run, const struct smn_session_end *e);
    int *usage_error;           /* if set: 1 when open or run failed for the request itself (a
                                   hardware target without a duration, a workload that does not
                                   parse): the CLI's exit status 2 */
} smn_run_plan;

typedef struct smn_session smn_session;

/* Opens the plan's source, metric set and pipeline (no run yet). */
socmon_status smn_session_open(const smn_run_plan *plan, smn_session **out);
/* Adds a consumer (its ops and self stay the caller's), before run. */
socmon_status smn_session_add(smn_session *s, const socmon_consumer *c);
/* What the run's target leaves beside its samples, attached to the recording w makes, at the
 * run's end: the program's profile, the workload's phases and, if params, the parameters that
 * moved since the target was opened (analysis/run_attach.h); nothing without a target here. */
socmon_status smn_session_attach(const smn_session *s, socmon_recwriter *w, int params);
/* Replaces the plan's should_stop (the agent's: it stops, or a CONFIG waits), between runs. */
void smn_session_set_should_stop(smn_session *s, int (*fn)(void *user), void *user);
/* A target's counters chosen anew between two runs (the agent's CONFIG): the counters events
 * selects (socmon_set_new's patterns) on the same, still running target, a new source sampling
 * for duration_ns (0: to the workload's end) and a new pipeline with the same consumers and
 * the metrics bound anew; the next smn_session_run runs them. Counters that cannot be chosen
 * (a pattern that matches nothing) or a metric set that cannot be loaded leave all as it was;
 * a pipeline that cannot be made for them (out of memory) leaves a session whose runs fail
 * until a reselect succeeds (smn_session_broken says so; the agent then chooses its old
 * counters again). What the old ones gave consumers stays valid until smn_session_close or
 * smn_session_drop_retired.
 * smn_session_set, _info, _pipeline and _metricset then give the new ones. */
socmon_status smn_session_reselect(smn_session *s, const char *events, uint64_t duration_ns);
/* 1 when a reselect chose counters but made no pipeline for them: the runs fail until one does. */
int smn_session_broken(const smn_session *s);
/* Frees what reselects replaced (pipelines, metric sets, counter sets, sources) before the close,
 * but for the first generation and the one the first run began on: a consumer may hold what it
 * was made with and what its first begin gave to the close, nothing a later begin gave. For a
 * caller between runs (the agent, between its CONFIGs: else each CONFIG would keep one of each
 * to the end). How many replaced generations it freed (a pipeline with its metric set, a
 * counter set with its source: two a reselect). None while the session is broken
 * (smn_session_broken): its pipeline was made for a generation retired. */
size_t smn_session_drop_retired(smn_session *s);
socmon_pipeline *smn_session_pipeline(const smn_session *s);
const socmon_source_info *smn_session_info(const smn_session *s);
const socmon_metricset *smn_session_metricset(const smn_session *s);
const socmon_metrics *smn_session_metrics(const smn_session *s);
/* The run's target and its counters (NULL for a recording or a stream): what a command shows of
 * the target itself (read's snapshot, a recording's attachments). */
socmon_target *smn_session_target(const smn_session *s);
socmon_set *smn_session_set(const smn_session *s);
/* The workload the run names: the plan's, or the target's default (NULL: none, or not a target). */
const char *smn_session_workload(const smn_session *s);
/* The program's console bytes, each to fn as it prints them, on every run: 1, or 0 when the
 * plan has no program (fn is not called). */
int smn_session_program_output(smn_session *s, void (*fn)(void *ctx, uint8_t byte), void *ctx);
/* Starts a target's workload for a plan with sampling.started (record: once its file exists). */
socmon_status smn_session_start(smn_session *s);
/* Every run, then (per plan.totals) the totals, or means over the runs, to every consumer. */
socmon_status smn_session_run(smn_session *s);
unsigned smn_session_runs(const smn_session *s);
/* The last run's totals, or the means after a target's runs. */
const socmon_totals *smn_session_totals(const smn_session *s);
/* Counters the program stopped for part of the run, and what no counter holds (a NoC trace's
 * drain and latency): up to max into out, how many there are (0 without a target). */
size_t smn_session_inhibited(const smn_session *s, socmon_inhibited *out, size_t max);
size_t smn_session_results(const smn_session *s, socmon_result *out, size_t max);

/* How the run's program or command ended, in the words and exit status the docs give it
 * (docs/cli.md): a program "halt" 0, "trap" 3, "cycle_limit" 4, "hang" 5, "timeout" 0 (still
 * running at the duration's end); the host's command "exit" with its status, "signal" 128+N,
 * "not_found" 127, "not_executable" 126 (as a shell). */
typedef struct smn_session_end {
    int program;              /* 0: no program or command ran (the rest is empty) */
    const char *end;
    int exit_code;
    int bad;                  /* the end deserves a line (trapped, limit, hang, signal) */
    char message[256];
} smn_session_end;
void smn_session_exit(const smn_session *s, smn_session_end *e);
/* rc, or 127 / 126 when the host's command could not be run at all (the run failed for it). */
int smn_session_failed_exit(const smn_session *s, int rc);

void smn_session_close(smn_session *s);

#endif
