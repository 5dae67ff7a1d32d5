/* socmon record: an interval timeline streamed into a recording file as the run goes, shown live.
 *
 * Each sample goes to the streaming writer at once (the first one too) and nothing else of the
 * run stays in memory; the writer's pending block is written and synced every --flush period of
 * wall-clock time, so a killed recorder loses at most that. The file is created safely
 * (cli/dest.h) before the run starts, and SIGINT/SIGTERM end the run cleanly (cli/stop.h). */
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/dest.h"
#include "cli/opts.h"
#include "cli/output.h"
#include "cli/program.h"
#include "cli/scaled.h"
#include "cli/remote.h"
#include "cli/stop.h"
#include "core/clock.h"
#include "export/table.h"

#define RECORD_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_OUTPUT | \
                     OPT_REALTIME | OPT_QUIET | OPT_EVERY | OPT_TRACE | OPT_METRICS | OPT_PROGRAM | OPT_MAX_CYCLES | OPT_CPUS | \
                     OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_ALL | OPT_METRIC_FILE | OPT_FLUSH | OPT_FORCE | \
                     OPT_REMOTE | OPT_APPEND)
#define LIVE_MAX 6
#define LIVE_PICK_MAX 32

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon record [options]\n\n"
                "Samples the selected counters every interval while the workload runs (or for the\n"
                "duration), prints one line per interval with the target's device-wide metrics, and\n"
                "writes the timeline to a recording for 'socmon report'. Intervals missed because the\n"
                "host was late are recorded as missed, never merged. With a program (-t ibex --\n"
                "prog.elf) the program's output goes to stdout, the live lines to stderr, and the\n"
                "recording holds per-function counters for 'socmon report --by-symbol'.\n\n"
                "The recording is written as the run goes and synced every --flush period, so a\n"
                "recorder that is killed loses at most that much. An existing FILE is moved to\n"
                "FILE.old (--force: overwritten); a device node, FIFO or symlink at FILE is refused\n"
                "(--force: written through, never replaced); a second recorder on the same FILE stops\n"
                "with an error. SIGINT (Ctrl-C) or SIGTERM stops the run at the next sample (within\n"
                "one interval), writes the last block, closes the file, prints the summary so far and\n"
                "exits 130 or 143; a second Ctrl-C kills at once. A full disk stops the run with exit\n"
                "status 1; the file then reads up to its last whole block. When the reader of the live\n"
                "lines goes away (record | head), the live lines stop with a note on stderr and the\n"
                "recording goes on to its end (exit status 0); when the reader of a FIFO given as -o\n"
                "goes away, the run stops there with exit status 1.\n\n"
                "With --remote HOST:PORT the samples come from 'socmon agent' there (docs/agent.md):\n"
                "the same file, each sample's index its sequence number at the agent, samples the\n"
                "agent no longer had recorded as an explicit gap; -d is the target's time from the\n"
                "first sample received; --append continues -o FILE after its last sample, so a\n"
                "collector killed and restarted yields one file.\n\n");
    cli_help_opts(fp, RECORD_OPTS);
}

typedef struct live {
    cli_session *cs;
    const cli_opts *o;
    socmon_output *out;     /* the live lines; NULL with -q, or once their reader has gone */
    int live_fd;            /* where they go: stdout, or stderr when a program owns stdout */
    uint64_t live_gone;     /* the interval at which the live lines' reader went away; 0: it did not */
    double *mv;
    uint64_t t0, n;
    socmon_recwriter *w;
    uint64_t next_flush;    /* monotonic ns of the next flush */
    int write_failed;       /* the run stopped because the recording could not be written */
    socmon_scaling *sc;     /* perf_event time counters, or NULL: the live lines' metrics scale */
    uint64_t *scaled;
} live;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    live *l = user;
    socmon_status st;
    /* The sampler's first sample reaches a callback only as prev of the second. */
    if ((l->n == 0 && (st = socmon_recwriter_append(l->w, prev)) != SOCMON_OK) ||
        (st = socmon_recwriter_append(l->w, cur)) != SOCMON_OK) {
        l->write_failed = 1;
        return st;
    }
    uint64_t now = socmon_mono_ns();
    if (now >= l->next_flush) {
        if ((st = socmon_recwriter_flush(l->w)) != SOCMON_OK) {
            l->write_failed = 1;
            return st;
        }
        l->next_flush = now + l->o->flush_ns;
    }
    l->n++;
    if (l->out && (l->n - 1) % l->o->every == 0) {
        socmon_metrics *m = l->cs->metrics;
        uint64_t dt = cur->t_ns - prev->t_ns;
        /* perf_event counts: the metrics of the scaled estimates (the file keeps the raw ones) */
        if (l->sc && cli_scale_deltas(l->sc, cur->n, deltas, l->scaled, NULL) == 0)
            deltas = l->scaled;
        const double *mv = m && socmon_metrics_eval(m, deltas, (double)dt / 1e9, l->mv) == SOCMON_OK ? l->mv : NULL;
        socmon_interval_row row = {cur->t_ns, cur->t_ns - l->t0, dt, cur->flags, cur->missed, mv, deltas};
        /* A failing display must not stop the recording: the output keeps its first write error
         * and the command reports it once the recording is closed; a reader that went away
         * (record | head) wanted no more lines, so none are written after it. */
        if (socmon_output_row(l->out, &row) != SOCMON_OK && cli_reader_gone(l->live_fd)) {
            l->out = NULL;
            l->live_gone = l->n;
        }
    }
    /* Checked last, so the sample just taken is kept. */
    return cli_stop_signal() ? cli_stop_status() : SOCMON_OK;
}

/* "socmon: record: writing 'PATH': No space left on device" */
static int write_error(const char *path, socmon_status st)
{
    char what[4200];
    snprintf(what, sizeof what, "record: writing '%s'", path);
    return cli_error(what, st);
}

/* Opens the session and checks what the run needs; 0, or the exit code after a message. */
static int open_run(cli_session *cs, cli_opts *o, live *l, size_t *shown, size_t *nshown)
{
    socmon_status st = cli_session_open(cs, o);
    if (st != SOCMON_OK)
        return cli_error("record", st);
    const socmon_target_ops *ops = socmon_target_ops_of(cs->target);
    if (socmon_target_is_hardware(cs->target) && !o->duration_ns && !o->command) {
        fprintf(stderr, "socmon record: target '%s' is hardware: give a duration with -d\n", ops->name);
        return 2;
    }
    o->interval_ns = cli_interval(cs->target, o->interval_ns, o->interval_set);
    if (cs->metrics) {
        if (!(l->mv = calloc(socmon_metrics_nresults(cs->metrics) + 1, sizeof *l->mv)))
            return cli_error("record", socmon_fail(SOCMON_ENOMEM, "out of memory"));
        *nshown = cli_pick_metrics(cs->metrics, o->metrics, shown, o->metrics ? LIVE_PICK_MAX : LIVE_MAX);
        if (o->metrics && cli_check_metric_patterns("record", cs->ms, cs->metrics, o->metrics, "not selected by -e"))
            return 2;
    }
    return 0;
}

int cmd_record(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, RECORD_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    /* A reader that goes away (record | head, a FIFO's reader) must not kill the recorder with
     * SIGPIPE mid-block, with no summary and no end record: writes there fail with EPIPE instead,
     * which stops the live lines and leaves the recording to finish (see on_sample). A command
     * the host target runs gets its default signals back (targets/host_child.c). */
    signal(SIGPIPE, SIG_IGN);
    if (o.remote)
        return cli_record_remote(&o);
    if (o.append) {
        fprintf(stderr, "socmon record: --append continues a recording from an agent: give --remote too\n");
        return 2;
    }
    const char *path = o.output ? o.output : "socmon.rec";
    cli_stop_install();   /* now: a signal while starting up stops the run at its first sample */
    /* Find out now, not after a long run, that the recording cannot be written. */
    cli_dest d;
    socmon_status st = cli_dest_open(&d, path, o.force);
    if (st != SOCMON_OK) {
        rc = cli_error("record", st);
        cli_dest_close(&d);
        return rc;
    }
    cli_session cs;
    o.symbols = 1;   /* a program's recording holds its per-function counters (report --by-symbol) */
    live l = {.cs = &cs, .o = &o, .live_fd = o.to_stderr ? STDERR_FILENO : STDOUT_FILENO};
    size_t shown[LIVE_PICK_MAX], nshown = 0;
    rc = open_run(&cs, &o, &l, shown, &nshown);
    /* The file says which clock stamped it, so report need not guess from the target's name: a
     * model's clock is simulated even when --realtime paces it to the wall clock. */
    socmon_recwriter_opts wo = {.flush_ns = o.flush_ns, .simulated = socmon_target_is_hardware(cs.target) ? -1 : 1};
    if (!rc && (st = socmon_recwriter_open(d.fd, cs.set, socmon_target_spec(cs.target), o.interval_ns, &wo,
                                           &l.w)) != SOCMON_OK)
        rc = write_error(path, st);
    /* A workload the target refuses must not move an existing recording aside. */
    if (!rc && (st = socmon_target_start(cs.target, o.workload)) != SOCMON_OK)
        rc = cli_program_failed(&cs, cli_error("record", st));
    /* PATH names the file only now that it holds a header: never an unreadable recording. */
    if (!rc && (st = cli_dest_publish(&d)) != SOCMON_OK)
        rc = cli_error("record", st);
    if (rc) {
        socmon_recwriter_close(l.w);
        cli_dest_close(&d);
        free(l.mv);
        cli_session_close(&cs);
        return rc;
    }
    if (d.moved_old)
        fprintf(stderr, "socmon record: moved the existing '%s' to '%s.old'\n", path, path);
    /* Past RLIMIT_FSIZE a write fails with EFBIG, reported like a full disk, instead of the
     * default SIGXFSZ killing the recorder mid-block. */
    signal(SIGXFSZ, SIG_IGN);
    cli_program_attach(&cs);
    l.t0 = socmon_target_now_ns(cs.target);
    if (socmon_scaling_new(cs.schema, cs.names, socmon_set_size(cs.set), &l.sc) == SOCMON_OK &&
        !(l.scaled = calloc(socmon_set_size(cs.set) + 1, sizeof *l.scaled))) {
        socmon_scaling_free(l.sc);
        l.sc = NULL;
    }
    size_t nset = socmon_set_size(cs.set);
    socmon_counter_list sch = {nset, cs.schema, cs.names, NULL, 0, NULL};
    cli_output co = {0};
    socmon_status ost = SOCMON_OK;
    if (!o.quiet) {
        socmon_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording",
                               .target = socmon_target_spec(cs.target), .workload = o.workload,
                               .interval_ns = o.interval_ns, .ncounters = nset,
                               .simulated = !socmon_target_is_hardware(cs.target)};
        socmon_interval_cols cols = {cs.metrics, shown, nshown, &sch, 0};
        if ((ost = cli_output_open(&co, &o, "live")) == SOCMON_OK &&
            (ost = socmon_output_begin(co.out, &run)) == SOCMON_OK &&
            (ost = socmon_output_begin_intervals(co.out, &cols)) == SOCMON_OK)
            l.out = co.out;
        else if (co.out && cli_reader_gone(l.live_fd))
            l.live_gone = 1;   /* gone before the first line: record anyway */
    }
    socmon_sampler_opts so = {o.interval_ns, o.duration_ns, o.realtime, o.interval_count};
    socmon_sampler_stats stats = {0};
    l.next_flush = socmon_mono_ns() + o.flush_ns;
    st = socmon_sampler_run(cs.target, cs.set, &so, NULL, on_sample, &l, &stats);
    int sig = st == SOCMON_ESTATE ? cli_stop_signal() : 0;
    if (st == SOCMON_OK || sig) {   /* the bus trace's write errors (--trace-bus) */
        socmon_status tst = cli_trace_flush(&cs);
        if (tst != SOCMON_OK) {
            st = tst;
            sig = 0;
        }
    }
    if (st != SOCMON_OK && !sig)
        rc = l.write_failed ? write_error(path, st) : cli_error("record", st);
    /* Keep what was recorded even if the run stopped early: the pending block, then the end.
     * After a write failure the writer is not asked again: the file stays as it was. */
    socmon_recwriter_stats ws;
    socmon_status wst = l.write_failed ? st : socmon_recwriter_flush(l.w);
    socmon_recwriter_get_stats(l.w, &ws);
    socmon_status cst = socmon_recwriter_close(l.w);
    if (wst == SOCMON_OK)
        wst = cst;
    uint64_t bytes = cli_dest_size(&d, ws.bytes);
    socmon_status dst = cli_dest_close(&d);
    if (wst == SOCMON_OK)
        wst = dst;
    if (wst != SOCMON_OK && !rc)
        rc = write_error(path, wst);
    if (ost == SOCMON_OK && l.out)
        ost = socmon_output_end_intervals(l.out);
    /* The live lines' first write error, if any; nothing to report with -q, nor when their
     * reader went away (said below). */
    if (l.live_gone)
        cli_output_finish(&co, ost != SOCMON_OK ? ost : SOCMON_EIO);
    else if (co.sink && cli_output_close(&co, "record", ost) && !rc)
        rc = 1;
    /* stdout's reader gone (the live lines', a program's output's, or that of -q's summary alone):
     * the summary goes to stderr */
    int out_gone = cli_reader_gone(STDOUT_FILENO), prog_out_lost = out_gone && !l.live_gone && ferror(stdout);
    if (out_gone)
        cli_drop_stdout();
    uint64_t nwritten = wst == SOCMON_OK ? ws.samples : ws.samples_written;
    /* Grouped like every other count a person reads (--no-big-num: plain). */
    char nbuf[32], mbuf[32], bbuf[32];
    socmon_format_count(nbuf, sizeof nbuf, nwritten, !o.no_big_num);
    socmon_format_count(mbuf, sizeof mbuf, stats.missed, !o.no_big_num);
    socmon_format_count(bbuf, sizeof bbuf, bytes, !o.no_big_num);
    if (l.live_gone)
        fprintf(stderr, "socmon record: the reader of the live lines went away (EPIPE) at interval %llu: no more "
                        "live lines; the recording went on to its end\n", (unsigned long long)l.live_gone);
    else if (prog_out_lost)
        fprintf(stderr, "socmon record: the reader of stdout went away (EPIPE): the program's output after that was "
                        "dropped; the recording went on to its end\n");
    fprintf(rc || o.to_stderr || out_gone ? stderr : stdout, "wrote %s samples (%s intervals missed) to %s (%s bytes)\n", nbuf,
            mbuf, path, bbuf);
    if (sig) {
        fprintf(stderr, "socmon record: stopped by %s; the recording is complete up to there\n", cli_stop_name());
        if (!rc)
            rc = cli_stop_exit_code();
    }
    if (rc == 0)
        rc = cli_program_exit(&cs, "record");
    socmon_scaling_free(l.sc);
    free(l.scaled);
    free(l.mv);
    cli_session_close(&cs);
    return rc;
}
