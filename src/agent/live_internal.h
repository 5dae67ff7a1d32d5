/* The live view's state, shared by its producer side (live.c) and its reader side
 * (live_read.c). Not used outside them. */
#ifndef SOCMON_AGENT_LIVE_INTERNAL_H
#define SOCMON_AGENT_LIVE_INTERNAL_H

#include <pthread.h>
#include "agent/live.h"

#define LIVE_DEFAULT_ROW_NS 50000000ull
#define LIVE_DEFAULT_HISTORY 600

struct socmon_live {
    socmon_live_schema schema;
    socmon_live_opts opts;
    char **pnames;                /* copies of the device parameters */
    socmon_counter *own_counters; /* socmon_live_new_from_set: the set's counters, contiguous */
    const char **own_names;
    double *pvalues;
    socmon_metrics *metrics;      /* bound to the counters; evaluated by the producer only */
    size_t nc, nm;

    /* producer's own state */
    uint64_t *prev;               /* the previous sample's values */
    uint64_t prev_t, last_seq;
    uint64_t first_t;             /* the first sample's time */
    uint64_t samples, missed;     /* pushed so far; missed intervals + samples lost in gaps */
    int have_first;
    int have_prev, have_seq, ended;
    uint64_t *acc;                /* deltas of the row being merged */
    uint64_t acc_first_seq, acc_seq, acc_t, acc_dt, acc_n;
    unsigned acc_flags, acc_missed;
    uint64_t last_row_wall;
    int have_row_wall;
    uint64_t *totals;             /* running, 64-bit, monotonic */
    double *mv;                   /* metric values of the row being published */

    /* shared: under mu */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    socmon_live_entry *ring;      /* history: entry id lives at slot id % cap */
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
