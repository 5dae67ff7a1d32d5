/* The table of a sweep's results (socmon/sweep.h): one row per point, kept in point order. The
 * readers of written tables are sweep_read.c; the formats that write them, export/fmt_sweep.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/sweep_internal.h"
#include "core/grow.h"

struct socmon_sweep {
    char *id;
    size_t total;
    socmon_sweep_row *rows;     /* sorted by point index */
    size_t n, cap;
};

static char *dup_or_null(const char *s, int *oom)
{
    if (!s)
        return NULL;
    char *d = strdup(s);
    if (!d)
        *oom = 1;
    return d;
}

static void row_clear(socmon_sweep_row *r)
{
    free((char *)r->point.target);
    free((char *)r->point.workload);
    free((char *)r->point.program);
    for (size_t i = 0; i < r->point.noptions; i++) {
        free((char *)r->point.options[i].key);
        free((char *)r->point.options[i].value);
    }
    free((socmon_kv *)r->point.options);
    free((char *)r->error);
    free((char *)r->recording);
    for (size_t i = 0; i < r->nvalues; i++) {
        const socmon_value *v = &r->values[i];
        free((char *)v->name);
        free((char *)v->instance);
        free((char *)v->event);
        free((char *)v->key);
        free((char *)v->unit);
    }
    free((socmon_value *)r->values);
    memset(r, 0, sizeof *r);
}

socmon_status socmon_sweep_new(const char *id, size_t total, socmon_sweep **out)
{
    if (!id || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_new: NULL argument");
    *out = NULL;
    /* a grid's id is 16 hex digits; a table names its own in words a file name could hold */
    size_t n = strspn(id, "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_-");
    if (n == 0 || id[n] || n > 64)
        return socmon_fail(SOCMON_EINVAL, "sweep id '%.64s' is not 1 to 64 letters, digits, '_' or '-'", id);
    socmon_sweep *s = calloc(1, sizeof *s);
    if (!s || !(s->id = strdup(id))) {
        free(s);
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    }
    s->total = total;
    *out = s;
    return SOCMON_OK;
}

void socmon_sweep_free(socmon_sweep *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->n; i++)
        row_clear(&s->rows[i]);
    free(s->rows);
    free(s->id);
    free(s);
}

const char *socmon_sweep_id(const socmon_sweep *s)
{
    return s ? s->id : NULL;
}

size_t socmon_sweep_total(const socmon_sweep *s)
{
    return s ? s->total : 0;
}

size_t socmon_sweep_count(const socmon_sweep *s)
{
    return s ? s->n : 0;
}

const socmon_sweep_row *socmon_sweep_row_at(const socmon_sweep *s, size_t i)
{
    return s && i < s->n ? &s->rows[i] : NULL;
}

/* The position of index in rows (or where it would go); *found set when there. */
static size_t locate(const socmon_sweep *s, size_t index, int *found)
{
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->rows[mid].point.index < index)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < s->n && s->rows[lo].point.index == index;
    return lo;
}

const socmon_sweep_row *socmon_sweep_find(const socmon_sweep *s, size_t index)
{
    int found = 0;
    size_t at = s ? locate(s, index, &found) : 0;
    return found ? &s->rows[at] : NULL;
}

/* A deep copy of src into dst (dst cleared first on failure). */
static socmon_status row_copy(socmon_sweep_row *dst, const socmon_sweep_row *src, const socmon_value *const *vals,
                              size_t nvals)
{
    int oom = 0;
    memset(dst, 0, sizeof *dst);
    dst->point.index = src->point.index;
    dst->point.target = dup_or_null(src->point.target, &oom);
    dst->point.workload = dup_or_null(src->point.workload, &oom);
    dst->point.program = dup_or_null(src->point.program, &oom);
    dst->ok = src->ok;
    dst->error = dup_or_null(src->error, &oom);
    dst->recording = dup_or_null(src->recording, &oom);
    socmon_kv *kv = src->point.noptions ? calloc(src->point.noptions, sizeof *kv) : NULL;
    if (src->point.noptions && !kv)
        oom = 1;
    for (size_t i = 0; kv && i < src->point.noptions; i++, dst->point.noptions++) {
        kv[i].key = dup_or_null(src->point.options[i].key, &oom);
        kv[i].value = dup_or_null(src->point.options[i].value, &oom);
    }
    dst->point.options = kv;
    socmon_value *v = nvals ? calloc(nvals, sizeof *v) : NULL;
    if (nvals && !v)
        oom = 1;
    for (size_t i = 0; v && i < nvals; i++, dst->nvalues++) {
        v[i] = *vals[i];
        v[i].name = dup_or_null(vals[i]->name, &oom);
        v[i].instance = dup_or_null(vals[i]->instance, &oom);
        v[i].event = dup_or_null(vals[i]->event, &oom);
        v[i].key = dup_or_null(vals[i]->key, &oom);
        v[i].unit = dup_or_null(vals[i]->unit ? vals[i]->unit : "", &oom);
    }
    dst->values = v;
    if (oom) {
        row_clear(dst);
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    }
    return SOCMON_OK;
}

socmon_status smn_sweep_put(socmon_sweep *s, const socmon_sweep_row *row, const socmon_value *const *vals,
                            size_t nvals)
{
    if (s->total && row->point.index >= s->total)
        return socmon_fail(SOCMON_EINVAL, "point %zu is beyond the sweep's %zu points", row->point.index, s->total);
    socmon_sweep_row copy;
    socmon_status st = row_copy(&copy, row, vals, nvals);
    if (st != SOCMON_OK)
        return st;
    int found;
    size_t at = locate(s, row->point.index, &found);
    if (found) {
        row_clear(&s->rows[at]);
        s->rows[at] = copy;
        return SOCMON_OK;
    }
    if (SOCMON_GROW(s->rows, s->cap, s->n, 16) != 0) {
        row_clear(&copy);
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    }
    memmove(&s->rows[at + 1], &s->rows[at], (s->n - at) * sizeof *s->rows);
    s->rows[at] = copy;
    s->n++;
    return SOCMON_OK;
}

static int same_row(const socmon_sweep_row *a, const socmon_sweep_row *b);

socmon_status smn_sweep_put_read(socmon_sweep *s, const socmon_sweep_row *row, const socmon_value *const *vals,
                                 size_t nvals)
{
    const socmon_sweep_row *have = socmon_sweep_find(s, row->point.index);
    if (!have)
        return smn_sweep_put(s, row, vals, nvals);
    socmon_sweep_row copy;
    socmon_status st = row_copy(&copy, row, vals, nvals);
    if (st != SOCMON_OK)
        return st;
    int same = same_row(have, &copy), both_ok = have->ok && copy.ok, keep = have->ok;
    row_clear(&copy);
    if (same || (keep && !both_ok))   /* a point that ran beats the same point failed, as merge has it */
        return SOCMON_OK;
    if (both_ok)
        return socmon_fail(SOCMON_EINVAL, "point %zu (%s) is in the table twice with different values: which one "
                           "is the run's is not known", row->point.index, row->point.target ? row->point.target : "?");
    return smn_sweep_put(s, row, vals, nvals);
}

socmon_status socmon_sweep_set(socmon_sweep *s, const socmon_sweep_point *p, const socmon_run *run,
                               const char *error, const char *recording)
{
    if (!s || !p || (!run && !error))
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_set: NULL argument (a point without a run needs an error)");
    socmon_sweep_row row = {.point = *p, .ok = run != NULL, .error = run ? NULL : error, .recording = recording};
    size_t n = run ? socmon_run_count(run) : 0, k = 0;
    const socmon_value **vals = n ? calloc(n, sizeof *vals) : NULL;
    if (n && !vals)
        return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
    for (size_t i = 0; i < n; i++) {   /* a sweep's table holds the run's counters and metrics */
        const socmon_value *v = socmon_run_value(run, i);
        if (v->kind == SOCMON_VALUE_COUNTER || v->kind == SOCMON_VALUE_METRIC)
            vals[k++] = v;
    }
    socmon_status st = smn_sweep_put(s, &row, vals, k);
    free(vals);
    return st;
}

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static int same_value(const socmon_value *a, const socmon_value *b)
{
    if (a->kind != b->kind || !same_str(a->key, b->key) || a->defined != b->defined)
        return 0;
    if (!a->defined)
        return 1;
    if (a->integer && b->integer)
        return a->i == b->i;
    return a->v == b->v || (isnan(a->v) && isnan(b->v));
}

static int same_row(const socmon_sweep_row *a, const socmon_sweep_row *b)
{
    if (!same_str(a->point.target, b->point.target) || !same_str(a->point.workload, b->point.workload) ||
        !same_str(a->point.program, b->point.program) || a->ok != b->ok || a->nvalues != b->nvalues)
        return 0;
    for (size_t i = 0; i < a->nvalues; i++)
        if (!same_value(&a->values[i], &b->values[i]))
            return 0;
    return 1;
}

socmon_status socmon_sweep_merge(socmon_sweep *into, const socmon_sweep *from, const char *from_name)
{
    if (!into || !from)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_merge: NULL argument");
    if (!from_name)
        from_name = "the table";
    if (strcmp(into->id, from->id) != 0)
        return socmon_fail(SOCMON_EINVAL, "%s is a table of another sweep (grid %s, not %s): shards merge only "
                           "with shards of the same grid and run options", from_name, from->id, into->id);
    if (into->total != from->total)
        return socmon_fail(SOCMON_EINVAL, "%s: the sweep has %zu points there, %zu here", from_name, from->total,
                           into->total);
    for (size_t i = 0; i < from->n; i++) {
        const socmon_sweep_row *r = &from->rows[i], *have = socmon_sweep_find(into, r->point.index);
        if (have && same_row(have, r))
            continue;
        if (have && have->ok && r->ok)
            return socmon_fail(SOCMON_EINVAL, "%s: point %zu (%s) is in two tables with different values", from_name,
                               r->point.index, r->point.target);
        if (have && have->ok)   /* a point that ran beats the same point failed elsewhere */
            continue;
        const socmon_value **vals = r->nvalues ? calloc(r->nvalues, sizeof *vals) : NULL;
        if (r->nvalues && !vals)
            return socmon_fail(SOCMON_ENOMEM, "sweep table: out of memory");
        for (size_t k = 0; k < r->nvalues; k++)
            vals[k] = &r->values[k];
        socmon_status st = smn_sweep_put(into, r, vals, r->nvalues);
        free(vals);
        if (st != SOCMON_OK)
            return st;
    }
    return SOCMON_OK;
}
