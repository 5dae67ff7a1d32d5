/* stat --remote: counts over a live window of a `socmon agent`'s samples.
 *
 * Subscribes from the agent's latest sample and sums each counter's wrap-safe deltas between
 * consecutive samples for -d of the target's time (or until the agent's run ends, or SIGINT),
 * then prints the totals and the target's metrics through the normal output formats (table,
 * -x CSV, --json), as `stat` does for a local run. Samples the agent dropped (a GAP) are not
 * bridged: no delta spans a gap, and the window's time counts only the intervals summed. */
#include <stdlib.h>
#include <string.h>

#include "cli/output.h"
#include "cli/remote.h"
#include "cli/stop.h"
#include "core/error.h"

typedef struct rstat {
    const cli_opts *o;
    socmon_set *set;
    socmon_sample prev;
    int have_prev;
    uint64_t prev_seq, first_t, elapsed, intervals, lost;
    uint64_t *acc, *d;
    int done;
    char end_reason[WIRE_MAX_STR + 1];
} rstat;

static void on_end(void *user, const wire_end *e)
{
    rstat *r = user;
    snprintf(r->end_reason, sizeof r->end_reason, "%s", e->reason);
}

static socmon_status on_sample(void *user, uint64_t seq, const socmon_sample *s)
{
    rstat *r = user;
    if (r->have_prev && seq == r->prev_seq + 1) {
        socmon_set_diff(r->set, &r->prev, s, r->d);
        for (size_t i = 0; i < s->n; i++)
            r->acc[i] += r->d[i];
        r->elapsed += s->t_ns - r->prev.t_ns;
        r->intervals++;
    }
    r->prev.t_ns = s->t_ns;
    memcpy(r->prev.v, s->v, s->n * sizeof *s->v);
    r->have_prev = 1;
    r->prev_seq = seq;
    if (r->o->duration_ns && r->elapsed >= r->o->duration_ns) {
        r->done = 1;
        return SOCMON_ESTATE;
    }
    return SOCMON_OK;
}

static socmon_status on_gap(void *user, const wire_gap *g)
{
    rstat *r = user;
    r->lost += g->count;
    r->have_prev = 0;
    return SOCMON_OK;
}

static int should_stop(void *user)
{
    (void)user;
    return cli_stop_signal();
}

/* The target's built-in metrics (or --metric-file's, as local stat does), bound to the agent's
 * schema (as report does for a file). */
static socmon_status bind_metrics(const wire_hello *h, const char *metric_file, const socmon_counter *cs,
                                  socmon_metricset **ms, socmon_metrics **m, const char **hotspots)
{
    char tname[64];
    snprintf(tname, sizeof tname, "%.*s", (int)strcspn(h->target, ":"), h->target);
    const socmon_target_ops *ops = socmon_target_lookup(tname);
    const char *text = ops && ops->metrics ? socmon_builtin_metrics(ops->metrics) : NULL;
    *hotspots = ops ? ops->hotspots : NULL;
    if (!text && !metric_file)
        return SOCMON_OK;
    socmon_status st = metric_file ? socmon_metricset_load_file(metric_file, ms)
                                   : socmon_metricset_load_string(text, ops->metrics, ms);
    if (st != SOCMON_OK)
        return st;
    return cli_bind_metrics(*ms, cs, h->ncounters, h->nparams, (const char *const *)h->param_names,
                            h->param_values, m);
}

int cli_stat_remote(const cli_opts *o)
{
    int rc = cli_remote_check_opts("stat", o);
    if (rc)
        return rc;
    if (o->repeat > 1) {
        fprintf(stderr, "socmon stat: -r is for local runs: a remote window cannot be run again\n");
        return 2;
    }
    cli_stop_install();
    collector *c = NULL;
    socmon_status st = cli_remote_connect(o, &c);
    if (st != SOCMON_OK)
        return cli_error("stat", st);
    const wire_hello *h = collector_hello(c);
    rstat r = {.o = o, .set = collector_set(c)};
    size_t n = h->ncounters;
    socmon_counter *cs = calloc(n, sizeof *cs);
    const char **names = calloc(n, sizeof *names);
    r.acc = calloc(n, sizeof *r.acc);
    r.d = calloc(n, sizeof *r.d);
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    const char *hotspots = NULL;
    double *mv = NULL;
    if (!cs || !names || !r.acc || !r.d || socmon_sample_alloc(r.set, &r.prev) != SOCMON_OK)
        st = socmon_fail(SOCMON_ENOMEM, "out of memory");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        cs[i] = *socmon_set_counter(r.set, i);
        names[i] = socmon_set_full_name(r.set, i);
    }
    if (st == SOCMON_OK)
        st = bind_metrics(h, o->metric_file, cs, &ms, &m, &hotspots);
    if (st == SOCMON_OK && o->metric_file)
        cli_warn_metric_file("stat", o->metric_file, ms, m);
    if (st == SOCMON_OK && m && !(mv = calloc(socmon_metrics_nresults(m) + 1, sizeof *mv)))
        st = socmon_fail(SOCMON_ENOMEM, "out of memory");
    if (st == SOCMON_OK)
        st = collector_subscribe(c, WIRE_SUB_LATEST, 0);
    if (st == SOCMON_OK) {
        collector_cb cb = {&r, on_sample, on_gap, NULL, NULL, NULL, on_end, should_stop, NULL};
        collector_set_idle_timeout(c, cli_remote_idle_ms(o));
        st = collector_run(c, &cb);
        if (st == SOCMON_ESTATE && (r.done || cli_stop_signal()))
            st = SOCMON_OK;
    }
    if (st == SOCMON_OK && r.intervals == 0 && !cli_stop_signal())
        st = socmon_fail(SOCMON_ESTATE, "agent %s sent no whole interval: its run is over (%s), so there is no live "
                         "window to count; 'socmon record --remote' gets what its ring still holds", o->remote,
                         r.end_reason[0] ? r.end_reason : "ended");
    if (st == SOCMON_OK && m)
        st = socmon_metrics_eval(m, r.acc, (double)r.elapsed / 1e9, mv);
    if (st != SOCMON_OK) {
        rc = cli_error("stat", st);
    } else {
        if (r.lost)
            fprintf(stderr, "socmon stat: the agent dropped %llu samples in this window; the counts cover the %llu "
                    "intervals received whole\n", (unsigned long long)r.lost, (unsigned long long)r.intervals);
        cli_opts oo = *o;
        oo.print_path = o->output;
        cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats", .target = h->target,
                         .workload = h->workload[0] ? h->workload : NULL, .elapsed_ns = r.elapsed,
                         .simulated = h->simulated, .runs = 1},
                        {n, cs, names, NULL, 0, NULL}, r.acc, ms, m, mv, hotspots};
        rc = cli_print_totals("stat", &oo, &t);
        if (rc == 0 && cli_stop_signal()) {
            fprintf(stderr, "socmon stat: stopped by %s: the counts so far\n", cli_stop_name());
            rc = cli_stop_exit_code();
        }
    }
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    free(mv);
    socmon_sample_free(&r.prev);
    free(r.acc);
    free(r.d);
    free(cs);
    free(names);
    collector_close(c);
    return rc;
}
