/* The live view (live.h), its producer side: a consumer of the analysis pipeline (which merges
 * the samples into rows and evaluates their metrics) keeping monotonic totals and publishing
 * into the bounded history (the readers' side is live_read.c).
 *
 * The view touches shared state only when a row, gap or end is published: then, under the
 * mutex, the entry goes into the history ring and the totals and latest metric values are copied
 * to the readers' side. So a sample costs one socmon_delta per counter (in the pipeline) and no
 * lock, and readers always see totals and metrics of the same row boundary. Everything is
 * allocated in socmon_live_new. */
#include "serve/live_internal.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socmon/status.h"
#include "socmon/delta.h"

static uint64_t mono_ns(void *user)
{
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static socmon_status copy_params(smn_live *lv, const smn_live_schema *s)
{
    size_t n = s->nparams;
    lv->pnames = calloc(n + 1, sizeof *lv->pnames);
    lv->pvalues = calloc(n + 1, sizeof *lv->pvalues);
    if (!lv->pnames || !lv->pvalues)
        return socmon_fail(SOCMON_ENOMEM, "live view: out of memory");
    for (size_t i = 0; i < n; i++) {
        if (!s->param_names || !s->param_names[i] || !s->param_values)
            return socmon_fail(SOCMON_EINVAL, "live view: parameter %zu has no name or value", i);
        if (!(lv->pnames[i] = strdup(s->param_names[i])))
            return socmon_fail(SOCMON_ENOMEM, "live view: out of memory");
        lv->pvalues[i] = s->param_values[i];
    }
    lv->schema.param_names = (const char *const *)lv->pnames;
    lv->schema.param_values = lv->pvalues;
    return SOCMON_OK;
}

static socmon_status open_pipeline(smn_live *lv);

static socmon_status alloc_state(smn_live *lv)
{
    size_t nc = lv->nc, nm = lv->nm, cap = lv->cap;
    /* +1: calloc(0) may return NULL, and a schema may have no metrics */
    lv->totals = calloc(nc + 1, sizeof *lv->totals);
    lv->pub_totals = calloc(nc + 1, sizeof *lv->pub_totals);
    lv->pub_m = calloc(nm + 1, sizeof *lv->pub_m);
    lv->ring = calloc(cap, sizeof *lv->ring);
    lv->ring_m = nm && cap > SIZE_MAX / nm ? NULL : calloc(cap * nm + 1, sizeof *lv->ring_m);
    lv->ring_d = nc && cap > SIZE_MAX / nc ? NULL : calloc(cap * nc + 1, sizeof *lv->ring_d);
    if (!lv->totals || !lv->pub_totals || !lv->pub_m || !lv->ring ||
        !lv->ring_m || !lv->ring_d)
        return socmon_fail(SOCMON_ENOMEM, "live view: out of memory for %zu counters, %zu metrics and "
                                          "%zu history rows", nc, nm, cap);
    for (size_t i = 0; i < nm; i++)
        lv->pub_m[i] = NAN;
    return SOCMON_OK;
}

socmon_status socmon_live_new(const smn_live_schema *schema, const smn_live_opts *opts,
                              smn_live **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_live_new: out is NULL");
    *out = NULL;
    if (!schema || (schema->ncounters && (!schema->counters || !schema->names)))
        return socmon_fail(SOCMON_EINVAL, "socmon_live_new: schema without counters or names");
    smn_live *lv = calloc(1, sizeof *lv);
    if (!lv)
        return socmon_fail(SOCMON_ENOMEM, "live view: out of memory");
    lv->schema = *schema;
    if (opts)
        lv->opts = *opts;
    if (!lv->opts.row_ns)
        lv->opts.row_ns = LIVE_DEFAULT_ROW_NS;
    if (!lv->opts.history)
        lv->opts.history = LIVE_DEFAULT_HISTORY;
    if (!lv->opts.clock)
        lv->opts.clock = mono_ns;
    lv->cap = lv->opts.history;
    lv->nc = schema->ncounters;
    pthread_mutex_init(&lv->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&lv->cv, &ca);
    pthread_condattr_destroy(&ca);
    socmon_status st = copy_params(lv, schema);
    if (st == SOCMON_OK)
        st = open_pipeline(lv);
    if (st == SOCMON_OK)
        st = alloc_state(lv);
    if (st != SOCMON_OK) {
        socmon_live_free(lv);
        return st;
    }
    *out = lv;
    return SOCMON_OK;
}

void socmon_live_free(smn_live *lv)
{
    if (!lv)
        return;
    for (size_t i = 0; lv->pnames && i < lv->schema.nparams; i++)
        free(lv->pnames[i]);
    free(lv->pnames);
    free(lv->pvalues);
    free(lv->own_counters);
    free(lv->own_names);
    socmon_pipeline_free(lv->p);
    free(lv->totals);
    free(lv->pub_totals);
    free(lv->pub_m);
    free(lv->ring);
    free(lv->ring_m);
    free(lv->ring_d);
    pthread_cond_destroy(&lv->cv);
    pthread_mutex_destroy(&lv->mu);
    free(lv);
}

/* The slot of the next entry, under mu. */
static smn_live_entry *claim(smn_live *lv, size_t *slot)
{
    *slot = (size_t)(lv->next_id % lv->cap);
    smn_live_entry *e = &lv->ring[*slot];
    memset(e, 0, sizeof *e);
    return e;
}

static void publish(smn_live *lv)
{
    lv->next_id++;
    pthread_cond_broadcast(&lv->cv);
    pthread_mutex_unlock(&lv->mu);
}

/* A row of the pipeline becomes an entry. */
/* The view's schema is fixed: a later run of the same pipeline's consumers (the agent's after a
 * CONFIG, over other counters) finds the view ended and leaves it so; /metrics keeps its totals. */
static socmon_status on_row(void *self, const socmon_row *r)
{
    smn_live *lv = self;
    if (lv->ended)
        return SOCMON_OK;
    for (size_t i = 0; i < lv->nc; i++)
        lv->totals[i] += r->raw[i];
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    smn_live_entry *e = claim(lv, &slot);
    *e = (smn_live_entry){.kind = SOCMON_LIVE_ROW, .seq = r->seq, .first_seq = r->first_seq, .t_ns = r->t_ns,
                             .dt_ns = r->dt_ns, .flags = r->flags, .missed = r->missed};
    memcpy(lv->ring_d + slot * lv->nc, r->raw, lv->nc * sizeof *r->raw);
    for (size_t i = 0; i < lv->nm; i++)
        lv->ring_m[slot * lv->nm + i] = lv->pub_m[i] = r->metrics[i];
    memcpy(lv->pub_totals, lv->totals, lv->nc * sizeof *lv->totals);
    lv->pub_elapsed = r->t_ns - lv->first_t;
    lv->pub_samples = r->samples;
    lv->pub_missed = r->run_missed;
    lv->rows++;
    publish(lv);
    return SOCMON_OK;
}

static socmon_status on_gap(void *self, const socmon_gap *g)
{
    smn_live *lv = self;
    if (lv->ended)
        return SOCMON_OK;
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    smn_live_entry *e = claim(lv, &slot);
    *e = (smn_live_entry){.kind = SOCMON_LIVE_GAP, .count = g->count, .t0_ns = g->t0_ns, .t1_ns = g->t1_ns};
    lv->pub_missed += g->count;
    publish(lv);
    return SOCMON_OK;
}

static socmon_status on_sample(void *self, uint64_t seq, const socmon_sample *s)
{
    smn_live *lv = self;
    (void)seq;
    if (!lv->have_first && !lv->ended) {
        lv->first_t = s->t_ns;
        lv->have_first = 1;
        pthread_mutex_lock(&lv->mu);   /* once per run */
        lv->pub_t0 = s->t_ns;
        lv->pub_started = 1;
        pthread_mutex_unlock(&lv->mu);
    }
    return SOCMON_OK;
}

static socmon_status on_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    smn_live *lv = self;
    (void)a;
    *want = (socmon_row_policy){.rows = !lv->ended, .merge_ns = lv->opts.row_ns, .clock = lv->opts.clock,
                                .clock_user = lv->opts.clock_user};
    return SOCMON_OK;
}

static socmon_status on_end(void *self, const socmon_totals *t, const char *reason)
{
    smn_live *lv = self;
    (void)t;
    (void)reason;
    if (lv->ended)
        return SOCMON_OK;
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    smn_live_entry *e = claim(lv, &slot);
    e->kind = SOCMON_LIVE_END;
    lv->pub_ended = 1;
    lv->ended = 1;
    publish(lv);
    return SOCMON_OK;
}

static const socmon_consumer_ops live_ops = {.size = sizeof live_ops, .begin = on_begin, .sample = on_sample,
                                             .row = on_row, .gap = on_gap, .end = on_end};

static socmon_status open_pipeline(smn_live *lv)
{
    const smn_live_schema *s = &lv->schema;
    lv->info = (socmon_source_info){.kind = "live", .target = s->target, .device = s->device, .workload = s->workload,
                                    .interval_ns = s->interval_ns, .simulated = s->simulated,
                                    .ncounters = s->ncounters, .counters = s->counters, .names = s->names,
                                    .nparams = s->nparams, .param_names = s->param_names,
                                    .param_values = s->param_values};
    socmon_pipeline_opts po = {.size = sizeof po, .ms = s->ms};
    socmon_consumer c = {.ops = &live_ops, .self = lv};
    socmon_status st = socmon_pipeline_new(&lv->info, &po, &lv->p);
    if (st == SOCMON_OK)
        st = socmon_pipeline_add(lv->p, &c);
    if (st == SOCMON_OK) {
        lv->metrics = socmon_pipeline_metrics(lv->p);
        lv->nm = lv->metrics ? socmon_metrics_nresults(lv->metrics) : 0;
    }
    return st;
}

socmon_consumer smn_live_consumer(smn_live *lv)
{
    lv->begun = 1;   /* the run's pipeline begins and ends the view; its own stays unused */
    return (socmon_consumer){.ops = &live_ops, .self = lv};
}

static socmon_status push(smn_live *lv, uint64_t seq, const socmon_sample *s, unsigned flags)
{
    if (!lv || !s || s->n != lv->nc || (lv->nc && !s->v))
        return socmon_fail(SOCMON_EINVAL, "live view: sample of %zu values for %zu counters", s ? s->n : 0,
                           lv ? lv->nc : 0);
    if (lv->ended)
        return SOCMON_OK;
    socmon_status st = lv->begun ? SOCMON_OK : socmon_pipeline_begin(lv->p);
    lv->begun = 1;
    return st == SOCMON_OK ? socmon_pipeline_sample(lv->p, seq, s, flags) : st;
}

socmon_status socmon_live_push(smn_live *lv, uint64_t seq, const socmon_sample *s)
{
    return push(lv, seq, s, 0);
}

socmon_status socmon_live_replay(smn_live *lv, uint64_t seq, const socmon_sample *s)
{
    return push(lv, seq, s, SOCMON_PAST);
}

void socmon_live_gap(smn_live *lv, uint64_t first_seq, uint64_t count, uint64_t t0_ns, uint64_t t1_ns)
{
    if (!lv || lv->ended || !count)
        return;
    if (!lv->begun && socmon_pipeline_begin(lv->p) == SOCMON_OK)
        lv->begun = 1;
    socmon_gap g = {.first_seq = first_seq, .count = count, .t0_ns = t0_ns, .t1_ns = t1_ns};
    socmon_pipeline_gap(lv->p, &g);
}

void socmon_live_end(smn_live *lv)
{
    if (!lv || lv->ended)
        return;
    if (!lv->begun && socmon_pipeline_begin(lv->p) == SOCMON_OK)
        lv->begun = 1;
    socmon_pipeline_end(lv->p, NULL);   /* its last row, then on_end marks the view ended */
    lv->ended = 1;
}

socmon_status socmon_live_new_from_set(const socmon_set *set, const char *target, const char *workload,
                                       uint64_t interval_ns, int simulated, const socmon_metricset *ms, const smn_live_opts *opts,
                                       smn_live **out)
{
    if (!set || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_live_new_from_set: set or out is NULL");
    *out = NULL;
    const socmon_device *dev = socmon_set_device(set);
    size_t n = socmon_set_size(set), np = socmon_device_nparams(dev);
    socmon_counter *c = calloc(n + 1, sizeof *c);
    const char **names = calloc(n + 1, sizeof *names), **pn = calloc(np + 1, sizeof *pn);
    double *pv = calloc(np + 1, sizeof *pv);
    socmon_status st = c && names && pn && pv ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "live view: out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        c[i] = *socmon_set_counter(set, i);
        names[i] = socmon_set_full_name(set, i);
    }
    for (size_t i = 0; st == SOCMON_OK && i < np; i++)
        st = socmon_device_param_at(dev, i, &pn[i], &pv[i]);
    smn_live_schema s = {.target = target, .device = socmon_device_name(dev), .workload = workload,
                            .interval_ns = interval_ns,
                            .simulated = simulated, .ncounters = n, .counters = c, .names = names,
                            .nparams = np, .param_names = pn, .param_values = pv, .ms = ms};
    if (st == SOCMON_OK)
        st = socmon_live_new(&s, opts, out);
    free(pn);   /* the view copied the parameters */
    free(pv);
    if (st != SOCMON_OK) {
        free(c);
        free(names);
        return st;
    }
    (*out)->own_counters = c;
    (*out)->own_names = names;
    return SOCMON_OK;
}
