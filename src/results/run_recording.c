/* A run from a recording: its samples through the pipeline (socmon/analysis.h), as `report
 * --summary` sees them. The totals give the counter and metric values, the per-function
 * counters of a program's recording its function values, and the rows, merged to at most
 * max_points, the timeline the diff page draws. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session.h"
#include "results/run_internal.h"
#include "core/error.h"
#include "socmon/analysis.h"

typedef struct collect {
    const socmon_source_info *info;
    const socmon_metrics *m;
    size_t nc, nm, max_points;
    size_t nrows, cap;
    double *times;
    double **series;              /* nc counters, then nm metric results */
    int failed;
} collect;

static socmon_status c_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    collect *c = self;
    c->m = a->metrics;
    c->nm = c->m ? socmon_metrics_nresults(c->m) : 0;
    size_t intervals = c->info->samples > 1 ? c->info->samples - 1 : 1;
    want->rows = 1;
    want->merge = (intervals + c->max_points - 1) / c->max_points;
    c->series = calloc(c->nc + c->nm + 1, sizeof *c->series);
    return c->series ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "reading the timeline: out of memory");
}

static socmon_status c_row(void *self, const socmon_row *row)
{
    collect *c = self;
    if (c->nrows == c->cap) {
        size_t cap = c->cap ? c->cap * 2 : 64;
        double *t = realloc(c->times, cap * sizeof *t);
        if (t)
            c->times = t;
        for (size_t i = 0; t && i < c->nc + c->nm; i++) {
            double *s = realloc(c->series[i], cap * sizeof *s);
            if (!s)
                t = NULL;
            else
                c->series[i] = s;
        }
        if (!t)
            return socmon_fail(SOCMON_ENOMEM, "reading the timeline: out of memory at row %zu", c->nrows);
        c->cap = cap;
    }
    c->times[c->nrows] = (double)row->since_ns / 1e9;
    for (size_t i = 0; i < c->nc; i++)
        c->series[i][c->nrows] = (double)row->deltas[i];
    for (size_t i = 0; i < c->nm; i++)
        c->series[c->nc + i][c->nrows] = row->metrics ? row->metrics[i] : NAN;
    c->nrows++;
    return SOCMON_OK;
}

static const socmon_consumer_ops collect_ops = {.size = sizeof collect_ops, .begin = c_begin, .row = c_row};

/* The functions' values: every column the recording has, every function (one that ran in only
 * one of two runs must still pair with a 0 in the other). */
static socmon_status add_functions(socmon_run *r, const socmon_source_info *info, const socmon_totals *t, int *any)
{
    socmon_functions *f = NULL;
    socmon_status st = socmon_functions_from_totals(info, t, 1, &f);
    *any = st == SOCMON_OK;
    if (st == SOCMON_ENOENT)
        return SOCMON_OK;
    for (size_t i = 0; st == SOCMON_OK && i < f->n; i++)
        for (size_t k = 0; st == SOCMON_OK && k < SOCMON_FUNCTION_COLS; k++) {
            if (!(f->rows[i].has & 1u << k))
                continue;
            socmon_value v = {.kind = SOCMON_VALUE_FUNCTION, .name = f->rows[i].name, .event = socmon_function_col(k),
                              .unit = k < 6 && k != 1 ? "cycles" : "events", .defined = 1, .integer = 1,
                              .i = f->rows[i].v[k], .v = (double)f->rows[i].v[k], .n = 1};
            if (k == 1)
                v.unit = "instructions";
            st = smn_run_add(r, &v);
        }
    socmon_functions_free(f);
    return st;
}

/* Counters, then metric results, in the source's order; then the functions. */
static socmon_status add_values(socmon_run *r, const socmon_source_info *info, collect *c, const socmon_totals *t)
{
    int fns = 0;
    size_t nseries = 0;
    double **series = calloc(c->nc + c->nm + 1, sizeof *series);
    if (!series)
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", socmon_run_path(r));
    socmon_status st = SOCMON_OK;
    /* a function's own counters ("fn_cycles" of instance "crc32") are its function values */
    for (size_t i = 0; st == SOCMON_OK && i < c->nc; i++) {
        const socmon_counter *k = &info->counters[i];
        if (*k->instance && strncmp(k->name, "fn_", 3) == 0)
            continue;
        socmon_value v = {.kind = SOCMON_VALUE_COUNTER, .name = info->names[i], .instance = k->instance,
                          .unit = k->unit, .defined = 1, .integer = t->values[i] <= INT64_MAX,
                          .i = (int64_t)t->values[i], .v = (double)t->values[i], .n = 1};
        st = smn_run_add(r, &v);
        series[nseries++] = c->series[i];
        c->series[i] = NULL;
    }
    for (size_t i = 0; st == SOCMON_OK && i < c->nm; i++) {
        const socmon_metric_result_info *ri = socmon_metrics_result(c->m, i);
        double x = t->metrics ? t->metrics[i] : NAN;
        socmon_value v = {.kind = SOCMON_VALUE_METRIC, .name = ri->def->name, .instance = ri->instance,
                          .unit = ri->def->unit, .defined = !isnan(x), .v = x, .n = 1};
        st = smn_run_add(r, &v);
        series[nseries++] = c->series[c->nc + i];
        c->series[c->nc + i] = NULL;
    }
    if (st == SOCMON_OK)
        st = add_functions(r, info, t, &fns);
    if (st == SOCMON_OK) {
        smn_run_set_timeline(r, c->times, c->nrows, series);
        c->times = NULL;
    } else {
        for (size_t i = 0; i < nseries; i++)
            free(series[i]);
    }
    free(series);
    return st;
}

/* Where the tiles sit and what they are, when the target can say it from the counters and
 * parameters (socmon_target_ops.grid): diff pairs tiles of two layouts by it. */
static socmon_status add_grid(socmon_run *r, const socmon_source_info *info)
{
    if (!info->ops || !info->ops->grid)
        return SOCMON_OK;
    socmon_grid g = {0};
    size_t n = info->ops->grid(info->counters, info->ncounters, info->nparams, info->param_names,
                               info->param_values, &g, NULL, 0);
    socmon_grid_tile *t = n ? calloc(n, sizeof *t) : NULL;
    if (n && !t)
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", socmon_run_path(r));
    socmon_status st = SOCMON_OK;
    if (n && info->ops->grid(info->counters, info->ncounters, info->nparams, info->param_names, info->param_values,
                             &g, t, n) == n)
        st = smn_run_set_grid(r, t, n);
    free(t);
    return st;
}

static void collect_free(collect *c)
{
    for (size_t i = 0; c->series && i < c->nc + c->nm; i++)
        free(c->series[i]);
    free(c->series);
    free(c->times);
}

socmon_status smn_run_read_recording(const char *path, const char *metric_file, size_t max_points,
                                     socmon_run **out)
{
    smn_session *sess = NULL;
    socmon_run *r = NULL;
    collect c = {.max_points = max_points ? max_points : 600};
    smn_run_plan plan = {.recording = path, .metric_file = metric_file};
    socmon_status st = smn_session_open(&plan, &sess);
    const socmon_source_info *info = sess ? smn_session_info(sess) : NULL;
    /* totals over a run that lost samples or blocks would be short: a comparison of them misleads */
    if (st == SOCMON_OK && info->lost && *info->lost) {
        size_t len = strcspn(info->lost, "\n");
        st = socmon_fail(SOCMON_EINVAL, "%s: %.*s (its totals would be short: not compared)", path, (int)len,
                         info->lost);
    }
    c.info = info;
    c.nc = info ? info->ncounters : 0;
    socmon_consumer cons = {.ops = &collect_ops, .self = &c};
    if (st == SOCMON_OK)
        st = smn_session_add(sess, &cons);
    if (st == SOCMON_OK)
        st = smn_session_run(sess);
    if (st == SOCMON_OK)
        st = smn_run_new(path, "recording", &r);
    if (st == SOCMON_OK)
        st = smn_run_set_facts(r, info->target, info->workload, 1, info->simulated);
    if (st == SOCMON_OK)
        st = add_values(r, info, &c, smn_session_totals(sess));
    if (st == SOCMON_OK)
        st = add_grid(r, info);
    collect_free(&c);
    smn_session_close(sess);
    if (st != SOCMON_OK) {
        socmon_run_free(r);
        return st;
    }
    *out = r;
    return SOCMON_OK;
}
