/* What the HTTP server's files share (http.c: server, routes, security; http_stream.c: the
 * server-sent events; http_metrics.c: /metrics). Not used outside src/agent/http*.c. */
#ifndef SOCMON_AGENT_HTTP_INTERNAL_H
#define SOCMON_AGENT_HTTP_INTERNAL_H

#include <microhttpd.h>
#include <stddef.h>
#include "agent/http.h"

/* A response with a copy of text (len bytes) and the given Content-Type; NULL when out of memory. */
struct MHD_Response *http_text_response(const char *text, size_t len, const char *mime);

/* GET /api/stream: rows of lv as server-sent events. counters: the ?counters= globs, or NULL. */
struct MHD_Response *http_stream_response(socmon_live *lv, const char *counters);

/* GET /metrics: the exposition of lv's totals and latest metrics. openmetrics: the Accept header
 * asked for OpenMetrics. Sets *status (200, or 503 when the format is not built in or the text
 * could not be made) and *mime. */
struct MHD_Response *http_metrics_response(socmon_live *lv, int openmetrics, unsigned *status,
                                           const char **mime);

#endif
