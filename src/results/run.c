/* A run's values, whichever file they came from (socmon/compare.h): storage, keys, accessors. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/run_internal.h"
#include "core/error.h"
#include "core/grow.h"
#include "recording/recording_internal.h"   /* SOCMON_REC_MAGIC */

struct socmon_run {
    char *path, *kind, *target, *workload;
    unsigned runs;
    int simulated;
    size_t n, cap;
    socmon_value *v;
    size_t nrows;
    double *times;
    double **series;      /* per value, or NULL */
    socmon_grid_tile *grid;   /* where its instances sit (a recording of a target with a grid op) */
    size_t ngrid;
};

const char *socmon_value_kind_name(socmon_value_kind k)
{
    return k == SOCMON_VALUE_COUNTER ? "counter" : k == SOCMON_VALUE_METRIC ? "metric"
                                     : k == SOCMON_VALUE_FUNCTION ? "function" : NULL;
}

static char *dup_or_null(const char *s)
{
    return s ? strdup(s) : NULL;
}

socmon_status smn_run_new(const char *path, const char *kind, socmon_run **out)
{
    socmon_run *r = calloc(1, sizeof *r);
    if (r) {
        r->path = strdup(path);
        r->kind = strdup(kind);
        r->runs = 1;
    }
    if (!r || !r->path || !r->kind) {
        socmon_run_free(r);
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", path);
    }
    *out = r;
    return SOCMON_OK;
}

socmon_status smn_run_set_facts(socmon_run *r, const char *target, const char *workload, unsigned runs,
                                int simulated)
{
    free(r->target);
    free(r->workload);
    r->target = dup_or_null(target);
    r->workload = dup_or_null(workload);
    r->runs = runs ? runs : 1;
    r->simulated = simulated;
    if ((target && !r->target) || (workload && !r->workload))
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", r->path);
    return SOCMON_OK;
}

static void free_value(socmon_value *v)
{
    free((char *)v->name);
    free((char *)v->instance);
    free((char *)v->event);
    free((char *)v->key);
    free((char *)v->unit);
}

/* What rules and globs match: the counter's full name, "instance.metric" or "metric",
 * "fn.FUNCTION.EVENT". */
static char *make_key(const socmon_value *v)
{
    const char *inst = v->instance && *v->instance ? v->instance : NULL;
    size_t len = strlen(v->name) + (inst ? strlen(inst) : 0) + (v->event ? strlen(v->event) : 0) + 8;
    char *k = malloc(len);
    if (!k)
        return NULL;
    if (v->kind == SOCMON_VALUE_FUNCTION)
        snprintf(k, len, "fn.%s.%s", v->name, v->event ? v->event : "");
    else if (v->kind == SOCMON_VALUE_METRIC && inst)
        snprintf(k, len, "%s.%s", inst, v->name);
    else
        snprintf(k, len, "%s", v->name);
    return k;
}

socmon_status smn_run_add(socmon_run *r, const socmon_value *v)
{
    if (!v->name || !socmon_value_kind_name(v->kind))
        return socmon_fail(SOCMON_EINVAL, "%s: a value without a name or kind", r->path);
    if (SOCMON_GROW(r->v, r->cap, r->n, 64) != 0)
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", r->path);
    socmon_value c = *v;
    c.name = strdup(v->name);
    c.instance = v->instance && *v->instance ? strdup(v->instance) : NULL;
    c.event = dup_or_null(v->event);
    c.unit = strdup(v->unit ? v->unit : "");
    c.key = c.name ? make_key(&c) : NULL;
    if (!c.name || !c.key || !c.unit || (v->instance && *v->instance && !c.instance) || (v->event && !c.event)) {
        free_value(&c);
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", r->path);
    }
    if (c.n < 1)
        c.n = 1;
    r->v[r->n++] = c;
    return SOCMON_OK;
}

void smn_run_set_timeline(socmon_run *r, double *times, size_t nrows, double **series)
{
    free(r->times);
    if (r->series)
        for (size_t i = 0; i < r->n; i++)
            free(r->series[i]);
    free(r->series);
    r->times = times;
    r->nrows = nrows;
    r->series = calloc(r->n + 1, sizeof *r->series);
    for (size_t i = 0; i < r->n; i++) {
        if (r->series)
            r->series[i] = series ? series[i] : NULL;
        else if (series)
            free(series[i]);   /* out of memory: the run has no timeline, but nothing leaks */
    }
}

socmon_status smn_run_set_grid(socmon_run *r, const socmon_grid_tile *tiles, size_t n)
{
    free(r->grid);
    r->grid = n ? malloc(n * sizeof *r->grid) : NULL;
    r->ngrid = r->grid ? n : 0;
    if (n && !r->grid)
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", r->path);
    if (n)
        memcpy(r->grid, tiles, n * sizeof *tiles);
    return SOCMON_OK;
}

const socmon_grid_tile *smn_run_grid(const socmon_run *r, size_t *n)
{
    *n = r->ngrid;
    return r->grid;
}

void smn_value_set_spread(socmon_value *v, unsigned n, double sd)
{
    v->n = n;
    v->sd = sd;
    double half = n > 1 ? socmon_t95(n - 1) * sd / sqrt((double)n) : 0;
    v->ci_low = v->v - half;
    v->ci_high = v->v + half;
}

/* stat's JSON starts with '{' (after white space), a recording with its magic number; a file
 * that starts with neither is named as such rather than by the recording reader's complaint. */
static socmon_status sniff(const char *path, int *json)
{
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return socmon_fail(errno == ENOENT ? SOCMON_ENOENT : SOCMON_EIO, "%s: %s", path, strerror(errno));
    char head[8];
    size_t skip = 0, got;
    int ch;
    while ((ch = getc(fp)) == ' ' || ch == '\n' || ch == '\r' || ch == '\t')
        skip++;
    if (ch != EOF)
        ungetc(ch, fp);
    got = fread(head, 1, sizeof head, fp);
    int err = ferror(fp) ? errno : 0;
    fclose(fp);
    if (err)   /* a directory reads as EISDIR here */
        return socmon_fail(SOCMON_EIO, "%s: %s", path, strerror(err));
    if (got == 0)
        return socmon_fail(SOCMON_EINVAL, "%s: the file is empty: neither a recording nor stat's JSON", path);
    *json = head[0] == '{';
    size_t n = got < 8 ? got : 8;
    if (!*json && (skip || memcmp(head, SOCMON_REC_MAGIC, n) != 0))
        return socmon_fail(SOCMON_EINVAL, "%s: neither a socmon recording nor the JSON of socmon stat", path);
    return SOCMON_OK;
}

socmon_status socmon_run_open(const char *path, const socmon_run_opts *o, socmon_run **out)
{
    if (!path || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_run_open: NULL argument");
    *out = NULL;
    socmon_run_opts opts = {0};
    if (o) {
        socmon_status st = smn_check_size("socmon_run_opts", o->size, sizeof *o);
        if (st != SOCMON_OK)
            return st;
        opts = *o;
    }
    int json = 0;
    socmon_status st = sniff(path, &json);
    if (st != SOCMON_OK)
        return st;
    if (json)
        return smn_run_read_json(path, out);
    return smn_run_read_recording(path, opts.metric_file, opts.max_points, out);
}

void socmon_run_free(socmon_run *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free_value(&r->v[i]);
        if (r->series)
            free(r->series[i]);
    }
    free(r->series);
    free(r->times);
    free(r->grid);
    free(r->v);
    free(r->path);
    free(r->kind);
    free(r->target);
    free(r->workload);
    free(r);
}

const char *socmon_run_path(const socmon_run *r)
{
    return r ? r->path : NULL;
}

const char *socmon_run_kind(const socmon_run *r)
{
    return r ? r->kind : NULL;
}

const char *socmon_run_target(const socmon_run *r)
{
    return r ? r->target : NULL;
}

const char *socmon_run_workload(const socmon_run *r)
{
    return r ? r->workload : NULL;
}

unsigned socmon_run_runs(const socmon_run *r)
{
    return r ? r->runs : 0;
}

int socmon_run_simulated(const socmon_run *r)
{
    return r && r->simulated;
}

size_t socmon_run_count(const socmon_run *r)
{
    return r ? r->n : 0;
}

const socmon_value *socmon_run_value(const socmon_run *r, size_t i)
{
    return r && i < r->n ? &r->v[i] : NULL;
}

const double *socmon_run_times(const socmon_run *r, size_t *nrows)
{
    if (nrows)
        *nrows = r && r->times ? r->nrows : 0;
    return r ? r->times : NULL;
}

const double *socmon_run_series(const socmon_run *r, size_t i)
{
    return r && r->series && i < r->n ? r->series[i] : NULL;
}
