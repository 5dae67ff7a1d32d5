/* The recording writer as a consumer of the pipeline: every sample goes to the streaming writer
 * (socmon_recwriter) as it comes, the pending block is written and synced every flush period of
 * the wall clock (on the pipeline's ticks, so samples are on disk within the period even while a
 * source waits), and samples that never came (an agent's gap, a stream starting past the file's
 * end) become an explicit gap in the file (socmon_recwriter_skip_to), never a silent hole. */
#ifndef SOCMON_ANALYSIS_RECORDER_H
#define SOCMON_ANALYSIS_RECORDER_H

#include "socmon/analysis.h"

typedef struct smn_recorder {
    socmon_recwriter *w;        /* the caller's: it opens and closes it */
    uint64_t flush_ns;          /* 0: no periodic flush */
    uint64_t next_flush;
    uint64_t lost;              /* samples recorded as lost */
    int failed;                 /* a write failed: the writer is not asked again */
} smn_recorder;

/* The consumer writing to r->w (r stays the caller's). */
socmon_consumer smn_recorder_consumer(smn_recorder *r);
/* Before a run of duration_ns at interval_ns of ncounters whose recording no load can hold
 * (SOCMON_RECORDING_LOAD_MAX_VALUES): 1 and the line saying what reads it whole and what a
 * block at a time, so the user knows before the run, not after; else 0. */
int smn_recorder_too_long(uint64_t duration_ns, uint64_t interval_ns, size_t ncounters, char *buf, size_t len);

#endif
