/* The diff document in the table, csv and json formats (fmt_diff.h). The JSON is the contract
 * scripts and `socmon check` users read (docs/compare.md):
 *   {"baseline": A, "new": B, "rows": [{kind, name, instance, event, key, unit,
 *     baseline, new, delta, ratio, significant, p, new_instance, new_key}], pairing, pairing_note,
 *   warnings}
 * with null for what a row lacks; integer values stay integers. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/fmt_diff.h"
#include "export/table.h"

/* ---- numbers ---- */

static json_t *json_value(const socmon_value *v)
{
    if (!v || !v->defined)
        return json_null();
    return v->integer ? json_integer((json_int_t)v->i) : isfinite(v->v) ? json_real(v->v) : json_null();
}

/* Any bytes as a JSON string (a file's path, a name from a file): clean UTF-8 as it is, anything
 * else as the terminal shows it (\xNN, core/text.h), so nothing is dropped or refused; NULL: null. */
json_t *smn_json_text(const char *s)
{
    if (!s)
        return json_null();
    if (smn_text_clean(s))
        return json_string(s);
    char *e = smn_text_escape_dup(s);
    json_t *j = e ? json_string(e) : NULL;
    free(e);
    return j;
}

/* A value for people: an exact count grouped, else with its unit's decimals (as stat shows it). */
void smn_diff_human(char *buf, size_t len, const socmon_value *v, int group)
{
    if (!v || !v->defined)
        snprintf(buf, len, "-");
    else if (v->integer && v->i < 0)
        buf[0] = '-', smn_format_count(buf + 1, len - 1, (uint64_t)0 - (uint64_t)v->i, group);
    else if (v->integer)
        smn_format_count(buf, len, (uint64_t)v->i, group);
    else
        smn_format_fixed(buf, len, v->v, smn_unit_decimals(v->unit), group);
}

void smn_diff_human_delta(char *buf, size_t len, const socmon_diff_row *r, int group)
{
    const socmon_value *v = r->a ? r->a : r->b;
    if (!r->has_delta) {
        snprintf(buf, len, "-");
        return;
    }
    int sign = r->integer ? (r->idelta > 0) - (r->idelta < 0) : (r->delta > 0) - (r->delta < 0);
    uint64_t mag = r->idelta < 0 ? (uint64_t)0 - (uint64_t)r->idelta : (uint64_t)r->idelta;
    buf[0] = sign < 0 ? '-' : '+';
    if (r->integer)
        smn_format_count(buf + 1, len - 1, mag, group);
    else
        smn_format_fixed(buf + 1, len - 1, fabs(r->delta), smn_unit_decimals(v->unit), group);
    if (sign == 0)   /* no sign on an unchanged value */
        memmove(buf, buf + 1, strlen(buf));
}

static void human_change(char *buf, size_t len, const socmon_diff_row *r)
{
    if (r->has_ratio)
        snprintf(buf, len, r->ratio == 1 ? "0.00%%" : "%+.2f%%", (r->ratio - 1) * 100);
    else if (r->has_delta && r->delta != 0)
        snprintf(buf, len, "from 0");
    else if (r->a && r->b && r->a->defined != r->b->defined)
        snprintf(buf, len, r->a->defined ? "undefined" : "defined");
    else
        snprintf(buf, len, r->has_delta ? "0.00%%" : "-");
}

static void human_sig(char *buf, size_t len, const socmon_diff_row *r)
{
    if (r->significant < 0)
        buf[0] = 0;
    else if (isnan(r->p))
        snprintf(buf, len, "%s", r->significant ? "yes" : "no");
    else
        snprintf(buf, len, "%s (p=%.2g)", r->significant ? "yes" : "no", r->p);
}

/* "a.rec (esp, multifft; 10 runs)" */
static void describe(char *buf, size_t len, const socmon_run *r)
{
    char *path = smn_text_escape_dup(socmon_run_path(r)), *t = smn_text_escape_dup(socmon_run_target(r)),
         *w = smn_text_escape_dup(socmon_run_workload(r));
    char runs[32] = "";
    if (socmon_run_runs(r) > 1)
        snprintf(runs, sizeof runs, "; %u runs", socmon_run_runs(r));
    snprintf(buf, len, "%s (%s%s%s%s, %s)", path ? path : "?", t ? t : "target not said", w && *w ? ", " : "", w && *w ? w : "",
             runs, socmon_run_kind(r));
    free(path), free(t), free(w);
}

/* ---- table ---- */

/* The rows of group grp from *at on: paired ones with baseline, new, delta, change (and the
 * significance with statistics), those of one run with that run's value. */
static socmon_status table_section(smn_output *o, const socmon_diff *d, int grp, int stats, size_t *at)
{
    static const char *const paired[] = {"kind", "name", "baseline", "new", "delta", "change", "significant"};
    static const char *const single[] = {"kind", "name", "value", "unit"};
    smn_table *t = NULL;
    socmon_status st = grp ? smn_table_new(4, "llrl", single, &t) : smn_table_new(stats ? 7 : 6, "llrrrrl", paired, &t);
    size_t n = socmon_diff_count(d);
    for (; st == SOCMON_OK && *at < n; (*at)++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, *at);
        if ((r->a && r->b ? 0 : r->a ? 1 : 2) != grp)
            break;
        const socmon_value *v = r->a ? r->a : r->b;
        char a[48], b[48], delta[48], change[32], sig[48];
        char *key = smn_text_escape_dup(socmon_diff_row_key(r)), *unit = smn_text_escape_dup(v->unit);
        if (key && r->a && r->b && r->b->instance && strcmp(r->a->key, r->b->key) != 0) {
            /* tiles of two layouts paired by kind: say which of the new run's it is */
            char *inst = smn_text_escape_dup(r->b->instance);
            size_t len = strlen(key) + (inst ? strlen(inst) : 1) + 16;
            char *both = malloc(len);
            if (both)
                snprintf(both, len, "%s (new: %s)", key, inst ? inst : "?");
            free(inst);
            free(key);
            key = both;
        }
        smn_diff_human(a, sizeof a, r->a, !o->opts.no_big_num);
        smn_diff_human(b, sizeof b, r->b, !o->opts.no_big_num);
        smn_diff_human_delta(delta, sizeof delta, r, !o->opts.no_big_num);
        human_change(change, sizeof change, r);
        human_sig(sig, sizeof sig, r);
        const char *kind = socmon_value_kind_name(v->kind);
        const char *cp[] = {kind, key ? key : "?", a, b, delta, change, sig};
        const char *cs[] = {kind, key ? key : "?", grp == 1 ? a : b, unit ? unit : ""};
        st = smn_table_add(t, grp ? cs : cp);
        free(key);
        free(unit);
    }
    if (st == SOCMON_OK && smn_table_rows(t))
        st = smn_table_write(t, o->sink, "  ");
    smn_table_free(t);
    return st;
}

socmon_status smn_table_diff(smn_output *o, const socmon_diff *d)
{
    char da[1024], db[1024];
    describe(da, sizeof da, socmon_diff_baseline(d));
    describe(db, sizeof db, socmon_diff_new_run(d));
    size_t n = socmon_diff_count(d), count[3] = {0}, changed = 0;
    int stats = 0;
    for (size_t i = 0; i < n; i++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, i);
        count[r->a && r->b ? 0 : r->a ? 1 : 2]++;
        changed += r->a && r->b && r->change != 0;
        stats |= r->significant >= 0;
    }
    char line[2200];
    snprintf(line, sizeof line, "\n Comparing baseline %s\n      with new      %s\n\n", da, db);
    socmon_status st = smn_sink_puts(o->sink, line);
    const char *note = socmon_diff_pairing_note(d);
    char *esc = note ? smn_text_escape_dup(note) : NULL;
    if (st == SOCMON_OK && note) {
        st = smn_sink_puts(o->sink, "  ");
        if (st == SOCMON_OK)
            st = smn_sink_puts(o->sink, esc ? esc : "?");
        if (st == SOCMON_OK)
            st = smn_sink_puts(o->sink, "\n\n");
    }
    free(esc);
    size_t at = 0;
    if (st == SOCMON_OK && count[0]) {
        st = table_section(o, d, 0, stats, &at);
        snprintf(line, sizeof line, "\n  %zu of %zu paired values changed%s\n", changed, count[0],
                 stats ? "; with repeated runs a change is significant when the 95% intervals do not overlap"
                       " (p: Welch's t-test)" : "");
        if (st == SOCMON_OK)
            st = smn_sink_puts(o->sink, line);
    }
    for (int g = 1; g <= 2 && st == SOCMON_OK; g++) {
        if (!count[g])
            continue;
        snprintf(line, sizeof line, "\n  only in the %s (%zu):\n", g == 1 ? "baseline" : "new run", count[g]);
        st = smn_sink_puts(o->sink, line);
        if (st == SOCMON_OK)
            st = table_section(o, d, g, 0, &at);
    }
    if (st == SOCMON_OK && n == 0)
        st = smn_sink_puts(o->sink, "  no values to compare\n");
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}

/* ---- csv: a header, then a record per row, the JSON's fields in its order ---- */

static void csv_number(char *buf, size_t len, int has, int integer, int64_t i, double v)
{
    if (!has)
        buf[0] = 0;
    else if (integer)
        snprintf(buf, len, "%lld", (long long)i);
    else
        snprintf(buf, len, "%.17g", v);
}

socmon_status smn_csv_diff(smn_output *o, const socmon_diff *d)
{
    static const char *const names[] = {"kind", "name", "instance", "event", "key", "unit", "baseline", "new",
                                        "delta", "ratio", "significant", "p", "new_instance", "new_key"};
    enum { NF = sizeof names / sizeof names[0] };
    socmon_status st = SOCMON_OK;
    for (int i = 0; i < NF; i++) {
        smn_csv_write(o->sink, names[i], o->opts.sep);
        st = smn_sink_putc(o->sink, i == NF - 1 ? '\n' : o->opts.sep);
    }
    for (size_t k = 0; st == SOCMON_OK && k < socmon_diff_count(d); k++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, k);
        const socmon_value *v = r->a ? r->a : r->b;
        char a[40], b[40], delta[40], ratio[40], p[40];
        csv_number(a, sizeof a, r->a && r->a->defined, r->a && r->a->integer, r->a ? r->a->i : 0, r->a ? r->a->v : 0);
        csv_number(b, sizeof b, r->b && r->b->defined, r->b && r->b->integer, r->b ? r->b->i : 0, r->b ? r->b->v : 0);
        csv_number(delta, sizeof delta, r->has_delta, r->integer, r->idelta, r->delta);
        csv_number(ratio, sizeof ratio, r->has_ratio, 0, 0, r->ratio);
        csv_number(p, sizeof p, !isnan(r->p), 0, 0, r->p);
        int other = r->a && r->b && strcmp(r->a->key, r->b->key) != 0;
        const char *f[NF] = {socmon_value_kind_name(v->kind), v->name, v->instance, v->event, v->key, v->unit, a, b,
                             delta, ratio, r->significant < 0 ? "" : r->significant ? "true" : "false", p,
                             other ? r->b->instance : NULL, other ? r->b->key : NULL};
        for (int i = 0; i < NF; i++) {
            smn_csv_write(o->sink, f[i], o->opts.sep);
            st = smn_sink_putc(o->sink, i == NF - 1 ? '\n' : o->opts.sep);
        }
    }
    return st;
}

/* ---- json ---- */

json_t *smn_json_diff_row(const socmon_diff_row *r)
{
    const socmon_value *v = r->a ? r->a : r->b;
    json_t *j = json_object();
    if (!j)
        return NULL;
    int bad = 0;
    bad |= json_object_set_new(j, "kind", smn_json_text(socmon_value_kind_name(v->kind)));
    bad |= json_object_set_new(j, "name", smn_json_text(v->name));
    bad |= json_object_set_new(j, "instance", smn_json_text(v->instance));
    bad |= json_object_set_new(j, "event", smn_json_text(v->event));
    bad |= json_object_set_new(j, "key", smn_json_text(v->key));
    bad |= json_object_set_new(j, "unit", smn_json_text(v->unit));
    bad |= json_object_set_new(j, "baseline", json_value(r->a));
    bad |= json_object_set_new(j, "new", json_value(r->b));
    bad |= json_object_set_new(j, "delta", !r->has_delta ? json_null()
                                           : r->integer  ? json_integer((json_int_t)r->idelta)
                                           : isfinite(r->delta) ? json_real(r->delta) : json_null());
    bad |= json_object_set_new(j, "ratio", r->has_ratio && isfinite(r->ratio) ? json_real(r->ratio) : json_null());
    bad |= json_object_set_new(j, "significant", r->significant < 0 ? json_null() : json_boolean(r->significant));
    bad |= json_object_set_new(j, "p", isnan(r->p) ? json_null() : json_real(r->p));
    /* the new run's value of another instance (tiles of two layouts paired by kind) */
    int other = r->a && r->b && strcmp(r->a->key, r->b->key) != 0;
    bad |= json_object_set_new(j, "new_instance", other ? smn_json_text(r->b->instance) : json_null());
    bad |= json_object_set_new(j, "new_key", other ? smn_json_text(r->b->key) : json_null());
    if (bad) {   /* out of memory */
        json_decref(j);
        return NULL;
    }
    return j;
}

socmon_status smn_json_diff(smn_output *o, const socmon_diff *d)
{
    const socmon_run *a = socmon_diff_baseline(d), *b = socmon_diff_new_run(d);
    json_t *rows = json_array();
    json_t *doc = json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:I, s:I}", "baseline", smn_json_text(socmon_run_path(a)),
                            "new", smn_json_text(socmon_run_path(b)), "baseline_target", smn_json_text(socmon_run_target(a)),
                            "new_target", smn_json_text(socmon_run_target(b)), "baseline_workload",
                            smn_json_text(socmon_run_workload(a)), "new_workload", smn_json_text(socmon_run_workload(b)),
                            "baseline_runs", (json_int_t)socmon_run_runs(a), "new_runs", (json_int_t)socmon_run_runs(b));
    json_t *warn = json_array();
    for (size_t i = 0; warn && i < socmon_diff_warning_count(d); i++)
        if (json_array_append_new(warn, smn_json_text(socmon_diff_warning(d, i))))
            json_decref(warn), warn = NULL;
    int bad = !doc || !warn;
    bad = bad || json_object_set_new(doc, "pairing", smn_json_text(socmon_diff_pairing(d)));
    bad = bad || json_object_set_new(doc, "pairing_note", smn_json_text(socmon_diff_pairing_note(d)));
    bad = bad || json_object_set_new(doc, "warnings", json_incref(warn));
    json_decref(warn);
    if (bad)
        json_decref(doc), doc = NULL;
    socmon_status st = doc && rows ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "json: out of memory for the diff");
    for (size_t i = 0; st == SOCMON_OK && i < socmon_diff_count(d); i++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, i);
        json_t *j = smn_json_diff_row(r);
        if (!j || json_array_append_new(rows, j))
            st = socmon_fail(SOCMON_EINVAL, "json: out of memory at row '%s'",
                             socmon_diff_row_key(r));
    }
    if (st == SOCMON_OK && json_object_set(doc, "rows", rows))
        st = socmon_fail(SOCMON_ENOMEM, "json: out of memory for the diff");
    char *text = st == SOCMON_OK ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    if (st == SOCMON_OK && !text)
        st = socmon_fail(SOCMON_EINVAL, "json: cannot write the diff of '%s' and '%s' (a name is not UTF-8?)",
                         socmon_run_path(a), socmon_run_path(b));
    if (st == SOCMON_OK)
        st = smn_sink_puts(o->sink, text);
    if (st == SOCMON_OK)
        st = smn_sink_putc(o->sink, '\n');
    free(text);
    json_decref(rows);
    json_decref(doc);
    return st;
}
