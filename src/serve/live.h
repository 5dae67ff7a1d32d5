/* The live view: what `socmon serve` and `socmon agent --http` show, kept up to date by one
 * producer (the sampler thread, or the collector's callbacks) and read by many HTTP threads.
 *
 * The producer pushes every sample. The view turns consecutive samples into wrap-safe deltas
 * (socmon_delta), adds them to 64-bit monotonic totals (what /metrics exports as counters: a
 * narrow counter that wraps every few ms still gives a total that only grows), and merges them
 * into rows of at least row_ns of wall-clock time (default 50 ms): a 50 us stream gives about 20
 * rows a second, so a page is never flooded, whatever the interval. A row sums the deltas of the
 * samples it merges and evaluates the metrics once over the merged span.
 *
 * Rows, gaps and the end of the run go into a bounded history of entries with increasing ids: an
 * HTTP reader keeps a cursor, replays what the history still holds (a page opened late shows the
 * last history rows) and then waits for new entries. A reader that falls more than the history
 * behind is told how many entries it lost, never silently.
 *
 * Producer side: no allocation and no blocking beyond one short mutex section per row (so it can
 * run inside the agent's sampling hook). Everything the readers see changes under that mutex, so
 * a snapshot (totals + latest metrics) is always of one row boundary. */
#ifndef SOCMON_AGENT_LIVE_H
#define SOCMON_AGENT_LIVE_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/analysis.h"
#include "socmon/device.h"
#include "socmon/metrics.h"
#include "socmon/sample.h"

typedef struct smn_live smn_live;

/* What the view shows. Strings and arrays are borrowed: they must outlive the view (the CLI's
 * session or the collector's schema device holds them). Device parameters are copied. */
typedef struct smn_live_schema {
    const char *target;              /* target spec */
    const char *device;              /* device name, or NULL */
    const char *workload;            /* the workload, or NULL (not known) */
    uint64_t interval_ns;            /* the sampling interval */
    int simulated;                   /* time is a model's */
    size_t ncounters;
    const socmon_counter *counters;  /* the sampled counters, in sample order */
    const char *const *names;        /* their full names ("tile0.l2_hits") */
    size_t nparams;
    const char *const *param_names;
    const double *param_values;
    const socmon_metricset *ms;      /* metrics to evaluate per row (NULL: none); bound by the view */
} smn_live_schema;

typedef struct smn_live_opts {
    uint64_t row_ns;                 /* merge samples into rows at least this long (wall clock);
                                        0: 50 ms */
    size_t history;                  /* entries kept for late readers; 0: 600 (30 s at 20 rows/s) */
    /* The wall clock rows are merged against (tests give their own); NULL: CLOCK_MONOTONIC. */
    uint64_t (*clock)(void *user);
    void *clock_user;
} smn_live_opts;

typedef enum smn_live_kind {
    SOCMON_LIVE_ROW = 1,
    SOCMON_LIVE_GAP,                 /* samples were lost: count of them over t0..t1 */
    SOCMON_LIVE_END                  /* the run ended; nothing follows */
} smn_live_kind;

typedef struct smn_live_entry {
    smn_live_kind kind;
    /* ROW: seq of its last sample, seq of its first, end time, merged span, flags OR-ed over
     * the merged samples (SOCMON_SAMPLE_*), intervals missed before them. */
    uint64_t seq, first_seq, t_ns, dt_ns;
    unsigned flags, missed;
    /* GAP: samples lost, the time span they covered (t0 = the last sample before, t1 = the first
     * after, or 0 when not known). */
    uint64_t count, t0_ns, t1_ns;
    /* Entries this reader lost because it fell further behind than the history (set on the
     * first entry it gets after them). */
    uint64_t skipped;
} smn_live_entry;

socmon_status socmon_live_new(const smn_live_schema *schema, const smn_live_opts *opts,
                              smn_live **out);
void socmon_live_free(smn_live *lv);
/* A view of every counter of set (in set order) with the parameters of its device: what serve,
 * the agent and the collector have at hand. The counters' strings stay the device's (it must
 * outlive the view); target and ms as in the schema. */
socmon_status socmon_live_new_from_set(const socmon_set *set, const char *target, const char *workload,
                                       uint64_t interval_ns, int simulated, const socmon_metricset *ms, const smn_live_opts *opts,
                                       smn_live **out);

/* ---- producer (one thread) ---- */

/* The view is a consumer: of a run's pipeline (smn_live_consumer: a session's, whose metrics are
 * the view's own, from the same metric set over the same counters; the run's end ends the view),
 * or of a pipeline it owns, fed with samples pushed one by one with the calls below. Use one way
 * or the other. */
socmon_consumer smn_live_consumer(smn_live *lv);

/* A sample with its sequence number. The first sample (and the first after a gap) is the
 * baseline the next one's deltas are taken against: it makes no row. A seq that jumps without
 * socmon_live_gap is a gap of the samples skipped. Fails (SOCMON_EINVAL) only on a sample of
 * the wrong size or a seq going backwards, which it ignores. */
socmon_status socmon_live_push(smn_live *lv, uint64_t seq, const socmon_sample *s);
/* The same for a sample of the past (a collector catching up on an agent's ring when it
 * connects): such samples arrive all at once, so their rows are cut at row_ns of the samples'
 * own time rather than of the wall clock. */
socmon_status socmon_live_replay(smn_live *lv, uint64_t seq, const socmon_sample *s);
/* count samples from first_seq on were lost between t0_ns and t1_ns. The deltas of the sample
 * after a gap are not known (a narrow counter may have wrapped any number of times): that
 * sample is a new baseline, so totals count only what was seen. */
void socmon_live_gap(smn_live *lv, uint64_t first_seq, uint64_t count, uint64_t t0_ns, uint64_t t1_ns);
/* The run ended: the pending samples become a last row, then an END entry. Pushes after it are
 * ignored. */
void socmon_live_end(smn_live *lv);

/* ---- readers (any thread) ---- */

const smn_live_schema *socmon_live_schema_of(const smn_live *lv);
/* The bound metrics (their result names and units; NULL if none). Read-only for readers. */
const socmon_metrics *socmon_live_metrics(const smn_live *lv);
size_t socmon_live_nmetrics(const smn_live *lv);

/* The id of the oldest entry still kept: where a new reader starts. */
uint64_t socmon_live_oldest(smn_live *lv);
/* Waits at most timeout_ms for the entry at *cursor, copies it into *e (for a row, its metric
 * values into m[nmetrics] and its deltas into d[ncounters]; either may be NULL) and advances
 * *cursor. Returns 1 with an entry, 0 on timeout, -1 once socmon_live_close was called. */
int socmon_live_next(smn_live *lv, uint64_t *cursor, smn_live_entry *e, double *m, uint64_t *d,
                     int timeout_ms);
typedef struct smn_live_state {
    uint64_t rows;                   /* rows so far (0: none yet: totals 0, metric values NaN) */
    uint64_t elapsed_ns;             /* target time from the first sample to the latest row's end */
    uint64_t samples;                /* samples taken (the first one included) */
    uint64_t missed;                 /* intervals missed (SOCMON_SAMPLE_MISSED counts) plus samples
                                        lost in gaps */
    int ended;                       /* the run ended */
    int started;                     /* a sample came: t0_ns is its time */
    uint64_t t0_ns;                  /* the run's first sample's time (the page's time origin) */
} smn_live_state;
/* Totals (ncounters) and the latest row's metric values (nmetrics), as of the latest row, with
 * the state at that row; any may be NULL. Returns the number of rows so far. */
uint64_t socmon_live_snapshot(smn_live *lv, uint64_t *totals, double *m, smn_live_state *state);
/* Wakes every waiting reader for good (the server is stopping). */
void socmon_live_close(smn_live *lv);

#endif
