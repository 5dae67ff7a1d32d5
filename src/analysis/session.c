/* A run plan's session (analysis/session.h): the one place a source, its metric set and the
 * pipeline over them are put together and run. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session.h"
#include "analysis/target_run.h"
#include "socmon/recording.h"

struct smn_session {
    smn_run_plan plan;
    smn_target_run *run;      /* a target's (else NULL) */
    socmon_recording *rec;    /* a recording's (else NULL) */
    socmon_source *src;       /* the recording's source (a target run's is its own) */
    socmon_metricset *ms;
    socmon_pipeline *pipe;
    void (*out_fn)(void *ctx, uint8_t byte);
    void *out_ctx;
    unsigned runs;            /* runs done */
};

static socmon_source *source_of(const smn_session *s)
{
    return s->run ? smn_target_run_source(s->run) : s->src;
}

static socmon_status open_target(smn_session *s)
{
    const smn_run_plan *p = &s->plan;
    socmon_status st = smn_target_run_open(p->spec, p->program, p->workload, p->interval_ns, p->duration_ns, &s->run);
    if (st == SOCMON_OK && s->out_fn)
        smn_target_run_program_output(s->run, s->out_fn, s->out_ctx);
    return st;
}

static socmon_status check_plan(const smn_run_plan *p)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "run plan: NULL");
    if (!p->spec == !p->recording)
        return socmon_fail(SOCMON_EINVAL, "run plan: give a target spec or a recording, %s",
                           p->spec ? "not both" : "not neither");
    if (p->recording && (p->program || p->workload || p->repeat > 1 || p->duration_ns || p->interval_ns))
        return socmon_fail(SOCMON_EINVAL, "run plan: a recording is read as it was recorded: no %s",
                           p->program ? "program" : p->workload ? "workload" : p->repeat > 1 ? "repeats"
                           : p->duration_ns ? "duration" : "interval");
    return SOCMON_OK;
}

socmon_status smn_session_open(const smn_run_plan *plan, smn_session **out)
{
    *out = NULL;
    socmon_status st = check_plan(plan);
    if (st != SOCMON_OK)
        return st;
    smn_session *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "run plan: out of memory");
    s->plan = *plan;
    if (plan->spec) {
        st = open_target(s);
    } else {
        st = socmon_recording_open(plan->recording, &s->rec);
        if (st == SOCMON_OK)
            st = socmon_source_recording(s->rec, &s->src);
    }
    const socmon_source_info *info = st == SOCMON_OK ? socmon_source_info_of(source_of(s)) : NULL;
    if (st == SOCMON_OK)
        st = socmon_source_metricset(info, plan->metric_file, &s->ms);
    socmon_pipeline_opts po = {.size = sizeof po, .ms = s->ms, .should_stop = plan->should_stop, .user = plan->user};
    if (st == SOCMON_OK)
        st = socmon_pipeline_new(info, &po, &s->pipe);
    if (st != SOCMON_OK) {
        smn_session_close(s);
        return st;
    }
    *out = s;
    return SOCMON_OK;
}

socmon_status smn_session_add(smn_session *s, const socmon_consumer *c)
{
    return socmon_pipeline_add(s->pipe, c);
}

const socmon_source_info *smn_session_info(const smn_session *s)
{
    return socmon_source_info_of(source_of(s));
}

const socmon_metrics *smn_session_metrics(const smn_session *s)
{
    return socmon_pipeline_metrics(s->pipe);
}

const char *smn_session_workload(const smn_session *s)
{
    return s->run ? smn_target_run_workload(s->run) : NULL;
}

int smn_session_program_output(smn_session *s, void (*fn)(void *ctx, uint8_t byte), void *ctx)
{
    if (!s->run || !smn_target_run_has_program(s->run))
        return 0;
    s->out_fn = fn;
    s->out_ctx = ctx;
    smn_target_run_program_output(s->run, fn, ctx);
    return 1;
}

socmon_status smn_session_run(smn_session *s)
{
    unsigned n = s->plan.repeat > 1 ? s->plan.repeat : 1;
    socmon_status st = SOCMON_OK;
    for (unsigned r = 0; r < n && st == SOCMON_OK; r++) {
        if (r > 0) {   /* each repeat from a fresh start: the target reopened, as perf runs a command again */
            smn_target_run_close(s->run);
            s->run = NULL;
            st = open_target(s);
        }
        if (st == SOCMON_OK)
            st = socmon_pipeline_run(s->pipe, source_of(s));
        if (st == SOCMON_OK)
            s->runs++;
        if (st == SOCMON_OK && socmon_pipeline_should_stop(s->pipe))
            break;   /* stopped: the runs so far, the stopped one included */
    }
    if (st == SOCMON_OK && s->run)
        st = socmon_pipeline_finish(s->pipe);
    return st;
}

const socmon_totals *smn_session_totals(const smn_session *s)
{
    return socmon_pipeline_totals(s->pipe);
}

void smn_session_exit(const smn_session *s, smn_session_end *e)
{
    memset(e, 0, sizeof *e);
    if (!s->run || !smn_target_run_has_program(s->run))
        return;
    e->program = 1;
    switch ((int)smn_target_run_program_end(s->run, e->message, sizeof e->message)) {
    case SOCMON_PROGRAM_HALTED: e->end = "halt"; e->exit_code = 0; break;
    case SOCMON_PROGRAM_TRAPPED: e->end = "trap"; e->exit_code = 3; break;
    case SOCMON_PROGRAM_LIMIT: e->end = "cycle_limit"; e->exit_code = 4; break;
    case SOCMON_PROGRAM_HANG: e->end = "hang"; e->exit_code = 5; break;
    default:   /* still running when the duration ran out */
        e->end = "timeout";
        e->exit_code = 0;
        snprintf(e->message, sizeof e->message, "program still running when the duration ended");
        break;
    }
}

void smn_session_close(smn_session *s)
{
    if (!s)
        return;
    socmon_pipeline_free(s->pipe);
    socmon_metricset_free(s->ms);
    if (!s->run)
        socmon_source_close(s->src);
    socmon_recording_free(s->rec);
    smn_target_run_close(s->run);
    free(s);
}
