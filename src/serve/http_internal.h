/* What the HTTP server's files share (http.c: server, routes; http_access.c: the Host check and
 * the token; http_conns.c: who gets a connection and for how long; http_log.c: the log's budget;
 * http_stream.c: the server-sent events; http_metrics.c: /metrics). Not used outside
 * src/serve/http*.c and their tests. */
#ifndef SOCMON_AGENT_HTTP_INTERNAL_H
#define SOCMON_AGENT_HTTP_INTERNAL_H

#include <microhttpd.h>
#include <pthread.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include "serve/http.h"
#include "socmon/status.h"

/* ---- the log (http_log.c): lines with the same key share a budget per time window ---- */

#define HTTP_LOG_SLOTS 8
#define HTTP_LOG_LINE 400

typedef struct http_log_slot {
    char key[64];
    char first[64];           /* the window's first line, named when its suppressed count is said */
    uint64_t start_ms, last_ms;
    unsigned printed, suppressed;
} http_log_slot;

typedef struct http_log {
    FILE *fp;
    const char *who;
    pthread_mutex_t mu;
    http_log_slot slot[HTTP_LOG_SLOTS];
    uint64_t all_start_ms;    /* every kind together: this window's start, */
    unsigned all_printed, all_suppressed;   /* ... lines written and left out in it */
} http_log;

void http_log_init(http_log *l, FILE *fp, const char *who);
/* Says what is still owed (suppressed counts) and frees the mutex. */
void http_log_destroy(http_log *l);
/* One line "<who>: <text>" unless the key's budget (or all kinds' budget) is spent; control
 * bytes escaped as \xNN (core/text.h). */
void http_logf(http_log *l, const char *key, const char *fmt, ...) SOCMON_PRINTF(3, 4);
void http_logv(http_log *l, const char *key, const char *fmt, va_list ap) SOCMON_PRINTF(3, 0);
/* Says the suppressed counts of windows that are over (all: of every window). */
void http_log_tick(http_log *l, int all);

/* ---- who is answered (http_access.c) ---- */

#define HTTP_HOSTS_MAX 16
#define HTTP_TOKEN_COOKIE "socmon_token"

typedef struct http_access {
    char *token;              /* NET_TOKEN_MAX bytes, zero-padded (net_token_equal), or NULL */
    /* names a Host header may carry besides localhost and IP literals (--http-host); any_host:
     * "*" was given, no check */
    char hosts[HTTP_HOSTS_MAX][256];
    size_t nhosts;
    int any_host;
} http_access;

/* token: NULL (none) or 1..NET_TOKEN_MAX-1 bytes; hosts: entries of comma-separated names or
 * "*". Fails naming a bad token length or host name. */
socmon_status http_access_init(http_access *a, const char *token, const char *const *hosts, size_t nhosts);
/* Wipes the token. */
void http_access_free(http_access *a);
/* 1 if a request with this Host (NULL: none) is answered: localhost, an IP address or a name of
 * hosts, with or without a port. */
int http_host_allowed(const http_access *a, const char *host);
/* 1 if the request carries the token (Authorization: Bearer, in any case; ?token=; the cookie);
 * 0 and *why ("no token", "wrong token") otherwise. */
int http_authorized(const http_access *a, struct MHD_Connection *c, const char **why);

/* ---- connections (http_conns.c) ---- */

typedef struct http_conns http_conns;

typedef struct http_conns_opts {
    int listen_fd;            /* bound and listening; owned by http_conns from then on */
    unsigned max_conns;       /* connections at once (already cut to the fd limit) */
    unsigned per_ip;          /* of which one address may hold */
    unsigned header_ms;       /* an idle connection must complete a request header within this */
    http_log *log;
    const char *collectors;   /* smn_http_opts.collectors */
} http_conns_opts;

/* Ready to accept, but not yet accepting (http_conns_start). Fails only out of memory. */
socmon_status http_conns_new(const http_conns_opts *o, http_conns **out);
/* The connection limit libmicrohttpd is given: ours plus room for connections being closed. */
unsigned http_conns_mhd_limit(const http_conns *hc);
/* Starts the accepting thread, which hands connections to d (MHD_add_connection). */
socmon_status http_conns_start(http_conns *hc, struct MHD_Daemon *d);
/* Stops accepting and closes the listening socket; call before MHD_stop_daemon. */
void http_conns_stop(http_conns *hc);
void http_conns_free(http_conns *hc);
/* MHD_OPTION_NOTIFY_CONNECTION (cls: the http_conns). */
void http_conns_notify(void *cls, struct MHD_Connection *c, void **socket_context,
                       enum MHD_ConnectionNotificationCode toe);
/* MHD_OPTION_NOTIFY_COMPLETED (cls: the http_conns): the connection is idle again. */
void http_conns_completed(void *cls, struct MHD_Connection *c, void **con_cls,
                          enum MHD_RequestTerminationCode toe);
/* A request's header is complete (the access handler's first call): no deadline, no eviction
 * until it is answered. */
void http_conns_busy(http_conns *hc, struct MHD_Connection *c);

/* How many connections the fd limit leaves room for: RLIMIT_NOFILE less the fds open now and
 * reserve for the rest of the program; at least 1. */
unsigned http_fd_room(unsigned reserve);

/* ---- responses ---- */

/* A response with a copy of text (len bytes) and the given Content-Type; NULL when out of memory. */
struct MHD_Response *http_text_response(const char *text, size_t len, const char *mime);

/* GET /api/stream: rows of lv as server-sent events. counters: the ?counters= globs, or NULL. */
struct MHD_Response *http_stream_response(smn_live *lv, const char *counters);

/* GET /metrics: the exposition of lv's totals and latest metrics. openmetrics: the Accept header
 * asked for OpenMetrics. Sets *status (200, or 503 when the format is not built in or the text
 * could not be made) and *mime. */
struct MHD_Response *http_metrics_response(smn_live *lv, int openmetrics, unsigned *status,
                                           const char **mime);

#endif
