/* Findings over a run's totals (socmon/findings.h): each rule's expressions are bound to the
 * run's schema, with the run's metric values as parameters, and evaluated once over the whole
 * run (per instance for a per-instance rule). The binder and evaluator are the metric
 * language's own: a rule can say nothing a metric could not. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/findings_internal.h"
#include "core/error.h"
#include "core/grow.h"
#include "core/strmap.h"
#include "core/text.h"
#include "metrics/metrics_masked.h"

struct socmon_findings {
    size_t n, cap;
    socmon_finding *f;
};

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
}

/* v rounded to `decimals` decimals, the number the text prints, so text and evidence agree.
 * Scaling by an exact power of ten (a division for the decimals) makes the double the one
 * nearest the decimal printed. Beyond 1e15 the text prints "%.4g" of v itself. */
static double round_to(double v, int decimals)
{
    if (!isfinite(v) || fabs(v) >= 1e15)
        return v;
    double p = pow(10, decimals), r = round(v * p) / p;
    return r == 0 ? 0.0 : r;   /* no "-0" */
}

static void finding_free(socmon_finding *f)
{
    free((char *)f->target), free((char *)f->rule), free((char *)f->instance), free((char *)f->text);
    free((char *)f->choice);
    for (size_t k = 0; k < f->nevidence; k++) {
        free(f->keys ? (char *)f->keys[k] : NULL);
        free(f->labels ? (char *)f->labels[k] : NULL);
    }
    free((void *)f->keys), free((void *)f->values), free((void *)f->labels);
}

void socmon_findings_free(socmon_findings *f)
{
    if (!f)
        return;
    for (size_t i = 0; i < f->n; i++)
        finding_free(&f->f[i]);
    free(f->f);
    free(f);
}

size_t socmon_findings_count(const socmon_findings *f)
{
    return f ? f->n : 0;
}

const socmon_finding *socmon_findings_at(const socmon_findings *f, size_t i)
{
    return f && i < f->n ? &f->f[i] : NULL;
}

/* The metric of the run's file that the evidence is exactly ("noc_bp_hot_plane"), or NULL. */
static const socmon_metric_def *def_of(const socmon_metricset *ms, const char *expr)
{
    while (*expr == ' ')
        expr++;
    size_t n = strcspn(expr, " ");
    if (expr[n + strspn(expr + n, " ")] != 0)
        return NULL;
    for (size_t i = 0; ms && i < socmon_metricset_count(ms); i++) {
        const socmon_metric_def *d = socmon_metricset_def(ms, i);
        if (strlen(d->name) == n && strncmp(d->name, expr, n) == 0)
            return d;
    }
    return NULL;
}

/* The label a metric of the run's file gives the value, when the evidence is exactly that
 * metric ("noc_bp_hot_plane" -> "plane3"), else NULL. */
static const char *label_of(const socmon_metricset *ms, const char *expr, double v)
{
    const socmon_metric_def *d = def_of(ms, expr);
    if (!d || !d->nlabels)
        return NULL;
    return isfinite(v) && v >= 0 && v < (double)d->nlabels ? d->labels[(size_t)v] : NULL;
}

/* 1 if expr is exactly the name of one of the run's counters (bare or "instance.name"). */
static int is_counter(const socmon_source_info *s, const char *expr)
{
    for (size_t i = 0; i < s->ncounters; i++)
        if (strcmp(s->counters[i].name, expr) == 0 || (s->names && s->names[i] && strcmp(s->names[i], expr) == 0))
            return 1;
    return 0;
}

/* The decimals evidence k shows: the tables' rule (smn_unit_decimals, core/text.h) for the
 * unit it has: the rule's "units", else the metric's (its "precision" first) when it is
 * exactly a metric, else a count's 0 when it is exactly a counter; an expression of no known
 * unit shows a whole value as a count and any other with 3 decimals, as a ratio. */
static int decimals_of(const frule *r, size_t k, const socmon_metricset *ms, const socmon_source_info *s, double v)
{
    if (r->units && r->units[k])
        return smn_unit_decimals(r->units[k]);
    const socmon_metric_def *d = def_of(ms, r->exprs[k]);
    if (d)
        return d->precision >= 0 ? d->precision : smn_unit_decimals(d->unit);
    if (is_counter(s, r->exprs[k]) || (isfinite(v) && v == floor(v)))
        return 0;
    return smn_unit_decimals(NULL);
}

/* The text with {key}, {instance} and {argmax} filled in. */
static char *fill(const frule *r, const char *inst, const char *choice, const double *v, const int *dec,
                  const char *const *labels)
{
    size_t cap = strlen(r->text) + 64, len = 0;
    char *out = malloc(cap);
    for (const char *p = r->text; out && *p;) {
        char piece[128];
        const char *add = piece;
        size_t take = 1;
        piece[0] = *p, piece[1] = 0;
        const char *end = *p == '{' ? strchr(p, '}') : NULL;
        if (end) {   /* the loader checked every word: each is one of these */
            size_t n = (size_t)(end - p - 1);
            long k = -1;
            for (size_t j = 0; j < r->nev; j++)
                if (strlen(r->keys[j]) == n && strncmp(r->keys[j], p + 1, n) == 0)
                    k = (long)j;
            if (k >= 0 && labels[k])
                add = labels[k];
            else if (k >= 0)
                smn_format_fixed(piece, sizeof piece, v[k], dec[k], 1);
            else if (n == 8 && strncmp(p + 1, "instance", 8) == 0)
                add = inst ? inst : "";
            else
                add = choice ? choice : "";
            take = n + 2;
        }
        size_t al = strlen(add);
        if (len + al + 1 > cap) {
            cap = (len + al + 1) * 2;
            char *g = realloc(out, cap);
            if (!g) {
                free(out);
                return NULL;
            }
            out = g;
        }
        memcpy(out + len, add, al);
        len += al;
        p += take;
    }
    if (out)
        out[len] = 0;
    return out;
}

typedef struct run_view {
    const socmon_analysis_info *a;
    const socmon_totals *t;
    const socmon_metricset *file;   /* the run's metric file: labels of labelled metrics */
    double interval_s;
    /* scratch, sized for every counter and parameter of the run */
    socmon_counter *c;
    uint64_t *v;
    unsigned char *bad;             /* per counter of v: its total holds an implausible delta */
    const char **pn;
    double *pv;
    double *out;
    const char **inst;              /* the counters' instances, each once, in their order */
    size_t ninst;
} run_view;

/* The schema a rule sees: every counter (inst NULL) or one instance's and the device-wide ones
 * (a function's fn_cycles beside the program's cycles), and as parameters the
 * device's and the metric values of the whole run (inst: that instance's per-instance ones).
 * A parameter of one instance, "slot0.asked_rd_mbps", is that instance's "asked_rd_mbps". */
static socmon_metric_schema schema_for(run_view *rv, const char *inst)
{
    const socmon_source_info *s = rv->a->src;
    const socmon_totals *t = rv->t;
    size_t nc = 0, np = 0;
    for (size_t i = 0; i < s->ncounters; i++) {
        const char *ci = s->counters[i].instance ? s->counters[i].instance : "";
        if (!inst || !*ci || strcmp(ci, inst) == 0) {
            rv->c[nc] = s->counters[i];
            rv->bad[nc] = t->implausible ? t->implausible[i] : 0;
            rv->v[nc++] = t->values ? t->values[i] : 0;
        }
    }
    size_t il = inst ? strlen(inst) : 0;
    for (size_t i = 0; i < s->nparams; i++) {
        const char *name = s->param_names[i];
        if (il && strncmp(name, inst, il) == 0 && name[il] == '.' && name[il + 1])
            name += il + 1;
        rv->pn[np] = name;
        rv->pv[np++] = s->param_values[i];
    }
    const socmon_metrics *m = rv->a->metrics;
    for (size_t j = 0; m && t->metrics && j < socmon_metrics_nresults(m); j++) {
        const socmon_metric_result_info *ri = socmon_metrics_result(m, j);
        const char *ri_inst = ri->instance ? ri->instance : "";
        if (*ri_inst && !(inst && strcmp(ri_inst, inst) == 0))
            continue;
        rv->pn[np] = ri->def->name;
        rv->pv[np++] = t->metrics[j];
    }
    return (socmon_metric_schema){.ncounters = nc, .counters = rv->c, .nparams = np, .param_names = rv->pn,
                                  .param_values = rv->pv, .size = sizeof(socmon_metric_schema)};
}

/* Appends f (taking its contents) to out. */
static socmon_status push(socmon_findings *out, socmon_finding *f)
{
    if (SOCMON_GROW(out->f, out->cap, out->n, 8) != 0) {
        finding_free(f);
        return nomem();
    }
    out->f[out->n++] = *f;
    return SOCMON_OK;
}

/* Rule r over one instance (or the whole device): a finding appended to out, or nothing when
 * the run lacks a name the rule uses, its condition is false or undefined, or no argmax choice
 * is defined. */
static socmon_status eval_one(run_view *rv, const frule *r, const char *inst, socmon_findings *out)
{
    socmon_metric_schema sc = schema_for(rv, inst);
    socmon_metrics *m = NULL;
    socmon_status st = socmon_metrics_bind(r->ms, &sc, &m);
    if (st != SOCMON_OK)
        return st;
    size_t need = 1 + r->nev;
    if (socmon_metrics_nresults(m) != need) {   /* a name this run lacks: the rule says nothing */
        socmon_metrics_free(m);
        return SOCMON_OK;
    }
    /* a total with an implausible delta in it is no count: what the rule computes from it is
     * undefined, and an undefined condition says nothing (issue 37) */
    st = smn_metrics_eval_masked(m, rv->v, rv->t->implausible ? rv->bad : NULL, rv->interval_s, rv->out);
    socmon_metrics_free(m);
    if (st != SOCMON_OK)
        return st;
    double when = rv->out[0];
    if (!isfinite(when) || when == 0)
        return SOCMON_OK;
    long best = -1;
    for (size_t k = 0; k < r->nargmax; k++) {
        double x = rv->out[1 + r->argmax[k]];
        if (isfinite(x) && (best < 0 || x > rv->out[1 + r->argmax[best]]))
            best = (long)k;
    }
    if (r->nargmax && best < 0)
        return SOCMON_OK;
    socmon_finding f = {.nevidence = r->nev};
    char **keys = calloc(r->nev, sizeof *keys), **labels = calloc(r->nev, sizeof *labels);
    double *vals = calloc(r->nev, sizeof *vals);
    int *dec = calloc(r->nev, sizeof *dec);
    f.keys = (const char *const *)keys, f.labels = (const char *const *)labels, f.values = vals;
    int bad = !keys || !labels || !vals || !dec;
    for (size_t k = 0; !bad && k < r->nev; k++) {
        dec[k] = decimals_of(r, k, rv->file, rv->a->src, rv->out[1 + k]);
        vals[k] = round_to(rv->out[1 + k], dec[k]);
        const char *l = label_of(rv->file, r->exprs[k], rv->out[1 + k]);
        bad = !(keys[k] = strdup(r->keys[k])) || (l && !(labels[k] = strdup(l)));
    }
    const char *choice = best >= 0 ? r->labels[best] : NULL;
    if (!bad) {
        f.target = strdup(r->target), f.rule = strdup(r->name), f.instance = strdup(inst ? inst : "");
        f.choice = choice ? strdup(choice) : NULL;
        f.text = fill(r, inst, choice, vals, dec, (const char *const *)labels);
        bad = !f.target || !f.rule || !f.instance || (choice && !f.choice) || !f.text;
    }
    free(dec);
    if (bad) {
        finding_free(&f);
        return nomem();
    }
    return push(out, &f);
}

/* >0 when b ranks before a: the larger order value first. */
static int by_order(const frule *r, const socmon_finding *a, const socmon_finding *b)
{
    double x = a->values[r->order];
    double y = b->values[r->order];
    if (isnan(x) || isnan(y))
        return isnan(x) - isnan(y);   /* undefined last */
    return x > y ? -1 : x < y;
}

/* Per instance: every instance of the run's counters, in their order. */
static socmon_status eval_rule(run_view *rv, const frule *r, socmon_findings *out)
{
    size_t first = out->n;
    socmon_status st = SOCMON_OK;
    if (!r->per_instance)
        st = eval_one(rv, r, NULL, out);
    for (size_t i = 0; r->per_instance && st == SOCMON_OK && i < rv->ninst; i++)
        st = eval_one(rv, r, rv->inst[i], out);
    if (st != SOCMON_OK)
        return st;
    size_t n = out->n - first;
    if (r->order >= 0 && n > 1) {
        /* stable, so equal values keep their instances' order (qsort is not) */
        for (size_t i = 1; i < n; i++)   /* insertion sort: a rule gives a few dozen lines at most */
            for (size_t j = first + i; j > first && by_order(r, &out->f[j - 1], &out->f[j]) > 0; j--) {
                socmon_finding tmp = out->f[j];
                out->f[j] = out->f[j - 1];
                out->f[j - 1] = tmp;
            }
    }
    while (r->max && out->n - first > r->max)
        finding_free(&out->f[--out->n]);
    return SOCMON_OK;
}

socmon_status socmon_findings_eval(const socmon_findingset *fs, const socmon_analysis_info *a,
                                   const socmon_totals *t, socmon_findings **out)
{
    if (!fs || !a || !a->src || !t || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_findings_eval: NULL argument");
    *out = NULL;
    const socmon_source_info *s = a->src;
    size_t nres = a->metrics ? socmon_metrics_nresults(a->metrics) : 0, nout = 1;
    for (size_t i = 0; i < fs->n; i++)
        nout = 1 + fs->r[i].nev > nout ? 1 + fs->r[i].nev : nout;
    run_view rv = {.a = a, .t = t, .file = a->ms, .interval_s = (double)t->elapsed_ns / 1e9};
    rv.c = calloc(s->ncounters + 1, sizeof *rv.c);
    rv.v = calloc(s->ncounters + 1, sizeof *rv.v);
    rv.bad = calloc(s->ncounters + 1, 1);
    rv.pn = calloc(s->nparams + nres + 1, sizeof *rv.pn);
    rv.pv = calloc(s->nparams + nres + 1, sizeof *rv.pv);
    rv.out = calloc(nout, sizeof *rv.out);
    rv.inst = calloc(s->ncounters + 1, sizeof *rv.inst);
    socmon_findings *f = calloc(1, sizeof *f);
    socmon_status st = rv.c && rv.v && rv.bad && rv.pn && rv.pv && rv.out && rv.inst && f ? SOCMON_OK : nomem();
    smn_strmap seen = SOCMON_STRMAP_INIT;   /* a program's recording has thousands of functions */
    for (size_t i = 0; st == SOCMON_OK && i < s->ncounters; i++) {
        const char *inst = s->counters[i].instance;
        int added = inst && *inst ? smn_strmap_insert(&seen, inst, rv.ninst, NULL) : 0;
        if (added < 0)
            st = nomem();
        else if (added)
            rv.inst[rv.ninst++] = inst;
    }
    smn_strmap_free(&seen);
    for (size_t i = 0; st == SOCMON_OK && i < fs->n; i++)
        st = eval_rule(&rv, &fs->r[i], f);
    free(rv.c), free(rv.v), free(rv.bad), free((void *)rv.pn), free(rv.pv), free(rv.out), free((void *)rv.inst);
    if (st != SOCMON_OK) {
        socmon_findings_free(f);
        return st;
    }
    *out = f;
    return SOCMON_OK;
}
