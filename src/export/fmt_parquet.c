/* The Parquet format (-o FILE.parquet, --parquet FILE; docs/parquet.md): the tables the CSV
 * format writes, with the CSV's columns under the CSV's names, typed. Counts are INT64, exact;
 * metrics and other measures DOUBLE, null where the CSV has no number; labels, names and options
 * UTF-8 strings, dictionary-encoded; a timeline's time TIMESTAMP(ns). The bytes come from
 * socmon's own writer (parquet_write.c).
 *
 * Where one CSV column holds counts and measures both (a totals document's "value", a diff's
 * "baseline", "new" and "delta"), the Parquet column is DOUBLE, so a query computes over every
 * row, and a "..._count" INT64 column beside it holds the exact count of the rows that have one.
 * Where the CSV writes a word in place of a number ("<not counted>", a metric's label), the
 * number is null and the word is in a column of its own ("note", "label"). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "export/fmt_sweep.h"
#include "export/output_format.h"
#include "export/parquet_write.h"

typedef struct pq_state {
    smn_pq *w;
    int stddev, running;   /* totals: the optional columns the document has */
} pq_state;

static socmon_status to_sink(void *user, const void *buf, size_t len)
{
    return smn_sink_write(user, buf, len);
}

static socmon_status state(smn_output *o, pq_state **out)
{
    *out = NULL;
    if (!o->state && !(o->state = calloc(1, sizeof(pq_state))))
        return socmon_fail(SOCMON_ENOMEM, "parquet: out of memory");
    pq_state *ps = o->state;
    socmon_status st = ps->w ? SOCMON_OK : smn_pq_new(to_sink, o->sink, &ps->w);
    *out = ps;
    return st;
}

/* Declares the columns in order: name and type pairs, each nullable unless required. */
typedef struct col_decl {
    const char *name;
    smn_pq_type type;
    int nullable;
} col_decl;

static socmon_status declare(smn_pq *w, const col_decl *c, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++)
        st = smn_pq_column(w, c[i].name, c[i].type, c[i].nullable);
    return st;
}

/* Text from anywhere (a file's names, an agent's) as the CSV writes it: UTF-8 as it is, other
 * bytes escaped \xNN (Parquet strings must be UTF-8); NULL: null. */
static socmon_status set_text(smn_pq *w, size_t col, const char *s)
{
    if (!s)
        return smn_pq_set_null(w, col);
    const unsigned char *p = (const unsigned char *)s;
    size_t n;
    while (*p && (n = smn_utf8_len(p)) > 0)
        p += n;
    if (!*p)
        return smn_pq_set_string(w, col, s);
    char *esc = smn_text_escape_dup(s);
    socmon_status st = esc ? smn_pq_set_string(w, col, esc) : socmon_fail(SOCMON_ENOMEM, "parquet: out of memory");
    free(esc);
    return st;
}

/* A count as INT64: one past 2^63 - 1 has no exact INT64 (292 years of a 1 GHz clock). */
static socmon_status set_count(smn_pq *w, size_t col, uint64_t v, const char *what)
{
    if (v > (uint64_t)INT64_MAX)
        return socmon_fail(SOCMON_ERANGE, "parquet: %s's count %llu is over INT64's 2^63-1", what,
                           (unsigned long long)v);
    return smn_pq_set_int64(w, col, (int64_t)v);
}

/* A measure: NaN (undefined) is null, as an empty CSV cell. */
static socmon_status set_measure(smn_pq *w, size_t col, double v)
{
    return isnan(v) ? smn_pq_set_null(w, col) : smn_pq_set_double(w, col, v);
}

/* Writes the footer: the document is whole. */
static socmon_status finish(smn_output *o)
{
    pq_state *ps = o->state;
    return ps && ps->w ? smn_pq_close(ps->w) : SOCMON_OK;
}

static void pq_release(smn_output *o)
{
    pq_state *ps = o->state;
    if (ps)
        smn_pq_free(ps->w);
    free(ps);
    o->state = NULL;
}

/* ---- a document of totals: a row per CSV record ---- */

enum { T_TYPE, T_NAME, T_INSTANCE, T_VALUE, T_COUNT, T_LABEL, T_NOTE, T_UNIT, T_FIXED };

typedef struct record {
    const char *type, *name, *instance, *unit;
    double value;          /* NaN: none */
    int has_count;
    uint64_t count;
    const char *label;     /* a metric's label, or NULL */
    const char *note;      /* "not counted", "not supported", or NULL */
    double stddev;         /* percent, NaN: none */
    double running;        /* percent, NaN: none */
} record;

/* The columns are declared with the first record, as the CSV's header: only the counters say
 * whether the document has perf_event running shares. */
static socmon_status totals_columns(smn_output *o, int running, pq_state **out)
{
    pq_state *ps;
    socmon_status st = state(o, &ps);
    *out = ps;
    if (st != SOCMON_OK || !ps || smn_pq_ncolumns(ps->w))
        return st;
    static const col_decl fixed[T_FIXED] = {
        {"type", SMN_PQ_STRING, 0},   {"name", SMN_PQ_STRING, 0}, {"instance", SMN_PQ_STRING, 1},
        {"value", SMN_PQ_DOUBLE, 1},  {"count", SMN_PQ_INT64, 1}, {"label", SMN_PQ_STRING, 1},
        {"note", SMN_PQ_STRING, 1},   {"unit", SMN_PQ_STRING, 1},
    };
    st = declare(ps->w, fixed, T_FIXED);
    ps->stddev = o->run.runs > 1;
    ps->running = running;
    if (st == SOCMON_OK && ps->stddev)
        st = smn_pq_column(ps->w, "stddev", SMN_PQ_DOUBLE, 1);
    if (st == SOCMON_OK && ps->running)
        st = smn_pq_column(ps->w, "pcnt-running", SMN_PQ_DOUBLE, 1);
    return st;
}

static socmon_status put_record(smn_output *o, const record *r, int running)
{
    pq_state *ps;
    socmon_status st = totals_columns(o, running, &ps);
    if (st != SOCMON_OK)
        return st;
    smn_pq *w = ps->w;
    st = set_text(w, T_TYPE, r->type);
    if (st == SOCMON_OK)
        st = set_text(w, T_NAME, r->name ? r->name : "");
    if (st == SOCMON_OK)
        st = set_text(w, T_INSTANCE, r->instance);
    if (st == SOCMON_OK)
        st = set_measure(w, T_VALUE, r->value);
    if (st == SOCMON_OK && r->has_count)
        st = set_count(w, T_COUNT, r->count, r->name ? r->name : "a record");
    if (st == SOCMON_OK && r->label)
        st = set_text(w, T_LABEL, r->label);
    if (st == SOCMON_OK && r->note)
        st = set_text(w, T_NOTE, r->note);
    if (st == SOCMON_OK)
        st = set_text(w, T_UNIT, r->unit);
    size_t col = T_FIXED;
    if (st == SOCMON_OK && ps->stddev)
        st = set_measure(w, col++, r->stddev);
    if (st == SOCMON_OK && ps->running)
        st = set_measure(w, col, r->running);
    return st == SOCMON_OK ? smn_pq_end_row(w) : st;
}

/* The spread of a mean in percent, as the CSV's "0.12%"; NaN where the CSV has none. */
static double spread(const smn_output *o, const double *sd, size_t i, double mean)
{
    if (o->run.runs < 2 || !sd || !isfinite(mean))
        return NAN;
    return smn_stddev_pct(mean, sd[i]);
}

static socmon_status count_records(smn_output *o, const smn_counter_rows *r, const char *type)
{
    socmon_status st = SOCMON_OK;
    const double *run = r->list->running;
    int counters = strcmp(type, "counter") == 0;
    for (size_t j = 0; j < r->n && st == SOCMON_OK; j++) {
        size_t i = r->idx[j];
        int counted = !run || !isnan(run[i]);
        double mean = counters ? smn_counter_spread_mean(o, r->values, i) : (double)r->values[i];
        record rec = {.type = type, .name = r->list->names[i], .instance = r->list->c[i].instance,
                      .unit = r->list->c[i].unit, .value = counted ? (double)r->values[i] : NAN,
                      .has_count = counted, .count = r->values[i], .note = counted ? NULL : "not counted",
                      .stddev = spread(o, o->run.counter_stddev, i, mean),
                      .running = run ? (isnan(run[i]) ? 0.0 : run[i]) : NAN};
        st = put_record(o, &rec, run != NULL);
    }
    for (size_t k = 0; run && counters && k < r->list->nunsupported && st == SOCMON_OK; k++) {
        record rec = {.type = type, .name = r->list->unsupported[k], .instance = "", .unit = "", .value = NAN,
                      .note = "not supported", .stddev = NAN, .running = 0.0};
        st = put_record(o, &rec, 1);
    }
    return st;
}

static socmon_status pq_counters(smn_output *o, const smn_counter_rows *r)
{
    return count_records(o, r, "counter");
}

static socmon_status pq_hotspots(smn_output *o, const smn_counter_rows *r)
{
    return count_records(o, r, "hotspot");
}

static int has_running(const smn_output *o)
{
    const pq_state *ps = o->state;
    return ps && ps->running;
}

static socmon_status pq_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                const double *values)
{
    (void)ms;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < socmon_metrics_nresults(m) && st == SOCMON_OK; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        const char *label = smn_metric_label(r->def, values[i]);
        record rec = {.type = "metric", .name = r->def->name, .instance = r->instance,
                      .unit = label ? "" : r->def->unit ? r->def->unit : "", .value = values[i], .label = label,
                      .stddev = spread(o, o->run.metric_stddev, i, label ? NAN : values[i]), .running = NAN};
        st = put_record(o, &rec, has_running(o));
    }
    return st;
}

static socmon_status pq_results(smn_output *o, const socmon_result *x, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        record rec = {.type = "result", .name = x[i].name, .instance = "", .unit = x[i].unit ? x[i].unit : "",
                      .value = x[i].value, .stddev = NAN, .running = NAN};
        st = put_record(o, &rec, has_running(o));
    }
    return st;
}

static socmon_status pq_inhibited(smn_output *o, const socmon_inhibited *x, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        record rec = {.type = "inhibited", .name = x[i].counter, .instance = "", .unit = "cycles",
                      .value = (double)x[i].inhibited_cycles, .has_count = 1, .count = x[i].inhibited_cycles,
                      .stddev = NAN, .running = NAN};
        st = put_record(o, &rec, has_running(o));
    }
    return st;
}

/* ---- a timeline: a row per interval ---- */

enum { I_T, I_DT, I_FLAGS };

static size_t nresults(const smn_output *o)
{
    return o->cols.metrics ? socmon_metrics_nresults(o->cols.metrics) : 0;
}

static socmon_status pq_begin_intervals(smn_output *o)
{
    pq_state *ps;
    socmon_status st = state(o, &ps);
    static const col_decl fixed[] = {
        {"t_ns", SMN_PQ_TIMESTAMP_NS, 0}, {"interval_ns", SMN_PQ_INT64, 0}, {"flags", SMN_PQ_STRING, 0}};
    if (st == SOCMON_OK)
        st = declare(ps->w, fixed, 3);
    if (st == SOCMON_OK && o->run.nphases)
        st = smn_pq_column(ps->w, "phase", SMN_PQ_STRING, 0);
    for (size_t k = 0; k < nresults(o) && st == SOCMON_OK; k++) {
        char h[160];
        smn_result_name(socmon_metrics_result(o->cols.metrics, k), h, sizeof h);
        st = smn_pq_column(ps->w, h, SMN_PQ_DOUBLE, 1);
    }
    for (size_t i = 0; o->opts.deltas && i < o->cols.counters->n && st == SOCMON_OK; i++)
        st = smn_pq_column(ps->w, o->cols.counters->names[i], SMN_PQ_INT64, 0);
    return st;
}

static socmon_status pq_row(smn_output *o, const socmon_row *row)
{
    pq_state *ps = o->state;
    smn_pq *w = ps->w;
    char flags[400];
    smn_row_flags(o, row, flags, sizeof flags);
    socmon_status st = set_count(w, I_T, row->t_ns, "t_ns");
    if (st == SOCMON_OK)
        st = set_count(w, I_DT, row->dt_ns, "interval_ns");
    if (st == SOCMON_OK)
        st = set_text(w, I_FLAGS, flags);
    size_t col = I_FLAGS + 1;
    const char *phase = smn_output_row_phase(o, row);
    if (st == SOCMON_OK && o->run.nphases)
        st = set_text(w, col++, phase ? phase : "");
    for (size_t k = 0; k < nresults(o) && st == SOCMON_OK; k++)
        st = set_measure(w, col++, row->metrics ? row->metrics[k] : NAN);
    for (size_t i = 0; o->opts.deltas && i < o->cols.counters->n && st == SOCMON_OK; i++)
        st = set_count(w, col++, row->deltas[smn_col(o, i)], o->cols.counters->names[i]);
    return st == SOCMON_OK ? smn_pq_end_row(w) : st;
}

/* A document with no rows still has its columns. */
static socmon_status pq_end(smn_output *o)
{
    pq_state *ps;
    socmon_status st = SOCMON_OK;
    if (!o->state || !((pq_state *)o->state)->w || !smn_pq_ncolumns(((pq_state *)o->state)->w))
        st = totals_columns(o, 0, &ps);
    return st == SOCMON_OK ? finish(o) : st;
}

/* ---- a diff: a row per compared value ---- */

enum { D_KIND, D_NAME, D_INSTANCE, D_EVENT, D_KEY, D_UNIT, D_BASE, D_NEW, D_DELTA, D_RATIO, D_SIG, D_P,
       D_NEW_INSTANCE, D_NEW_KEY, D_BASE_COUNT, D_NEW_COUNT, D_DELTA_COUNT, D_NCOLS };

static socmon_status side(smn_pq *w, size_t col, size_t count_col, const socmon_value *v)
{
    if (!v || !v->defined)
        return SOCMON_OK;   /* null both */
    if (v->integer) {
        socmon_status st = smn_pq_set_double(w, col, (double)v->i);
        return st == SOCMON_OK ? smn_pq_set_int64(w, count_col, v->i) : st;
    }
    return set_measure(w, col, isfinite(v->v) ? v->v : NAN);
}

static socmon_status pq_diff(smn_output *o, const socmon_diff *d)
{
    static const col_decl cols[D_NCOLS] = {
        {"kind", SMN_PQ_STRING, 0},        {"name", SMN_PQ_STRING, 1},      {"instance", SMN_PQ_STRING, 1},
        {"event", SMN_PQ_STRING, 1},       {"key", SMN_PQ_STRING, 1},       {"unit", SMN_PQ_STRING, 1},
        {"baseline", SMN_PQ_DOUBLE, 1},    {"new", SMN_PQ_DOUBLE, 1},       {"delta", SMN_PQ_DOUBLE, 1},
        {"ratio", SMN_PQ_DOUBLE, 1},       {"significant", SMN_PQ_BOOLEAN, 1}, {"p", SMN_PQ_DOUBLE, 1},
        {"new_instance", SMN_PQ_STRING, 1}, {"new_key", SMN_PQ_STRING, 1},
        {"baseline_count", SMN_PQ_INT64, 1}, {"new_count", SMN_PQ_INT64, 1}, {"delta_count", SMN_PQ_INT64, 1},
    };
    pq_state *ps;
    socmon_status st = state(o, &ps);
    if (st == SOCMON_OK)
        st = declare(ps->w, cols, D_NCOLS);
    smn_pq *w = st == SOCMON_OK ? ps->w : NULL;
    for (size_t k = 0; st == SOCMON_OK && k < socmon_diff_count(d); k++) {
        const socmon_diff_row *r = socmon_diff_row_at(d, k);
        const socmon_value *v = r->a ? r->a : r->b;
        int other = r->a && r->b && strcmp(r->a->key, r->b->key) != 0;
        const char *text[] = {socmon_value_kind_name(v->kind), v->name, v->instance, v->event, v->key, v->unit};
        for (size_t i = 0; i < sizeof text / sizeof text[0] && st == SOCMON_OK; i++)
            st = set_text(w, i, text[i]);
        if (st == SOCMON_OK)
            st = side(w, D_BASE, D_BASE_COUNT, r->a);
        if (st == SOCMON_OK)
            st = side(w, D_NEW, D_NEW_COUNT, r->b);
        if (st == SOCMON_OK && r->has_delta && r->integer) {
            st = smn_pq_set_double(w, D_DELTA, (double)r->idelta);
            if (st == SOCMON_OK)
                st = smn_pq_set_int64(w, D_DELTA_COUNT, r->idelta);
        } else if (st == SOCMON_OK && r->has_delta) {
            st = smn_pq_set_double(w, D_DELTA, r->delta);
        }
        if (st == SOCMON_OK && r->has_ratio)
            st = smn_pq_set_double(w, D_RATIO, r->ratio);
        if (st == SOCMON_OK && r->significant >= 0)
            st = smn_pq_set_bool(w, D_SIG, r->significant);
        if (st == SOCMON_OK)
            st = set_measure(w, D_P, r->p);
        if (st == SOCMON_OK && other)
            st = set_text(w, D_NEW_INSTANCE, r->b->instance);
        if (st == SOCMON_OK && other)
            st = set_text(w, D_NEW_KEY, r->b->key);
        if (st == SOCMON_OK)
            st = smn_pq_end_row(w);
    }
    return st == SOCMON_OK ? finish(o) : st;
}

/* ---- a sweep: a row per point, the CSV's columns ---- */

enum { S_POINT, S_SWEEP, S_POINTS, S_TARGET, S_WORKLOAD, S_PROGRAM, S_STATUS, S_ERROR, S_RECORDING, S_FIXED };

/* A counter column is INT64 when every value in it is an exact count, else DOUBLE. */
static socmon_status column_types(const socmon_sweep *s, const smn_sweep_columns *c, smn_sweep_cell *cells,
                                  smn_pq_type *type)
{
    for (size_t i = 0; i < c->n; i++)
        type[i] = c->col[i].kind == 'o' ? SMN_PQ_STRING : c->col[i].kind == 'm' ? SMN_PQ_DOUBLE : SMN_PQ_INT64;
    socmon_status st = SOCMON_OK;
    for (size_t k = 0; st == SOCMON_OK && k < socmon_sweep_count(s); k++) {
        st = smn_sweep_row_cells(c, socmon_sweep_row_at(s, k), cells);
        for (size_t i = 0; st == SOCMON_OK && i < c->n; i++)
            if (c->col[i].kind == 'c' && cells[i].value && cells[i].value->defined && !cells[i].value->integer)
                type[i] = SMN_PQ_DOUBLE;
    }
    return st;
}

static socmon_status sweep_cell(smn_pq *w, size_t col, const smn_sweep_column *c, const smn_sweep_cell *x,
                                smn_pq_type type)
{
    if (c->kind == 'o')
        return set_text(w, col, x->option);
    const socmon_value *v = x->value;
    if (!v || !v->defined)
        return SOCMON_OK;   /* none, or undefined: null (the CSV's "" and "null") */
    if (type == SMN_PQ_INT64)
        return smn_pq_set_int64(w, col, v->i);
    return set_measure(w, col, v->integer ? (double)v->i : isfinite(v->v) ? v->v : NAN);
}

static socmon_status pq_sweep(smn_output *o, const socmon_sweep *s)
{
    static const col_decl fixed[S_FIXED] = {
        {"point", SMN_PQ_INT64, 0},     {"sweep", SMN_PQ_STRING, 0},   {"points", SMN_PQ_INT64, 0},
        {"target", SMN_PQ_STRING, 1},   {"workload", SMN_PQ_STRING, 1}, {"program", SMN_PQ_STRING, 1},
        {"status", SMN_PQ_STRING, 0},   {"error", SMN_PQ_STRING, 1},   {"recording", SMN_PQ_STRING, 1},
    };
    smn_sweep_columns c = {0};
    pq_state *ps;
    socmon_status st = state(o, &ps);
    if (st == SOCMON_OK)
        st = smn_sweep_columns_collect(s, &c);
    smn_pq_type *type = st == SOCMON_OK ? calloc(c.n + 1, sizeof *type) : NULL;
    smn_sweep_cell *cells = st == SOCMON_OK ? calloc(c.n + 1, sizeof *cells) : NULL;
    if (st == SOCMON_OK && (!type || !cells))
        st = socmon_fail(SOCMON_ENOMEM, "parquet: out of memory");
    if (st == SOCMON_OK)
        st = column_types(s, &c, cells, type);
    if (st == SOCMON_OK)
        st = declare(ps->w, fixed, S_FIXED);
    for (size_t i = 0; i < c.n && st == SOCMON_OK; i++)
        st = smn_pq_column(ps->w, c.col[i].name, type[i], 1);
    smn_pq *w = st == SOCMON_OK ? ps->w : NULL;
    for (size_t k = 0; st == SOCMON_OK && k < socmon_sweep_count(s); k++) {
        const socmon_sweep_row *r = socmon_sweep_row_at(s, k);
        st = smn_pq_set_int64(w, S_POINT, (int64_t)r->point.index);
        if (st == SOCMON_OK)
            st = set_text(w, S_SWEEP, socmon_sweep_id(s));
        if (st == SOCMON_OK)
            st = smn_pq_set_int64(w, S_POINTS, (int64_t)socmon_sweep_total(s));
        const char *text[] = {r->point.target, r->point.workload, r->point.program, r->ok ? "ok" : "failed",
                              r->error, r->recording};
        for (size_t i = 0; i < sizeof text / sizeof text[0] && st == SOCMON_OK; i++)
            st = set_text(w, S_TARGET + i, text[i]);
        if (st == SOCMON_OK)
            st = smn_sweep_row_cells(&c, r, cells);
        for (size_t i = 0; i < c.n && st == SOCMON_OK; i++)
            st = sweep_cell(w, S_FIXED + i, &c.col[i], &cells[i], type[i]);
        if (st == SOCMON_OK)
            st = smn_pq_end_row(w);
    }
    free(type);
    free(cells);
    smn_sweep_columns_free(&c);
    return st == SOCMON_OK ? finish(o) : st;
}

static const smn_timeline_ops pq_timeline = {
    .begin_intervals = pq_begin_intervals, .row = pq_row,
};

static const smn_document_ops pq_documents = {
    .diff = pq_diff, .sweep = pq_sweep,
};

const smn_output_format smn_format_parquet = {
    .name = "parquet", .counters = pq_counters, .metrics = pq_metrics, .hotspots = pq_hotspots,
    .inhibited = pq_inhibited, .results = pq_results, .end = pq_end, .release = pq_release,
    .timeline = &pq_timeline, .documents = &pq_documents,
};
