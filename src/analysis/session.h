/* Internal: a run plan and the session that runs it (issue 40, item 2). A plan says what a run
 * is: its source (a target's spec with its program and workload, or a recording's path), the
 * interval and duration (0: the target's default, decided in smn_target_run_open alone),
 * repeats, the metric file and the consumers. The session opens the source, the metric set and
 * the pipeline from it, runs it (each repeat from a fresh target), and says how it ended: the
 * totals and the exit status the docs give a program's end. A caller adds consumers and reads
 * the outcome; it never assembles a source and a pipeline itself. Its first user is the
 * library's documents (export/document.c); the CLI's commands move onto it next. */
#ifndef SOCMON_ANALYSIS_SESSION_H
#define SOCMON_ANALYSIS_SESSION_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/analysis.h"

typedef struct smn_run_plan {
    /* the source: a target (spec, with program and workload optional) or a recording */
    const char *spec;
    const char *program;
    const char *workload;
    const char *recording;
    uint64_t interval_ns;     /* 0: the target's default */
    uint64_t duration_ns;     /* 0: the workload's end (required for hardware) */
    unsigned repeat;          /* 0 or 1: one run; N: N runs, each from a fresh target */
    const char *metric_file;  /* NULL: the target's own metrics */
    int (*should_stop)(void *user);
    void *user;
} smn_run_plan;

typedef struct smn_session smn_session;

/* Opens the plan's source, metric set and pipeline (no run yet). Exactly one of spec and
 * recording; repeat > 1 only with a target. */
socmon_status smn_session_open(const smn_run_plan *plan, smn_session **out);
/* Adds a consumer (its ops and self stay the caller's), before run. */
socmon_status smn_session_add(smn_session *s, const socmon_consumer *c);
const socmon_source_info *smn_session_info(const smn_session *s);
const socmon_metrics *smn_session_metrics(const smn_session *s);
/* The workload the run names: the plan's, or the target's default (NULL: none, or a recording). */
const char *smn_session_workload(const smn_session *s);
/* The program's console bytes, each to fn as it prints them, on every run: 1, or 0 when the
 * plan has no program (fn is not called). */
int smn_session_program_output(smn_session *s, void (*fn)(void *ctx, uint8_t byte), void *ctx);
/* Every run, then (with a target) the means over them to every consumer's finish. */
socmon_status smn_session_run(smn_session *s);
/* The last run's totals, or the means after a target's runs. */
const socmon_totals *smn_session_totals(const smn_session *s);

/* How the program ended, in the words and exit status socmon stat gives it (docs/cli.md):
 * "halt" 0, "trap" 3, "cycle_limit" 4, "hang" 5, "timeout" 0 (still running at -d's end). */
typedef struct smn_session_end {
    int program;              /* 0: no program ran (the rest is empty) */
    const char *end;
    int exit_code;
    char message[256];
} smn_session_end;
void smn_session_exit(const smn_session *s, smn_session_end *e);

void smn_session_close(smn_session *s);

#endif
