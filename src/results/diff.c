/* Two runs paired value by value (socmon/compare.h): by kind and key, in their order of
 * appearance for a key that repeats. Deltas of two exact counts are exact integers. A change is
 * significant, when both sides have repeat statistics, if their means' 95 % confidence
 * intervals do not overlap (Welch's p is given beside it); when only one side has them, if the
 * other's value falls outside that side's 95 % prediction interval; and it is not judged (-1)
 * when neither does: a model's run is exact, so any change in it is real. Why intervals rather
 * than p < 0.05 alone: a diff tests hundreds of values at once, and batches of runs on a shared
 * machine drift (docs/statistics.md has the measurements). */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/diff_pairing.h"
#include "core/error.h"
#include "socmon/compare.h"

struct socmon_diff {
    const socmon_run *a, *b;
    size_t n;
    socmon_diff_row *rows;
    smn_pairing pairing;      /* which instance pairs with which (diff_pairing.c) */
};

/* An index of a run's values sorted by (kind, pairing key, position): the pairing key is the
 * value's key with its instance replaced by what that instance pairs by. */
typedef struct keyed {
    const socmon_value *v;
    const char *pk;
    size_t i;
} keyed;

static int cmp_keyed(const void *x, const void *y)
{
    const keyed *p = x, *q = y;
    if (p->v->kind != q->v->kind)
        return p->v->kind < q->v->kind ? -1 : 1;
    int c = strcmp(p->pk, q->pk);
    return c ? c : p->i < q->i ? -1 : p->i > q->i;
}

static keyed *sorted(const socmon_run *r, char *const *pk)
{
    size_t n = socmon_run_count(r);
    keyed *k = malloc((n + 1) * sizeof *k);
    for (size_t i = 0; k && i < n; i++)
        k[i] = (keyed){socmon_run_value(r, i), pk[i], i};
    if (k)
        qsort(k, n, sizeof *k, cmp_keyed);
    return k;
}

static int same_key(const keyed *a, const keyed *b)
{
    return a->v->kind == b->v->kind && strcmp(a->pk, b->pk) == 0;
}

/* Is b outside the 95 % prediction interval of a's runs (a single new run against repeated
 * baseline runs)? */
static int outside_prediction(const socmon_value *s, double x)
{
    double half = socmon_t95(s->n - 1) * s->sd * sqrt(1.0 + 1.0 / s->n);
    return fabs(x - s->v) > half;
}

static void judge(socmon_diff_row *r)
{
    const socmon_value *a = r->a, *b = r->b;
    r->p = NAN;
    r->significant = -1;
    if (a && b && a->defined && b->defined) {
        r->has_delta = 1;
        r->integer = a->integer && b->integer;
        if (r->integer) {
            /* two's complement: exact unless the counts are 2^63 apart */
            r->idelta = (int64_t)((uint64_t)b->i - (uint64_t)a->i);
            r->delta = (double)r->idelta;
        } else {
            r->delta = b->v - a->v;
        }
        r->has_ratio = a->v != 0;
        r->ratio = r->has_ratio ? b->v / a->v : NAN;
        int same = r->integer ? r->idelta == 0 : r->delta == 0;
        r->change = same ? 0 : r->has_ratio ? fabs(r->ratio - 1) : INFINITY;
        if (a->n > 1 && b->n > 1) {
            r->p = socmon_welch_p(a->v, a->sd, a->n, b->v, b->sd, b->n);
            r->significant = a->ci_high < b->ci_low || b->ci_high < a->ci_low;
        } else if (a->n > 1 || b->n > 1) {
            r->significant = a->n > 1 ? outside_prediction(a, b->v) : outside_prediction(b, a->v);
        }
    } else if (a && b) {
        r->change = a->defined == b->defined ? 0 : INFINITY;   /* undefined on both: unchanged */
        r->has_delta = 0;
    } else {
        r->change = INFINITY;
    }
}

static int group(const socmon_diff_row *r)
{
    return r->a && r->b ? 0 : r->a ? 1 : 2;
}

static int cmp_rows(const void *x, const void *y)
{
    const socmon_diff_row *p = x, *q = y;
    int gp = group(p), gq = group(q);
    if (gp != gq)
        return gp < gq ? -1 : 1;
    if (gp == 0 && p->change != q->change)
        return p->change > q->change ? -1 : 1;
    if (gp == 0 && p->has_delta && q->has_delta && fabs(p->delta) != fabs(q->delta))
        return fabs(p->delta) > fabs(q->delta) ? -1 : 1;
    const socmon_value *vp = p->a ? p->a : p->b, *vq = q->a ? q->a : q->b;
    if (vp->kind != vq->kind)
        return vp->kind < vq->kind ? -1 : 1;
    int c = strcmp(vp->key, vq->key);
    return c ? c : (p->a ? p->ai : p->bi) < (q->a ? q->ai : q->bi) ? -1 : 1;
}

static int glob_of_kind(const socmon_value *v, const socmon_diff_opts *o, const char *const **globs, size_t *n)
{
    if (v->kind == SOCMON_VALUE_METRIC) {
        *globs = o->metrics;
        *n = o->nmetrics;
    } else {
        *globs = o->events;
        *n = o->nevents;
    }
    return o->nevents || o->nmetrics;
}

/* With filters, a row stays when a glob of its kind matches; used[] marks the globs that did. */
static int keep(const socmon_diff_row *r, const socmon_diff_opts *o, char *used_e, char *used_m)
{
    const socmon_value *v = r->a ? r->a : r->b;
    const char *const *g;
    size_t n;
    int filtered = glob_of_kind(v, o, &g, &n), hit = 0;
    char *used = v->kind == SOCMON_VALUE_METRIC ? used_m : used_e;
    for (size_t i = 0; i < n; i++)
        if (fnmatch(g[i], v->key, 0) == 0)
            hit = used[i] = 1;
    if (filtered && !hit)
        return 0;
    if (o->only_changed && r->change == 0)
        return 0;
    return 1;
}

static socmon_status check_used(const char *opt, const char *const *g, size_t n, const char *used, const char *what)
{
    for (size_t i = 0; i < n; i++)
        if (!used[i])
            return socmon_fail(SOCMON_EINVAL, "%s '%s' matches no %s of either run", opt, g[i], what);
    return SOCMON_OK;
}

socmon_status socmon_diff_new(const socmon_run *a, const socmon_run *b, const socmon_diff_opts *o,
                              socmon_diff **out)
{
    if (!a || !b || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_diff_new: NULL argument");
    *out = NULL;
    socmon_diff_opts opts = {0};
    if (o) {
        socmon_status st = smn_check_size("socmon_diff_opts", o->size, sizeof *o);
        if (st != SOCMON_OK)
            return st;
        opts = *o;
    }
    if ((opts.nevents && !opts.events) || (opts.nmetrics && !opts.metrics))
        return socmon_fail(SOCMON_EINVAL, "socmon_diff_new: globs counted but not given");
    size_t na = socmon_run_count(a), nb = socmon_run_count(b);
    socmon_diff *d = calloc(1, sizeof *d);
    socmon_status pst = d ? smn_pairing_make(a, b, &d->pairing) : SOCMON_ENOMEM;
    keyed *ka = pst == SOCMON_OK ? sorted(a, d->pairing.ka) : NULL;
    keyed *kb = pst == SOCMON_OK ? sorted(b, d->pairing.kb) : NULL;
    char *used_e = calloc(opts.nevents + 1, 1), *used_m = calloc(opts.nmetrics + 1, 1);
    if (d)
        d->rows = calloc(na + nb + 1, sizeof *d->rows);
    if (!d || !d->rows || !ka || !kb || !used_e || !used_m) {
        free(ka), free(kb), free(used_e), free(used_m);
        socmon_diff_free(d);
        return socmon_fail(SOCMON_ENOMEM, "socmon_diff_new: out of memory");
    }
    d->a = a;
    d->b = b;
    size_t i = 0, j = 0;
    while (i < na || j < nb) {
        int c = i == na ? 1 : j == nb ? -1 : cmp_keyed(&ka[i], &kb[j]);
        if (i < na && j < nb && same_key(&ka[i], &kb[j]))
            c = 0;
        socmon_diff_row r = {0};
        if (c <= 0) {
            r.a = ka[i].v;
            r.ai = ka[i++].i;
        }
        if (c >= 0) {
            r.b = kb[j].v;
            r.bi = kb[j++].i;
        }
        judge(&r);
        if (keep(&r, &opts, used_e, used_m))
            d->rows[d->n++] = r;
    }
    socmon_status st = check_used("-e", opts.events, opts.nevents, used_e, "counter or function");
    if (st == SOCMON_OK)
        st = check_used("-M", opts.metrics, opts.nmetrics, used_m, "metric");
    free(ka), free(kb), free(used_e), free(used_m);
    if (st != SOCMON_OK) {
        socmon_diff_free(d);
        return st;
    }
    qsort(d->rows, d->n, sizeof *d->rows, cmp_rows);
    *out = d;
    return SOCMON_OK;
}

void socmon_diff_free(socmon_diff *d)
{
    if (!d)
        return;
    smn_pairing_free(&d->pairing);
    free(d->rows);
    free(d);
}

const char *socmon_diff_pairing(const socmon_diff *d)
{
    return d ? d->pairing.mode : NULL;
}

const char *socmon_diff_pairing_note(const socmon_diff *d)
{
    return d ? d->pairing.note : NULL;
}

size_t socmon_diff_warning_count(const socmon_diff *d)
{
    return d ? d->pairing.nwarnings : 0;
}

const char *socmon_diff_warning(const socmon_diff *d, size_t i)
{
    return d && i < d->pairing.nwarnings ? d->pairing.warnings[i] : NULL;
}

const socmon_run *socmon_diff_baseline(const socmon_diff *d)
{
    return d ? d->a : NULL;
}

const socmon_run *socmon_diff_new_run(const socmon_diff *d)
{
    return d ? d->b : NULL;
}

size_t socmon_diff_count(const socmon_diff *d)
{
    return d ? d->n : 0;
}

const socmon_diff_row *socmon_diff_row_at(const socmon_diff *d, size_t i)
{
    return d && i < d->n ? &d->rows[i] : NULL;
}

const char *socmon_diff_row_key(const socmon_diff_row *r)
{
    return !r ? NULL : r->a ? r->a->key : r->b ? r->b->key : NULL;
}
