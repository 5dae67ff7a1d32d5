/* What the pipeline knows about a row's or a run's values besides their numbers (socmon_row
 * .value_flags, SOCMON_VALUE_*): perf scaling with the smallest running share, a short
 * interval, samples lost before it, undefined metrics. Outputs turn them into fields and
 * table footnotes (export/value_notes.c). */
#include <math.h>
#include <string.h>

#include "analysis/pipeline_internal.h"

unsigned smn_pipeline_value_flags(const socmon_pipeline *p, const double *running, const double *mv, unsigned sflags,
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

/* How far past its declared maximum rate a counter's delta may go before it is implausible:
 * the interval's length is the samples' timestamps, which on silicon are taken a little before
 * or after the registers are read (a late sampler, a preempted read), and a model may count an
 * instruction's events at once (an Ibex divide moves div_wait by 36). So a delta may be a
 * quarter more than rate x interval, plus a millisecond's worth. A counter set back by
 * software wraps to nearly 2^width, a +2^31 jump is 2^31 more than the rate allows: far past
 * either margin at any interval a sampler uses. */
#define PLAUSIBLE_MARGIN 1.25
#define PLAUSIBLE_SLACK_NS 1e6

static uint64_t all_ones(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (UINT64_C(1) << width) - 1;
}

void smn_pipeline_plausible_begin(socmon_pipeline *p, const socmon_source_info *info)
{
    /* a block is a run of counters of one instance in sample order (targets list a block's
     * counters together; one listed apart makes a block of its own) */
    size_t n = p->n;
    for (size_t i = n; i-- > 0;) {
        const char *a = info->counters[i].instance ? info->counters[i].instance : "";
        const char *b = i + 1 < n && info->counters[i + 1].instance ? info->counters[i + 1].instance : "";
        p->group_end[i] = i + 1 < n && strcmp(a, b) == 0 ? p->group_end[i + 1] : i + 1;
        p->max_rate[i] = info->counters[i].max_rate_hz;
        p->ones[i] = all_ones(info->counters[i].width);
    }
}

unsigned smn_pipeline_plausible(socmon_pipeline *p, const uint64_t *v, uint64_t dt_ns)
{
    /* (the rates and widths from arrays of their own, the interval's span once: a program's
     * per-function counters are 1,128 of them at every sample) */
    const double *restrict rates = p->max_rate;
    const uint64_t *restrict ones = p->ones, *restrict d = p->d;
    unsigned char *restrict badv = p->bad;
    const double span = (double)dt_ns * PLAUSIBLE_MARGIN + PLAUSIBLE_SLACK_NS;
    unsigned any = 0;
    for (size_t i = 0; i < p->n; i++) {
        unsigned char b = 0;
        double rate = rates[i];
        if (rate > 0 && (double)d[i] > rate * span / 1e9)
            b = SOCMON_VALUE_IMPLAUSIBLE;
        badv[i] = b;
        any |= b;
    }
    /* a dead bus answers every read with all-ones: a block of two or more counters that all
     * read so at once (one counter alone may legitimately pass through all-ones) */
    for (size_t i = 0; i < p->n;) {
        size_t e = p->group_end[i], k = i;
        while (k < e && v[k] == ones[k])
            k++;
        if (k == e && e - i >= 2) {
            for (k = i; k < e; k++)
                p->bad[k] |= SOCMON_VALUE_DEAD_BUS;
            any |= SOCMON_VALUE_DEAD_BUS;
        }
        i = e;
    }
    return any;
}
