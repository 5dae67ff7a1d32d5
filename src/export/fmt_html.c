/* The HTML format (report --html): one self-contained page with the charts of a timeline,
 * openable offline. It is the live page (web/src/index.html, embedded: export/web_assets.h)
 * with its assets/ files inlined and the run written where the page's data marker is, as
 *   window.SOCMON_DATA = {"info": <the /api/info object>, "counters": [names, the order of
 *     each row's "d"], "rows": [<the /api/stream row objects>], "merge": k, "intervals": n,
 *     "notes": [...], "run": {"elapsed_ns", "counters": [total of each info.counters], "metrics":
 *     [value of each info.metrics, null: undefined]}, "findings": [...]}
 * (export/web_json.c builds info and rows for both), so the page has one reader for both. "run"
 * is the pipeline's totals of the run, the numbers report --summary prints (metrics over the
 * run's summed counts, not means of the rows'), which the page's summary shows as they are.
 *
 * Size: a long recording is decimated to at most MAX_ROWS rows by merging k intervals into one
 * (the format asks for k, smn_output_merge; the analysis pipeline sums the deltas and
 * evaluates the metrics over the merged time, and a missed interval always starts a new row, so
 * gaps stay gaps), and counter deltas are carried only while they fit a
 * budget of values (all counters; else, on ESP, those of the NoC heat map; else none): the
 * page says which. JSON text never holds '<' (it is written \u003c), so no "</script>" or
 * "<!--" in a name can end or disturb the script it sits in.
 *
 * A program's recording (run.profile) adds a flame graph of its call tree: after the data,
 *   window.SOCMON_PROFILE = {"program", "events": [names], "widths": [bits of each], "event": the
 *     one shown first (cycles), "funcs": [names], "nodes": [[parent, func, calls, trap, [self per
 *     event]]], "total": [per event]}
 * and web/src/flame.css and flame.js inlined, which draw it (docs/charts.md "Flame graph").
 * Counts are signed modulo their counter's width, as --by-symbol shows them (a program that
 * writes its own counters makes a frame count less than nothing). Without a profile none of
 * it is written: the page is the same as before. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/error.h"
#include "export/fmt_diff.h"
#include "export/output_format.h"
#include "export/web_assets.h"
#include "export/html_page.h"
#include "export/web_json.h"

#define MAX_ROWS 4000
#define MIN_ROWS 500                 /* fewer rows than this and a chart loses its shape */
#define DELTA_BUDGET 3000000u        /* counter deltas in one page: some 15 MB of text at most */
#define DATA_MARKER "<!--socmon:data-->"

typedef struct html_state {
    size_t k;               /* intervals merged into one row */
    size_t nin, nout;       /* intervals seen, rows written */
    int begun;              /* begin_intervals ran */
    size_t *dsel, nd;       /* the counters whose deltas rows carry */
    uint64_t *dv;
    char *buf;              /* one row's text */
    size_t cap;
    const char *rest;       /* the page after the data marker, written at end_intervals */
    char why[200];          /* what the page holds of the counters, for the notes */
    json_t *run;            /* the run's totals (html_run_totals), written at end_intervals */
} html_state;

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "html: out of memory");
}

/* JSON text with '<' written \u003c (JSON strings are the only place it can be). */
socmon_status smn_html_put_json(smn_sink *s, const json_t *j)
{
    char *text = j ? json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    if (!text)
        return nomem();
    socmon_status st = SOCMON_OK;
    for (char *p = text, *lt; st == SOCMON_OK && *p; p = lt + 1) {
        lt = strchr(p, '<');
        if (!lt) {
            st = smn_sink_puts(s, p);
            break;
        }
        st = smn_sink_write(s, p, (size_t)(lt - p));
        if (st == SOCMON_OK)
            st = smn_sink_puts(s, "\\u003c");
    }
    free(text);
    return st;
}

/* An asset's text inside <script> or <style>: "</script" or "</style" in it would end the
 * element early, so its '/' is escaped ("<\/", the same in a JS string, regex or comment). */
static socmon_status put_asset(smn_sink *s, const unsigned char *data, size_t len)
{
    size_t from = 0;
    for (size_t i = 0; i + 1 < len; i++) {
        if (data[i] != '<' || data[i + 1] != '/')
            continue;
        const char *rest = (const char *)data + i + 2;
        size_t left = len - i - 2;
        if ((left >= 6 && strncasecmp(rest, "script", 6) == 0) || (left >= 5 && strncasecmp(rest, "style", 5) == 0)) {
            socmon_status st = smn_sink_write(s, data + from, i + 1 - from);
            if (st == SOCMON_OK)
                st = smn_sink_puts(s, "\\");
            if (st != SOCMON_OK)
                return st;
            from = i + 1;
        }
    }
    return smn_sink_write(s, data + from, len - from);
}

/* Writes page text [p, end), each line that references assets/NAME replaced by the asset
 * itself: <link rel="stylesheet" href="assets/X"> by <style>, <script src="assets/X"> by
 * <script>. Everything else is copied as it is. */
socmon_status smn_html_put_page(smn_sink *s, const char *p, const char *end)
{
    static const struct { const char *lead, *open, *close; } refs[] = {
        {"<link rel=\"stylesheet\" href=\"assets/", "<style>\n", "\n</style>\n"},
        {"<script src=\"assets/", "<script>\n", "\n</script>\n"},
    };
    socmon_status st = SOCMON_OK;
    while (st == SOCMON_OK && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *eol = nl ? nl + 1 : end;
        const char *ws = p;
        while (ws < eol && (*ws == ' ' || *ws == '\t'))
            ws++;
        size_t r = 0;
        while (r < 2 && strncmp(ws, refs[r].lead, strlen(refs[r].lead)) != 0)
            r++;
        if (r == 2) {
            st = smn_sink_write(s, p, (size_t)(eol - p));
            p = eol;
            continue;
        }
        const char *name = ws + strlen(refs[r].lead), *q = memchr(name, '"', (size_t)(eol - name));
        char asset[64];
        size_t len = 0;
        const unsigned char *data = NULL;
        if (q && (size_t)(q - name) < sizeof asset) {
            snprintf(asset, sizeof asset, "%.*s", (int)(q - name), name);
            data = smn_web_asset(asset, &len, NULL);
        }
        if (!data)
            return socmon_fail(SOCMON_ENOENT, "html: the page refers to '%.*s', which is not an embedded asset",
                               (int)(eol - ws - (nl ? 1 : 0)), ws);
        st = smn_sink_puts(s, refs[r].open);
        if (st == SOCMON_OK)
            st = put_asset(s, data, len);
        if (st == SOCMON_OK)
            st = smn_sink_puts(s, refs[r].close);
        p = eol;
    }
    return st;
}

static socmon_status html_begin(smn_output *o)
{
    if (o->run.doc != SOCMON_DOC_INTERVALS)
        return socmon_fail(SOCMON_EINVAL, "html: the page charts a timeline (report --html); a document of "
                                          "totals has no html form (use json or csv)");
    html_state *h = calloc(1, sizeof *h);
    if (!h)
        return nomem();
    o->state = h;
    return SOCMON_OK;
}

static int is_heat_counter(const char *name)
{
    return strncmp(name, "noc_inj_p", 9) == 0 || strncmp(name, "noc_stop_p", 10) == 0;
}

/* Which counters' deltas the rows carry, and how many intervals go in one row. */
static void plan(smn_output *o, html_state *h, json_t *info)
{
    const smn_counter_list *cl = o->cols.counters;
    size_t nin = o->run.samples > 1 ? o->run.samples - 1 : 0;
    size_t rows = nin && nin < MAX_ROWS ? nin : MAX_ROWS, max_rows = MAX_ROWS;
    json_t *lay = json_object_get(info, "layout");
    int grid = lay && json_is_string(json_object_get(lay, "kind")) &&
               strcmp(json_string_value(json_object_get(lay, "kind")), "esp-grid") == 0;
    h->nd = 0;
    if (o->opts.deltas || cl->n * rows <= DELTA_BUDGET) {
        for (size_t i = 0; i < cl->n; i++)
            h->dsel[h->nd++] = i;
        snprintf(h->why, sizeof h->why, "%s", "");
    } else {
        size_t nheat = 0;
        for (size_t i = 0; grid && i < cl->n; i++)
            nheat += is_heat_counter(cl->c[i].name);
        if (nheat && nheat * MIN_ROWS <= DELTA_BUDGET) {
            for (size_t i = 0; i < cl->n; i++)
                if (is_heat_counter(cl->c[i].name))
                    h->dsel[h->nd++] = i;
            max_rows = DELTA_BUDGET / nheat < MAX_ROWS ? DELTA_BUDGET / nheat : MAX_ROWS;
            snprintf(h->why, sizeof h->why, "Counter deltas: only the NoC heat map's %zu of %zu counters "
                     "(all of them would make the page too large; report --html --deltas keeps them all).",
                     nheat, cl->n);
        } else {
            snprintf(h->why, sizeof h->why, "Counter deltas are not in this page (%zu counters would make it too "
                     "large; report --html --deltas keeps them); every metric is.", cl->n);
        }
    }
    h->k = nin > max_rows ? (nin + max_rows - 1) / max_rows : 1;
}

static socmon_status html_begin_intervals(smn_output *o)
{
    html_state *h = o->state;
    const smn_counter_list *cl = o->cols.counters;
    const socmon_source_info *src = o->cols.src;   /* the device's parameters and the target's grid */
    smn_web_info_in in = {o->run.target, o->run.device, o->run.interval_ns, o->run.simulated, cl, o->cols.metrics,
                             src ? src->nparams : 0, src ? src->param_names : NULL, src ? src->param_values : NULL,
                             src ? src->ops : NULL, o->run.phases, o->run.nphases};
    json_t *info = smn_web_info_json(&in);
    h->begun = 1;
    h->dv = calloc(cl->n + 1, sizeof *h->dv);
    h->dsel = calloc(cl->n + 1, sizeof *h->dsel);
    json_t *names = json_array();
    if (!info || !h->dv || !h->dsel || !names) {
        json_decref(names);
        if (!info)
            return SOCMON_ENOMEM;   /* with smn_web_info_json's message */
        json_decref(info);
        return nomem();
    }
    plan(o, h, info);
    socmon_status st = SOCMON_OK;
    for (size_t j = 0; st == SOCMON_OK && j < h->nd; j++)
        if (json_array_append_new(names, json_string(cl->names[h->dsel[j]])) != 0)
            st = nomem();
    size_t len = 0;
    const char *page = (const char *)smn_web_asset("index.html", &len, NULL);
    const char *mark = page ? strstr(page, DATA_MARKER) : NULL;   /* the asset ends with a NUL */
    if (st == SOCMON_OK && !mark)
        st = socmon_fail(SOCMON_ENOENT, "html: the embedded page has no %s marker", DATA_MARKER);
    if (st == SOCMON_OK)
        st = smn_html_put_page(o->sink, page, mark);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "<script>\nwindow.SOCMON_DATA = {\"info\": ");
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, info);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, ",\n\"counters\": ");
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, names);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, ",\n\"rows\": [\n");
    h->rest = mark ? mark + strlen(DATA_MARKER) : NULL;
    json_decref(info), json_decref(names);
    return st;
}

static size_t html_merge(const smn_output *o)
{
    const html_state *h = o->state;
    return h && h->k ? h->k : 1;
}

/* A row as the pipeline merged it: its metrics, and the deltas of the counters the page keeps. */
static socmon_status html_row(smn_output *o, const socmon_row *row)
{
    html_state *h = o->state;
    size_t nm = o->cols.metrics ? socmon_metrics_nresults(o->cols.metrics) : 0;
    for (size_t j = 0; j < h->nd; j++)
        h->dv[j] = row->deltas[smn_col(o, h->dsel[j])];
    char note[400];
    smn_row_value_note(o, row, note, sizeof note);
    for (;;) {
        size_t need = smn_web_row_text(h->buf, h->cap, (size_t)row->index, row->t_ns, row->dt_ns, row->flags,
                                          row->missed, row->metrics, nm, h->dv, h->nd, note);
        if (need < h->cap)
            break;
        char *nb = realloc(h->buf, need + 1);
        if (!nb)
            return nomem();
        h->buf = nb;
        h->cap = need + 1;
    }
    socmon_status st = smn_sink_puts(o->sink, h->nout ? ",\n" : "");
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, h->buf);
    h->nout++;
    h->nin = (size_t)row->index + 1;
    return st;
}

/* The run's totals, kept for the end: the summary's tables show them. */
static socmon_status html_run_totals(smn_output *o, const socmon_totals *t)
{
    html_state *h = o->state;
    const smn_counter_list *cl = o->cols.counters;
    size_t nm = o->cols.metrics ? socmon_metrics_nresults(o->cols.metrics) : 0;
    json_t *c = json_array(), *m = json_array();
    int bad = !c || !m;
    for (size_t i = 0; !bad && i < cl->n; i++)
        bad |= json_array_append_new(c, json_integer((json_int_t)t->values[smn_col(o, i)])) != 0;
    for (size_t i = 0; !bad && i < nm; i++)
        bad |= json_array_append_new(m, t->metrics && isfinite(t->metrics[i]) ? json_real(t->metrics[i])
                                                                               : json_null()) != 0;
    json_t *run = bad ? NULL : json_pack("{s:I, s:o, s:o}", "elapsed_ns", (json_int_t)t->elapsed_ns, "counters", c,
                                         "metrics", m);
    if (!run) {
        if (bad)
            json_decref(c), json_decref(m);
        return nomem();
    }
    json_decref(h->run);
    h->run = run;
    return SOCMON_OK;
}

/* A count of an event of the given width, signed modulo the width. */
static json_int_t signed_count(uint64_t v, unsigned width)
{
    if (width && width < 64) {
        uint64_t mask = (UINT64_C(1) << width) - 1, half = UINT64_C(1) << (width - 1);
        v &= mask;
        return v >= half ? -(json_int_t)((mask - v) + 1) : (json_int_t)v;
    }
    return (json_int_t)v;   /* two's complement: 64-bit counts above 2^63 read negative */
}

static json_t *counts_json(const socmon_profile *p, const uint64_t *v)
{
    json_t *a = json_array();
    for (size_t k = 0; a && k < p->nevents; k++)
        if (json_array_append_new(a, json_integer(signed_count(v[k], p->widths[k]))) != 0) {
            json_decref(a);
            return NULL;
        }
    return a;
}

/* The call tree for the flame graph (flame.js sums it into inclusive widths). NULL: out of memory. */
static json_t *profile_json(const socmon_profile *p)
{
    size_t ev = 0;
    if (socmon_profile_event(p, "cycles", &ev) != SOCMON_OK) {
        socmon_clear_error();
        ev = 0;
    }
    const char *prog = p->program ? strrchr(p->program, '/') : NULL;
    json_t *events = json_array(), *widths = json_array(), *funcs = json_array(), *nodes = json_array();
    json_t *doc = json_object();
    int bad = !events || !widths || !funcs || !nodes || !doc;
    for (size_t k = 0; !bad && k < p->nevents; k++) {
        bad |= json_array_append_new(events, smn_json_text(p->events[k])) != 0;
        bad |= json_array_append_new(widths, json_integer((json_int_t)p->widths[k])) != 0;
    }
    for (size_t f = 0; !bad && f < p->nfuncs; f++)
        bad |= json_array_append_new(funcs, smn_json_text(p->funcs[f].name ? p->funcs[f].name : "?")) != 0;
    for (size_t i = 0; !bad && i < p->nnodes; i++) {
        const socmon_profile_node *n = &p->nodes[i];
        json_t *self = counts_json(p, n->v);
        json_t *row = self ? json_pack("[I, I, I, b, o]", (json_int_t)n->parent, (json_int_t)n->func,
                                       (json_int_t)n->calls, n->trap, self)
                           : NULL;
        bad |= !row || json_array_append_new(nodes, row) != 0;
    }
    json_t *total = bad ? NULL : counts_json(p, p->total);
    bad |= !total;
    if (!bad) {
        bad |= json_object_set_new(doc, "program", smn_json_text(prog ? prog + 1 : p->program ? p->program : ""));
        bad |= json_object_set_new(doc, "events", events);
        bad |= json_object_set_new(doc, "widths", widths);
        bad |= json_object_set_new(doc, "event", json_integer((json_int_t)ev));
        bad |= json_object_set_new(doc, "funcs", funcs);
        bad |= json_object_set_new(doc, "nodes", nodes);
        bad |= json_object_set_new(doc, "total", total);
        if (!bad)
            return doc;
        json_decref(doc);
        return NULL;
    }
    json_decref(events), json_decref(widths), json_decref(funcs), json_decref(nodes), json_decref(doc);
    json_decref(total);
    return NULL;
}

/* The flame graph: the profile's data, then its stylesheet and script. */
static socmon_status put_flame(smn_output *o)
{
    json_t *j = profile_json(o->run.profile);
    if (!j)
        return nomem();
    size_t clen = 0, jlen = 0;
    const unsigned char *css = smn_web_asset("flame.css", &clen, NULL), *js = smn_web_asset("flame.js", &jlen, NULL);
    socmon_status st = css && js ? SOCMON_OK : socmon_fail(SOCMON_ENOENT, "html: flame.css or flame.js is not an "
                                                                          "embedded asset");
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "\n<script>\nwindow.SOCMON_PROFILE = ");
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, j);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, ";\n</script>\n<style>\n");
    if (st == SOCMON_OK)
        st = put_asset(o->sink, css, clen);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "\n</style>\n<script>\n");
    if (st == SOCMON_OK)
        st = put_asset(o->sink, js, jlen);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "\n</script>");
    json_decref(j);
    return st;
}

/* ",\n"findings": [...]": the same array as a JSON document's. */
static socmon_status put_findings(smn_output *o)
{
    json_t *f = smn_json_findings(o->findings);
    socmon_status st = f ? smn_sink_puts(o->sink, ",\n\"findings\": ") : nomem();
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, f);
    json_decref(f);
    return st;
}

static socmon_status html_end_intervals(smn_output *o)
{
    html_state *h = o->state;
    socmon_status st = SOCMON_OK;
    json_t *notes = json_array();
    if (!notes)
        return nomem();
    char text[240];
    if (h->k > 1) {
        snprintf(text, sizeof text, "Long recording: %zu intervals are shown as %zu rows of %zu merged intervals "
                 "(deltas summed, metrics over the merged time); socmon report -x, shows every interval.",
                 h->nin, h->nout, h->k);
        if (json_array_append_new(notes, json_string(text)) != 0)
            st = st == SOCMON_OK ? nomem() : st;
    }
    if (*h->why && json_array_append_new(notes, json_string(h->why)) != 0)
        st = st == SOCMON_OK ? nomem() : st;
    if (st == SOCMON_OK)
        st = smn_sink_printf(o->sink, "],\n\"merge\": %zu, \"intervals\": %zu,\n\"notes\": ", h->k, h->nin);
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, notes);
    if (st == SOCMON_OK && h->run) {
        st = smn_sink_puts(o->sink, ",\n\"run\": ");
        if (st == SOCMON_OK)
            st = smn_html_put_json(o->sink, h->run);
    }
    if (st == SOCMON_OK && o->findings)   /* the summary at the top of the page shows them */
        st = put_findings(o);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "};\n</script>");
    json_decref(notes);
    if (st == SOCMON_OK && o->run.profile)
        st = put_flame(o);
    if (st == SOCMON_OK && h->rest)
        st = smn_html_put_page(o->sink, h->rest, h->rest + strlen(h->rest));
    h->rest = NULL;
    return st;
}

static socmon_status html_end(smn_output *o)
{
    html_state *h = o->state;
    if (h && h->rest == NULL && !h->begun)
        return socmon_fail(SOCMON_ESTATE, "html: no timeline was written (begin_intervals was not called)");
    return SOCMON_OK;
}

static void html_release(smn_output *o)
{
    html_state *h = o->state;
    if (h) {
        free(h->dv), free(h->dsel), free(h->buf);
        json_decref(h->run);
        free(h);
    }
    o->state = NULL;
}

static const smn_timeline_ops html_timeline = {
    .begin_intervals = html_begin_intervals, .merge = html_merge, .row = html_row,
    .run_totals = html_run_totals, .end_intervals = html_end_intervals,
};

static const smn_document_ops html_documents = {
    .diff = smn_html_diff,
};

const smn_output_format smn_format_html = {
    .name = "html", .needs_page = 1, .begin = html_begin, .end = html_end, .release = html_release,
    .timeline = &html_timeline, .documents = &html_documents,
};
