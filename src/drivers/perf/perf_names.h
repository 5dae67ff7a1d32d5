/* Internal to src/drivers/perf: the pieces of event-name parsing. */
#ifndef SOCMON_DRIVERS_PERF_NAMES_H
#define SOCMON_DRIVERS_PERF_NAMES_H

#include <stddef.h>
#include "socmon/perf.h"

/* The generic event names perf knows without any table (hardware, software,
 * hardware cache): i-th one into buf; 0 past the last. */
int smn_perf_generic_name(size_t i, char *buf, size_t len);
/* Looks name up among the generic events: 1 and *out filled, or 0. */
int smn_perf_generic_lookup(const char *name, socmon_perf_attr *out);

/* pmu/terms/: SOCMON_OK, or an error naming the bad term. body is what is
 * between the slashes. */
socmon_status smn_perf_sysfs_parse(const char *pmu, const char *body, const socmon_perf_names *names,
                               socmon_perf_attr *out);
/* Up to max close matches to name among the PMU's events/ and format/ entries (and the
 * PMU names themselves when pmu is NULL), appended to sugg (", "-separated). */
void smn_perf_sysfs_suggest(const char *pmu, const char *name, const socmon_perf_names *names, char *sugg,
                        size_t len, int *count, int max);

/* libpfm4: 1 and *out filled when it knows name, 0 when it does not (or is absent),
 * -1 with a socmon_fail message when the name is its but malformed. */
int smn_perf_pfm_lookup(const char *name, socmon_perf_attr *out);

/* Edit distance, capped at cap + 1 (cheap rejection of far names). */
size_t smn_perf_edit_distance(const char *a, const char *b, size_t cap);
/* Adds cand to the suggestion list if close enough to name (and not already there). */
void smn_perf_suggest_add(const char *name, const char *cand, char *sugg, size_t len, int *count, int max);

#endif
