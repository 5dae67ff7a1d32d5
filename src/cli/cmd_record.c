/* socmon record: an interval timeline streamed into a recording file as the run goes, shown live.
 *
 * Each sample goes to the streaming writer at once (the first one too) and nothing else of the
 * run stays in memory; the writer's pending block is written and synced every --flush period of
 * wall-clock time, so a killed recorder loses at most that. The file is created safely
 * (a publishing sink, export/sink.h) before the run starts, and SIGINT/SIGTERM end the run cleanly (cli/stop.h). */
#include <stdio.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/help.h"
#include "cli/cli_rw.h"
#include "cli/print.h"
#include "cli/program.h"
#include "cli/open_source.h"
#include "cli/stop.h"
#include "analysis/recorder.h"
#include "agent/remote_record.h"
#include "export/table.h"

#define RECORD_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_OUTPUT | \
                     OPT_REALTIME | OPT_QUIET | OPT_EVERY | OPT_TRACE | OPT_METRICS | OPT_PROGRAM | OPT_MAX_CYCLES | OPT_CPUS | \
                     OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_ALL | OPT_METRIC_FILE | OPT_FLUSH | OPT_FORCE | \
                     OPT_REMOTE | OPT_APPEND | OPT_REMOTE_WRITE)
#define LIVE_MAX 6
#define LIVE_PICK_MAX 32

static void help(FILE *fp)
{
    cli_help_intro(fp, "record");
    cli_help_opts(fp, RECORD_OPTS);
}

/* What record keeps while it runs. */
typedef struct rec {
    const cli_opts *o;
    const char *path;
    cli_source src;
    smn_sink *file;      /* the recording (the writer writes its fd) */
    int appending;
    socmon_recwriter *w;
    smn_recorder rr;
    cli_doc live;           /* the live lines (without -q) */
    remote_record remote;   /* --remote: what the agent's stream says */
    smn_rw *rw;             /* --remote-write */
} rec;

/* "socmon: record: writing 'PATH': No space left on device" */
static int write_error(const char *path, socmon_status st)
{
    char what[4200];
    snprintf(what, sizeof what, "record: writing '%s'", path);
    return cli_error(what, st);
}

/* A line of the agent's stream's (remote_record.h). */
static void say_line(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "socmon record: %s\n", line);
}

/* The file: a new one published safely (export/sink.h), or with --append (remote) the existing one
 * continued after its last sample. A workload the target refuses must not move an existing
 * recording aside, so a local target is started before PATH is published. Returns 0 or the
 * exit code after a message. */
static int open_file(rec *r)
{
    const cli_opts *o = r->o;
    const socmon_source_info *info = r->src.info;
    socmon_recwriter_opts wo = {.flush_ns = o->flush_ns, .simulated = info->simulated ? 1 : -1};
    socmon_status st = SOCMON_OK;
    if (o->append)   /* the existing FILE continued; none yet: a fresh recording */
        st = smn_sink_path(r->path, SOCMON_PATH_CONTINUE, o->force, &r->file);
    if (st != SOCMON_OK)
        return cli_error("record", st);
    int fd = smn_sink_fd(r->file), moved = 0;
    if (smn_sink_is_published(r->file) && o->append) {
        r->appending = r->remote.appending = 1;
        if ((st = socmon_recwriter_reopen(fd, info->set, info->target, info->interval_ns, &wo, &r->w)) != SOCMON_OK)
            return cli_error("record", socmon_fail_prefix(st, "--append '%s': ", r->path));
        r->remote.w = r->w;
        st = remote_record_continue(&r->remote, r->path);
        return st == SOCMON_OK ? 0 : cli_error("record", st);
    }
    if ((st = socmon_recwriter_open(fd, info->set, info->target, info->interval_ns, &wo, &r->w)) != SOCMON_OK)
        return write_error(r->path, st);
    r->remote.w = r->w;
    if (!r->src.remote && (st = smn_session_start(r->src.sess)) != SOCMON_OK)
        return cli_source_error(&r->src, "record", st);
    /* PATH names the file only now that it holds a header: never an unreadable recording. */
    if ((st = smn_sink_publish(r->file, &moved)) != SOCMON_OK)
        return cli_error("record", st);
    if (moved)
        fprintf(stderr, "socmon record: moved the existing '%s' to '%s.old'\n", r->path, r->path);
    return 0;
}

/* The consumers: the file (its writer set once open_file made it), and the live lines (local) or
 * the agent's notes (remote). */
static int open_consumers(rec *r, size_t *shown)
{
    const cli_opts *o = r->o;
    r->rr = (smn_recorder){.flush_ns = o->flush_ns};   /* its writer: open_file's */
    socmon_consumer notes = remote_record_consumer(&r->remote), file = smn_recorder_consumer(&r->rr);
    socmon_status st = r->src.remote ? smn_session_add(r->src.sess, &notes) : SOCMON_OK;   /* before the file: it
                                                                                  sees the gap the file will skip */
    if (st == SOCMON_OK)
        st = smn_session_add(r->src.sess, &file);
    if (st == SOCMON_OK)
        st = cli_rw_add(r->rw, r->src.sess);
    if (st != SOCMON_OK)
        return cli_error("record", st);
    const socmon_metrics *m = smn_session_metrics(r->src.sess);
    size_t nshown = m ? cli_pick_metrics(m, o->metrics, shown, o->metrics ? LIVE_PICK_MAX : LIVE_MAX) : 0;
    if (m && o->metrics && cli_check_metric_patterns("record", r->src.ms, m, o->metrics, "not selected by -e"))
        return 2;
    if (o->quiet)
        return 0;
    smn_feed_opts fo = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .shown = shown, .nshown = nshown,
                           .every = o->every};
    st = cli_doc_open(&r->live, o, "live", &fo);
    socmon_consumer lc = r->live.feed ? cli_doc_consumer(&r->live) : (socmon_consumer){0};
    lc.optional = 1;   /* a failing display must not stop the recording */
    if (st == SOCMON_OK)
        smn_session_add(r->src.sess, &lc);
    return 0;
}

/* The end: the pending block and the end record, then the summary. Returns the exit code. */
static int finish(rec *r, socmon_status st, int rc)
{
    const cli_opts *o = r->o;
    int sig = cli_stop_signal();
    if (st != SOCMON_OK && !rc)
        rc = r->rr.failed ? write_error(r->path, st) : cli_error("record", st);
    /* Keep what was recorded even if the run stopped early: the pending block, then the end.
     * After a write failure the writer is not asked again: the file stays as it was. */
    socmon_recwriter_stats ws = {0};
    /* (--append continues another run's header: its parameters are that run's) */
    socmon_status wst = r->rr.failed ? st : smn_session_attach(r->src.sess, r->w, !r->appending);
    if (wst == SOCMON_OK)
        wst = socmon_recwriter_flush(r->w);
    socmon_recwriter_get_stats(r->w, &ws);
    socmon_status cst = socmon_recwriter_close(r->w);
    if (wst == SOCMON_OK)
        wst = cst;
    struct stat sb;   /* the file's size when it is a regular file */
    uint64_t bytes = fstat(smn_sink_fd(r->file), &sb) == 0 && S_ISREG(sb.st_mode) ? (uint64_t)sb.st_size : ws.bytes;
    socmon_status dst = smn_sink_close(r->file);
    if (wst == SOCMON_OK)
        wst = dst;
    if (wst != SOCMON_OK && !rc)
        rc = write_error(r->path, wst);
    /* The live lines' first write error: said below when their reader went away, else reported. */
    socmon_consumer lc = r->live.feed ? cli_doc_consumer(&r->live) : (socmon_consumer){0};
    socmon_status lst = r->live.feed ? socmon_pipeline_consumer_status(smn_session_pipeline(r->src.sess), &lc) : SOCMON_OK;
    int live_gone = lst != SOCMON_OK && cli_reader_gone(o->to_stderr ? STDERR_FILENO : STDOUT_FILENO);
    uint64_t gone_at = live_gone ? smn_feed_failed_at(r->live.feed) : 0;
    if (live_gone) {
        smn_feed_free(r->live.feed);
        cli_output_finish(&r->live.co, lst);
    } else if (r->live.feed && cli_doc_close(&r->live, "record", lst) && !rc) {
        rc = 1;
    }
    /* stdout's reader gone (the live lines', a program's output's, or that of -q's summary alone):
     * the summary goes to stderr */
    int out_gone = cli_reader_gone(STDOUT_FILENO), prog_out_lost = out_gone && !live_gone && ferror(stdout);
    if (out_gone)
        cli_drop_stdout();
    FILE *to = rc || o->to_stderr || out_gone ? stderr : stdout;
    const socmon_totals *t = smn_session_totals(r->src.sess);
    if (live_gone)
        fprintf(stderr, "socmon record: the reader of the live lines went away (EPIPE) at interval %llu: no more "
                        "live lines; the recording went on to its end\n", (unsigned long long)(gone_at ? gone_at : 1));
    else if (prog_out_lost)
        fprintf(stderr, "socmon record: the reader of stdout went away (EPIPE): the program's output after that was "
                        "dropped; the recording went on to its end\n");
    if (r->src.remote) {
        char wrote[1024];
        remote_record_wrote(&r->remote, r->path, wrote, sizeof wrote);
        fprintf(to, "%s\n", wrote);
        if (r->src.info->end_reason && !o->quiet)
            fprintf(stderr, "socmon record: the agent's run ended: %s\n", r->src.info->end_reason);
        char why[1024];
        if (!rc && !sig && remote_record_nothing(&r->remote, r->src.info->end_reason, r->src.from == CLI_FROM_NOW, why,
                                                 sizeof why)) {
            fprintf(stderr, "socmon record: %s\n", why);
            rc = 1;
        }
    } else {
        /* grouped like every other count a person reads (--no-big-num: plain) */
        char nbuf[32], mbuf[32], bbuf[32];
        smn_format_count(nbuf, sizeof nbuf, wst == SOCMON_OK ? ws.samples : ws.samples_written, !o->no_big_num);
        smn_format_count(mbuf, sizeof mbuf, t->missed, !o->no_big_num);
        smn_format_count(bbuf, sizeof bbuf, bytes, !o->no_big_num);
        fprintf(to, "wrote %s samples (%s intervals missed) to %s (%s bytes)\n", nbuf, mbuf, r->path, bbuf);
    }
    cli_rw_close(r->rw, "record", to);
    r->rw = NULL;
    /* not hidden by -q: the recording holds values that are not counts (docs/output.md) */
    if (t && t->implausible_intervals)
        fprintf(stderr, "socmon record: %llu interval%s had implausible values (a counter moved more than its maximum "
                        "rate allows, or a block read all-ones): 'socmon report -i %s' flags them\n",
                (unsigned long long)t->implausible_intervals, t->implausible_intervals == 1 ? "" : "s", r->path);
    if (sig) {
        fprintf(stderr, "socmon record: stopped by %s; the recording is complete up to there\n", cli_stop_name());
        if (!rc)
            rc = cli_stop_exit_code();
    }
    smn_session_end e;
    smn_session_exit(r->src.sess, &e);
    if (rc == 0)
        rc = cli_program_exit("record", &e);
    return rc;
}

int cmd_record(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, RECORD_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    /* A reader that goes away (record | head, a FIFO's reader) must not kill the recorder with
     * SIGPIPE mid-block, with no summary and no end record: writes there fail with EPIPE instead,
     * which stops the live lines and leaves the recording to finish. A command the host target
     * runs gets its default signals back (targets/host_child.c). Past RLIMIT_FSIZE a write
     * fails with EFBIG, reported like a full disk, instead of SIGXFSZ killing the recorder. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGXFSZ, SIG_IGN);
    if (o.append && o.from) {
        fprintf(stderr, "socmon record: --append continues after the file's last sample: --from does not go with it\n");
        return 2;
    }
    if (o.append && !o.remote) {
        fprintf(stderr, "socmon record: --append continues a recording from an agent: give --remote too\n");
        return 2;
    }
    rec r = {.o = &o, .path = o.output ? o.output : "socmon.rec"};
    if ((rc = cli_rw_open(&o, "record", &r.rw)) != 0)
        return rc;
    cli_stop_install();   /* now: a signal while starting up stops the run at its first sample */
    /* Find out now, not after a long run, that the recording cannot be written. */
    socmon_status st = o.append ? SOCMON_OK : smn_sink_path(r.path, SOCMON_PATH_PUBLISH, o.force, &r.file);
    if (st != SOCMON_OK)
        return cli_error("record", st);
    o.symbols = 1;   /* a program's recording holds its per-function counters (report --by-symbol) */
    size_t shown[LIVE_PICK_MAX];
    rc = cli_source_open(&r.src, &o, "record", (cli_how){.rule = SMN_STEP_ROWS, .caller_starts = 1,
                                                         .totals = SMN_TOTALS_NEVER});
    /* an -e event this machine cannot count (perf's <not supported>) is said, not dropped in silence */
    for (size_t i = 0; !rc && r.src.info->nunsupported && i < r.src.info->nunsupported; i++)
        fprintf(stderr, "%s%s%s", i ? ", " : "socmon record: <not supported> here, so not in the recording: ",
                r.src.info->unsupported[i], i + 1 == r.src.info->nunsupported ? "\n" : "");
    char line[1024];
    if (!rc && r.src.remote) {
        r.remote = (remote_record){.src = r.src.remote, .agent = o.remote, .target = r.src.info->target,
                                   .big = !o.no_big_num, .lost = &r.rr.lost, .say = say_line};
        /* before any file: none is made for a run that is over */
        if (!o.append && r.src.from == CLI_FROM_NOW && remote_record_ended(&r.remote, o.from != 0, line, sizeof line)) {
            fprintf(stderr, "socmon record: %s\n", line);
            rc = 1;
        }
    }
    if (!rc)   /* first: a bad -M must not move an existing recording aside */
        rc = open_consumers(&r, shown);
    if (!rc)
        rc = open_file(&r);
    r.rr.w = r.w;
    if (rc) {
        socmon_recwriter_close(r.w);
        smn_sink_close(r.file);
        smn_feed_free(r.live.feed);
        cli_output_discard(&r.live.co);
        smn_rw_free(r.rw);
        cli_source_close(&r.src);
        return rc;
    }
    if (!r.src.remote && smn_recorder_too_long(o.duration_ns, r.src.info->interval_ns, r.src.info->ncounters, line,
                                               sizeof line))
        fprintf(stderr, "socmon record: %s\n", line);
    r.remote.progress = !o.quiet && !r.live.feed;   /* the live lines say it otherwise */
    if (r.src.remote && !o.quiet) {
        remote_record_start_line(&r.remote, r.src.from == CLI_FROM_NOW, o.duration_ns != 0, r.src.info->ncounters,
                                 r.src.info->interval_ns, line, sizeof line);
        fprintf(stderr, "socmon record: %s\n", line);
    }
    if (r.appending && !o.quiet)
        fprintf(stderr, "socmon record: continuing '%s' at seq %llu\n", r.path,
                (unsigned long long)(collector_source_base(r.src.remote, &(int){0}) + socmon_recwriter_next_index(r.w)));
    smn_session_program_output(r.src.sess, cli_program_to_stdout, NULL);
    st = smn_session_run(r.src.sess);   /* and the bus trace's write errors (--trace-bus) */
    rc = finish(&r, st, 0);
    cli_source_close(&r.src);
    return rc;
}
