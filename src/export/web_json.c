/* The info and row objects of the web page (export/web_json.h): one builder for the live API
 * and the HTML report. jansson builds the info object (once per page load, not a hot path);
 * rows are printed by hand into the caller's buffer, because a server prints one per sample. */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/output_format.h"
#include "export/web_json.h"
#include "socmon/esp.h"

/* ---- layout ---- */

static int param(size_t n, const char *const *names, const double *values, const char *name, double *out)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) {
            *out = values[i];
            return 1;
        }
    return 0;
}

enum { HAS_ANY = 1, HAS_ACC = 2, HAS_MEM = 4, HAS_L2 = 8 };

/* A tile's kind, from the monitors ESP gives each kind (docs/esp.md): accelerators count their
 * cycles, memory tiles their DDR accesses, CPU tiles (and accelerators with a private L2, found
 * first) their L2; a tile with only NoC monitors is the IO tile, one with none is empty. */
static const char *esp_tile_type(unsigned has)
{
    return has & HAS_ACC ? "acc" : has & HAS_MEM ? "mem" : has & HAS_L2 ? "cpu" : has & HAS_ANY ? "io" : "empty";
}

static json_t *esp_layout(const socmon_counter_list *cl, size_t np, const char *const *names, const double *values)
{
    double rows, cols, planes = 0;
    if (!param(np, names, values, "rows", &rows) || !param(np, names, values, "cols", &cols) || rows < 1 ||
        cols < 1 || rows > SOCMON_ESP_MAX_ROWS || cols > SOCMON_ESP_MAX_COLS)
        return json_pack("{s:s}", "kind", "esp");   /* no grid facts: the page shows no heat map */
    param(np, names, values, "noc_planes", &planes);
    int nt = (int)rows * (int)cols;
    unsigned has[SOCMON_ESP_MAX_ROWS * SOCMON_ESP_MAX_COLS] = {0};
    /* one pass over the counters: an 8x8 SoC has thousands */
    for (size_t i = 0; i < cl->n; i++) {
        const socmon_counter *c = &cl->c[i];
        char *end;
        if (strncmp(c->instance, "tile", 4) != 0 || !isdigit((unsigned char)c->instance[4]))
            continue;
        unsigned long t = strtoul(c->instance + 4, &end, 10);
        if (*end || t >= (unsigned long)nt)
            continue;
        has[t] |= HAS_ANY | (strncmp(c->name, "acc_", 4) == 0 ? HAS_ACC : 0) |
                  (strcmp(c->name, "ddr_accesses") == 0 || strncmp(c->name, "llc_", 4) == 0 ? HAS_MEM : 0) |
                  (strncmp(c->name, "l2_", 3) == 0 ? HAS_L2 : 0);
    }
    json_t *tiles = json_array();
    json_t *lay = json_pack("{s:s, s:i, s:i, s:i, s:o}", "kind", "esp-grid", "cols", (int)cols, "rows", (int)rows,
                            "planes", (int)planes, "tiles", tiles);
    for (int t = 0; lay && t < nt; t++) {
        char inst[32];
        snprintf(inst, sizeof inst, "tile%d", t);
        json_t *e = json_pack("{s:s, s:i, s:i, s:s}", "instance", inst, "x", t % (int)cols, "y", t / (int)cols,
                              "type", esp_tile_type(has[t]));
        if (json_array_append_new(tiles, e) != 0) {
            json_decref(lay);
            lay = NULL;
        }
    }
    return lay;
}

json_t *socmon_web_layout_json(const char *target, const socmon_counter_list *counters, size_t nparams,
                               const char *const *names, const double *values)
{
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(target ? target : "", ":"), target ? target : "");
    json_t *lay = strcmp(name, "esp") == 0 && counters ? esp_layout(counters, nparams, names, values)
                                                       : json_pack("{s:s}", "kind", name);
    if (!lay)
        socmon_fail(SOCMON_ENOMEM, "web info: out of memory for the layout");
    return lay;
}

/* ---- info ---- */

static json_t *counters_json(const socmon_counter_list *cl)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < cl->n; i++) {
        const socmon_counter *c = &cl->c[i];
        json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:i}", "name", cl->names[i], "instance", c->instance, "counter",
                              c->name, "unit", c->unit ? c->unit : "", "width", (int)c->width);
        if (json_array_append_new(arr, e) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    }
    return arr;
}

static json_t *metric_json(const socmon_metric_result_info *r)
{
    char full[160];
    socmon_result_name(r, full, sizeof full);
    const socmon_metric_def *d = r->def;
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s}", "name", full, "instance", r->instance, "metric", d->name,
                          "unit", d->unit ? d->unit : "", "precision", socmon_metric_decimals(d), "desc",
                          d->desc ? d->desc : "");
    if (e && d->nlabels) {
        json_t *l = json_array();
        for (size_t k = 0; l && k < d->nlabels; k++)
            if (json_array_append_new(l, json_string(d->labels[k])) != 0) {
                json_decref(l);
                l = NULL;
            }
        if (json_object_set_new(e, "labels", l) != 0) {
            json_decref(e);
            e = NULL;
        }
    }
    return e;
}

static json_t *metrics_json(const socmon_metrics *m)
{
    json_t *arr = json_array();
    size_t n = m ? socmon_metrics_nresults(m) : 0;
    for (size_t i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, metric_json(socmon_metrics_result(m, i))) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    return arr;
}

json_t *socmon_web_info_json(const socmon_web_info_in *in)
{
    if (!in || !in->target || !in->counters || (in->nparams && (!in->param_names || !in->param_values))) {
        socmon_fail(SOCMON_EINVAL, "web info: need a target, its counters and, with parameters, their names and values");
        return NULL;
    }
    json_t *params = json_object();
    for (size_t i = 0; params && i < in->nparams; i++) {
        double v = in->param_values[i];
        if (in->param_names[i] && json_object_set_new(params, in->param_names[i], isfinite(v) ? json_real(v)
                                                                                               : json_null()) != 0) {
            json_decref(params);
            params = NULL;
        }
    }
    json_t *info = json_pack("{s:i, s:s, s:s?, s:I, s:b, s:o*, s:o*, s:o*, s:o*}", "version",
                             SOCMON_WEB_INFO_VERSION, "target", in->target, "device", in->device, "interval_ns",
                             (json_int_t)in->interval_ns, "simulated", in->simulated != 0, "params", params,
                             "layout", socmon_web_layout_json(in->target, in->counters, in->nparams,
                                                              in->param_names, in->param_values),
                             "counters", counters_json(in->counters), "metrics", metrics_json(in->metrics));
    /* "o*" leaves out a NULL part: a missing member means building it ran out of memory */
    if (!info || !json_object_get(info, "params") || !json_object_get(info, "layout") ||
        !json_object_get(info, "counters") || !json_object_get(info, "metrics")) {
        json_decref(info);
        socmon_fail(SOCMON_ENOMEM, "web info: out of memory");
        return NULL;
    }
    return info;
}

/* ---- rows ---- */

typedef struct cursor {
    char *buf;
    size_t len, used;   /* used may pass len: it counts what the whole text needs */
} cursor;

static void put(cursor *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void put(cursor *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = c->used < c->len ? c->len - c->used : 0;
    int n = vsnprintf(room ? c->buf + c->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        c->used += (size_t)n;
}

size_t socmon_web_row_text(char *buf, size_t len, uint64_t seq, uint64_t t_ns, uint64_t dt_ns, unsigned flags,
                           unsigned missed, const double *m, size_t nm, const uint64_t *d, size_t nd)
{
    cursor c = {buf, buf ? len : 0, 0};
    if (c.len)
        buf[0] = '\0';
    put(&c, "{\"seq\":%llu,\"t_ns\":%llu,\"dt_ns\":%llu,\"flags\":%u,\"missed\":%u,\"m\":[",
        (unsigned long long)seq, (unsigned long long)t_ns, (unsigned long long)dt_ns, flags, missed);
    /* %.9g: nine significant digits are more than any chart or hover shows, and keep a row of
     * an 8x8 SoC's metrics short; JSON has no NaN, so an undefined metric is null */
    for (size_t i = 0; i < nm; i++) {
        if (m && isfinite(m[i]))
            put(&c, "%s%.9g", i ? "," : "", m[i]);
        else
            put(&c, "%snull", i ? "," : "");
    }
    put(&c, "],\"d\":[");
    for (size_t i = 0; d && i < nd; i++)
        put(&c, "%s%llu", i ? "," : "", (unsigned long long)d[i]);
    put(&c, "]}");
    return c.used;
}
