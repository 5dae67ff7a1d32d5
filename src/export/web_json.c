/* The info and row objects of the web page (export/web_json.h): one builder for the live API
 * and the HTML report. jansson builds the info object (once per page load, not a hot path);
 * rows are printed by hand into the caller's buffer, because a server prints one per sample. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/output_format.h"
#include "export/web_json.h"
#include "socmon/target.h"

/* ---- layout ---- */

/* The page's grid from the target's grid op: the export knows no target, the target knows
 * where its counters sit. NULL when out of memory. */
static json_t *grid_json(const socmon_target_ops *ops, const smn_counter_list *cl, size_t np,
                         const char *const *names, const double *values, const socmon_grid *g, size_t n)
{
    socmon_grid_tile *t = calloc(n, sizeof *t);
    socmon_grid grid = *g;
    if (!t || ops->grid(cl->c, cl->n, np, names, values, &grid, t, n) != n) {
        free(t);
        return NULL;
    }
    json_t *tiles = json_array();
    json_t *lay = json_pack("{s:s, s:i, s:i, s:i, s:o}", "kind", grid.kind, "cols", (int)grid.cols, "rows",
                            (int)grid.rows, "planes", grid.planes, "tiles", tiles);
    for (size_t i = 0; lay && i < n; i++) {
        json_t *e = json_pack("{s:s, s:i, s:i, s:s}", "instance", t[i].instance, "x", (int)t[i].x, "y", (int)t[i].y,
                              "type", t[i].type);
        if (json_array_append_new(tiles, e) != 0) {
            json_decref(lay);
            lay = NULL;
        }
    }
    free(t);
    return lay;
}

json_t *smn_web_layout_json(const socmon_target_ops *ops, const char *target, const smn_counter_list *counters,
                               size_t nparams, const char *const *names, const double *values)
{
    char name[64];
    socmon_spec_name_of(target, name, sizeof name);
    socmon_grid g = {0};
    size_t n = ops && ops->grid && counters ? ops->grid(counters->c, counters->n, nparams, names, values, &g, NULL, 0)
                                            : 0;
    json_t *lay = n ? grid_json(ops, counters, nparams, names, values, &g, n) : json_pack("{s:s}", "kind", name);
    if (!lay)
        socmon_fail(SOCMON_ENOMEM, "web info: out of memory for the layout");
    return lay;
}

/* ---- info ---- */

static json_t *counters_json(const smn_counter_list *cl)
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
    smn_result_name(r, full, sizeof full);
    const socmon_metric_def *d = r->def;
    json_t *e = json_pack("{s:s, s:s, s:s, s:s, s:i, s:s}", "name", full, "instance", r->instance, "metric", d->name,
                          "unit", d->unit ? d->unit : "", "precision", smn_metric_decimals(d), "desc",
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

/* [{"name","t0_ns","t1_ns"}] on the samples' clock, in time order. */
static json_t *phases_json(const socmon_phase *p, size_t n)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < n; i++)
        if (json_array_append_new(arr, json_pack("{s:s, s:I, s:I}", "name", p[i].name, "t0_ns",
                                                 (json_int_t)p[i].t0_ns, "t1_ns", (json_int_t)p[i].t1_ns)) != 0) {
            json_decref(arr);
            arr = NULL;
        }
    return arr;
}

json_t *smn_web_info_json(const smn_web_info_in *in)
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
                             "layout", smn_web_layout_json(in->ops, in->target, in->counters, in->nparams,
                                                              in->param_names, in->param_values),
                             "counters", counters_json(in->counters), "metrics", metrics_json(in->metrics));
    /* "o*" leaves out a NULL part: a missing member means building it ran out of memory */
    if (!info || !json_object_get(info, "params") || !json_object_get(info, "layout") ||
        !json_object_get(info, "counters") || !json_object_get(info, "metrics")) {
        json_decref(info);
        socmon_fail(SOCMON_ENOMEM, "web info: out of memory");
        return NULL;
    }
    if (in->nphases && json_object_set_new(info, "phases", phases_json(in->phases, in->nphases)) != 0) {
        json_decref(info);
        socmon_fail(SOCMON_ENOMEM, "web info: out of memory for %zu phases", in->nphases);
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

size_t smn_web_row_text(char *buf, size_t len, uint64_t seq, uint64_t t_ns, uint64_t dt_ns, unsigned flags,
                           unsigned missed, const double *m, size_t nm, const uint64_t *d, size_t nd,
                           const char *note)
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
    put(&c, "]");
    /* the note holds counter and block names, which socmon_device_add keeps to a safe set, but
     * it is escaped all the same: it lands in a script */
    if (note && *note) {
        put(&c, ",\"note\":\"");
        for (const char *q = note; *q; q++) {
            unsigned char ch = (unsigned char)*q;
            if (ch == '"' || ch == '\\' || ch == '<' || ch == '>' || ch == '&' || ch < 0x20 || ch >= 0x7f)
                put(&c, "\\u%04x", ch);
            else
                put(&c, "%c", ch);
        }
        put(&c, "\"");
    }
    put(&c, "}");
    return c.used;
}
