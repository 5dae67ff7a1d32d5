/* The pipeline (socmon/analysis.h): deltas, scaling, metrics, rows, totals and the spread of
 * repeated runs, the one place samples become numbers.
 *
 * Per sample: wrap-safe deltas from the one before (only between consecutive sequence numbers:
 * no delta spans a gap), summed into the run's totals, and handed to every consumer that wants
 * rows through its merger (analysis/rows.c). At the end: the totals scaled by their perf time
 * counters, the metrics over them, and each run added to the spread. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline_internal.h"
#include "core/error.h"
#include "metrics/metrics_masked.h"
#include "socmon/delta.h"

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "pipeline: out of memory");
}

socmon_status socmon_pipeline_new(const socmon_source_info *schema, const socmon_pipeline_opts *o,
                                  socmon_pipeline **out)
{
    if (!out || !schema || (schema->ncounters && (!schema->counters || !schema->names)))
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_new: %s", !out ? "out is NULL" : "no schema");
    *out = NULL;
    socmon_status st = o ? smn_check_size("socmon_pipeline_opts", o->size, sizeof *o) : SOCMON_OK;
    if (st != SOCMON_OK)
        return st;
    socmon_pipeline *p = calloc(1, sizeof *p);
    if (!p)
        return nomem();
    if (o)
        p->opts = *o;
    p->src_info = schema;   /* the schema of samples pushed by hand; a run's source replaces it */
    size_t n = p->n = schema->ncounters;
    p->prev = calloc(n + 1, sizeof *p->prev);
    p->d = calloc(n + 1, sizeof *p->d);
    p->raw = calloc(n + 1, sizeof *p->raw);
    p->values = calloc(n + 1, sizeof *p->values);
    p->running = calloc(n + 1, sizeof *p->running);
    p->x = calloc(n + 1, sizeof *p->x);
    p->bad = calloc(n + 1, 1);
    p->run_bad = calloc(n + 1, 1);
    p->group_end = calloc(n + 1, sizeof *p->group_end);
    p->max_rate = calloc(n + 1, sizeof *p->max_rate);
    p->ones = calloc(n + 1, sizeof *p->ones);
    st = p->prev && p->d && p->raw && p->values && p->running && p->x && p->bad && p->run_bad && p->group_end &&
                 p->max_rate && p->ones
             ? SOCMON_OK
             : nomem();
    if (st == SOCMON_OK && (st = socmon_scaling_new(schema->counters, schema->names, n, &p->sc)) == SOCMON_OK) {
        int any = 0;
        for (size_t i = 0; i < n; i++)
            any |= socmon_scaling_is_time(p->sc, i);
        if (!any) {   /* no perf_event counts: exact counts, no scaling at all */
            socmon_scaling_free(p->sc);
            p->sc = NULL;
        }
    }
    if (st == SOCMON_OK && p->opts.ms) {
        socmon_metric_schema ms = {.ncounters = n, .counters = schema->counters, .nparams = schema->nparams,
                                   .param_names = schema->param_names, .param_values = schema->param_values};
        if ((st = socmon_metrics_bind(p->opts.ms, &ms, &p->m)) == SOCMON_OK)
            p->nm = socmon_metrics_nresults(p->m);
    }
    if (st == SOCMON_OK && !(p->mv = calloc(p->nm + 1, sizeof *p->mv)))
        st = nomem();
    if (st == SOCMON_OK && (smn_spread_init(&p->csp, n) || smn_spread_init(&p->msp, p->nm)))
        st = nomem();
    if (st != SOCMON_OK) {
        socmon_pipeline_free(p);
        return st;
    }
    *out = p;
    return SOCMON_OK;
}

void socmon_pipeline_free(socmon_pipeline *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nc; i++)
        smn_pipeline_merger_free(&p->c[i]);
    socmon_metrics_free(p->m);
    socmon_scaling_free(p->sc);
    smn_spread_free(&p->csp);
    smn_spread_free(&p->msp);
    free(p->prev), free(p->d), free(p->raw), free(p->values), free(p->running), free(p->x), free(p->mv);
    free(p->bad), free(p->run_bad), free(p->group_end), free(p->max_rate), free(p->ones);
    free(p);
}

socmon_status socmon_pipeline_add(socmon_pipeline *p, const socmon_consumer *c)
{
    if (!p || !c || !c->ops)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_add: NULL argument");
    socmon_status st = smn_check_size("socmon_consumer_ops", c->ops->size, sizeof *c->ops);
    if (st != SOCMON_OK)
        return st;
    if (p->nc == PIPELINE_MAX_CONSUMERS)
        return socmon_fail(SOCMON_ERANGE, "socmon_pipeline_add: at most %d consumers", PIPELINE_MAX_CONSUMERS);
    pipeline_merger *m = &p->c[p->nc];
    memset(m, 0, sizeof *m);
    m->c = *c;
    if (smn_pipeline_merger_init(m, p->n, p->nm) != 0)
        return nomem();
    p->nc++;
    return SOCMON_OK;
}

const socmon_metrics *socmon_pipeline_metrics(const socmon_pipeline *p)
{
    return p ? p->m : NULL;
}

const socmon_scaling *socmon_pipeline_scaling(const socmon_pipeline *p)
{
    return p ? p->sc : NULL;
}

const socmon_totals *socmon_pipeline_totals(const socmon_pipeline *p)
{
    return p ? &p->t : NULL;
}

socmon_status socmon_pipeline_consumer_status(const socmon_pipeline *p, const socmon_consumer *c)
{
    if (!p || !c)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_consumer_status: %s is NULL",
                           !p ? "p (the pipeline)" : "c (the consumer)");
    for (size_t i = 0; i < p->nc; i++)
        if (p->c[i].c.self == c->self && p->c[i].c.ops == c->ops)
            return p->c[i].st == SOCMON_OK ? SOCMON_OK : socmon_fail(p->c[i].st, "%s", p->c[i].msg);
    return SOCMON_OK;
}

void socmon_pipeline_set_should_stop(socmon_pipeline *p, int (*should_stop)(void *user), void *user)
{
    p->opts.should_stop = should_stop;
    p->opts.user = user;
}

int socmon_pipeline_should_stop(socmon_pipeline *p)
{
    return p->opts.should_stop && p->opts.should_stop(p->opts.user);
}

/* A consumer's call: an optional consumer's failure is kept (the first), and the run goes on
 * without it; another's stops the run. */
socmon_status smn_pipeline_call(pipeline_merger *m, socmon_status st)
{
    if (st == SOCMON_OK)
        return st;
    if (m->st == SOCMON_OK) {
        m->st = st;   /* the run goes on: later calls set messages of their own, so keep this one */
        snprintf(m->msg, sizeof m->msg, "%s", socmon_errmsg());
    }
    m->off = 1;
    return m->c.optional ? SOCMON_OK : st;
}

socmon_status socmon_pipeline_begin(socmon_pipeline *p)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_begin: p (the pipeline) is NULL");
    return smn_pipeline_begin(p, p->src_info);
}

socmon_status smn_pipeline_begin(socmon_pipeline *p, const socmon_source_info *info)
{
    p->run++;
    p->have_prev = p->have_seq = p->have_first = 0;
    p->samples = p->missed = p->lost = p->elapsed = p->intervals = 0;
    memset(p->raw, 0, p->n * sizeof *p->raw);
    memset(p->run_bad, 0, p->n);
    p->run_badflags = 0;
    p->bad_intervals = 0;
    smn_pipeline_plausible_begin(p, info);
    /* kept in p: consumers may hold on to it until the pipeline is freed */
    p->ainfo = (socmon_analysis_info){.src = info, .ms = p->opts.ms, .metrics = p->m, .scaling = p->sc, .run = p->run};
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++) {
        pipeline_merger *m = &p->c[i];
        smn_pipeline_merger_reset(m);
        if (!m->off && m->c.ops->begin)
            st = smn_pipeline_call(m, m->c.ops->begin(m->c.self, &p->ainfo, &m->want));
    }
    return st;
}

/* The samples of a gap are lost: pending rows end, consumers hear of it, the next sample is a
 * new baseline (a narrow counter may have wrapped any number of times in between). */
socmon_status socmon_pipeline_gap(socmon_pipeline *p, const socmon_gap *g)
{
    if (!p || !g)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_gap: %s is NULL",
                           !p ? "p (the pipeline)" : "g (the gap)");
    if (!g->count)
        return SOCMON_OK;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++) {
        pipeline_merger *m = &p->c[i];
        st = smn_pipeline_merger_flush(p, m);
        if (st == SOCMON_OK && !m->off && m->c.ops->gap)
            st = smn_pipeline_call(m, m->c.ops->gap(m->c.self, g));
        m->lost += g->count;   /* the next row starts after the gap: LOST */
    }
    p->lost += g->count;
    p->missed_so_far += g->count;
    p->have_prev = 0;
    p->have_seq = 1;
    p->last_seq = g->first_seq + g->count - 1;
    return st;
}

socmon_status socmon_pipeline_sample(socmon_pipeline *p, uint64_t seq, const socmon_sample *s, unsigned flags)
{
    if (!p || !s)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_sample: %s is NULL",
                           !p ? "p (the pipeline)" : "s (the sample)");
    if ( s->n != p->n || (p->n && !s->v))
        return socmon_fail(SOCMON_EINVAL, "pipeline: sample of %zu values for %zu counters", s ? s->n : 0, p->n);
    if (p->have_seq && seq <= p->last_seq)
        return socmon_fail(SOCMON_EINVAL, "pipeline: sample seq %llu after seq %llu", (unsigned long long)seq,
                           (unsigned long long)p->last_seq);
    socmon_status st = SOCMON_OK;
    if (p->have_seq && seq != p->last_seq + 1) {
        socmon_gap g = {.first_seq = p->last_seq + 1, .count = seq - p->last_seq - 1, .t0_ns = p->prev_t,
                        .t1_ns = s->t_ns};
        st = socmon_pipeline_gap(p, &g);
    }
    p->have_seq = 1;
    p->last_seq = seq;
    p->samples++;
    p->missed += s->missed;
    p->missed_so_far += s->missed;
    if (!p->have_first) {
        p->have_first = 1;
        p->first_t = s->t_ns;
    }
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++) {
        pipeline_merger *m = &p->c[i];
        if (!m->off && m->c.ops->sample)
            st = smn_pipeline_call(m, m->c.ops->sample(m->c.self, seq, s));
    }
    if (st != SOCMON_OK)
        return st;
    if (!p->have_prev) {
        memcpy(p->prev, s->v, p->n * sizeof *p->prev);
        p->prev_t = s->t_ns;
        p->have_prev = 1;
        return SOCMON_OK;
    }
    for (size_t i = 0; i < p->n; i++) {
        p->d[i] = socmon_delta(p->prev[i], s->v[i], p->src_info->counters[i].width);
        p->raw[i] += p->d[i];
        p->prev[i] = s->v[i];
    }
    /* A timestamp before the one before it (a damaged or old file) would wrap to ~584 years:
     * that interval is 0 ns long instead. */
    uint64_t dt = s->t_ns > p->prev_t ? s->t_ns - p->prev_t : 0;
    p->prev_t = s->t_ns;
    if ((p->badflags = smn_pipeline_plausible(p, s->v, dt)) != 0) {
        p->bad_intervals++;
        p->run_badflags |= p->badflags;
        for (size_t i = 0; i < p->n; i++)
            p->run_bad[i] |= p->bad[i];
    }
    p->elapsed += dt;
    p->intervals++;
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++)
        st = smn_pipeline_merger_add(p, &p->c[i], seq, s, dt, flags);
    return st;
}

socmon_status socmon_pipeline_tick(socmon_pipeline *p)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_tick: p (the pipeline) is NULL");
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++) {
        pipeline_merger *m = &p->c[i];
        if (!m->off && m->c.ops->tick)
            st = smn_pipeline_call(m, m->c.ops->tick(m->c.self));
    }
    return st;
}

/* values[i]: counter i's sum scaled by its time counters (rounded; 0 when it never ran), or the
 * sum itself; running[i] its share of time. */
void smn_pipeline_scale(const socmon_scaling *sc, size_t n, const uint64_t *d, uint64_t *out, double *running, double *tmp)
{
    if (out != d)
        memcpy(out, d, n * sizeof *out);
    if (!sc)
        return;
    socmon_scaling_apply(sc, d, tmp, running);
    for (size_t i = 0; i < n; i++)
        if (socmon_scaling_has_time(sc, i))
            out[i] = isnan(tmp[i]) ? 0 : (uint64_t)llround(tmp[i]);
}

/* The metrics of deltas d over dt_ns (no length: no rates, NaN seconds); NaN where they fail. */
void smn_pipeline_eval(const socmon_pipeline *p, const uint64_t *d, const unsigned char *bad, uint64_t dt_ns, double *mv)
{
    if (!p->m)
        return;
    if (smn_metrics_eval_masked(p->m, d, bad, dt_ns ? (double)dt_ns / 1e9 : NAN, mv) != SOCMON_OK) {
        socmon_clear_error();
        for (size_t i = 0; i < p->nm; i++)
            mv[i] = NAN;
    }
}

socmon_status socmon_pipeline_end(socmon_pipeline *p, const char *reason)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_end: p (the pipeline) is NULL");
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < p->nc; i++) {
        socmon_status fst = smn_pipeline_merger_flush(p, &p->c[i]);
        if (st == SOCMON_OK)
            st = fst;
    }
    smn_pipeline_scale(p->sc, p->n, p->raw, p->values, p->running, p->x);
    const unsigned char *bad = p->run_badflags ? p->run_bad : NULL;
    smn_pipeline_eval(p, p->values, bad, p->elapsed, p->mv);
    double lo;
    unsigned vf = smn_pipeline_value_flags(p, p->running, p->m ? p->mv : NULL, 0, p->lost, &lo) | p->run_badflags;
    p->t = (socmon_totals){.runs = 1, .elapsed_ns = p->elapsed, .samples = p->samples, .missed = p->missed,
                           .lost = p->lost, .intervals = p->intervals, .raw = p->raw, .values = p->values,
                           .running = p->sc ? p->running : NULL, .metrics = p->m ? p->mv : NULL,
                           .value_flags = vf, .min_running = lo, .implausible = bad,
                           .implausible_intervals = p->bad_intervals};
    for (size_t i = 0; i < p->n; i++)
        p->x[i] = (double)p->values[i];
    smn_spread_add(&p->csp, p->run, p->x);
    smn_spread_add(&p->msp, p->run, p->mv);
    p->el_mean += ((double)p->elapsed - p->el_mean) / p->run;
    for (size_t i = 0; i < p->nc; i++) {
        pipeline_merger *m = &p->c[i];
        if (!m->off && m->c.ops->end) {
            socmon_status est = smn_pipeline_call(m, m->c.ops->end(m->c.self, &p->t, reason));
            if (st == SOCMON_OK)
                st = est;
        }
    }
    return st;
}

socmon_status socmon_pipeline_run(socmon_pipeline *p, socmon_source *src)
{
    if (!p || !src)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_run: NULL argument");
    const socmon_source_info *info = socmon_source_info_of(src);
    if (info->ncounters != p->n)
        return socmon_fail(SOCMON_EINVAL, "pipeline: run %u's source has %zu counters, the first had %zu", p->run + 1,
                           info->ncounters, p->n);
    p->src_info = info;
    socmon_status st = smn_pipeline_begin(p, info);
    if (st == SOCMON_OK)
        st = smn_source_run(src, p);
    int stopped = st == SOCMON_ESTATE && socmon_pipeline_should_stop(p);
    if (stopped)
        socmon_clear_error();
    socmon_status est = socmon_pipeline_end(p, smn_source_end_reason(src));
    if (st == SOCMON_OK || stopped)
        st = est;
    return st;
}

socmon_status socmon_pipeline_finish(socmon_pipeline *p)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "socmon_pipeline_finish: p (the pipeline) is NULL");
    unsigned runs = p->run ? p->run : 1;
    smn_spread_finish(&p->csp, runs);
    smn_spread_finish(&p->msp, runs);
    if (runs > 1) {
        /* counts print as whole numbers (perf prints the mean of counts as %.0f) */
        for (size_t i = 0; i < p->n; i++)
            p->values[i] = (uint64_t)llround(p->csp.mean[i]);
        memcpy(p->mv, p->msp.mean, p->nm * sizeof *p->mv);
        p->t.runs = runs;
        p->t.elapsed_ns = (uint64_t)llround(p->el_mean);
        p->t.counter_stddev = p->csp.m2;
        p->t.counter_mean = p->csp.mean;
        p->t.metric_stddev = p->m ? p->msp.m2 : NULL;
    }
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < p->nc && st == SOCMON_OK; i++) {
        pipeline_merger *m = &p->c[i];
        if (!m->off && m->c.ops->finish)
            st = smn_pipeline_call(m, m->c.ops->finish(m->c.self, &p->t));
    }
    return st;
}
