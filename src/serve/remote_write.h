/* Prometheus Remote-Write: a run's series pushed to a receiver (Prometheus with
 * --web.enable-remote-write-receiver, Mimir, Thanos receive, VictoriaMetrics), for `agent`,
 * `record` and `serve --remote-write URL` (docs/prometheus.md, "Pushing: Remote-Write").
 *
 * The writer is a consumer of the run's pipeline (socmon/analysis.h). It asks for rows of
 * push_ns / interval merged intervals, and each row becomes a point: the counters' totals so
 * far and the row's metric values, i.e. what /metrics would show at that row. The producer
 * (the sampling thread, or the collector's) only copies the point into a bounded queue of
 * preallocated slots under a short lock: no allocation, no I/O, no waiting on the receiver. A
 * sender thread of its own turns points into the text exposition, the exposition into a
 * WriteRequest (rw_encode.h), and posts it with libcurl. A receiver that is down or slow only
 * fills the queue; when it is full the oldest point is dropped and counted, and the count goes
 * out with every later push as socmon_remote_write_dropped_total. 5xx, 429 and failures to
 * connect are retried with exponential backoff and full jitter; any other 4xx refuses the body
 * itself: it is said once and the points are dropped, never sent again. */
#ifndef SOCMON_SERVE_REMOTE_WRITE_H
#define SOCMON_SERVE_REMOTE_WRITE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "socmon/analysis.h"

typedef struct smn_rw_opts {
    const char *url;            /* http:// or https://; basic auth as user:password@host */
    const char *token;          /* a bearer token (Authorization: Bearer), or NULL */
    uint64_t push_ns;           /* one point per this much of the run's time; 0: 1 s. Never
                                   less than the sampling interval (then one per interval). */
    size_t queue;               /* points held while the receiver cannot take them; 0: 600 */
    uint64_t timeout_ns;        /* one request's limit; 0: 10 s */
    uint64_t backoff_min_ns, backoff_max_ns; /* retry waits; 0: 100 ms and 5 s */
    uint64_t drain_ns;          /* at the end, how long queued points may still take to go out;
                                   0: 5 s (what is left is dropped, and counted) */
    const char *instance;       /* the instance label (what a scrape would set); NULL: the host name */
    FILE *log;                  /* where failures and recoveries are said; NULL: stderr */
    const char *who;            /* the log lines' prefix ("socmon agent"); NULL: "socmon" */
} smn_rw_opts;

typedef struct smn_rw_stats {
    uint64_t points;            /* points made from the run */
    uint64_t sent;              /* points a receiver took (2xx) */
    uint64_t dropped;           /* points dropped: queue full, refused (4xx), or left at the end */
    uint64_t dropped_full, refused, left;
    uint64_t requests, retries; /* POSTs made; of them sent again after a failure */
} smn_rw_stats;

typedef struct smn_rw smn_rw;

/* Checks the URL (scheme, host) and the options, and readies libcurl: a bad URL fails here,
 * naming it. Nothing is sent before the consumer's begin. */
socmon_status smn_rw_new(const smn_rw_opts *o, smn_rw **out);
/* The consumer to add to the run's pipeline (rw must outlive the pipeline's run). */
socmon_consumer smn_rw_consumer(smn_rw *rw);
/* The run is over: waits up to drain_ns for the queue to go out, then stops the sender. The
 * pipeline's metrics (which the sender reads) must still exist. Idempotent. */
void smn_rw_finish(smn_rw *rw);
void smn_rw_get_stats(smn_rw *rw, smn_rw_stats *out);
/* The summary line: "remote write to URL: 120 points sent, 3 dropped (...)" */
void smn_rw_summary(smn_rw *rw, char *buf, size_t len);
/* Finishes if needed and frees. NULL is fine. */
void smn_rw_free(smn_rw *rw);

#endif
