/* The HTTP side of the live view: the page, its API and /metrics, over libmicrohttpd.
 *
 *   GET /              the live page            GET /assets/NAME   its scripts and styles
 *   GET /api/info      the schema as JSON       GET /api/stream    rows as server-sent events
 *   GET /metrics       Prometheus text 0.0.4, or OpenMetrics 1.0 when the Accept header asks
 *
 * docs/live.md gives the shapes. Security follows the agent's rules: the server binds to loopback
 * unless told otherwise, and any other address needs a token. With a token every route but the
 * static assets needs it, as `Authorization: Bearer TOKEN`, `?token=TOKEN`, or the cookie the
 * page gets when it is opened with `?token=` (so the page's own requests carry it). Tokens are
 * compared in constant time; every refusal is logged with the peer's address. A request whose
 * Host is not localhost, an IP address or a name of opts.hosts gets 403 (DNS rebinding).
 *
 * Hostile peers: connections that have not sent a whole request header are closed after
 * header_timeout_ms and give their place to new ones at the limit; one address holds at most
 * max_per_addr; when every connection is busy a new one gets 503 (http_conns.c). A socmon
 * collector that connects here by mistake (its first bytes the wire magic) gets a 400 at once
 * naming opts.collectors, the agent's --listen address. */
#ifndef SOCMON_AGENT_HTTP_H
#define SOCMON_AGENT_HTTP_H

#include <stdint.h>
#include <stdio.h>
#include "serve/live.h"

typedef struct smn_http smn_http;

typedef struct smn_http_opts {
    const char *listen;      /* ADDR:PORT ("127.0.0.1:8080", "[::1]:0", "0.0.0.0:80"); port 0: any
                                free one (socmon_http_port tells which) */
    const char *token;       /* required from clients when not NULL; must be given for a
                                non-loopback address */
    unsigned max_conns;      /* connections at once (each open page holds one); 0: 32, and never
                                more than the fd limit (RLIMIT_NOFILE) leaves room for */
    unsigned max_per_addr;   /* of which one client address may hold; 0: three quarters */
    unsigned header_timeout_ms; /* an idle connection's time to send a whole request header; 0: 5 s */
    const char *const *hosts; /* names a Host header may carry besides localhost and IP addresses
                                 (each entry a comma-separated list; "*": any); NULL: none */
    size_t nhosts;
    FILE *log;               /* refusals and errors, one line each, at most a few a second of a
                                kind; NULL: stderr */
    const char *who;         /* prefix of log lines ("socmon serve"); NULL: "socmon http" */
    const char *collectors;  /* the agent's --listen address, named to a collector that connects
                                here by mistake (http_conns.c); NULL: no agent beside this server */
} smn_http_opts;

/* Binds, listens and serves lv from threads of its own until socmon_http_stop. lv must outlive
 * the server. Fails with a message naming the address: a bad ADDR:PORT, a non-loopback address
 * without a token, an address in use. */
socmon_status socmon_http_start(smn_live *lv, const smn_http_opts *opts, smn_http **out);
/* The port it listens on (the one chosen for port 0). */
uint16_t socmon_http_port(const smn_http *h);
/* "http://127.0.0.1:PORT/" (IPv6 in brackets), for messages. */
const char *socmon_http_url(const smn_http *h);
/* Ends every stream (socmon_live_close on the view), stops the server and frees it. */
void socmon_http_stop(smn_http *h);
/* socmon_http_start for a command (http_serve.c): its threads block SIGINT and SIGTERM, and the
 * port is written to port_file (NULL: none); *port_failed says the port file failed (the server
 * is stopped again). */
socmon_status smn_http_serve(smn_live *lv, const smn_http_opts *ho, const char *port_file, smn_http **out,
                             int *port_failed);

#endif
