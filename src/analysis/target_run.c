/* A target run (analysis/target_run.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/target_run.h"
#include "socmon/delta.h"

struct smn_target_run {
    socmon_target *target;
    socmon_set *set;
    socmon_source *src;
    const char *workload;     /* the given one, or the target's default */
    const char *given;        /* the given one (NULL: the target starts its default) */
    int program;
    socmon_sampler_opts sampler;
    /* sources and sets a reselect replaced: kept to the close, since a consumer may hold on
     * to what its begin was given (an info, the counters) after its run (a sender thread) */
    struct retired {
        socmon_source *src;
        socmon_set *set;
        unsigned gen;   /* which: 0 the first, n after n reselects */
        struct retired *next;
    } *retired;
    unsigned gen;       /* reselects done */
};

uint64_t smn_step_for(const socmon_set *set, uint64_t ns)
{
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        uint64_t lim = socmon_max_interval_ns(c->width, c->max_rate_hz);
        if (lim && lim < ns)
            ns = lim;
    }
    return ns;
}

/* Hardware and a paced model keep the target's interval (the host's wake-ups are late now and
 * then, and a person watches the rows come); a model's totals take the longest safe step, as a
 * longer run just takes more steps (SMN_RUN_MAX_STEP_NS says why the totals do not depend on it). */
uint64_t smn_run_interval(const socmon_target *t, const socmon_set *set, const smn_sampling *s)
{
    if (s->interval_ns)
        return s->interval_ns;
    const socmon_target_ops *ops = socmon_target_ops_of(t);
    uint64_t target = ops && ops->default_interval_ns ? ops->default_interval_ns : SMN_RUN_DEFAULT_INTERVAL_NS;
    if (s->rule == SMN_STEP_ROWS)
        return target;
    int paced = s->realtime || socmon_target_is_hardware(t);
    return smn_step_for(set, paced ? target : SMN_RUN_MAX_STEP_NS);
}

socmon_status smn_target_run_open(const smn_target_want *w, const char *workload, const smn_sampling *s,
                                  smn_target_run **out)
{
    *out = NULL;
    smn_target_run *r = calloc(1, sizeof *r);
    if (!r)
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    socmon_status st = smn_target_open_want(w, &r->target, &r->set);
    socmon_source_target_opts so = {.size = sizeof so, .workload = workload, .started = s->started};
    if (st == SOCMON_OK) {
        const socmon_target_ops *ops = socmon_target_ops_of(r->target);
        r->workload = workload || !ops || !ops->workloads ? workload : ops->workloads[0];
        r->given = workload;
        r->program = w->program != NULL;
        so.sampler = (socmon_sampler_opts){.interval_ns = smn_run_interval(r->target, r->set, s),
                                           .duration_ns = s->duration_ns, .realtime = s->realtime,
                                           .max_intervals = s->max_intervals};
        st = socmon_target_check_interval(r->target, so.sampler.interval_ns);
        r->sampler = so.sampler;
    }
    if (st == SOCMON_OK)
        st = socmon_source_target(r->target, r->set, &so, &r->src);
    if (st != SOCMON_OK) {
        smn_target_run_close(r);
        return st;
    }
    *out = r;
    return SOCMON_OK;
}

socmon_status smn_target_run_start(smn_target_run *r)
{
    return socmon_target_start(r->target, r->given);
}

socmon_status smn_target_run_reselect(smn_target_run *r, const char *events, uint64_t duration_ns)
{
    socmon_set *set = NULL;
    socmon_source *src = NULL;
    socmon_source_target_opts so = {.size = sizeof so, .workload = r->given, .started = 1, .sampler = r->sampler};
    so.sampler.duration_ns = duration_ns;
    struct retired *old = malloc(sizeof *old);
    socmon_status st = old ? socmon_set_new(socmon_target_device(r->target), events, &set)
                           : socmon_fail(SOCMON_ENOMEM, "out of memory");
    if (st == SOCMON_OK)
        st = socmon_source_target(r->target, set, &so, &src);
    if (st != SOCMON_OK) {
        socmon_set_free(set);
        free(old);
        return st;
    }
    *old = (struct retired){.src = r->src, .set = r->set, .gen = r->gen++, .next = r->retired};
    r->retired = old;
    r->src = src;
    r->set = set;
    return SOCMON_OK;
}

socmon_source *smn_target_run_source(const smn_target_run *r)
{
    return r->src;
}

socmon_target *smn_target_run_target(const smn_target_run *r)
{
    return r->target;
}

socmon_set *smn_target_run_set(const smn_target_run *r)
{
    return r->set;
}

int smn_target_run_has_program(const smn_target_run *r)
{
    return r->program;
}

const char *smn_target_run_workload(const smn_target_run *r)
{
    return r->workload;
}

size_t smn_target_run_drop_retired(smn_target_run *r, unsigned keep_a, unsigned keep_b)
{
    size_t n = 0;
    for (struct retired **at = r ? &r->retired : NULL; at && *at;) {
        struct retired *g = *at;
        if (g->gen == keep_a || g->gen == keep_b) {
            at = &g->next;
            continue;
        }
        *at = g->next;
        socmon_source_close(g->src);
        socmon_set_free(g->set);
        free(g);
        n++;
    }
    return n;
}

void smn_target_run_close(smn_target_run *r)
{
    if (!r)
        return;
    socmon_source_close(r->src);
    socmon_set_free(r->set);
    smn_target_run_drop_retired(r, UINT_MAX, UINT_MAX);
    socmon_target_close(r->target);
    free(r);
}
