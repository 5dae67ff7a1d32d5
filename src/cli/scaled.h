/* What people see of perf_event counts: the event counters without their --enabled and
 * --running time counters, the values already scaled, each with the share of time it counted,
 * and the events the machine could not count (socmon/scaling.h, socmon/perf.h). */
#ifndef SOCMON_CLI_SCALED_H
#define SOCMON_CLI_SCALED_H

#include "cli/cli.h"
#include "export/output.h"

typedef struct cli_scaled {
    socmon_counter_list list;
    socmon_counter *c;
    const char **names;
    uint64_t *values;
    double *running, *stddev;
    const char **unsupported;
} cli_scaled;

/* Fills v from n counters (c, names): values[i] and pct[i] per counter, stddev (may be NULL)
 * likewise; t (may be NULL: a recording) is the live target, whose perf device (its own or a
 * combined member's) lists the events it could not count. Returns 0, or -1 out of memory (v is
 * then safe to free). */
int cli_scaled_view(cli_scaled *v, const socmon_counter *c, const char *const *names, size_t n, const socmon_target *t,
                    const socmon_scaling *sc, const uint64_t *values, const double *pct, const double *stddev);
void cli_scaled_free(cli_scaled *v);

/* out[i]: counter i's delta d[i] scaled by its time counters (rounded; 0 when it never ran), or
 * d[i] itself for a counter without them; pct (may be NULL) gets each running share. n counters,
 * sc NULL: a plain copy. Returns 0, or -1 out of memory. */
int cli_scale_deltas(const socmon_scaling *sc, size_t n, const uint64_t *d, uint64_t *out, double *pct);

#endif
