/* A target sampled here (socmon_source_target): the workload started, then the sampler's samples
 * pushed into the pipeline, the first one included (the sampler hands it over only as the
 * previous sample of the second). */
#include <stdlib.h>
#include <string.h>

#include "analysis/source_internal.h"
#include "core/error.h"

typedef struct tsrc {
    socmon_source_info info;
    socmon_target *t;
    socmon_set *set;
    socmon_source_target_opts o;
    socmon_sampler_stats stats;
    socmon_counter *c;
    const char **names, **pnames, **unsupported;
    double *pvalues;
    socmon_pipeline *p;
    uint64_t seq;
} tsrc;

static void tsrc_close(void *self)
{
    tsrc *s = self;
    free(s->c), free(s->names), free(s->pnames), free(s->pvalues), free(s->unsupported);
    free(s);
}

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    tsrc *s = user;
    (void)deltas;
    socmon_status st = SOCMON_OK;
    if (s->seq == 0)
        st = socmon_pipeline_sample(s->p, s->seq++, prev, 0);
    if (st == SOCMON_OK)
        st = socmon_pipeline_sample(s->p, s->seq++, cur, 0);
    if (st == SOCMON_OK)
        st = socmon_pipeline_tick(s->p);
    if (st == SOCMON_OK && socmon_pipeline_should_stop(s->p))
        st = socmon_fail(SOCMON_ESTATE, "stopped");
    return st;
}

static socmon_status tsrc_run(void *self, socmon_pipeline *p)
{
    tsrc *s = self;
    s->p = p;
    s->seq = 0;
    memset(&s->stats, 0, sizeof s->stats);
    socmon_status st = s->o.started ? SOCMON_OK : socmon_target_start(s->t, s->o.workload);
    if (st == SOCMON_OK)
        st = socmon_sampler_run(s->t, s->set, &s->o.sampler, NULL, on_sample, s, &s->stats);
    /* A model's parameters can follow its run (the traffic Zynq's workload asked so far): the
     * run's consumers (the findings) read them as they are at its end. */
    socmon_device *dev = socmon_target_device(s->t);
    for (size_t i = 0; i < s->info.nparams && i < socmon_device_nparams(dev); i++)
        socmon_device_param_at(dev, i, NULL, &s->pvalues[i]);
    return st;
}

/* The perf device of t or of one of its members (the events it could not count), or NULL. */
static const socmon_device *perf_device(const socmon_target *t)
{
    if (!t)
        return NULL;
    if (socmon_perf_device_unsupported(socmon_target_device((socmon_target *)t), 0, NULL, NULL) != SOCMON_EINVAL)
        return socmon_target_device((socmon_target *)t);
    for (size_t i = 0; socmon_target_member(t, i); i++) {
        const socmon_device *d = perf_device(socmon_target_member(t, i));
        if (d)
            return d;
    }
    return NULL;
}

socmon_status socmon_source_target(socmon_target *t, socmon_set *set, const socmon_source_target_opts *o,
                                   socmon_source **out)
{
    if (!t || !set || !o || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_source_target: NULL argument");
    *out = NULL;
    socmon_status sz = smn_check_size("socmon_source_target_opts", o->size, sizeof *o);
    if (sz != SOCMON_OK)
        return sz;
    tsrc *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    s->o = *o;
    s->t = t;
    s->set = set;
    socmon_device *dev = socmon_target_device(t);
    size_t n = socmon_set_size(set), np = socmon_device_nparams(dev), nu = 0;
    const socmon_device *pd = perf_device(t);
    while (pd && socmon_perf_device_unsupported(pd, nu, NULL, NULL) == SOCMON_OK)
        nu++;
    socmon_clear_error();
    s->c = calloc(n + 1, sizeof *s->c);
    s->names = calloc(n + 1, sizeof *s->names);
    s->pnames = calloc(np + 1, sizeof *s->pnames);
    s->pvalues = calloc(np + 1, sizeof *s->pvalues);
    s->unsupported = calloc(nu + 1, sizeof *s->unsupported);
    if (!s->c || !s->names || !s->pnames || !s->pvalues || !s->unsupported) {
        tsrc_close(s);
        return socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        s->c[i] = *socmon_set_counter(set, i);
        s->names[i] = socmon_set_full_name(set, i);
    }
    for (size_t i = 0; i < np; i++)
        socmon_device_param_at(dev, i, &s->pnames[i], &s->pvalues[i]);
    for (size_t i = 0; i < nu; i++)
        socmon_perf_device_unsupported(pd, i, &s->unsupported[i], NULL);
    const socmon_target_ops *ops = socmon_target_ops_of(t);
    int hw = socmon_target_is_hardware(t);
    s->info = (socmon_source_info){.kind = "target", .target = socmon_target_spec(t), .device = socmon_device_name(dev),
                                   .workload = o->workload,
                                   .interval_ns = o->sampler.interval_ns, .simulated = !hw, .hardware = hw,
                                   .ncounters = n, .counters = s->c, .names = s->names, .nparams = np,
                                   .param_names = s->pnames, .param_values = s->pvalues, .set = set, .ops = ops,
                                   .nunsupported = nu, .unsupported = s->unsupported};
    static const socmon_source_ops sops = {.size = sizeof sops, .kind = "target", .run = tsrc_run, .close = tsrc_close};
    socmon_status st = socmon_source_new(&sops, s, &s->info, out);
    if (st != SOCMON_OK)
        tsrc_close(s);
    return st;
}

void socmon_source_target_stats(const socmon_source *src, socmon_sampler_stats *out)
{
    const tsrc *s = socmon_source_self(src);
    if (s && out)
        *out = s->stats;
}
