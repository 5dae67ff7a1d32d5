/* A run plan's session (analysis/session.h): the one place a source, its metric set and the
 * pipeline over them are put together and run. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "analysis/run_attach.h"
#include "analysis/session.h"
#include "socmon/host.h"
#include "socmon/recording.h"

struct smn_session {
    smn_run_plan plan;
    smn_target_run *run;      /* a target's (else NULL) */
    socmon_recording *rec;    /* a recording opened from the plan's path (else NULL) */
    socmon_source *src;       /* a recording's or the caller's source (a target run's is its own) */
    socmon_metricset *ms;
    socmon_pipeline *pipe;
    void (*out_fn)(void *ctx, uint8_t byte);
    void *out_ctx;
    unsigned runs;            /* runs done */
    socmon_consumer consumers[8];   /* as added: a reselected run's new pipeline takes them again */
    size_t nconsumers;
    int (*should_stop)(void *user);
    void *stop_user;
    double *params0;          /* the target's parameters when it was opened (a header's) */
    size_t nparams0;
    /* pipelines and metric sets a reselect replaced, kept to the close (target_run.c says why)
     * or to smn_session_drop_retired; numbered as the target run numbers its sets */
    struct retired_pipe {
        socmon_pipeline *pipe;
        socmon_metricset *ms;
        unsigned gen;
        struct retired_pipe *next;
    } *retired;
    unsigned gen;             /* the target run's generation: reselects that chose counters */
    unsigned pipe_gen;        /* the generation pipe and ms were made for: gen, but behind it when
                                 a reselect failed half-way (broken: the pipeline is not the source's) */
    unsigned begun_gen;       /* the generation the first run began on (UINT_MAX: none yet) */
};

static socmon_source *source_of(const smn_session *s)
{
    return s->run ? smn_target_run_source(s->run) : s->src;
}

static socmon_target *target_of(const smn_session *s)
{
    return s->run ? smn_target_run_target(s->run) : NULL;
}

static void usage_error(const smn_session *s)
{
    if (s->plan.usage_error)
        *s->plan.usage_error = 1;
}

/* A workload given by name or file that does not parse is the request's fault. */
static socmon_status checked(const smn_session *s, socmon_status st)
{
    if (st == SOCMON_EPARSE && s->plan.workload)
        usage_error(s);
    return st;
}

static socmon_status open_target(smn_session *s)
{
    const smn_run_plan *p = &s->plan;
    socmon_status st = checked(s, smn_target_run_open(&p->target, p->workload, &p->sampling, &s->run));
    if (st != SOCMON_OK)
        return st;
    if (s->out_fn)
        socmon_target_program_output(target_of(s), s->out_fn, s->out_ctx);
    /* the parameters as a recording's header takes them now, to see at the end which moved */
    const socmon_device *dev = socmon_target_device(target_of(s));
    free(s->params0);
    s->nparams0 = socmon_device_nparams(dev);
    s->params0 = calloc(s->nparams0 ? s->nparams0 : 1, sizeof *s->params0);
    if (!s->params0)
        return socmon_fail(SOCMON_ENOMEM, "run plan: out of memory");
    for (size_t i = 0; i < s->nparams0; i++)
        socmon_device_param_at(dev, i, NULL, &s->params0[i]);
    return SOCMON_OK;
}

static int wants_target(const smn_run_plan *p)
{
    const smn_target_want *w = &p->target;
    return w->nspecs || w->program || w->command || w->events || w->trace_bus || p->workload || p->repeat > 1 ||
           p->sampling.interval_ns || p->sampling.duration_ns;
}

static socmon_status check_plan(const smn_run_plan *p)
{
    if (!p)
        return socmon_fail(SOCMON_EINVAL, "run plan: NULL");
    int given = !!p->recording + !!p->opened + !!p->source;
    if (given > 1)
        return socmon_fail(SOCMON_EINVAL, "run plan: give one source: a recording, an open recording or a source");
    if (given && wants_target(p))
        return socmon_fail(SOCMON_EINVAL, "run plan: a %s is read as it was made: no target, program, workload, "
                           "repeats, interval or duration", p->source ? "source" : "recording");
    return SOCMON_OK;
}

static socmon_status open_source(smn_session *s)
{
    const smn_run_plan *p = &s->plan;
    if (p->source) {
        s->src = p->source;
        return SOCMON_OK;
    }
    if (!p->recording && !p->opened)
        return open_target(s);
    socmon_status st = p->opened ? SOCMON_OK : socmon_recording_open(p->recording, &s->rec);
    return st == SOCMON_OK ? socmon_source_recording(p->opened ? p->opened : s->rec, &s->src) : st;
}

static socmon_status check_bounded(const smn_session *s);

socmon_status smn_session_open(const smn_run_plan *plan, smn_session **out)
{
    *out = NULL;
    socmon_status st = check_plan(plan);
    smn_session *s = st == SOCMON_OK ? calloc(1, sizeof *s) : NULL;
    if (!s) {
        if (plan && plan->source)
            socmon_source_close(plan->source);
        return st != SOCMON_OK ? st : socmon_fail(SOCMON_ENOMEM, "run plan: out of memory");
    }
    s->plan = *plan;
    s->begun_gen = UINT_MAX;
    st = open_source(s);
    const socmon_source_info *info = st == SOCMON_OK ? socmon_source_info_of(source_of(s)) : NULL;
    if (st == SOCMON_OK && plan->sampling.started)   /* its caller will start it: refused now, before
                                                       anything is said of the run (record) */
        st = check_bounded(s);
    if (st == SOCMON_OK)
        st = socmon_source_metricset(info, plan->metric_file, &s->ms);
    s->should_stop = plan->should_stop;
    s->stop_user = plan->user;
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
    socmon_status st = socmon_pipeline_add(s->pipe, c);
    if (st == SOCMON_OK && s->nconsumers < sizeof s->consumers / sizeof s->consumers[0])
        s->consumers[s->nconsumers++] = *c;   /* the pipeline took at most as many */
    return st;
}

void smn_session_set_should_stop(smn_session *s, int (*fn)(void *user), void *user)
{
    s->should_stop = fn;
    s->stop_user = user;
    socmon_pipeline_set_should_stop(s->pipe, fn, user);
}

socmon_status smn_session_reselect(smn_session *s, const char *events, uint64_t duration_ns)
{
    if (!s->run)
        return socmon_fail(SOCMON_ESTATE, "run plan: only a target's counters can be chosen anew");
    /* The old pipeline was bound to the old counters: a new one, its metrics bound anew (a
     * metric whose counters are no longer selected has no value), with the same consumers.
     * What can fail without the new counters (the metric set: the target's or the plan's file;
     * the retired pipeline's entry) comes first, so that it leaves all as it was. A metric set
     * that could not be loaded once gave a pipeline without metrics, silently. */
    socmon_metricset *ms = NULL;
    socmon_status st = socmon_source_metricset(smn_session_info(s), s->plan.metric_file, &ms);
    struct retired_pipe *old = st == SOCMON_OK ? malloc(sizeof *old) : NULL;
    if (st == SOCMON_OK && !old)
        st = socmon_fail(SOCMON_ENOMEM, "run plan: out of memory");
    if (st == SOCMON_OK)
        st = smn_target_run_reselect(s->run, events, duration_ns);
    if (st != SOCMON_OK) {
        socmon_metricset_free(ms);
        free(old);
        return st;
    }
    const socmon_source_info *info = smn_session_info(s);
    socmon_pipeline *pipe = NULL;
    socmon_pipeline_opts po = {.size = sizeof po, .ms = ms, .should_stop = s->should_stop, .user = s->stop_user};
    st = socmon_pipeline_new(info, &po, &pipe);
    for (size_t i = 0; st == SOCMON_OK && i < s->nconsumers; i++)
        st = socmon_pipeline_add(pipe, &s->consumers[i]);
    if (st != SOCMON_OK) {
        /* The target run has the new counters already (its next generation): the old pipeline's
         * schema no longer matches them, so the session is broken, its runs fail, until a
         * reselect succeeds. gen follows the target run, the pipeline keeps its own (pipe_gen,
         * under which it is retired later): numbered one behind, drop_retired once kept a
         * pipeline with the wrong counter set and freed the first run's set under a consumer. */
        socmon_pipeline_free(pipe);
        socmon_metricset_free(ms);
        free(old);
        s->gen++;
        return st;
    }
    *old = (struct retired_pipe){.pipe = s->pipe, .ms = s->ms, .gen = s->pipe_gen, .next = s->retired};
    s->retired = old;
    s->pipe = pipe;
    s->ms = ms;
    s->pipe_gen = ++s->gen;   /* a pipeline for the counters chosen: a failed reselect is mended */
    return SOCMON_OK;
}

int smn_session_broken(const smn_session *s)
{
    return s && s->pipe_gen != s->gen;
}

/* Frees the generations reselects replaced but keep_a and keep_b (UINT_MAX: none). */
static size_t drop_gens(smn_session *s, unsigned keep_a, unsigned keep_b)
{
    size_t n = 0;
    for (struct retired_pipe **at = &s->retired; *at;) {
        struct retired_pipe *g = *at;
        if (g->gen == keep_a || g->gen == keep_b) {
            at = &g->next;
            continue;
        }
        *at = g->next;
        socmon_pipeline_free(g->pipe);
        socmon_metricset_free(g->ms);
        free(g);
        n++;
    }
    return n + (s->run ? smn_target_run_drop_retired(s->run, keep_a, keep_b) : 0);
}

size_t smn_session_drop_retired(smn_session *s)
{
    /* Kept: the first generation (what consumers made before any run were built on: the live
     * view's counter set and metric set) and the one the first run began on (a consumer may
     * keep what its first begin gave to the close: the remote writer's info and metrics; that
     * is the second generation when a CONFIG came before the first sample). */
    if (!s || smn_session_broken(s))
        return 0; /* the pipeline still there reads its generation's source, which the target run
                     retired: nothing goes until a reselect mends the session */
    return drop_gens(s, 0, s->begun_gen);
}

socmon_status smn_session_attach(const smn_session *s, socmon_recwriter *w, int params)
{
    socmon_target *t = target_of(s);
    if (!t)
        return SOCMON_OK;   /* a recording's or an agent's run: its target is not here */
    socmon_status st = smn_attach_profile(t, w);
    if (st == SOCMON_OK)
        st = smn_attach_phases(t, w);
    if (st == SOCMON_OK && params)
        st = smn_attach_params(t, w, s->params0, s->nparams0);
    return st;
}

socmon_pipeline *smn_session_pipeline(const smn_session *s)
{
    return s->pipe;
}

const socmon_source_info *smn_session_info(const smn_session *s)
{
    return socmon_source_info_of(source_of(s));
}

const socmon_metricset *smn_session_metricset(const smn_session *s)
{
    return s->ms;
}

const socmon_metrics *smn_session_metrics(const smn_session *s)
{
    return socmon_pipeline_metrics(s->pipe);
}

socmon_target *smn_session_target(const smn_session *s)
{
    return target_of(s);
}

socmon_set *smn_session_set(const smn_session *s)
{
    return s->run ? smn_target_run_set(s->run) : NULL;
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
    socmon_target_program_output(target_of(s), fn, ctx);
    return 1;
}

/* Hardware never ends by itself: a run on it needs a duration or a command, unless the plan
 * runs until it is stopped (serve). Checked when a run starts, not at open, since a plan may
 * only read the counters once (socmon read). */
static socmon_status check_bounded(const smn_session *s)
{
    const smn_run_plan *p = &s->plan;
    socmon_target *t = s->run ? target_of(s) : NULL;
    if (t && socmon_target_is_hardware(t) && !p->sampling.duration_ns && !p->sampling.until_stopped &&
        !p->target.command) {
        usage_error(s);
        return socmon_fail(SOCMON_EINVAL, "target '%s' is hardware: give a duration with -d",
                           socmon_target_ops_of(t)->name);
    }
    return SOCMON_OK;
}

socmon_status smn_session_start(smn_session *s)
{
    if (!s->run || !s->plan.sampling.started)
        return socmon_fail(SOCMON_ESTATE, "run plan: only a target run opened as started by its caller is started");
    socmon_status st = check_bounded(s);
    return st != SOCMON_OK ? st : checked(s, smn_target_run_start(s->run));
}

/* One run over the source; a target's bus trace is flushed at its end (its last bytes, or the
 * error of any of its writes). */
static socmon_status run_once(smn_session *s)
{
    if (s->begun_gen == UINT_MAX)
        s->begun_gen = s->gen;
    socmon_status st = checked(s, socmon_pipeline_run(s->pipe, source_of(s)));
    if (st == SOCMON_OK && s->run)
        st = socmon_target_trace_flush(target_of(s));
    return st;
}

socmon_status smn_session_run(smn_session *s)
{
    unsigned n = s->plan.repeat > 1 ? s->plan.repeat : 1;
    if (smn_session_broken(s))
        return socmon_fail(SOCMON_ESTATE, "run plan: its counters were chosen anew but no pipeline could be "
                           "made for them");
    socmon_status st = check_bounded(s);
    for (unsigned r = 0; r < n && st == SOCMON_OK; r++) {
        if (r > 0) {   /* each repeat from a fresh start: the target reopened, as perf runs a command again */
            if (s->plan.on_repeat) {
                smn_session_end e;
                smn_session_exit(s, &e);
                s->plan.on_repeat(s->plan.user, r, &e);
            }
            smn_target_run_close(s->run);
            s->run = NULL;
            st = open_target(s);
        }
        if (st == SOCMON_OK)
            st = run_once(s);
        if (st != SOCMON_OK && n > 1)
            socmon_fail_prefix(st, "a repeated run: ");
        if (st == SOCMON_OK)
            s->runs++;
        if (st == SOCMON_OK && socmon_pipeline_should_stop(s->pipe))
            break;   /* stopped: the runs so far, the stopped one included */
    }
    int totals = s->plan.totals == SMN_TOTALS_ALWAYS || (s->plan.totals == SMN_TOTALS_AUTO && s->run);
    if (st == SOCMON_OK && totals && s->plan.source && !socmon_pipeline_totals(s->pipe)->intervals &&
        !socmon_pipeline_should_stop(s->pipe)) {
        /* a live stream's window with nothing in it: its totals would be a run that never was */
        const socmon_source_info *in = smn_session_info(s);
        return socmon_fail(SOCMON_ESTATE, "%s's stream sent no whole interval: its run is over (%s), so there is no "
                           "live window to count; 'socmon record --remote' gets what its ring still holds",
                           in->target ? in->target : "the agent", in->end_reason ? in->end_reason : "ended");
    }
    if (st == SOCMON_OK && totals)
        st = socmon_pipeline_finish(s->pipe);
    return st;
}

unsigned smn_session_runs(const smn_session *s)
{
    return s->runs;
}

const socmon_totals *smn_session_totals(const smn_session *s)
{
    return socmon_pipeline_totals(s->pipe);
}

size_t smn_session_inhibited(const smn_session *s, socmon_inhibited *out, size_t max)
{
    return s->run ? socmon_target_inhibited(target_of(s), out, max) : 0;
}

size_t smn_session_results(const smn_session *s, socmon_result *out, size_t max)
{
    return s->run ? socmon_target_results(target_of(s), out, max) : 0;
}

/* The host target running a command: the run's own, or a member of a combined run. */
static const socmon_target *host_of(const smn_session *s)
{
    const socmon_target *t = target_of(s);
    if (!t || socmon_host_target_pid(t))
        return t && socmon_host_target_pid(t) ? t : NULL;
    for (size_t i = 0; socmon_target_member(t, i); i++)
        if (socmon_host_target_pid(socmon_target_member(t, i)))
            return socmon_target_member(t, i);
    return NULL;
}

/* The host's command as a shell reports it: its status, 128+N when signal N ended it, 127 (not
 * found) or 126 (not executable) when it could not be run. */
static void host_exit(const socmon_target *host, smn_session_end *e)
{
    int err = socmon_host_target_exec_errno(host), ws;
    e->program = 1;
    if (err) {
        e->end = err == ENOENT ? "not_found" : "not_executable";
        e->exit_code = err == ENOENT ? 127 : 126;
        return;
    }
    e->end = "exit";
    if (socmon_host_target_status(host, &ws) != SOCMON_OK) {
        socmon_clear_error();
        return;
    }
    if (WIFSIGNALED(ws)) {
        e->end = "signal";
        e->bad = 1;
        e->exit_code = 128 + WTERMSIG(ws);
        snprintf(e->message, sizeof e->message, "the command was killed by signal %d (%s)", WTERMSIG(ws),
                 strsignal(WTERMSIG(ws)));
    } else if (WIFEXITED(ws)) {
        e->exit_code = WEXITSTATUS(ws);
    }
}

void smn_session_exit(const smn_session *s, smn_session_end *e)
{
    memset(e, 0, sizeof *e);
    const socmon_target *host = host_of(s);
    if (host) {
        host_exit(host, e);
        return;
    }
    if (!s->run || !smn_target_run_has_program(s->run))
        return;
    e->program = 1;
    switch ((int)socmon_target_program_end(target_of(s), e->message, sizeof e->message)) {
    case SOCMON_PROGRAM_HALTED: e->end = "halt"; e->exit_code = 0; break;
    case SOCMON_PROGRAM_TRAPPED: e->end = "trap"; e->exit_code = 3; e->bad = 1; break;
    case SOCMON_PROGRAM_LIMIT: e->end = "cycle_limit"; e->exit_code = 4; e->bad = 1; break;
    case SOCMON_PROGRAM_HANG: e->end = "hang"; e->exit_code = 5; e->bad = 1; break;
    default:   /* still running when the duration ran out */
        e->end = "timeout";
        e->exit_code = 0;
        snprintf(e->message, sizeof e->message, "program still running when the duration ended");
        break;
    }
}

int smn_session_failed_exit(const smn_session *s, int rc)
{
    const socmon_target *host = s ? host_of(s) : NULL;
    int e = host ? socmon_host_target_exec_errno(host) : 0;
    return e ? (e == ENOENT ? 127 : 126) : rc;
}

void smn_session_close(smn_session *s)
{
    if (!s)
        return;
    socmon_pipeline_free(s->pipe);
    socmon_metricset_free(s->ms);
    drop_gens(s, UINT_MAX, UINT_MAX);   /* (the run's retired sets and sources too, before the run goes) */
    if (!s->run)
        socmon_source_close(s->src);
    socmon_recording_free(s->rec);
    smn_target_run_close(s->run);
    free(s->params0);
    free(s);
}
