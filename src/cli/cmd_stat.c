/* socmon stat and socmon read: counts over a run, and one snapshot. */
#include <string.h>

#include "cli/help.h"
#include "cli/pick_rules.h"
#include "cli/print.h"
#include "cli/program.h"
#include "cli/open_source.h"
#include "cli/stop.h"
#include "analysis/snapshot.h"

#define STAT_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_EXPOSITION | OPT_ALL | OPT_DURATION | \
                   OPT_INTERVAL | OPT_REALTIME | OPT_TRACE | OPT_OUTPUT | OPT_PROGRAM | OPT_MAX_CYCLES | \
                   OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_REPEAT | OPT_APPEND | OPT_METRIC_FILE | OPT_REMOTE | OPT_CPUS | \
                   OPT_FINDINGS)
#define READ_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_EXPOSITION | OPT_ALL | OPT_DURATION | OPT_TRACE | \
                   OPT_BIG_NUM)

static void stat_help(FILE *fp)
{
    cli_help_intro(fp, "stat");
    cli_help_opts(fp, STAT_OPTS);
}

static void read_help(FILE *fp)
{
    cli_help_intro(fp, "read");
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

/* stat --remote: samples the agent dropped are said (no delta spans them); a window with nothing
 * in it is the session's error. */
static void remote_window(const socmon_totals *t)
{
    if (t->lost)
        fprintf(stderr, "socmon stat: the agent dropped %llu samples in this window; the counts cover the %llu "
                "intervals received whole\n", (unsigned long long)t->lost, (unsigned long long)t->intervals);
}

/* Between repeats: how an earlier run's program ended, if badly (the last run's goes last). */
static void say_repeat(void *user, unsigned run, const smn_session_end *e)
{
    (void)user;
    (void)run;
    cli_program_exit("stat", e);
}

/* The totals' document after the runs: counters the program stopped (said, never a silent
 * hole) and what no counter holds (a NoC trace's drain and latency). */
static socmon_status say_notes(cli_doc *totals, const smn_session *sess)
{
    socmon_inhibited ih[32];
    socmon_result r[32];
    smn_output *out = totals->feed ? totals->co.out : NULL;
    size_t nih = smn_session_inhibited(sess, ih, 32), nr = out ? smn_session_results(sess, r, 32) : 0;
    socmon_status st = cli_say_inhibited(out, ih, nih < 32 ? nih : 32, "stat", NULL);
    return st == SOCMON_OK && nr ? smn_output_results(out, r, nr < 32 ? nr : 32) : st;
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
    if ((rc = cli_source_open(&src, opts, "stat", (cli_how){.rule = SMN_STEP_TOTALS, .totals = SMN_TOTALS_ALWAYS,
                                                                       .on_repeat = say_repeat})) != 0) {
        cli_source_close(&src);
        return rc;
    }
    smn_session *sess = src.sess;
    cli_doc totals = {0}, rows = {0};
    size_t shown[6];
    smn_feed_opts fo = {.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats",
                        .workload = smn_session_workload(sess)};
    socmon_findingset *fs = NULL;
    socmon_status st = cli_findings_load(o, src.info, &fs);
    fo.findings = fs;
    if (st == SOCMON_OK && !intervals_are_doc(o))
        st = cli_doc_open(&totals, o, NULL, &fo);
    socmon_consumer tc = totals.feed ? cli_doc_consumer(&totals) : (socmon_consumer){0};
    if (st == SOCMON_OK && totals.feed)
        st = smn_session_add(sess, &tc);
    if (st == SOCMON_OK && o->command && o->interval_set) {
        socmon_status ost = open_rows(&rows, o, smn_session_metrics(sess), shown);
        socmon_consumer rc_ = rows.feed ? cli_doc_consumer(&rows) : (socmon_consumer){0};
        rc_.optional = !intervals_are_doc(o);   /* live lines that fail do not stop the count */
        if (ost == SOCMON_OK)
            ost = smn_session_add(sess, &rc_);
        if (ost != SOCMON_OK && intervals_are_doc(o))   /* the document is the output; live lines are not */
            st = ost;
    }
    if (st != SOCMON_OK)
        rc = cli_error("stat", st);
    smn_session_program_output(sess, cli_program_to_stdout, NULL);
    if (!rc && (st = smn_session_run(sess)) != SOCMON_OK)
        rc = cli_source_error(&src, "stat", st);
    if (rows.feed) {
        socmon_consumer rc_ = cli_doc_consumer(&rows);
        socmon_status cst = cli_output_finish(&rows.co, socmon_pipeline_consumer_status(smn_session_pipeline(sess), &rc_));
        if (!rc && intervals_are_doc(o) && cst != SOCMON_OK)   /* a full disk fails the run */
            rc = cli_error("stat", cst);
    }
    if (!rc && src.remote)
        remote_window(smn_session_totals(sess));
    st = rc ? SOCMON_ESTATE : say_notes(&totals, sess);
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
    smn_session_end e;
    smn_session_exit(sess, &e);
    if (rc == 0)
        rc = cli_program_exit("stat", &e);
    smn_feed_free(rows.feed);   /* the session's pipeline finished with the consumer */
    socmon_findingset_free(fs);
    cli_source_close(&src);
    return rc;
}

/* socmon read: the counters' values now; with -w or -d the run first (analysis/snapshot.h). */
static int read_cmd(const cli_opts *o)
{
    cli_source src;
    int rc = cli_source_open(&src, o, "read", (cli_how){.rule = SMN_STEP_TOTALS, .totals = SMN_TOTALS_NEVER});
    smn_snapshot x = {0};
    socmon_status st = rc ? SOCMON_OK : smn_session_snapshot(src.sess, o->workload || o->duration_ns, &x);
    socmon_target *t = rc ? NULL : smn_session_target(src.sess);
    if (!rc && st != SOCMON_OK) {
        rc = cli_source_error(&src, "read", st);
    } else if (!rc) {
        smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Counter values", .target = socmon_target_spec(t),
                            .workload = o->workload, .elapsed_ns = x.elapsed_ns,
                            .simulated = !socmon_target_is_hardware(t)};
        smn_counter_list cl = {.n = x.n, .c = x.schema, .names = x.names, .unsupported = x.unsupported,
                               .nunsupported = x.nunsupported};
        rc = cli_print_snapshot("read", o, &run, &cl, x.s.v);
    }
    smn_snapshot_free(&x);
    cli_source_close(&src);
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
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, READ_OPTS, read_help, &o);
    return rc >= 0 ? rc : read_cmd(&o);
}
