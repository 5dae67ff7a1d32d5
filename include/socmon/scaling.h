/* Multiplexed counts: finding and applying the enabled/running times (socmon/perf.h).
 *
 * A counter NAME whose schema also holds NAME--enabled and NAME--running (same instance,
 * unit "ns") was counted by a kernel that may have shared the PMU among groups. Over an
 * interval its estimate is delta(NAME) * delta(enabled) / delta(running), as perf and
 * PAPI scale; the running share is 100 * delta(running) / delta(enabled). An interval in
 * which the event never ran (running delta 0) has no estimate: perf's "<not counted>".
 * This works on any schema (a live set, a recording, an agent's HELLO): the time
 * counters are ordinary counters, so every format keeps them. */
#ifndef SOCMON_SCALING_H
#define SOCMON_SCALING_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/device.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_scaling socmon_scaling;

/* Looks at the n counters (c[i], full names names[i]) and pairs each counter with its
 * --enabled/--running counters where they exist. */
socmon_status socmon_scaling_new(const socmon_counter *c, const char *const *names, size_t n,
                                 socmon_scaling **out);
void socmon_scaling_free(socmon_scaling *s);
/* 1 if counter i is a time counter (NAME--enabled / NAME--running): outputs for people
 * show it through its event's running share, not as a count. */
int socmon_scaling_is_time(const socmon_scaling *s, size_t i);
/* 1 if counter i has time counters (it may be multiplexed). */
int socmon_scaling_has_time(const socmon_scaling *s, size_t i);

/* Per counter i over one interval (or a whole run) of deltas d[0..n):
 *   value[i]   the estimate (d[i] itself for a counter without time counters; NaN when
 *              the event never ran: "<not counted>"),
 *   running[i] the running share in percent (100 for a counter without time counters,
 *              0 when it never ran).
 * Either output may be NULL. */
void socmon_scaling_apply(const socmon_scaling *s, const uint64_t *d, double *value, double *running);

SOCMON_END_DECLS
#endif
