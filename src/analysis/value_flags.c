/* What the pipeline knows about a row's or a run's values besides their numbers (socmon_row
 * .value_flags, SOCMON_VALUE_*): perf scaling with the smallest running share, a short
 * interval, samples lost before it, undefined metrics. Outputs turn them into fields and
 * table footnotes (export/value_notes.c). */
#include <math.h>

#include "analysis/pipeline_internal.h"

unsigned pipeline_value_flags(const socmon_pipeline *p, const double *running, const double *mv, unsigned sflags,
                              uint64_t lost, double *min_running)
{
    unsigned f = 0;
    double lo = NAN;
    for (size_t i = 0; p->sc && i < p->n; i++) {
        if (!socmon_scaling_has_time(p->sc, i))
            continue;
        /* never ran (NaN) is the least share of all: its value is no estimate at all */
        double r = isnan(running[i]) ? 0 : running[i];
        lo = isnan(lo) || r < lo ? r : lo;
    }
    if (!isnan(lo) && lo < 100)
        f |= SOCMON_VALUE_SCALED;
    if (sflags & SOCMON_SAMPLE_SHORT)
        f |= SOCMON_VALUE_SHORT;
    if (lost)
        f |= SOCMON_VALUE_LOST;
    for (size_t k = 0; mv && p->m && k < p->nm; k++)
        if (isnan(mv[k])) {
            f |= SOCMON_VALUE_UNDEFINED;
            break;
        }
    *min_running = lo;
    return f;
}
