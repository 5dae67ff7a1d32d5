/* Internal: a target run from its spec alone, as socmon stat makes one (the wiring the library's
 * documents need, socmon/document.h): the target opened with the program as its option, every
 * counter selected, and a source stepping it at the longest interval no counter can wrap twice
 * in. Closing the run closes all three. */
#ifndef SOCMON_ANALYSIS_TARGET_RUN_H
#define SOCMON_ANALYSIS_TARGET_RUN_H

#include <stdint.h>
#include "socmon/analysis.h"

typedef struct smn_target_run smn_target_run;

/* The longest step of a model's stat: its totals do not depend on the step (the models are
 * step-size invariant and the sampler sums wrap-safe deltas), and 1 s keeps a model's clock
 * arithmetic far from its limits. */
#define SMN_RUN_MAX_STEP_NS 1000000000ull

/* ns, shortened to the longest interval in which no counter of set can wrap twice (the rule of
 * socmon stat's step, cli_stat_interval, and of a target run's). */
uint64_t smn_step_for(const socmon_set *set, uint64_t ns);

/* program and workload may be NULL; interval_ns 0 is the target's default (the one place it is
 * decided: a hardware target's default interval, else SMN_RUN_MAX_STEP_NS, shortened by
 * smn_step_for); duration_ns is required for hardware (a model runs its workload to its end). */
socmon_status smn_target_run_open(const char *spec, const char *program, const char *workload, uint64_t interval_ns,
                                  uint64_t duration_ns, smn_target_run **out);
socmon_source *smn_target_run_source(const smn_target_run *r);
/* The opened target (the run's own: closed with it). */
socmon_target *smn_target_run_target(const smn_target_run *r);
/* 1 if the run was given a program. */
int smn_target_run_has_program(const smn_target_run *r);
/* The workload a document names: the given one, or the target's default (NULL: none). */
const char *smn_target_run_workload(const smn_target_run *r);
/* The program's console bytes, each to fn as it prints them (socmon_target_program_output), and
 * how it ended (socmon_target_program_end): the run's target for the layers above analysis, which
 * may not call a target. */
int smn_target_run_program_output(smn_target_run *r, void (*fn)(void *ctx, uint8_t byte), void *ctx);
socmon_program_end smn_target_run_program_end(const smn_target_run *r, char *msg, size_t len);
void smn_target_run_close(smn_target_run *r);

#endif
