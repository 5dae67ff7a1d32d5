/* The live view (live.h), its producer side: merging samples into rows, monotonic totals,
 * publishing into the bounded history (the readers' side is live_read.c).
 *
 * The producer keeps its working state (previous values, the row being merged, running totals)
 * to itself and touches shared state only when a row, gap or end is published: then, under the
 * mutex, the entry goes into the history ring and the totals and latest metric values are copied
 * to the readers' side. So a sample costs one socmon_delta per counter and no lock, and readers
 * always see totals and metrics of the same row boundary. Everything is allocated in
 * socmon_live_new. */
#include "agent/live_internal.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/error.h"
#include "socmon/delta.h"

static uint64_t mono_ns(void *user)
{
    (void)user;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static socmon_status copy_params(socmon_live *lv, const socmon_live_schema *s)
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

static socmon_status alloc_state(socmon_live *lv)
{
    size_t nc = lv->nc, nm = lv->nm, cap = lv->cap;
    /* +1: calloc(0) may return NULL, and a schema may have no metrics */
    lv->prev = calloc(nc + 1, sizeof *lv->prev);
    lv->acc = calloc(nc + 1, sizeof *lv->acc);
    lv->totals = calloc(nc + 1, sizeof *lv->totals);
    lv->pub_totals = calloc(nc + 1, sizeof *lv->pub_totals);
    lv->mv = calloc(nm + 1, sizeof *lv->mv);
    lv->pub_m = calloc(nm + 1, sizeof *lv->pub_m);
    lv->ring = calloc(cap, sizeof *lv->ring);
    lv->ring_m = nm && cap > SIZE_MAX / nm ? NULL : calloc(cap * nm + 1, sizeof *lv->ring_m);
    lv->ring_d = nc && cap > SIZE_MAX / nc ? NULL : calloc(cap * nc + 1, sizeof *lv->ring_d);
    if (!lv->prev || !lv->acc || !lv->totals || !lv->pub_totals || !lv->mv || !lv->pub_m || !lv->ring ||
        !lv->ring_m || !lv->ring_d)
        return socmon_fail(SOCMON_ENOMEM, "live view: out of memory for %zu counters, %zu metrics and "
                                          "%zu history rows", nc, nm, cap);
    for (size_t i = 0; i < nm; i++)
        lv->pub_m[i] = NAN;
    return SOCMON_OK;
}

socmon_status socmon_live_new(const socmon_live_schema *schema, const socmon_live_opts *opts,
                              socmon_live **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_live_new: out is NULL");
    *out = NULL;
    if (!schema || (schema->ncounters && (!schema->counters || !schema->names)))
        return socmon_fail(SOCMON_EINVAL, "socmon_live_new: schema without counters or names");
    socmon_live *lv = calloc(1, sizeof *lv);
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
    if (st == SOCMON_OK && schema->ms) {
        socmon_metric_schema ms = {lv->nc, schema->counters, schema->nparams, lv->schema.param_names,
                                   lv->pvalues};
        if ((st = socmon_metrics_bind(schema->ms, &ms, &lv->metrics)) == SOCMON_OK)
            lv->nm = socmon_metrics_nresults(lv->metrics);
    }
    if (st == SOCMON_OK)
        st = alloc_state(lv);
    if (st != SOCMON_OK) {
        socmon_live_free(lv);
        return st;
    }
    *out = lv;
    return SOCMON_OK;
}

void socmon_live_free(socmon_live *lv)
{
    if (!lv)
        return;
    for (size_t i = 0; lv->pnames && i < lv->schema.nparams; i++)
        free(lv->pnames[i]);
    free(lv->pnames);
    free(lv->pvalues);
    free(lv->own_counters);
    free(lv->own_names);
    socmon_metrics_free(lv->metrics);
    free(lv->prev);
    free(lv->acc);
    free(lv->totals);
    free(lv->pub_totals);
    free(lv->mv);
    free(lv->pub_m);
    free(lv->ring);
    free(lv->ring_m);
    free(lv->ring_d);
    pthread_cond_destroy(&lv->cv);
    pthread_mutex_destroy(&lv->mu);
    free(lv);
}

/* The slot of the next entry, under mu. */
static socmon_live_entry *claim(socmon_live *lv, size_t *slot)
{
    *slot = (size_t)(lv->next_id % lv->cap);
    socmon_live_entry *e = &lv->ring[*slot];
    memset(e, 0, sizeof *e);
    return e;
}

static void publish(socmon_live *lv)
{
    lv->next_id++;
    pthread_cond_broadcast(&lv->cv);
    pthread_mutex_unlock(&lv->mu);
}

/* The row being merged becomes an entry; its metrics are evaluated over its whole span. */
static void flush_row(socmon_live *lv)
{
    if (!lv->acc_n)
        return;
    double dt_s = (double)lv->acc_dt / 1e9;
    if (lv->metrics && socmon_metrics_eval(lv->metrics, lv->acc, dt_s, lv->mv) != SOCMON_OK)
        for (size_t i = 0; i < lv->nm; i++)
            lv->mv[i] = NAN;
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    socmon_live_entry *e = claim(lv, &slot);
    *e = (socmon_live_entry){.kind = SOCMON_LIVE_ROW, .seq = lv->acc_seq, .first_seq = lv->acc_first_seq,
                             .t_ns = lv->acc_t, .dt_ns = lv->acc_dt, .flags = lv->acc_flags,
                             .missed = lv->acc_missed};
    memcpy(lv->ring_d + slot * lv->nc, lv->acc, lv->nc * sizeof *lv->acc);
    memcpy(lv->ring_m + slot * lv->nm, lv->mv, lv->nm * sizeof *lv->mv);
    memcpy(lv->pub_totals, lv->totals, lv->nc * sizeof *lv->totals);
    memcpy(lv->pub_m, lv->mv, lv->nm * sizeof *lv->mv);
    lv->pub_elapsed = lv->acc_t - lv->first_t;
    lv->pub_samples = lv->samples;
    lv->pub_missed = lv->missed;
    lv->rows++;
    publish(lv);
    memset(lv->acc, 0, lv->nc * sizeof *lv->acc);
    lv->acc_n = lv->acc_dt = 0;
    lv->acc_flags = lv->acc_missed = 0;
}

static void add_gap(socmon_live *lv, uint64_t count, uint64_t t0, uint64_t t1)
{
    flush_row(lv);
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    socmon_live_entry *e = claim(lv, &slot);
    *e = (socmon_live_entry){.kind = SOCMON_LIVE_GAP, .count = count, .t0_ns = t0, .t1_ns = t1};
    lv->missed += count;
    lv->pub_missed = lv->missed;
    publish(lv);
}

static socmon_status push(socmon_live *lv, uint64_t seq, const socmon_sample *s, int replay);

socmon_status socmon_live_push(socmon_live *lv, uint64_t seq, const socmon_sample *s)
{
    return push(lv, seq, s, 0);
}

socmon_status socmon_live_replay(socmon_live *lv, uint64_t seq, const socmon_sample *s)
{
    return push(lv, seq, s, 1);
}

static socmon_status push(socmon_live *lv, uint64_t seq, const socmon_sample *s, int replay)
{
    if (!lv || !s || s->n != lv->nc || (lv->nc && !s->v))
        return socmon_fail(SOCMON_EINVAL, "live view: sample of %zu values for %zu counters", s ? s->n : 0,
                           lv ? lv->nc : 0);
    if (lv->ended)
        return SOCMON_OK;
    if (lv->have_seq && seq <= lv->last_seq)
        return socmon_fail(SOCMON_EINVAL, "live view: sample seq %llu after seq %llu",
                           (unsigned long long)seq, (unsigned long long)lv->last_seq);
    if (lv->have_seq && seq != lv->last_seq + 1) {
        add_gap(lv, seq - lv->last_seq - 1, lv->prev_t, s->t_ns);
        lv->have_prev = 0;
    }
    lv->have_seq = 1;
    lv->last_seq = seq;
    lv->samples++;
    lv->missed += s->missed;
    if (!lv->have_first) {
        lv->first_t = s->t_ns;
        lv->have_first = 1;
        pthread_mutex_lock(&lv->mu);   /* once per run */
        lv->pub_t0 = s->t_ns;
        lv->pub_started = 1;
        pthread_mutex_unlock(&lv->mu);
    }
    if (!lv->have_prev) {
        memcpy(lv->prev, s->v, lv->nc * sizeof *lv->prev);
        lv->prev_t = s->t_ns;
        lv->have_prev = 1;
        return SOCMON_OK;
    }
    /* Missed intervals start a row of their own, so the page shows the hole where it was. */
    if (s->flags & SOCMON_SAMPLE_MISSED)
        flush_row(lv);
    for (size_t i = 0; i < lv->nc; i++) {
        uint64_t d = socmon_delta(lv->prev[i], s->v[i], lv->schema.counters[i].width);
        lv->acc[i] += d;
        lv->totals[i] += d;
        lv->prev[i] = s->v[i];
    }
    if (!lv->acc_n)
        lv->acc_first_seq = seq;
    lv->acc_n++;
    lv->acc_seq = seq;
    lv->acc_t = s->t_ns;
    lv->acc_dt += s->t_ns >= lv->prev_t ? s->t_ns - lv->prev_t : 0;
    lv->acc_flags |= s->flags;
    lv->acc_missed += s->missed;
    lv->prev_t = s->t_ns;
    uint64_t now = lv->opts.clock(lv->opts.clock_user);
    /* Live, rows are paced by the wall clock (the page's load): row_ns since the last row, or
     * half of it once the row spans row_ns of its own time (a paced 50 ms interval woken a little
     * early must not make 100 ms rows out of two samples; a model running faster than the wall
     * clock still makes at most two rows per row_ns). A replay arrives all at once, so its rows
     * are cut by the samples' own time alone. */
    uint64_t since = now - lv->last_row_wall, row = lv->opts.row_ns;
    if (replay ? lv->acc_dt >= row : !lv->have_row_wall || since >= row || (lv->acc_dt >= row && since >= row / 2)) {
        flush_row(lv);
        lv->last_row_wall = now;
        lv->have_row_wall = 1;
    }
    return SOCMON_OK;
}

void socmon_live_gap(socmon_live *lv, uint64_t first_seq, uint64_t count, uint64_t t0_ns, uint64_t t1_ns)
{
    if (!lv || lv->ended || !count)
        return;
    add_gap(lv, count, t0_ns, t1_ns);
    lv->have_prev = 0;
    lv->have_seq = 1;
    lv->last_seq = first_seq + count - 1;
}

void socmon_live_end(socmon_live *lv)
{
    if (!lv || lv->ended)
        return;
    flush_row(lv);
    lv->ended = 1;
    pthread_mutex_lock(&lv->mu);
    size_t slot;
    socmon_live_entry *e = claim(lv, &slot);
    e->kind = SOCMON_LIVE_END;
    lv->pub_ended = 1;
    publish(lv);
}

socmon_status socmon_live_new_from_set(const socmon_set *set, const char *target, const char *workload,
                                       uint64_t interval_ns, int simulated, const socmon_metricset *ms, const socmon_live_opts *opts,
                                       socmon_live **out)
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
    socmon_live_schema s = {.target = target, .device = socmon_device_name(dev), .workload = workload,
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
