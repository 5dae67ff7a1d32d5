/* GET /metrics: the live view as a Prometheus scrape.
 *
 * The exposition is the "prometheus" (text 0.0.4) or "openmetrics" (1.0) output format
 * (src/export/) over a TOTALS document: counters are the view's 64-bit monotonic totals after
 * wrap handling, metrics the latest row's values, both of the same row boundary
 * (socmon_live_snapshot). The HTTP side only picks the format from the Accept header and sets the
 * Content-Type; what a family looks like is the format's business. */
#include <stdlib.h>
#include <string.h>

#include "serve/http_internal.h"
#include "socmon/status.h"
#include "export/output.h"
#include "export/sink.h"
#include "socmon/status.h"

#define MIME_PROM "text/plain; version=0.0.4; charset=utf-8"
#define MIME_OPENMETRICS "application/openmetrics-text; version=1.0.0; charset=utf-8"

static socmon_status expose(smn_live *lv, const char *format, smn_sink *sink)
{
    const smn_live_schema *sch = socmon_live_schema_of(lv);
    size_t nc = sch->ncounters, nm = socmon_live_nmetrics(lv);
    uint64_t *tot = calloc(nc + 1, sizeof *tot);
    double *m = calloc(nm + 1, sizeof *m);
    smn_output *o = NULL;
    socmon_status st = !tot || !m ? socmon_fail(SOCMON_ENOMEM, "out of memory") : SOCMON_OK;
    smn_live_state ls = {0};
    uint64_t rows = st == SOCMON_OK ? socmon_live_snapshot(lv, tot, m, &ls) : 0;
    smn_output_opts oo = {.sep = ','};
    if (st == SOCMON_OK)
        st = smn_output_open(format, sink, &oo, &o);
    /* recording: samples and missed intervals are known, as they are for a recording */
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "live", .target = sch->target,
                           .device = sch->device, .workload = sch->workload, .elapsed_ns = ls.elapsed_ns,
                           .interval_ns = sch->interval_ns, .ncounters = nc, .simulated = sch->simulated,
                           .recording = 1, .samples = (size_t)ls.samples, .missed = ls.missed};
    smn_counter_list cl = {nc, sch->counters, sch->names, NULL, 0, NULL};
    if (st == SOCMON_OK)
        st = smn_output_begin(o, &run);
    if (st == SOCMON_OK)
        st = smn_output_counters(o, &cl, tot);
    /* before the first row there are no metric values yet: no gauges rather than NaNs */
    if (st == SOCMON_OK && rows && socmon_live_metrics(lv))
        st = smn_output_metrics(o, sch->ms, socmon_live_metrics(lv), m);
    if (st == SOCMON_OK)
        st = smn_output_end(o);
    smn_output_free(o);
    free(tot);
    free(m);
    return st;
}

struct MHD_Response *http_metrics_response(smn_live *lv, int openmetrics, unsigned *status, const char **mime)
{
    const char *format = openmetrics ? "openmetrics" : "prometheus";
    char msg[300];
    if (!smn_output_format_find(format)) {
        /* a build without the exposition formats still serves the page */
        *status = MHD_HTTP_SERVICE_UNAVAILABLE;
        *mime = "text/plain; charset=utf-8";
        snprintf(msg, sizeof msg, "socmon: the '%s' output format is not built into this socmon\n", format);
        return http_text_response(msg, strlen(msg), *mime);
    }
    smn_sink *sink = NULL;
    socmon_status st = smn_sink_memory(&sink);
    if (st == SOCMON_OK)
        st = expose(lv, format, sink);
    size_t len = 0;
    const char *text = st == SOCMON_OK ? smn_sink_memory_data(sink, &len) : NULL;
    struct MHD_Response *r;
    if (text) {
        *status = MHD_HTTP_OK;
        *mime = openmetrics ? MIME_OPENMETRICS : MIME_PROM;
        r = http_text_response(text, len, *mime);
    } else {
        *status = MHD_HTTP_SERVICE_UNAVAILABLE;
        *mime = "text/plain; charset=utf-8";
        snprintf(msg, sizeof msg, "socmon: /metrics: %s\n", st != SOCMON_OK ? socmon_errmsg() : "no text");
        r = http_text_response(msg, strlen(msg), *mime);
    }
    smn_sink_close(sink);
    return r;
}
