/* Internal to the remote writer: its state, shared by remote_write.c (queue, consumer, sender
 * thread) and rw_http.c (the POST through libcurl). */
#ifndef SOCMON_SERVE_RW_INTERNAL_H
#define SOCMON_SERVE_RW_INTERNAL_H

#include <pthread.h>

#include "serve/remote_write.h"

/* One point: a row's totals and metric values (arrays in the writer's preallocated block). */
typedef struct smn_rw_point {
    int64_t t_ms;               /* the row's end on the wall clock, ms since 1970 */
    uint64_t elapsed_ns, samples, missed;
    uint64_t *tot;
    double *m;
} smn_rw_point;

struct smn_rw {
    smn_rw_opts o;              /* with the defaults filled in */
    char *url, *token, *who;
    char shown[512];            /* the URL for people: password hidden, escaped */
    char instance[256];
    unsigned seed;              /* the backoff's jitter */

    /* the schema, from the consumer's begin (borrowed from the pipeline) */
    const socmon_source_info *info;
    const socmon_metricset *ms;
    const socmon_metrics *metrics;
    size_t nc, nm;
    char target[64];

    /* producer only */
    uint64_t *tot;              /* the counters' totals so far */
    int64_t wall0_ns;           /* the run's time 0 on the wall clock */
    int anchored;

    pthread_mutex_t mu;         /* guards the ring, st and the flags below */
    pthread_cond_t cv;
    smn_rw_point *slots;        /* o.queue ring slots, then BATCH for the sender's batch */
    smn_rw_point *batch;
    unsigned char *values;
    size_t head, count;
    int draining, ended;
    uint64_t deadline_ns;       /* with draining: CLOCK_REALTIME */
    smn_rw_stats st;

    pthread_t th;
    int started;
    /* sender only */
    int failing, refusal_said;
    void *curl;                 /* CURL *, made at the first post */
    void *headers;              /* struct curl_slist * */

    int other_schema;           /* a later run's counters are not the first's: no more points */
};

/* What one POST came to. */
typedef struct smn_rw_answer {
    int ok;                     /* 2xx */
    int retry;                  /* worth sending again: 5xx, 429, no connection, a timeout */
    long status;                /* 0: no HTTP answer */
    char text[600];             /* for the log: what went wrong, escaped */
} smn_rw_answer;

/* Posts body; limit_ns (0: the writer's timeout) caps the request's time. */
void smn_rw_post(smn_rw *rw, const uint8_t *body, size_t len, uint64_t limit_ns, smn_rw_answer *a);
void smn_rw_curl_free(smn_rw *rw);

#endif
