/* The live view's state, shared by its producer side (live.c) and its reader side
 * (live_read.c). Not used outside them. */
#ifndef SOCMON_AGENT_LIVE_INTERNAL_H
#define SOCMON_AGENT_LIVE_INTERNAL_H

#include <pthread.h>
#include "serve/live.h"
#include "socmon/analysis.h"

#define LIVE_DEFAULT_ROW_NS 50000000ull
#define LIVE_DEFAULT_HISTORY 600

struct smn_live {
    smn_live_schema schema;
    smn_live_opts opts;
    char **pnames;                /* copies of the device parameters */
    socmon_counter *own_counters; /* socmon_live_new_from_set: the set's counters, contiguous */
    const char **own_names;
    double *pvalues;
    const socmon_metrics *metrics; /* the pipeline's, bound to the counters */
    size_t nc, nm;
    /* the analysis pipeline that turns pushed samples into rows (socmon/analysis.h): the view is
     * one of its consumers and evaluates nothing itself */
    socmon_pipeline *p;
    socmon_source_info info;
    int begun, ended;
    uint64_t first_t;             /* the first sample's time */
    int have_first;
    uint64_t *totals;             /* running, 64-bit, monotonic */

    /* shared: under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    smn_live_entry *ring;      /* history: entry id lives at slot id % cap */
    double *ring_m;               /* nm per slot */
    uint64_t *ring_d;             /* nc per slot */
    size_t cap;
    uint64_t next_id;             /* id of the next entry */
    uint64_t *pub_totals;
    double *pub_m;
    uint64_t rows, pub_elapsed, pub_samples, pub_missed;
    int pub_ended, closing;
    int pub_started;
    uint64_t pub_t0;
};

#endif
