/* Internal: opening the target a run plan names (analysis/session.h), with everything a command
 * line adds to its spec: a program, a command for the target that runs one (the host), the
 * events to select, CPUs, a bus trace, a cycle limit. Several specs are one combined run. This
 * is the one place a plan's target is opened; the CLI, the documents and the agent describe it
 * with an smn_target_want and never open a target by hand. */
#ifndef SOCMON_ANALYSIS_TARGET_OPEN_H
#define SOCMON_ANALYSIS_TARGET_OPEN_H

#include <stdint.h>
#include "socmon/analysis.h"

/* The target a plan without a spec opens: the virtual ESP SoC, which needs no hardware. */
#define SMN_DEFAULT_TARGET "esp"

typedef struct smn_target_want {
    /* a target declared by its caller (socmon_target_open_ops, no options), opened in place of
     * a spec: a test's or an embedder's own ops table */
    const socmon_target_ops *ops;
    const char *const *specs;   /* the target specs; several: one combined run (socmon_target_combine) */
    size_t nspecs;              /* 0: SMN_DEFAULT_TARGET */
    int spec_given;             /* the user named the target (else -e may name the host's events) */
    const char *program;        /* a program the target runs (ibex), as its typed option */
    char *const *command;       /* the host's command, NULL-terminated, or NULL */
    const char *events;         /* globs over the counters, or the host's perf event names */
    const char *cpus;           /* the host's CPUs (-C) */
    int all_cpus;               /* the host: every CPU (-a) */
    const char *trace_bus;      /* a model's bus trace file */
    uint64_t max_cycles;        /* with max_cycles_set: a program's cycle limit */
    int max_cycles_set;
    int symbols;                /* per-function counters, if the target runs a program and has them */
    const char *workload;       /* only to tell the default target's -e from the host's */
} smn_target_want;

/* Opens w's target into *t and its counter set (w->events selected) into *set. On failure both
 * are NULL and the message names the spec or option at fault. */
socmon_status smn_target_open_want(const smn_target_want *w, socmon_target **t, socmon_set **set);

#endif
