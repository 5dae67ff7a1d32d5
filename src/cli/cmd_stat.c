/* socmon stat and socmon read: counts over a run, and one snapshot. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/pick_rules.h"
#include "cli/print.h"
#include "cli/program.h"
#include "cli/open_source.h"
#include "cli/stop.h"
#include "socmon/perf.h"

#define STAT_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_EXPOSITION | OPT_ALL | OPT_DURATION | \
                   OPT_INTERVAL | OPT_REALTIME | OPT_TRACE | OPT_OUTPUT | OPT_PROGRAM | OPT_MAX_CYCLES | \
                   OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_REPEAT | OPT_APPEND | OPT_METRIC_FILE | OPT_REMOTE | OPT_CPUS | \
                   OPT_FINDINGS)
#define READ_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_EXPOSITION | OPT_ALL | OPT_DURATION | OPT_TRACE | \
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

/* Whether stat -I on a command writes its intervals as the document (-x, --json: as perf stat
 * -I -x, no totals after them) rather than live lines beside the totals (a table, or a
 * Prometheus exposition, which holds totals only). */
static int intervals_are_doc(const cli_opts *o)
{
    return o->command && o->interval_set && (strcmp(o->format, "csv") == 0 || strcmp(o->format, "json") == 0);
}

/* -I with a command: a row per interval of the events' counts and the metrics they give. Live
 * lines go to stderr (the command owns stdout), as a consumer whose failure does not stop the
 * count; CSV and JSON go where the totals would, and are the document. */
static socmon_status open_rows(cli_doc *d, const cli_opts *o, const socmon_metrics *m, size_t *shown)
{
    size_t nshown = 0;
    for (size_t i = 0; m && i < socmon_metrics_nresults(m) && nshown < 6; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        if (!r->absent && !*r->instance)
            shown[nshown++] = i;
    }
    cli_opts lo = *o;
    lo.deltas = 1;
    if (intervals_are_doc(o))
        lo.print_path = o->output;
    else
        lo.print_path = NULL, lo.to_stderr = 1;
    smn_feed_opts fo = {.doc = SOCMON_DOC_INTERVALS, .title = "interval counts", .shown = shown, .nshown = nshown,
                           .perf_first = 1};
    return cli_doc_open(d, &lo, intervals_are_doc(o) ? NULL : "live", &fo);
}

/* Usage errors found before anything runs: 0, or the exit code after a message. */
static int check_stat_opts(const cli_opts *o)
{
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
    if (o->output && (pst = smn_sink_check_path(o->output)) != SOCMON_OK)
        return cli_error("stat", pst);
    return 0;
}

/* The runs: one, or with -r N each from a fresh start (the target reopened, as perf runs the
 * command again), the pipeline keeping the mean and spread. Returns the exit code. */
static int stat_runs(cli_source *src, socmon_pipeline *p, const cli_opts *o, unsigned *runs)
{
    for (unsigned r = 1; r <= *runs; r++) {
        socmon_status st = SOCMON_OK;
        if (r > 1 && (st = cli_source_reopen(src, o, CLI_INTERVAL_STAT, 0)) != SOCMON_OK)
            return cli_error("stat", st);
        if (!src->remote)
            cli_program_attach(&src->sess);
        st = socmon_pipeline_run(p, src->src);
        if (st == SOCMON_OK && !src->remote)
            st = cli_trace_flush(&src->sess);
        if (st != SOCMON_OK) {
            int rc = cli_run_error(*runs > 1 ? "stat: a repeated run" : "stat", st, src->remote ? NULL : o->workload);
            return src->remote ? rc : cli_program_failed(&src->sess, rc);
        }
        if (cli_stop_signal()) {   /* SIGINT/SIGTERM: the runs so far, the stopped one included */
            *runs = r;
            break;
        }
        if (r < *runs)
            cli_program_exit(&src->sess, "stat"); /* says how an earlier run's program ended, if badly */
    }
    return 0;
}

/* stat --remote: a window of an agent's stream with nothing in it is an error; samples the
 * agent dropped are said (no delta spans them). */
static int remote_window(const cli_opts *o, const socmon_source_info *info, const socmon_totals *t)
{
    if (t->intervals == 0 && !cli_stop_signal())
        return cli_error("stat", socmon_fail(SOCMON_ESTATE, "agent %s sent no whole interval: its run is over (%s), "
                                             "so there is no live window to count; 'socmon record --remote' gets "
                                             "what its ring still holds", o->remote,
                                             info->end_reason ? info->end_reason : "ended"));
    if (t->lost)
        fprintf(stderr, "socmon stat: the agent dropped %llu samples in this window; the counts cover the %llu "
                "intervals received whole\n", (unsigned long long)t->lost, (unsigned long long)t->intervals);
    return 0;
}

static int stat_cmd(const cli_opts *opts)
{
    cli_opts oo = *opts;   /* stat's -o names where the counts go */
    const cli_opts *o = &oo;
    oo.print_path = opts->output;
    int rc = check_stat_opts(o);
    if (rc)
        return rc;
    cli_stop_install();
    cli_source src;
    if ((rc = cli_source_open(&src, opts, "stat", CLI_INTERVAL_STAT, 0, 1)) != 0) {
        cli_source_close(&src);
        return rc;
    }
    if (src.info->hardware && !src.remote && !o->duration_ns && !o->command) {
        fprintf(stderr, "socmon stat: target '%s' is hardware: give a duration with -d\n", src.info->ops->name);
        cli_source_close(&src);
        return 2;
    }
    socmon_pipeline *p = NULL;
    cli_doc totals = {0}, rows = {0};
    size_t shown[6];
    unsigned runs = o->repeat ? o->repeat : 1;
    const char *workload = src.remote || o->workload || !src.info->ops->workloads ? NULL : src.info->ops->workloads[0];
    smn_feed_opts fo = {.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats", .workload = workload};
    socmon_findingset *fs = NULL;
    socmon_status st = cli_pipeline_new(&src, opts, "stat", &p);
    if (st == SOCMON_OK)
        st = cli_findings_load(o, src.info, &fs);
    fo.findings = fs;
    if (st == SOCMON_OK && !intervals_are_doc(o))
        st = cli_doc_open(&totals, o, NULL, &fo);
    socmon_consumer tc = totals.feed ? cli_doc_consumer(&totals) : (socmon_consumer){0};
    if (st == SOCMON_OK && totals.feed)
        st = socmon_pipeline_add(p, &tc);
    if (st == SOCMON_OK && o->command && o->interval_set) {
        socmon_status ost = open_rows(&rows, o, socmon_pipeline_metrics(p), shown);
        socmon_consumer rc_ = rows.feed ? cli_doc_consumer(&rows) : (socmon_consumer){0};
        rc_.optional = !intervals_are_doc(o);   /* live lines that fail do not stop the count */
        if (ost == SOCMON_OK)
            ost = socmon_pipeline_add(p, &rc_);
        if (ost != SOCMON_OK && intervals_are_doc(o))   /* the document is the output; live lines are not */
            st = ost;
    }
    if (st != SOCMON_OK)
        rc = cli_error("stat", st);
    if (!rc)
        rc = stat_runs(&src, p, opts, &runs);
    if (rows.feed) {
        socmon_consumer rc_ = cli_doc_consumer(&rows);
        socmon_status cst = cli_output_finish(&rows.co, socmon_pipeline_consumer_status(p, &rc_));
        if (!rc && intervals_are_doc(o) && cst != SOCMON_OK)   /* a full disk fails the run */
            rc = cli_error("stat", cst);
    }
    if (!rc && src.remote)
        rc = remote_window(o, src.info, socmon_pipeline_totals(p));
    st = rc ? SOCMON_ESTATE : socmon_pipeline_finish(p);
    if (st == SOCMON_OK && !rc && !src.remote) {   /* counters the program stopped: said, never a silent hole */
        socmon_inhibited ih[32];
        size_t nih = socmon_target_inhibited(src.sess.target, ih, 32);
        st = cli_say_inhibited(totals.feed ? totals.co.out : NULL, ih, nih < 32 ? nih : 32, "stat", NULL);
        if (st == SOCMON_OK && totals.feed)   /* what no counter holds: a NoC trace's drain and latency */
            st = cli_say_results(totals.co.out, src.sess.target);
    }
    if (totals.feed && !rc) {
        rc = cli_doc_close(&totals, "stat", st);
    } else if (totals.feed) {   /* a failed run prints no totals */
        smn_feed_free(totals.feed);
        cli_output_discard(&totals.co);
    }
    if (rc == 0 && cli_stop_signal()) {
        fprintf(stderr, "socmon stat: stopped by %s: the counts so far\n", cli_stop_name());
        rc = cli_stop_exit_code();
    }
    if (rc == 0 && !src.remote)
        rc = cli_program_exit(&src.sess, "stat");
    socmon_pipeline_free(p);
    smn_feed_free(rows.feed);   /* after the pipeline: its finish still calls the consumer */
    socmon_findingset_free(fs);
    cli_source_close(&src);
    return rc;
}

/* read -w/-d: the workload run through the sampler first (so no counter is read after wrapping
 * twice), its samples unused. */
static socmon_status run_only(cli_session *cs, const cli_opts *o, uint64_t *elapsed)
{
    socmon_source_target_opts so = {.size = sizeof so, .workload = o->workload,
                                    .sampler = {.interval_ns = cli_stat_interval(cs->target, cs->set, o),
                                                .duration_ns = o->duration_ns, .realtime = o->realtime}};
    socmon_source *src = NULL;
    socmon_pipeline *p = NULL;
    uint64_t t0 = socmon_target_now_ns(cs->target);
    socmon_status st = socmon_source_target(cs->target, cs->set, &so, &src);
    if (st == SOCMON_OK)
        st = socmon_pipeline_new(socmon_source_info_of(src), NULL, &p);
    if (st == SOCMON_OK)
        st = socmon_pipeline_run(p, src);
    *elapsed = socmon_target_now_ns(cs->target) - t0;
    socmon_pipeline_free(p);
    socmon_source_close(src);
    return st;
}

/* The events the machine could not count (perf's <not supported>), of t's perf_event device or of
 * a member's: up to max names into out; returns how many. */
static size_t unsupported_events(const socmon_target *t, const char **out, size_t max)
{
    const socmon_device *d = socmon_target_device((socmon_target *)t);
    if (socmon_perf_device_unsupported(d, 0, NULL, NULL) == SOCMON_EINVAL) {
        socmon_clear_error();
        for (size_t i = 0; socmon_target_member(t, i); i++) {
            size_t n = unsupported_events(socmon_target_member(t, i), out, max);
            if (n)
                return n;
        }
        return 0;
    }
    size_t n = 0;
    while (n < max && socmon_perf_device_unsupported(d, n, &out[n], NULL) == SOCMON_OK)
        n++;
    socmon_clear_error();
    return n;
}

static int read_body(cli_session *cs, const cli_opts *o)
{
    socmon_sample s = {0};
    uint64_t elapsed = 0;
    socmon_status st = SOCMON_OK;
    if (o->workload || o->duration_ns)
        st = run_only(cs, o, &elapsed);
    if (st == SOCMON_OK && (st = socmon_sample_alloc(cs->set, &s)) == SOCMON_OK)
        st = socmon_set_read(cs->set, socmon_target_now_ns(cs->target), &s);
    if (st == SOCMON_OK)
        st = cli_trace_flush(cs);
    int rc;
    if (st != SOCMON_OK) {
        rc = cli_error("read", st);
    } else {
        smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Counter values",
                               .target = socmon_target_spec(cs->target), .workload = o->workload,
                               .elapsed_ns = elapsed, .simulated = !socmon_target_is_hardware(cs->target)};
        const char *unsupported[64];   /* an -e event this machine cannot count: <not supported>, as stat */
        smn_counter_list cl = {.n = socmon_set_size(cs->set), .c = cs->schema, .names = cs->names,
                                  .unsupported = unsupported,
                                  .nunsupported = unsupported_events(cs->target, unsupported, 64)};
        rc = cli_print_snapshot("read", o, &run, &cl, s.v);
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
    return stat_cmd(&o);
}

int cmd_read(int argc, char **argv)
{
    return cli_run_session(argc, argv, READ_OPTS, read_help, "read", read_body);
}
