/* The agent's stream as a source (agent/collector_source.h). */
#include <stdlib.h>
#include <string.h>

#include "agent/collector_source.h"
#include "socmon/status.h"

typedef struct csrc {
    socmon_source_info info;
    collector *c;
    collector_source_opts o;
    socmon_counter *counters;
    const char **names;
    socmon_pipeline *p;
    uint64_t first_t;
    int have_first, done;
    char reason[WIRE_MAX_STR + 1];
} csrc;

static void csrc_close(void *self)
{
    csrc *s = self;
    collector_close(s->c);
    free(s->counters), free(s->names);
    free(s);
}

static socmon_status on_sample(void *user, uint64_t seq, const socmon_sample *smp)
{
    csrc *s = user;
    if (!s->have_first) {
        s->first_t = smp->t_ns;
        s->have_first = 1;
    }
    unsigned flags = seq < collector_hello(s->c)->next_seq ? SOCMON_PAST : 0;
    if (s->o.rebase && !s->o.have_base)
        s->o.base = seq, s->o.have_base = 1;
    if (s->o.rebase && seq < s->o.base)
        return socmon_fail(SOCMON_EPARSE, "agent sent seq %llu, before seq %llu where this stream starts",
                           (unsigned long long)seq, (unsigned long long)s->o.base);
    socmon_status st = socmon_pipeline_sample(s->p, s->o.rebase ? seq - s->o.base : seq, smp, flags);
    if (st == SOCMON_OK && s->o.duration_ns && smp->t_ns - s->first_t >= s->o.duration_ns) {
        s->done = 1;
        return socmon_fail(SOCMON_ESTATE, "the duration is reached");
    }
    return st;
}

static socmon_status on_gap(void *user, const wire_gap *g)
{
    csrc *s = user;
    socmon_gap gap = {.first_seq = g->first_seq, .count = g->count, .t0_ns = g->t0_ns, .t1_ns = g->t1_ns};
    if (s->o.rebase && !s->o.have_base) {   /* nothing before the start is owed: it starts after the gap */
        s->o.base = g->first_seq + g->count, s->o.have_base = 1;
        return SOCMON_OK;
    }
    if (s->o.rebase) {   /* what of the gap lies before the start was never asked for */
        uint64_t end = g->first_seq + g->count;
        if (end <= s->o.base)
            return SOCMON_OK;
        gap.first_seq = g->first_seq > s->o.base ? g->first_seq - s->o.base : 0;
        gap.count = end - s->o.base - gap.first_seq;
    }
    return socmon_pipeline_gap(s->p, &gap);
}

static void on_end(void *user, const wire_end *e)
{
    csrc *s = user;
    snprintf(s->reason, sizeof s->reason, "%s", e->reason);
    s->info.end_reason = s->reason;
}

static int should_stop(void *user)
{
    csrc *s = user;
    return socmon_pipeline_should_stop(s->p);
}

static socmon_status on_tick(void *user)
{
    csrc *s = user;
    return socmon_pipeline_tick(s->p);
}

static socmon_status csrc_run(void *self, socmon_pipeline *p)
{
    csrc *s = self;
    s->p = p;
    socmon_status st = collector_subscribe(s->c, s->o.mode, s->o.seq);
    if (st != SOCMON_OK)
        return st;
    collector_cb cb = {.user = s, .sample = on_sample, .gap = on_gap, .end = on_end,
                       .should_stop = should_stop, .tick = on_tick};
    collector_set_idle_timeout(s->c, s->o.idle_ms);
    st = collector_run(s->c, &cb);
    if (st == SOCMON_ESTATE && s->done) {
        socmon_clear_error();
        st = SOCMON_OK;
    }
    return st;
}

socmon_status collector_source(collector *c, const collector_source_opts *o, socmon_source **out)
{
    *out = NULL;
    csrc *s = calloc(1, sizeof *s);
    const wire_hello *h = collector_hello(c);
    socmon_set *set = collector_set(c);
    size_t n = h->ncounters;
    if (!s || !(s->counters = calloc(n + 1, sizeof *s->counters)) || !(s->names = calloc(n + 1, sizeof *s->names))) {
        if (s)
            free(s->counters);
        free(s);
        collector_close(c);
        return socmon_fail(SOCMON_ENOMEM, "collector: out of memory");
    }
    s->c = c;
    s->o = *o;
    for (size_t i = 0; i < n; i++) {
        s->counters[i] = *socmon_set_counter(set, i);
        s->names[i] = socmon_set_full_name(set, i);
    }
    s->info = (socmon_source_info){.kind = "remote", .target = h->target, .device = h->device,
                                   .workload = *h->workload ? h->workload : NULL, .interval_ns = h->interval_ns,
                                   .simulated = h->simulated, .hardware = !h->simulated, .ncounters = n,
                                   .counters = s->counters, .names = s->names, .nparams = h->nparams,
                                   .param_names = (const char *const *)h->param_names,
                                   .param_values = h->param_values, .set = set,
                                   .ops = socmon_spec_ops_of(h->target)};
    static const socmon_source_ops sops = {.size = sizeof sops, .kind = "remote", .run = csrc_run, .close = csrc_close};
    socmon_status st = socmon_source_new(&sops, s, &s->info, out);
    if (st != SOCMON_OK)
        csrc_close(s);
    return st;
}

uint64_t collector_source_base(const socmon_source *src, int *have)
{
    const csrc *s = socmon_source_self(src);
    *have = s->o.have_base;
    return s->o.base;
}

void collector_source_set_base(socmon_source *src, uint64_t base)
{
    csrc *s = socmon_source_self(src);
    s->o.rebase = 1;
    s->o.have_base = 1;
    s->o.base = base;
}

collector *collector_source_collector(const socmon_source *src)
{
    const csrc *s = socmon_source_self(src);
    return s ? s->c : NULL;
}

void collector_source_start(socmon_source *src, uint32_t mode, uint64_t seq)
{
    csrc *s = socmon_source_self(src);
    s->o.mode = mode;
    s->o.seq = seq;
}
