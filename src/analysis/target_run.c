/* A target run from its spec alone (analysis/target_run.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/target_run.h"
#include "socmon/delta.h"

struct smn_target_run {
    socmon_target *target;
    socmon_set *set;
    socmon_source *src;
    const char *workload;
    int program;
};

/* The spec's target, with the program as its typed option (what the CLI's `-- PROGRAM` sets). */
static socmon_status open_with(const char *text, const char *program, socmon_target **out)
{
    socmon_spec *s = NULL;
    socmon_status st = socmon_spec_parse(text, &s);
    if (st == SOCMON_OK && program)
        st = socmon_spec_set(s, "program", program);
    if (st == SOCMON_OK)
        st = socmon_target_open_spec(s, out);
    socmon_spec_free(s);
    return st;
}

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

socmon_status smn_target_run_open(const char *spec, const char *program, const char *workload, uint64_t interval_ns,
                                  uint64_t duration_ns, smn_target_run **out)
{
    *out = NULL;
    smn_target_run *r = calloc(1, sizeof *r);
    socmon_status st = r ? open_with(spec, program, &r->target) : socmon_fail(SOCMON_ENOMEM, "out of memory");
    if (st == SOCMON_OK && socmon_target_is_hardware(r->target) && !duration_ns)
        st = socmon_fail(SOCMON_EINVAL, "target '%s' is hardware: give a duration to count for", spec);
    if (st == SOCMON_OK)
        st = socmon_set_new(socmon_target_device(r->target), NULL, &r->set);
    if (st == SOCMON_OK && interval_ns)
        st = socmon_target_check_interval(r->target, interval_ns);
    if (st == SOCMON_OK) {
        const socmon_target_ops *ops = socmon_target_ops_of(r->target);
        r->workload = workload || !ops || !ops->workloads ? workload : ops->workloads[0];
        r->program = program != NULL;
        socmon_source_target_opts so = {.size = sizeof so, .workload = workload};
        int hw = socmon_target_is_hardware(r->target);
        uint64_t step = hw && ops && ops->default_interval_ns ? ops->default_interval_ns : SMN_RUN_MAX_STEP_NS;
        so.sampler = (socmon_sampler_opts){.interval_ns = interval_ns ? interval_ns : smn_step_for(r->set, step),
                                           .duration_ns = duration_ns,
                                           .realtime = socmon_target_is_hardware(r->target)};
        st = socmon_source_target(r->target, r->set, &so, &r->src);
    }
    if (st != SOCMON_OK) {
        smn_target_run_close(r);
        return st;
    }
    *out = r;
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

int smn_target_run_has_program(const smn_target_run *r)
{
    return r->program;
}

const char *smn_target_run_workload(const smn_target_run *r)
{
    return r->workload;
}

int smn_target_run_program_output(smn_target_run *r, void (*fn)(void *ctx, uint8_t byte), void *ctx)
{
    return socmon_target_program_output(r->target, fn, ctx);
}

socmon_program_end smn_target_run_program_end(const smn_target_run *r, char *msg, size_t len)
{
    return socmon_target_program_end(r->target, msg, len);
}

void smn_target_run_close(smn_target_run *r)
{
    if (!r)
        return;
    socmon_source_close(r->src);
    socmon_set_free(r->set);
    socmon_target_close(r->target);
    free(r);
}
