/* The output interface as a consumer of the analysis pipeline (socmon/analysis.h): every format
 * receives what the pipeline computed, as a document of totals (written when the runs are done:
 * counters, metrics, hot spots) or as a timeline (a row per interval as it comes, merged as the
 * format asks). The formats themselves never evaluate anything. */
#ifndef SOCMON_EXPORT_FEED_H
#define SOCMON_EXPORT_FEED_H

#include "export/output.h"
#include "socmon/analysis.h"
#include "socmon/findings.h"

typedef struct smn_feed_opts {
    smn_doc doc;             /* TOTALS: at finish; INTERVALS: rows as they come */
    const char *title;          /* "Performance counter stats", "recording", ... */
    const char *workload;       /* the workload to name (NULL: the source's) */
    const size_t *shown;        /* INTERVALS: the metric results a human format shows */
    size_t nshown;
    int perf_first;             /* INTERVALS: only the events, the perf_event ones first and their
                                   counts shown by human formats (stat -I on a command) */
    unsigned every;             /* INTERVALS: every Nth interval (record --every) */
    const char *hotspots;       /* TOTALS: hot spots among counters matching this (NULL: the target's) */
    int no_hotspots;
    const socmon_profile *profile; /* INTERVALS: the run's profile, for the run info (or NULL) */
    const socmon_phase *phases;    /* INTERVALS: the workload's phases (socmon/phase.h), or NULL */
    size_t nphases;
    const socmon_findingset *findings; /* rules whose findings end the document (socmon/findings.h),
                                          over the run's totals; NULL: none */
    /* TOTALS: opens the output when the totals are ready (a file named by -o is then written
     * only after a run that succeeded); with it, smn_feed_new's out may be NULL */
    socmon_status (*open)(void *user, smn_output **out);
    void *open_user;
} smn_feed_opts;

typedef struct smn_feed smn_feed;

/* A consumer writing to out (borrowed; the caller ends the document and frees it), or to what
 * o->open opens. */
socmon_status smn_feed_new(smn_output *out, const smn_feed_opts *o, smn_feed **feed);
void smn_feed_free(smn_feed *f);
socmon_consumer smn_feed_consumer(smn_feed *f);
/* The interval (1-based) whose row the output could not take, or 0. */
uint64_t smn_feed_failed_at(const smn_feed *f);
/* Stops writing rows (their reader went away); the run goes on. */
void smn_feed_mute(smn_feed *f);

#endif
