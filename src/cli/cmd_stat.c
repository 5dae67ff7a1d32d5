/* socmon stat and socmon read: counts over a run, and one snapshot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "cli/dest.h"
#include "cli/program.h"
#include "cli/remote.h"
#include "cli/scaled.h"
#include "cli/stop.h"
#include "export/spread.h"

#define STAT_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_ALL | OPT_DURATION | \
                   OPT_INTERVAL | OPT_REALTIME | OPT_TRACE | OPT_OUTPUT | OPT_PROGRAM | OPT_MAX_CYCLES | \
                   OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_REPEAT | OPT_APPEND | OPT_METRIC_FILE | OPT_REMOTE | OPT_CPUS)
#define READ_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_ALL | OPT_DURATION | OPT_TRACE | \
                   OPT_BIG_NUM)

static void stat_help(FILE *fp)
{
    fprintf(fp, "usage: socmon stat [options]\n"
                "       socmon stat [-e EVENTS] [-r N] [-a | -C LIST] [options] -- COMMAND [ARGS...]\n\n"
                "With a command (and no -t, or -t host) it counts the command through Linux perf_event,\n"
                "as perf stat does: -e takes perf event names (cycles, page-faults, r003c,\n"
                "cpu/event=0x3c,umask=0x0/, libpfm4 names), the counts go to stderr, and the exit status\n"
                "is the command's (128+N when signal N killed it; 127/126 when it could not be run).\n"
                "Multiplexed counts are scaled and show the share of time they counted, (50.00%%);\n"
                "events this machine cannot count show <not supported>. -I T adds a line per\n"
                "interval with each event's count (with -x or --json the intervals are the output,\n"
                "as perf stat -I -x). docs/host.md.\n\n"
                "Runs a workload on the target and prints how much every counter moved, the target's\n"
                "derived metrics, and hot spots. The counters are sampled every interval while it runs,\n"
                "so none can wrap twice unseen, and the deltas are summed.\n\n"
                "With a program (socmon stat -t ibex -- prog.elf) the program's output goes to stdout\n"
                "and the counts to stderr (or -o FILE); exit status 3: it trapped out, 4: it did not\n"
                "halt within --max-cycles, 5: it hangs (sleeps or spins forever).\n\n"
                "SIGINT (Ctrl-C) or SIGTERM stops the run at the next sample (within one interval) and\n"
                "prints the counts so far with the time elapsed so far; exit status 130 or 143.\n\n"
                "With --remote HOST:PORT the counts are over a live window of 'socmon agent' there:\n"
                "from its latest sample for -d of the target's time (or until its run ends).\n\n");
    cli_help_opts(fp, STAT_OPTS);
}

static void read_help(FILE *fp)
{
    fprintf(fp, "usage: socmon read [options]\n\n"
                "Prints the current raw value of every selected counter. With -w or -d, first runs\n"
                "that workload (or for that long) on a model target.\n\n");
    cli_help_opts(fp, READ_OPTS);
}

/* The counters of stat -I's rows on a command: the events without their time counters, the
 * perf_event ones first (a live line shows just those; a combined run's device counters follow
 * for CSV and JSON), their values the multiplex-scaled deltas of one interval. */
typedef struct iv_view {
    socmon_counter *c;
    const char **names;
    size_t *idx;            /* row counter k is schema counter idx[k] */
    uint64_t *values;
    size_t n, nperf;
    socmon_counter_list list;
} iv_view;

static int iv_view_init(iv_view *v, const cli_session *cs, const socmon_scaling *sc, size_t n)
{
    memset(v, 0, sizeof *v);
    v->c = calloc(n + 1, sizeof *v->c);
    v->names = calloc(n + 1, sizeof *v->names);
    v->idx = calloc(n + 1, sizeof *v->idx);
    v->values = calloc(n + 1, sizeof *v->values);
    if (!v->c || !v->names || !v->idx || !v->values)
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < n; i++)
            if (pass == 0 ? socmon_scaling_has_time(sc, i)
                          : !socmon_scaling_has_time(sc, i) && !socmon_scaling_is_time(sc, i)) {
                v->c[v->n] = cs->schema[i];
                v->names[v->n] = cs->names[i];
                v->idx[v->n++] = i;
                v->nperf += pass == 0;
            }
    v->list = (socmon_counter_list){v->n, v->c, v->names, NULL, 0, NULL};
    return 0;
}

static void iv_view_free(iv_view *v)
{
    free(v->c);
    free(v->names);
    free(v->idx);
    free(v->values);
}

/* What stat keeps while it samples: the sums, and with -I on a command (perf stat -I) a row
 * per interval of the scaled deltas and the metrics over them. */
typedef struct stat_acc {
    uint64_t *acc;
    socmon_output *out;          /* the interval rows, or NULL */
    const socmon_scaling *sc;
    socmon_metrics *m;
    uint64_t t0;
    uint64_t *scaled;            /* one interval's deltas, scaled, in schema order */
    double *mv;
    iv_view view;
} stat_acc;

static socmon_status accumulate(void *user, const socmon_sample *prev, const socmon_sample *cur,
                                const uint64_t *deltas)
{
    stat_acc *a = user;
    for (size_t i = 0; i < cur->n; i++)
        a->acc[i] += deltas[i];
    if (a->out && cli_scale_deltas(a->sc, cur->n, deltas, a->scaled, NULL) == 0) {
        uint64_t dt = cur->t_ns - prev->t_ns;
        const double *mv = a->m && socmon_metrics_eval(a->m, a->scaled, (double)dt / 1e9, a->mv) == SOCMON_OK ? a->mv
                                                                                                           : NULL;
        for (size_t k = 0; k < a->view.n; k++)
            a->view.values[k] = a->scaled[a->view.idx[k]];
        socmon_interval_row row = {cur->t_ns, cur->t_ns - a->t0, dt, cur->flags, cur->missed, mv, a->view.values};
        socmon_output_row(a->out, &row); /* a failing display does not stop the count */
    }
    return cli_stop_signal() ? cli_stop_status() : SOCMON_OK;   /* SIGINT/SIGTERM: the counts so far */
}

/* Whether stat -I on a command writes its intervals as the document (-x, --json: as perf stat
 * -I -x, no totals after them) rather than live lines beside the totals (a table, or a
 * Prometheus exposition, which holds totals only). */
static int intervals_are_doc(const cli_opts *o)
{
    return o->command && o->interval_set && (strcmp(o->format, "csv") == 0 || strcmp(o->format, "json") == 0);
}

/* -I with a command: a row per interval. Live lines go to stderr (the command owns stdout) with
 * the events' counts and the metrics the events can give; CSV and JSON go where the totals would. */
static socmon_status open_rows(cli_session *cs, const cli_opts *o, cli_output *co, stat_acc *a, size_t *shown)
{
    size_t nshown = 0;
    for (size_t i = 0; cs->metrics && i < socmon_metrics_nresults(cs->metrics) && nshown < 6; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(cs->metrics, i);
        if (!r->absent && !*r->instance)
            shown[nshown++] = i;
    }
    socmon_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "interval counts", .target = socmon_target_spec(cs->target),
                           .interval_ns = o->interval_ns, .ncounters = a->view.n, .simulated = 0};
    socmon_interval_cols cols = {cs->metrics, shown, nshown, &a->view.list, a->view.nperf};
    cli_opts lo = *o;
    lo.deltas = 1;
    const char *format = intervals_are_doc(o) ? NULL : "live";
    if (!format)
        lo.print_path = o->output;
    else
        lo.print_path = NULL, lo.to_stderr = 1;
    socmon_status st = cli_output_open(co, &lo, format);
    if (st == SOCMON_OK && (st = socmon_output_begin(co->out, &run)) == SOCMON_OK &&
        (st = socmon_output_begin_intervals(co->out, &cols)) == SOCMON_OK)
        a->out = co->out;
    return st;
}

/* Runs the workload (or for the duration) through the sampler; acc may be NULL. */
static socmon_status run(cli_session *cs, const cli_opts *o, uint64_t *acc, uint64_t *elapsed)
{
    socmon_status st = socmon_target_start(cs->target, o->workload);
    if (st != SOCMON_OK)
        return st;
    socmon_sampler_opts so = {cli_stat_interval(cs->target, cs->set, o), o->duration_ns, o->realtime,
                              o->interval_count};
    uint64_t t0 = socmon_target_now_ns(cs->target);
    size_t n = socmon_set_size(cs->set), shown[6];
    stat_acc a = {.acc = acc, .m = cs->metrics, .t0 = t0};
    cli_output co = {0};
    socmon_scaling *sc = NULL;
    if (acc && o->command && o->interval_set) {
        if (socmon_scaling_new(cs->schema, cs->names, n, &sc) != SOCMON_OK || iv_view_init(&a.view, cs, sc, n) ||
            !(a.scaled = calloc(n + 1, sizeof *a.scaled)) ||
            !(a.mv = calloc((cs->metrics ? socmon_metrics_nresults(cs->metrics) : 0) + 1, sizeof *a.mv)))
            st = socmon_fail(SOCMON_ENOMEM, "out of memory");
        a.sc = sc;
        socmon_status ost = st == SOCMON_OK ? open_rows(cs, o, &co, &a, shown) : SOCMON_OK;
        if (ost != SOCMON_OK && intervals_are_doc(o))   /* the document is the output; live lines are not */
            st = ost;
    }
    if (st == SOCMON_OK)
        st = socmon_sampler_run(cs->target, cs->set, &so, NULL, acc ? accumulate : NULL, &a, NULL);
    if (a.out)
        socmon_output_end_intervals(a.out);
    if (co.sink) {
        socmon_status cst = cli_output_finish(&co, a.out ? SOCMON_OK : SOCMON_ESTATE);
        if (st == SOCMON_OK && intervals_are_doc(o))   /* a full disk fails the run */
            st = cst;
    }
    socmon_scaling_free(sc);
    iv_view_free(&a.view);
    free(a.scaled);
    free(a.mv);
    *elapsed = socmon_target_now_ns(cs->target) - t0;
    return st == SOCMON_ESTATE && cli_stop_signal() ? SOCMON_OK : st;
}

static const char *workload_name(const cli_session *cs, const char *w)
{
    const socmon_target_ops *ops = socmon_target_ops_of(cs->target);
    return w ? w : (ops->workloads ? ops->workloads[0] : NULL);
}

/* One run of stat: the counters' deltas into acc, the metrics into mv, the run's length. With
 * perf_event time counters (sc), acc holds the multiplex-scaled estimates and pct the share of
 * time each counted (socmon/scaling.h); the metrics see the estimates. */
static socmon_status stat_once(cli_session *cs, const cli_opts *o, const socmon_scaling *sc, uint64_t *acc, double *pct,
                               double *mv, uint64_t *elapsed)
{
    size_t n = socmon_set_size(cs->set);
    memset(acc, 0, n * sizeof *acc);
    socmon_status st = run(cs, o, acc, elapsed);
    if (st == SOCMON_OK)
        st = cli_trace_flush(cs);
    if (st == SOCMON_OK && sc && cli_scale_deltas(sc, n, acc, acc, pct) != 0)
        st = socmon_fail(SOCMON_ENOMEM, "out of memory");
    if (st == SOCMON_OK && cs->metrics)
        st = socmon_metrics_eval(cs->metrics, acc, (double)*elapsed / 1e9, mv);
    return st;
}

static int stat_body(cli_session *cs, const cli_opts *opts)
{
    cli_opts oo = *opts;   /* stat's -o names where the counts go */
    const cli_opts *o = &oo;
    oo.print_path = opts->output;
    cli_program_attach(cs);
    const socmon_target_ops *ops = socmon_target_ops_of(cs->target);
    if (socmon_target_is_hardware(cs->target) && !o->duration_ns && !o->command) {
        fprintf(stderr, "socmon stat: target '%s' is hardware: give a duration with -d\n", ops->name);
        return 2;
    }
    if (o->append && cli_format_is_exposition(o->format)) {
        fprintf(stderr, "socmon stat: --append with --%s: an exposition is one document (a family may not "
                        "repeat); write the file anew\n", o->format);
        return 2;
    }
    if (intervals_are_doc(o) && o->repeat > 1) {
        fprintf(stderr, "socmon stat: -I with -x or --json writes one timeline: not with -r %u (drop -I for "
                        "the mean of %u runs)\n", o->repeat, o->repeat);
        return 2;
    }
    /* -o FILE that cannot be written is found now, not after the run. */
    socmon_status pst;
    if (o->print_path && (pst = cli_dest_check_plain(o->print_path)) != SOCMON_OK)
        return cli_error("stat", pst);
    size_t n = socmon_set_size(cs->set), nm = cs->metrics ? socmon_metrics_nresults(cs->metrics) : 0;
    socmon_scaling *sc = NULL;
    if (socmon_scaling_new(cs->schema, cs->names, n, &sc) != SOCMON_OK)
        return cli_error("stat", SOCMON_ENOMEM);
    size_t ntime = 0;
    for (size_t i = 0; i < n; i++)
        ntime += (size_t)socmon_scaling_is_time(sc, i);
    if (!ntime) { /* no perf_event counts: exact counts, printed as they always were */
        socmon_scaling_free(sc);
        sc = NULL;
    }
    double *pct = calloc(n + 1, sizeof *pct);
    unsigned runs = o->repeat ? o->repeat : 1;
    uint64_t *acc = calloc(n + 1, sizeof *acc), elapsed = 0;
    double *mv = calloc(nm + 1, sizeof *mv), *x = calloc(n + 1, sizeof *x), el_mean = 0;
    socmon_spread cs_sp = {0}, m_sp = {0};
    socmon_status st = SOCMON_OK;
    int rc = 0;
    if (!acc || !mv || !x || !pct || socmon_spread_init(&cs_sp, n) || socmon_spread_init(&m_sp, nm)) {
        fprintf(stderr, "socmon stat: out of memory\n");
        rc = 1;
    }
    /* perf stat -r: every run from a fresh start (the target reopened, as perf runs the
     * command again), then the mean of each counter and metric and its spread. */
    for (unsigned r = 1; rc == 0 && r <= runs; r++) {
        if (r > 1) {
            cli_session_close(cs);
            if ((st = cli_session_open(cs, opts)) != SOCMON_OK) {
                rc = cli_error("stat", st);
                break;
            }
            cli_program_attach(cs);
            if (socmon_set_size(cs->set) != n || (cs->metrics ? socmon_metrics_nresults(cs->metrics) : 0) != nm) {
                fprintf(stderr, "socmon stat: run %u selected other counters than run 1\n", r);
                rc = 1;
                break;
            }
        }
        if ((st = stat_once(cs, o, sc, acc, pct, mv, &elapsed)) != SOCMON_OK) {
            rc = cli_program_failed(cs, cli_error(runs > 1 ? "stat: a repeated run" : "stat", st));
            break;
        }
        for (size_t i = 0; i < n; i++)
            x[i] = (double)acc[i];
        socmon_spread_add(&cs_sp, r, x);
        socmon_spread_add(&m_sp, r, mv);
        el_mean += ((double)elapsed - el_mean) / r;
        if (cli_stop_signal()) {   /* SIGINT/SIGTERM: the runs so far, the stopped one included */
            runs = r;
            break;
        }
        if (r < runs)
            cli_program_exit(cs, "stat"); /* says how an earlier run's program ended, if badly */
    }
    if (rc == 0) {
        socmon_spread_finish(&cs_sp, runs);
        socmon_spread_finish(&m_sp, runs);
        /* Counts print as whole numbers (perf prints the mean of counts as %.0f). */
        for (size_t i = 0; runs > 1 && i < n; i++)
            acc[i] = (uint64_t)llround(cs_sp.mean[i]);
        if (runs > 1)
            memcpy(mv, m_sp.mean, nm * sizeof *mv);
        cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats",
                         .target = socmon_target_spec(cs->target), .workload = workload_name(cs, o->workload),
                         .elapsed_ns = (uint64_t)llround(el_mean), .simulated = !socmon_target_is_hardware(cs->target),
                         .runs = runs, .counter_stddev = runs > 1 ? cs_sp.m2 : NULL,
                         .metric_stddev = runs > 1 ? m_sp.m2 : NULL},
                        {n, cs->schema, cs->names, NULL, 0, NULL}, acc, cs->ms, cs->metrics, mv, ops->hotspots};
        cli_scaled shown = {0};
        if (sc && cli_scaled_view(&shown, cs->schema, cs->names, n, cs->target, sc, acc, pct,
                                  runs > 1 ? cs_sp.m2 : NULL) == 0) {
            t.counters = shown.list;
            t.values = shown.values;
            t.run.counter_stddev = shown.stddev;
        } else if (sc) {
            rc = cli_error("stat", SOCMON_ENOMEM);
        }
        if (rc == 0 && !intervals_are_doc(o))   /* -I -x/--json: the intervals were the document */
            rc = cli_print_totals("stat", o, &t);
        if (sc)
            cli_scaled_free(&shown);
        if (rc == 0 && cli_stop_signal()) {
            fprintf(stderr, "socmon stat: stopped by %s: the counts so far\n", cli_stop_name());
            rc = cli_stop_exit_code();
        }
        if (rc == 0)
            rc = cli_program_exit(cs, "stat");
    }
    socmon_spread_free(&cs_sp);
    socmon_spread_free(&m_sp);
    socmon_scaling_free(sc);
    free(pct);
    free(acc);
    free(mv);
    free(x);
    return rc;
}

static int read_body(cli_session *cs, const cli_opts *o)
{
    socmon_sample s = {0};
    uint64_t elapsed = 0;
    socmon_status st = SOCMON_OK;
    if (o->workload || o->duration_ns)
        st = run(cs, o, NULL, &elapsed);
    if (st == SOCMON_OK && (st = socmon_sample_alloc(cs->set, &s)) == SOCMON_OK)
        st = socmon_set_read(cs->set, socmon_target_now_ns(cs->target), &s);
    if (st == SOCMON_OK)
        st = cli_trace_flush(cs);
    int rc;
    if (st != SOCMON_OK) {
        rc = cli_error("read", st);
    } else {
        cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Counter values", .target = socmon_target_spec(cs->target),
                         .workload = o->workload, .elapsed_ns = elapsed,
                         .simulated = !socmon_target_is_hardware(cs->target)},
                        {socmon_set_size(cs->set), cs->schema, cs->names, NULL, 0, NULL}, s.v, NULL, NULL, NULL, NULL};
        rc = cli_print_totals("read", o, &t);
    }
    socmon_sample_free(&s);
    return rc;
}

int cmd_stat(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, STAT_OPTS, stat_help, &o);
    if (rc >= 0)
        return rc;
    if (o.remote)   /* counts over a live window of 'socmon agent' */
        return cli_stat_remote(&o);
    cli_stop_install();
    return cli_run_parsed(&o, "stat", stat_body);
}

int cmd_read(int argc, char **argv)
{
    return cli_run_session(argc, argv, READ_OPTS, read_help, "read", read_body);
}
