/* Regions: code measuring parts of itself, by name, through perf_event (socmon/perf.h), the
 * analogue of LIKWID's marker API and PAPI's high-level regions.
 *
 *     socmon_regions *r = NULL;
 *     socmon_regions_open_env(&r);            // NULL (all calls no-ops) unless SOCMON_REGIONS is set
 *     socmon_region_begin(r, "solve");
 *         socmon_region_begin(r, "assemble"); ... socmon_region_end(r, "assemble");
 *     socmon_region_end(r, "solve");
 *     socmon_regions_close(r);                // writes the recording
 *
 * Regions nest (a per-thread stack, at most SOCMON_REGION_DEPTH deep) and their counts are
 * inclusive: a nested region's counts are in its parent's too. Each thread counts itself (its
 * own perf group, opened at its first begin, read by rdpmc where the kernel allows it), so
 * begin/end take no lock; totals are summed over threads and calls. A handle belongs to its
 * user: two libraries in one process each open their own.
 *
 * Cheap when off: every call on a NULL handle returns at once. The SOCMON_REGION_BEGIN/END
 * macros expand to nothing unless SOCMON_REGIONS_ON is defined, for code that must not even
 * test a pointer in production builds.
 *
 * The recording (docs/recording-format.md, read by `socmon report`) has one instance per region
 * (its name) with each event's counter (with its --enabled/--running times), calls and time_ns;
 * two samples: the open (zeros) and the close (the totals). docs/regions.md. */
#ifndef SOCMON_REGION_H
#define SOCMON_REGION_H

#include "socmon/export.h"

#include "socmon/perf.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

#define SOCMON_REGION_DEPTH 32
#define SOCMON_REGION_NAME_MAX 63

typedef struct socmon_regions socmon_regions;

typedef struct socmon_regions_opts {
    const char *path;              /* the recording written at close (required) */
    const char *events;            /* perf event list; NULL: "task-clock,page-faults,cycles:u,instructions:u" */
    const socmon_perf_sys *sys;    /* NULL: the real kernel (a model in tests) */
    size_t size;            /* sizeof(socmon_regions_opts) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_regions_opts;

socmon_status socmon_regions_open(const socmon_regions_opts *opts, socmon_regions **out);
/* From the environment: SOCMON_REGIONS=PATH (the recording) and optionally
 * SOCMON_REGIONS_EVENTS=LIST. *out is NULL (and SOCMON_OK) when SOCMON_REGIONS is unset. */
socmon_status socmon_regions_open_env(socmon_regions **out);
/* Enters region name on the calling thread. Names are [A-Za-z0-9_-], 1..63 characters. With r
 * NULL (socmon_regions_open_env without SOCMON_REGIONS) this and socmon_region_end do nothing. */
socmon_status socmon_region_begin(socmon_regions *r, const char *name);
/* Leaves region name, which must be the calling thread's innermost open region (otherwise
 * SOCMON_ESTATE naming both, and nothing changes). With r NULL it does nothing. */
socmon_status socmon_region_end(socmon_regions *r, const char *name);
/* Writes the recording and frees r (NULL: nothing). Call it after every thread that used r
 * has ended its regions; a region still open is an error naming it (the rest is written).
 * Threads may exit before or after it (an exited thread's events are closed, its sums kept),
 * not while it runs. */
socmon_status socmon_regions_close(socmon_regions *r);
/* The totals so far as a device of their own (the caller frees it): one instance per region with
 * the events' counters, `calls` and `time_ns`, holding a copy taken now (a set over it reads
 * them, socmon_set_read). *t0_ns (may be NULL) gets the handle's open time (CLOCK_MONOTONIC).
 * SOCMON_ENOENT before any thread began a region. What regions_close writes is these totals. */
socmon_status socmon_regions_totals(socmon_regions *r, socmon_device **dev, uint64_t *t0_ns);

#ifdef SOCMON_REGIONS_ON
#define SOCMON_REGION_BEGIN(r, name) socmon_region_begin((r), (name))
#define SOCMON_REGION_END(r, name) socmon_region_end((r), (name))
#else
#define SOCMON_REGION_BEGIN(r, name) ((void)0)
#define SOCMON_REGION_END(r, name) ((void)0)
#endif

SOCMON_END_DECLS
#endif
