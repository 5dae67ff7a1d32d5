/* The comparison page (socmon diff --html): web/src/diff.html with its assets inlined and the
 * two runs written where its data marker is, as
 *   window.SOCMON_DIFF = {"baseline", "new", "baseline_target", ..., "notes": [...],
 *     "charts": [{"key", "kind", "unit", "delta_text", "a": {"t": [s], "v": [...]}, "b": {...}}],
 *     "rows": [<the rows of the diff's JSON contract, with "side">]}
 * Charts: the values that changed most and have a timeline in both runs (recordings), metrics
 * first, at most MAX_CHARTS; each overlays the two runs from their own start (web/src/diff.js).
 * JSON text never holds '<' (smn_html_put_json), so no name can end the script it sits in. A
 * string that is not UTF-8 (a file name: any bytes) is shown as the terminal shows it, its odd
 * bytes as \xNN (smn_json_text), rather than the page failing or losing the row. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/fmt_diff.h"
#include "export/html_page.h"
#include "export/web_assets.h"

#define MAX_CHARTS 12
#define DATA_MARKER "<!--socmon:data-->"

/* {"t": [...], "v": [...]}: a value's timeline in one run (NaN: null) */
static json_t *series(const socmon_run *r, size_t i)
{
    size_t n = 0;
    const double *t = socmon_run_times(r, &n), *v = socmon_run_series(r, i);
    json_t *jt = json_array(), *jv = json_array();
    for (size_t k = 0; jt && jv && k < n; k++) {
        json_array_append_new(jt, json_real(t[k]));
        json_array_append_new(jv, isfinite(v[k]) ? json_real(v[k]) : json_null());
    }
    return json_pack("{s:o?, s:o?}", "t", jt, "v", jv);
}

static int chartable(const socmon_diff *d, const socmon_diff_row *r)
{
    return r->a && r->b && socmon_run_series(socmon_diff_baseline(d), r->ai) &&
           socmon_run_series(socmon_diff_new_run(d), r->bi);
}

static json_t *chart(const socmon_diff *d, const socmon_diff_row *r)
{
    /* the change as the diff table writes it (grouped counts, the unit's decimals) */
    char buf[96], delta[64];
    smn_diff_human_delta(delta, sizeof delta, r, 1);
    if (!r->has_delta)
        snprintf(buf, sizeof buf, "undefined on a side");
    else if (r->has_ratio)
        snprintf(buf, sizeof buf, "%s (%+.2f%%)", delta, (r->ratio - 1) * 100);
    else
        snprintf(buf, sizeof buf, "%s%s", delta, r->delta != 0 ? " (from 0)" : "");
    /* tiles of two layouts paired by kind: the title names the new run's tile too */
    char *key = NULL;
    if (r->b->instance && strcmp(r->a->key, r->b->key) != 0) {
        size_t len = strlen(r->a->key) + strlen(r->b->instance) + 16;
        if ((key = malloc(len)))
            snprintf(key, len, "%s (new: %s)", r->a->key, r->b->instance);
    }
    json_t *title = smn_json_text(key ? key : socmon_diff_row_key(r));
    free(key);
    return json_pack("{s:o, s:s, s:o, s:s, s:o, s:o}", "key", title, "kind",
                     socmon_value_kind_name(r->a->kind), "unit", smn_json_text(r->a->unit ? r->a->unit : ""), "delta_text", buf,
                     "a", series(socmon_diff_baseline(d), r->ai), "b", series(socmon_diff_new_run(d), r->bi));
}

/* The charts: changed values with a timeline on both sides, metrics, then counters; when nothing
 * changed, the first metrics, so the page still shows the two runs. */
static json_t *charts(const socmon_diff *d, json_t *notes)
{
    json_t *a = json_array();
    size_t n = socmon_diff_count(d), changed = 0;
    for (int pass = 0; a && pass < 2; pass++)
        for (size_t i = 0; i < n && json_array_size(a) < MAX_CHARTS; i++) {
            const socmon_diff_row *r = socmon_diff_row_at(d, i);
            int metric = r->a && r->a->kind == SOCMON_VALUE_METRIC;
            if (chartable(d, r) && r->change != 0 && (pass == 0) == metric) {
                json_array_append_new(a, chart(d, r));
                changed++;
            }
        }
    for (size_t i = 0; a && !changed && i < n && json_array_size(a) < 4; i++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, i);
        if (chartable(d, r) && r->a->kind == SOCMON_VALUE_METRIC)
            json_array_append_new(a, chart(d, r));
    }
    if (a && !changed && json_array_size(a))
        json_array_append_new(notes, json_string("Nothing with a timeline changed: the charts show the first metrics."));
    return a;
}

static json_t *document(const socmon_diff *d)
{
    const socmon_run *a = socmon_diff_baseline(d), *b = socmon_diff_new_run(d);
    json_t *notes = json_array(), *rows = json_array();
    /* how the tiles paired, and what the pairing warns of, lead the page's notes as the table's */
    if (notes && socmon_diff_pairing_note(d))
        json_array_append_new(notes, smn_json_text(socmon_diff_pairing_note(d)));
    for (size_t i = 0; notes && i < socmon_diff_warning_count(d); i++) {
        const char *w = socmon_diff_warning(d, i);
        size_t len = strlen(w) + 16;
        char *text = malloc(len);
        if (text)
            snprintf(text, len, "Warning: %s", w);
        json_array_append_new(notes, smn_json_text(text ? text : w));
        free(text);
    }
    for (size_t i = 0; rows && i < socmon_diff_count(d); i++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, i);
        json_t *j = smn_json_diff_row(r);
        if (!j) {   /* out of memory: no page rather than one that lost a row */
            json_decref(rows);
            rows = NULL;
            break;
        }
        json_object_set_new(j, "side", json_string(r->a && r->b ? "both" : r->a ? "baseline" : "new"));
        json_array_append_new(rows, j);
    }
    size_t na = 0, nb = 0;
    socmon_run_times(a, &na);
    socmon_run_times(b, &nb);
    json_t *ch = notes ? charts(d, notes) : NULL;
    json_t *doc = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}", "baseline",
                            smn_json_text(socmon_run_path(a)), "new", smn_json_text(socmon_run_path(b)), "baseline_target",
                            smn_json_text(socmon_run_target(a)), "new_target", smn_json_text(socmon_run_target(b)),
                            "baseline_workload", smn_json_text(socmon_run_workload(a)), "new_workload",
                            smn_json_text(socmon_run_workload(b)), "notes", notes, "charts", ch, "rows", rows);
    if (doc && (!na || !nb))
        json_object_set_new(doc, "no_charts", json_string("No charts: a timeline comes only with recordings, and "
                                                          "stat's JSON holds totals only. The table has every value."));
    return doc;
}

socmon_status smn_html_diff(smn_output *o, const socmon_diff *d)
{
    size_t len = 0;
    const char *page = (const char *)smn_web_asset("diff.html", &len, NULL);
    const char *mark = page ? strstr(page, DATA_MARKER) : NULL;   /* the asset ends with a NUL */
    if (!mark)
        return socmon_fail(SOCMON_ENOENT, "html: the embedded diff.html has no %s marker", DATA_MARKER);
    json_t *doc = document(d);
    if (!doc)
        return socmon_fail(SOCMON_ENOMEM, "html: out of memory for the diff page");
    socmon_status st = smn_html_put_page(o->sink, page, mark);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, "<script>\nwindow.SOCMON_DIFF = ");
    if (st == SOCMON_OK)
        st = smn_html_put_json(o->sink, doc);
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, ";\n</script>\n");
    if (st == SOCMON_OK)
        st = smn_html_put_page(o->sink, mark + strlen(DATA_MARKER), mark + strlen(mark));
    json_decref(doc);
    return st;
}
