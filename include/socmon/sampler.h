/* The interval sampler: reads a set every interval and appends to a timeline.
 *
 * On a simulated target it advances the model by one interval per sample.
 * A run's length is exact whatever the interval: with a duration the last
 * interval is what is left of it (min(interval, left)); without one the run
 * ends where the workload ends, which a model reports by stopping its clock
 * there (so the last interval ends at the workload's true end). Such a
 * shorter last interval is marked SOCMON_SAMPLE_SHORT. Elapsed time is the
 * target clock's difference, never a sum of requested steps. With realtime pacing (always on hardware, optional on models) it
 * sleeps to absolute deadlines on CLOCK_MONOTONIC, so lateness never
 * accumulates. On hardware, a wake-up later than one whole interval records
 * the sample as SOCMON_SAMPLE_MISSED with the count of intervals missed: never
 * silently merged into its neighbour; with a duration, only the intervals the
 * run still had count, so samples - 1 + missed is always
 * ceil(duration / interval). A model paced in real time loses
 * nothing when the host is late (its clock only moves when advanced), so the
 * sampler catches up, taking the late samples at their exact simulated
 * instants; the lateness shows in the jitter statistics. The sampler refuses an interval longer than the
 * shortest socmon_max_interval_ns of the set's counters, because a counter
 * could then wrap twice unseen. */
#ifndef SOCMON_SAMPLER_H
#define SOCMON_SAMPLER_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/sample.h"
#include "socmon/target.h"
#include "socmon/timeline.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_sampler_opts {
    uint64_t interval_ns;   /* > 0 */
    uint64_t duration_ns;   /* 0: until the workload is done */
    int realtime;           /* pace against the wall clock even on a model */
    uint64_t max_intervals; /* 0: no limit; else stop after this many intervals (sampled or
                             * missed); with a duration, whichever ends first */
    size_t size;            /* sizeof(socmon_sampler_opts) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_sampler_opts;

typedef struct socmon_sampler_stats {
    uint64_t samples;       /* samples taken, the initial one included */
    uint64_t missed;        /* intervals missed */
    uint64_t jitter_max_ns; /* realtime: largest wake-up lateness */
    double jitter_mean_ns;
} socmon_sampler_stats;

/* Called after each sample except the first: prev and cur are consecutive,
 * deltas[] their wrap-safe differences. A non-OK return stops the run and is
 * returned. */
typedef socmon_status (*socmon_sample_fn)(void *user, const socmon_sample *prev,
                                          const socmon_sample *cur, const uint64_t *deltas);

/* tl (may be NULL) receives every sample, the initial one included. */
socmon_status socmon_sampler_run(socmon_target *t, socmon_set *set,
                                 const socmon_sampler_opts *opts, socmon_timeline *tl,
                                 socmon_sample_fn fn, void *user, socmon_sampler_stats *stats);

SOCMON_END_DECLS
#endif
