/* The output interface fed by the analysis pipeline (export/feed.h). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/feed.h"

/* A summary table lists the ten largest hot spots; a terminal page, not the whole chip. */
#define HOTSPOTS 10

struct smn_feed {
    smn_output *out;
    smn_feed_opts o;
    const socmon_analysis_info *a;
    int begun, muted;
    uint64_t failed_at;     /* the interval whose row could not be written (1-based), or 0 */
    /* the counters shown: all of them, or the events without their time counters */
    socmon_counter *c;
    const char **names;
    size_t *idx, n, nperf;
    size_t ncap;            /* the source's counters the arrays were made for */
    uint64_t *values;
    double *running, *stddev, *mean;
    smn_counter_list list;
};

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "output: out of memory");
}

/* The arrays for a source of n counters. A later run of the pipeline has the same schema: they
 * stay where they are then, since a timeline's columns point into them (cols.counters,
 * cols.from) until it ends. */
static socmon_status make_arrays(smn_feed *f, size_t n)
{
    if (f->c && f->ncap == n)
        return SOCMON_OK;
    free(f->c), free(f->names), free(f->idx), free(f->values), free(f->running), free(f->stddev), free(f->mean);
    f->ncap = n;
    f->c = calloc(n + 1, sizeof *f->c);
    f->names = calloc(n + 1, sizeof *f->names);
    f->idx = calloc(n + 1, sizeof *f->idx);
    f->values = calloc(n + 1, sizeof *f->values);
    f->running = calloc(n + 1, sizeof *f->running);
    f->stddev = calloc(n + 1, sizeof *f->stddev);
    f->mean = calloc(n + 1, sizeof *f->mean);
    if (!f->c || !f->names || !f->idx || !f->values || !f->running || !f->stddev || !f->mean) {
        f->ncap = 0;
        free(f->c), f->c = NULL;    /* made again next time */
        return nomem();
    }
    return SOCMON_OK;
}

/* The counters people see: every counter, or with perf_event time counters the events alone
 * (the perf_event ones first when perf_first), each with its share of time counted; each run's
 * names are its own source's. */
static socmon_status pick(smn_feed *f, const socmon_analysis_info *a)
{
    const socmon_source_info *s = a->src;
    const socmon_scaling *sc = a->scaling;
    size_t n = s->ncounters;
    socmon_status st = make_arrays(f, n);
    if (st != SOCMON_OK)
        return st;
    f->n = f->nperf = 0;
    for (int pass = f->o.perf_first ? 0 : 1; pass < 2; pass++)
        for (size_t i = 0; i < n; i++) {
            /* pass 0: the perf_event counters; pass 1: the rest, never a time counter */
            int take = pass == 0 ? socmon_scaling_has_time(sc, i)
                                 : !socmon_scaling_is_time(sc, i) && !(f->o.perf_first && socmon_scaling_has_time(sc, i));
            if (!take)
                continue;
            f->c[f->n] = s->counters[i];
            f->names[f->n] = s->names[i];
            f->idx[f->n++] = i;
            f->nperf += pass == 0;
        }
    f->list = (smn_counter_list){.n = f->n, .c = f->c, .names = f->names};
    return SOCMON_OK;
}

static socmon_status begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    smn_feed *f = self;
    f->a = a;
    socmon_status st = pick(f, a);
    if (st != SOCMON_OK || f->o.doc != SOCMON_DOC_INTERVALS || f->begun)
        return st;
    const socmon_source_info *s = a->src;
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = f->o.title, .target = s->target,
                           .device = s->recording ? s->device : NULL,
                           .workload = f->o.workload ? f->o.workload : s->workload, .interval_ns = s->interval_ns,
                           .ncounters = f->o.perf_first ? f->n : s->ncounters, .simulated = s->simulated,
                           .recording = s->recording, .samples = s->samples,
                           .profile = f->o.profile, .phases = f->o.phases, .nphases = f->o.nphases};
    smn_interval_cols cols = {.metrics = a->metrics, .shown = f->o.shown, .nshown = f->o.nshown,
                                 .counters = &f->list, .show_counts = f->o.perf_first ? f->nperf : 0,
                                 .from = f->idx, .src = s};
    f->begun = 1;
    if ((st = smn_output_begin(f->out, &run)) == SOCMON_OK &&
        (st = smn_output_begin_intervals(f->out, &cols)) == SOCMON_OK) {
        want->rows = 1;
        want->every = f->o.every;
        want->merge = smn_output_merge(f->out);
    }
    return st;
}

static socmon_status row(void *self, const socmon_row *r)
{
    smn_feed *f = self;
    if (f->muted)
        return SOCMON_OK;
    socmon_status st = smn_output_row(f->out, r);
    if (st != SOCMON_OK && !f->failed_at)
        f->failed_at = r->index + 1;
    return st;
}

/* The findings of the totals t into the document (before a timeline's end: the html page
 * carries them in its data). */
static socmon_status findings(smn_feed *f, const socmon_totals *t)
{
    socmon_findings *fd = NULL;
    if (!f->o.findings || !f->a)
        return SOCMON_OK;
    socmon_status st = socmon_findings_eval(f->o.findings, f->a, t, &fd);
    return st == SOCMON_OK ? smn_output_findings(f->out, fd) : st;
}

static socmon_status end(void *self, const socmon_totals *t, const char *reason)
{
    smn_feed *f = self;
    (void)reason;
    if (f->o.doc != SOCMON_DOC_INTERVALS)
        return SOCMON_OK;
    if (f->muted)
        return smn_output_end_intervals(f->out);
    /* the run's own totals, as a document of totals (finish) gives them */
    socmon_status st = smn_output_run_totals(f->out, t);
    if (st == SOCMON_OK)
        st = findings(f, t);
    return st == SOCMON_OK ? smn_output_end_intervals(f->out) : st;
}

static socmon_status finish(void *self, const socmon_totals *t)
{
    smn_feed *f = self;
    if (f->o.doc != SOCMON_DOC_TOTALS || !f->a)
        return SOCMON_OK;
    const socmon_analysis_info *a = f->a;
    const socmon_source_info *s = a->src;
    for (size_t k = 0; k < f->n; k++) {
        f->values[k] = t->values[f->idx[k]];
        f->running[k] = t->running ? t->running[f->idx[k]] : 0;
        f->stddev[k] = t->counter_stddev ? t->counter_stddev[f->idx[k]] : 0;
        f->mean[k] = t->counter_mean ? t->counter_mean[f->idx[k]] : (double)f->values[k];
    }
    if (a->scaling) {
        f->list.running = f->running;
        f->list.nunsupported = s->nunsupported;
        f->list.unsupported = s->unsupported;
    }
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = f->o.title, .target = s->target,
                           .workload = f->o.workload ? f->o.workload : s->recording ? NULL : s->workload,
                           .elapsed_ns = t->elapsed_ns, .simulated = s->simulated, .recording = s->recording,
                           .samples = s->samples, .missed = t->missed, .runs = t->runs,
                           .counter_stddev = t->counter_stddev ? f->stddev : NULL,
                           .metric_stddev = t->metric_stddev, .counter_mean = t->counter_mean ? f->mean : NULL};
    char bad[128] = "", dead[128] = "";
    if (t->implausible) {
        smn_value_names(s, t->implausible, SOCMON_VALUE_IMPLAUSIBLE, bad, sizeof bad);
        smn_value_names(s, t->implausible, SOCMON_VALUE_DEAD_BUS, dead, sizeof dead);
        run.implausible_intervals = t->implausible_intervals;
        run.implausible = bad;
        run.dead_bus = dead;
    }
    const char *hot = f->o.no_hotspots ? NULL : f->o.hotspots ? f->o.hotspots : s->ops ? s->ops->hotspots : NULL;
    socmon_status st = !f->out && f->o.open ? f->o.open(f->o.open_user, &f->out) : SOCMON_OK;
    if (st == SOCMON_OK)
        st = smn_output_begin(f->out, &run);
    if (st == SOCMON_OK)
        st = smn_output_counters(f->out, &f->list, f->values);
    if (st == SOCMON_OK)
        st = smn_output_metrics(f->out, a->ms, a->metrics, t->metrics);
    if (st == SOCMON_OK)
        st = smn_output_hotspots(f->out, &f->list, f->values, hot, HOTSPOTS);
    if (st == SOCMON_OK)
        st = findings(f, t);
    return st;
}

static const socmon_consumer_ops feed_ops = {.size = sizeof feed_ops, .begin = begin, .row = row, .end = end,
                                             .finish = finish};

socmon_status smn_feed_new(smn_output *out, const smn_feed_opts *o, smn_feed **feed)
{
    if ((!out && !(o && o->open)) || !o || !feed)
        return socmon_fail(SOCMON_EINVAL, "smn_feed_new: NULL argument");
    smn_feed *f = calloc(1, sizeof *f);
    if (!f)
        return nomem();
    f->out = out;
    f->o = *o;
    *feed = f;
    return SOCMON_OK;
}

void smn_feed_free(smn_feed *f)
{
    if (!f)
        return;
    free(f->c), free(f->names), free(f->idx), free(f->values), free(f->running), free(f->stddev), free(f->mean);
    free(f);
}

socmon_consumer smn_feed_consumer(smn_feed *f)
{
    return (socmon_consumer){.ops = &feed_ops, .self = f};
}

void smn_feed_mute(smn_feed *f)
{
    f->muted = 1;
}

uint64_t smn_feed_failed_at(const smn_feed *f)
{
    return f ? f->failed_at : 0;
}
