/* Internal to the library: target calls the sampler needs. */
#ifndef SOCMON_TARGETS_TARGET_INTERNAL_H
#define SOCMON_TARGETS_TARGET_INTERNAL_H

#include "socmon/target.h"

/* socmon_target_advance without the sleep on hardware: for the sampler,
 * which has already waited until its deadline. */
socmon_status socmon_target_step(socmon_target *t, uint64_t ns, int *done);

/* The target's wait op (socmon_target_ops.wait) if it has one: 1 if its run ended before
 * deadline_ns (CLOCK_MONOTONIC); -1 if it has no wait op (the caller sleeps). */
int socmon_target_wait(socmon_target *t, uint64_t deadline_ns);

/* Replaces t's spec (a copy of spec is kept). */
socmon_status socmon_target_set_spec(socmon_target *t, const char *spec);

/* The target implementation's own state (what its open set as *priv). */
void *socmon_target_priv(const socmon_target *t);

#endif
