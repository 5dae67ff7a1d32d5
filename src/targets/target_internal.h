/* Internal to the library: target calls the sampler needs. */
#ifndef SOCMON_TARGETS_TARGET_INTERNAL_H
#define SOCMON_TARGETS_TARGET_INTERNAL_H

#include "socmon/target.h"

/* socmon_target_advance without the sleep on hardware: for the sampler,
 * which has already waited until its deadline. */
socmon_status smn_target_step(socmon_target *t, uint64_t ns, int *done);

/* The target's wait op (socmon_target_ops.wait) if it has one: 1 if its run ended before
 * deadline_ns (CLOCK_MONOTONIC); -1 if it has no wait op (the caller sleeps). */
int smn_target_wait(socmon_target *t, uint64_t deadline_ns);

/* Replaces t's spec (a copy of spec is kept). */
socmon_status smn_target_set_spec(socmon_target *t, const char *spec);

/* Reads v as a whole number, exactly (never through a double): decimal ("010" is ten, not
 * octal), 0x hex, or decimal with a point or an exponent when the value is whole ("1e3",
 * "2.5e3"). No sign, no spaces. 0 and *out; -1 when v is not a whole number; -2 when it is
 * one above UINT64_MAX. The one reader of every integer target option (options.c). */
int smn_option_read_u64(const char *v, uint64_t *out);

/* Opens spec's target (options and argv); the opened target's socmon_target_spec reads text, the
 * spec as its caller gave it (without the options the caller added, as socmon_target_open_kv). */
socmon_status smn_target_open_spec_as(const socmon_spec *spec, const char *text, socmon_target **out);

/* The target implementation's own state (what its open set as *priv). */
void *smn_target_priv(const socmon_target *t);

#endif
