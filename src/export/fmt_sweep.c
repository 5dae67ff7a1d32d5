/* The table of a sweep (socmon sweep) in the csv and json formats: one row per point, the same
 * fields in both (docs/sweep.md), read back by results/sweep_read.c for resuming and merging. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/sweep_internal.h"
#include "core/grow.h"
#include "core/strmap.h"
#include "core/text.h"
#include "export/fmt_diff.h"
#include "export/fmt_sweep.h"
#include "export/table.h"

/* ---- csv: fixed columns, then option:, counter: and metric: columns in order of first use ---- */

/* Adds column prefix+name unless the table has it (the map borrows the column's own copy). */
static socmon_status add_col(smn_sweep_columns *c, const char *prefix, const char *name, int kind)
{
    char local[256];
    size_t len = strlen(prefix) + strlen(name) + 1;
    char *full = len <= sizeof local ? local : malloc(len);
    if (!full)
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    size_t pl = strlen(prefix);
    memcpy(full, prefix, pl);
    memcpy(full + pl, name, len - pl);   /* with its NUL */
    if (smn_strmap_find(&c->map, full, NULL)) {   /* the common case: a column already */
        if (full != local)
            free(full);
        return SOCMON_OK;
    }
    char *own = full == local ? strdup(local) : full;
    if (!own || SOCMON_GROW(c->col, c->cap, c->n, 64) != 0 || smn_strmap_insert(&c->map, own, c->n, NULL) < 0) {
        free(own);
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    }
    c->col[c->n++] = (smn_sweep_column){own, kind};
    return SOCMON_OK;
}

void smn_sweep_columns_free(smn_sweep_columns *c)
{
    smn_strmap_free(&c->map);
    for (size_t i = 0; i < c->n; i++)
        free(c->col[i].name);
    free(c->col);
}

socmon_status smn_sweep_columns_collect(const socmon_sweep *s, smn_sweep_columns *c)
{
    socmon_status st = SOCMON_OK;
    /* options first, then counters, then metrics: each kind's columns together */
    for (int pass = 0; pass < 3; pass++)
        for (size_t i = 0; st == SOCMON_OK && i < socmon_sweep_count(s); i++) {
            const socmon_sweep_row *r = socmon_sweep_row_at(s, i);
            if (pass == 0)
                for (size_t k = 0; st == SOCMON_OK && k < r->point.noptions; k++)
                    st = add_col(c, SMN_SWEEP_OPTION_COL, r->point.options[k].key, 'o');
            for (size_t k = 0; pass > 0 && st == SOCMON_OK && k < r->nvalues; k++) {
                const socmon_value *v = &r->values[k];
                if ((pass == 1) == (v->kind == SOCMON_VALUE_COUNTER))
                    st = add_col(c, pass == 1 ? SMN_SWEEP_COUNTER_COL : SMN_SWEEP_METRIC_COL, v->key, pass == 1 ? 'c' : 'm');
            }
        }
    return st;
}

/* Looks prefix+key up among the columns: its index, or (size_t)-1. */
static size_t column_of(const smn_sweep_columns *c, const char *prefix, const char *key, char *buf, size_t len)
{
    size_t pl = strlen(prefix), kl = strlen(key), i;
    char *full = pl + kl + 1 <= len ? buf : malloc(pl + kl + 1);
    if (!full)
        return (size_t)-1;
    memcpy(full, prefix, pl);
    memcpy(full + pl, key, kl + 1);
    int found = smn_strmap_find(&c->map, full, &i);
    if (full != buf)
        free(full);
    return found ? i : (size_t)-1;
}

/* One pass over the row's options and values, each found by the columns' map: a row's cells
 * cost its values, not its values times the columns (a campaign's table has hundreds of each). */
socmon_status smn_sweep_row_cells(const smn_sweep_columns *c, const socmon_sweep_row *r, smn_sweep_cell *cell)
{
    char buf[256];
    memset(cell, 0, c->n * sizeof *cell);
    for (size_t k = 0; k < r->point.noptions; k++) {
        size_t i = column_of(c, SMN_SWEEP_OPTION_COL, r->point.options[k].key, buf, sizeof buf);
        if (i != (size_t)-1 && !cell[i].option)   /* the first of a key, as the table reads it */
            cell[i].option = r->point.options[k].value;
    }
    for (size_t k = 0; k < r->nvalues; k++) {
        const socmon_value *v = &r->values[k];
        int counter = v->kind == SOCMON_VALUE_COUNTER;
        size_t i = column_of(c, counter ? SMN_SWEEP_COUNTER_COL : SMN_SWEEP_METRIC_COL, v->key, buf, sizeof buf);
        if (i != (size_t)-1 && !cell[i].value)
            cell[i].value = v;
    }
    return SOCMON_OK;
}

/* The cell of column c into buf ("" when the row has none). */
static const char *cell_text(const smn_sweep_column *c, const smn_sweep_cell *x, char *buf, size_t len)
{
    buf[0] = '\0';
    if (c->kind == 'o')
        return x->option ? x->option : buf;
    const socmon_value *v = x->value;
    if (!v)
        return buf;
    if (v->defined && v->integer)
        snprintf(buf, len, "%lld", (long long)v->i);
    else if (v->defined && isfinite(v->v))
        snprintf(buf, len, "%.17g", v->v);
    else   /* the run has the value but it is undefined (JSON's null); empty: no such value */
        snprintf(buf, len, "null");
    return buf;
}

/* A text field: as it is when it is UTF-8; else escaped \xNN as the JSON of the table has it
 * (smn_json_text), so both formats hold the same text. */
static socmon_status csv_text(smn_sink *sink, const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    size_t n;
    while (p && *p && (n = smn_utf8_len(p)) > 0)
        p += n;
    if (!p || !*p)
        return smn_csv_write(sink, s, ',');
    char *esc = smn_text_escape_dup(s);
    socmon_status st = esc ? smn_csv_write(sink, esc, ',') : socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    free(esc);
    return st;
}

socmon_status smn_csv_sweep(smn_output *o, const socmon_sweep *s)
{
    static const char *const fixed[] = {"point", "sweep", "points", "target", "workload", "program", "status",
                                        "error", "recording"};
    enum { NF = sizeof fixed / sizeof fixed[0] };
    smn_sweep_columns c = {0};
    socmon_status st = smn_sweep_columns_collect(s, &c);
    smn_sweep_cell *cells = st == SOCMON_OK ? calloc(c.n + 1, sizeof *cells) : NULL;
    if (st == SOCMON_OK && !cells)
        st = socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < NF + c.n; i++) {
        smn_csv_write(o->sink, i < NF ? fixed[i] : c.col[i - NF].name, ',');
        st = smn_sink_putc(o->sink, i + 1 == NF + c.n ? '\n' : ',');
    }
    for (size_t k = 0; st == SOCMON_OK && k < socmon_sweep_count(s); k++) {
        const socmon_sweep_row *r = socmon_sweep_row_at(s, k);
        char point[24], total[24], buf[48];
        snprintf(point, sizeof point, "%zu", r->point.index);
        snprintf(total, sizeof total, "%zu", socmon_sweep_total(s));
        const char *f[NF] = {point, socmon_sweep_id(s), total, r->point.target, r->point.workload, r->point.program,
                             r->ok ? "ok" : "failed", r->error, r->recording};
        st = smn_sweep_row_cells(&c, r, cells);
        for (size_t i = 0; st == SOCMON_OK && i < NF + c.n; i++) {
            csv_text(o->sink, i < NF ? f[i] : cell_text(&c.col[i - NF], &cells[i - NF], buf, sizeof buf));
            st = smn_sink_putc(o->sink, i + 1 == NF + c.n ? '\n' : ',');
        }
    }
    free(cells);
    smn_sweep_columns_free(&c);
    return st;
}

/* ---- json: {"sweep": {id, points}, "points": [...]}, the contract plus "point" ---- */

/* s as JSON's own string when it is UTF-8 (control characters escaped as JSON does, so a
 * reader gets s back), else escaped \xNN (smn_json_text); NULL s: null. */
static json_t *text(const char *s)
{
    json_t *j = s ? json_string(s) : NULL;
    return j ? j : smn_json_text(s);
}

static json_t *json_number_of(const socmon_value *v)
{
    if (!v->defined || (!v->integer && !isfinite(v->v)))
        return json_null();
    return v->integer ? json_integer(v->i) : json_real(v->v);
}

static json_t *json_row(const socmon_sweep_row *r)
{
    json_t *j = json_object(), *opts = json_object(), *cs = json_object(), *ms = json_object();
    int bad = !j || !opts || !cs || !ms;
    for (size_t k = 0; !bad && k < r->point.noptions; k++)
        bad |= json_object_set_new(opts, r->point.options[k].key, text(r->point.options[k].value));
    for (size_t k = 0; !bad && k < r->nvalues; k++) {
        const socmon_value *v = &r->values[k];
        bad |= json_object_set_new(v->kind == SOCMON_VALUE_COUNTER ? cs : ms, v->key, json_number_of(v));
    }
    if (!bad) {
        bad |= json_object_set_new(j, "point", json_integer((json_int_t)r->point.index));
        bad |= json_object_set_new(j, "target", text(r->point.target));
        bad |= json_object_set_new(j, "workload", text(r->point.workload));
        bad |= json_object_set_new(j, "program", text(r->point.program));
        bad |= json_object_set_new(j, "options", opts);
        bad |= json_object_set_new(j, "status", json_string(r->ok ? "ok" : "failed"));
        bad |= json_object_set_new(j, "error", text(r->error));
        bad |= json_object_set_new(j, "recording", text(r->recording));
        bad |= json_object_set_new(j, "counters", cs);
        bad |= json_object_set_new(j, "metrics", ms);
        opts = cs = ms = NULL;   /* j holds them now, even after a failed set */
    }
    json_decref(opts);
    json_decref(cs);
    json_decref(ms);
    if (bad) {
        json_decref(j);
        return NULL;
    }
    return j;
}

socmon_status smn_json_sweep(smn_output *o, const socmon_sweep *s)
{
    json_t *doc = json_object(), *meta = json_object(), *pts = json_array();
    int bad = !doc || !meta || !pts;
    if (!bad) {
        bad |= json_object_set_new(meta, "id", text(socmon_sweep_id(s)));
        bad |= json_object_set_new(meta, "points", json_integer((json_int_t)socmon_sweep_total(s)));
        bad |= json_object_set_new(doc, "sweep", meta);
        bad |= json_object_set_new(doc, "points", pts);
    } else {
        json_decref(meta);
        json_decref(pts);
    }
    for (size_t k = 0; !bad && k < socmon_sweep_count(s); k++) {
        json_t *row = json_row(socmon_sweep_row_at(s, k));
        bad |= !row || json_array_append_new(pts, row);
    }
    char *text = bad ? NULL : json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text)
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    socmon_status st = smn_sink_puts(o->sink, text);
    free(text);
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}
