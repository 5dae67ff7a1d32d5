/* Internal: a target run, as a run plan's session makes one (analysis/session.h): the target
 * opened from what the plan wants (analysis/target_open.h), its counters selected, and a source
 * stepping it at the plan's interval, or the default this file alone decides. Closing the run
 * closes all three. */
#ifndef SOCMON_ANALYSIS_TARGET_RUN_H
#define SOCMON_ANALYSIS_TARGET_RUN_H

#include <stdint.h>
#include "analysis/target_open.h"
#include "socmon/analysis.h"

typedef struct smn_target_run smn_target_run;

/* The longest step of a model's stat: its totals do not depend on the step (the models are
 * step-size invariant and the sampler sums wrap-safe deltas), and 1 s keeps a model's clock
 * arithmetic far from its limits. */
#define SMN_RUN_MAX_STEP_NS 1000000000ull
/* The interval of a target that suggests none. */
#define SMN_RUN_DEFAULT_INTERVAL_NS 1000000ull

/* What a run's default interval is for (interval_ns 0). */
typedef enum smn_step_rule {
    SMN_STEP_TOTALS = 0,   /* totals (stat, documents): on a model the longest step no counter can
                              wrap twice in, at most SMN_RUN_MAX_STEP_NS; on hardware or paced to
                              the wall clock the target's interval, no longer than that bound */
    SMN_STEP_ROWS          /* rows a person reads (record, serve): the target's interval */
} smn_step_rule;

typedef struct smn_sampling {
    uint64_t interval_ns;      /* 0: the default for rule */
    smn_step_rule rule;
    uint64_t duration_ns;      /* 0: the workload's end (required for hardware without a command) */
    int until_stopped;         /* no duration needed: the run ends when should_stop says (serve) */
    int realtime;              /* a model paced to the wall clock */
    uint64_t max_intervals;    /* 0: no limit */
    int started;               /* the caller starts the workload (smn_target_run_start) */
} smn_sampling;

/* ns, shortened to the longest interval in which no counter of set can wrap twice. */
uint64_t smn_step_for(const socmon_set *set, uint64_t ns);
/* The interval a run of t's set samples at: the one place a default interval is decided. */
uint64_t smn_run_interval(const socmon_target *t, const socmon_set *set, const smn_sampling *s);

/* Opens the target w wants and a source over it sampling as s says, running workload (NULL:
 * the target's default). */
socmon_status smn_target_run_open(const smn_target_want *w, const char *workload, const smn_sampling *s,
                                  smn_target_run **out);
/* Starts the workload of a run opened with s->started (record starts it before its file is
 * published, so that a target failing to start leaves no file). */
socmon_status smn_target_run_start(smn_target_run *r);
socmon_source *smn_target_run_source(const smn_target_run *r);
/* The counters events select on the same target (socmon_set_new's patterns; NULL: all), and a
 * new source over them, already started, sampling for duration_ns (0: to the workload's end):
 * the agent's CONFIG between two runs. On failure the old set and source stay; the old ones
 * replaced stay valid until the close or smn_target_run_drop_retired (a consumer may still read
 * what its begin was given). */
socmon_status smn_target_run_reselect(smn_target_run *r, const char *events, uint64_t duration_ns);
/* Frees the sets and sources reselects replaced (kept until now) but generations keep_a and
 * keep_b (0: the first, n: the one the n-th reselect made; UINT_MAX: none); how many. Only those
 * nothing holds (smn_session_drop_retired says which). */
size_t smn_target_run_drop_retired(smn_target_run *r, unsigned keep_a, unsigned keep_b);
/* The opened target (the run's own: closed with it). */
socmon_target *smn_target_run_target(const smn_target_run *r);
socmon_set *smn_target_run_set(const smn_target_run *r);
/* 1 if the run was given a program. */
int smn_target_run_has_program(const smn_target_run *r);
/* The workload a document names: the given one, or the target's default (NULL: none). */
const char *smn_target_run_workload(const smn_target_run *r);
void smn_target_run_close(smn_target_run *r);

#endif
