/* One snapshot of a session's counters (socmon read): every selected counter's value now, with
 * its schema and full name, the target's time the run before it took, and the events the
 * machine could not count (perf's <not supported>). */
#ifndef SOCMON_ANALYSIS_SNAPSHOT_H
#define SOCMON_ANALYSIS_SNAPSHOT_H

#include "analysis/session.h"

#define SMN_SNAPSHOT_MAX_UNSUPPORTED 64

typedef struct smn_snapshot {
    size_t n;
    socmon_counter *schema;
    const char **names;
    socmon_sample s;              /* s.v[i]: counter i's value */
    uint64_t elapsed_ns;          /* the target's time the run took (0 without one) */
    const char *unsupported[SMN_SNAPSHOT_MAX_UNSUPPORTED];
    size_t nunsupported;
} smn_snapshot;

/* With run, the session's run first (sampled, so no counter is read after wrapping twice; its
 * samples unused); then the read, and the bus trace flushed. */
socmon_status smn_session_snapshot(smn_session *s, int run, smn_snapshot *out);
void smn_snapshot_free(smn_snapshot *x);

#endif
