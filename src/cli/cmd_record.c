/* socmon record: an interval timeline into a recording file, shown live. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "cli/program.h"

#define RECORD_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_OUTPUT | \
                     OPT_REALTIME | OPT_QUIET | OPT_EVERY | OPT_TRACE | OPT_METRICS | OPT_PROGRAM | OPT_MAX_CYCLES | \
                     OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_ALL | OPT_METRIC_FILE)
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
                "recording holds per-function counters for 'socmon report --by-symbol'.\n\n");
    cli_help_opts(fp, RECORD_OPTS);
}

typedef struct live {
    cli_session *cs;
    const cli_opts *o;
    socmon_output *out;     /* the live lines; NULL with -q */
    double *mv;
    uint64_t t0, n;
} live;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    live *l = user;
    l->n++;
    if (!l->out || (l->n - 1) % l->o->every)
        return SOCMON_OK;
    socmon_metrics *m = l->cs->metrics;
    uint64_t dt = cur->t_ns - prev->t_ns;
    const double *mv = m && socmon_metrics_eval(m, deltas, (double)dt / 1e9, l->mv) == SOCMON_OK ? l->mv : NULL;
    socmon_interval_row row = {cur->t_ns, cur->t_ns - l->t0, dt, cur->flags, cur->missed, mv, deltas};
    /* A failing display must not stop the recording: the output keeps its first write error
     * and the command reports it once the recording is saved. */
    socmon_output_row(l->out, &row);
    return SOCMON_OK;
}

int cmd_record(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, RECORD_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    const char *path = o.output ? o.output : "socmon.rec";
    /* Find out now, not after a long run, that the recording cannot be written. */
    char probe[4096];
    snprintf(probe, sizeof probe, "%s.tmp", path);
    FILE *pf = fopen(probe, "w");
    if (!pf) {
        fprintf(stderr, "socmon record: cannot write '%s': %s\n", probe, strerror(errno));
        return 1;
    }
    fclose(pf);
    remove(probe);
    cli_session cs;
    socmon_recording *rec = NULL;
    o.symbols = 1;   /* a program's recording holds its per-function counters (report --by-symbol) */
    socmon_status st = cli_session_open(&cs, &o);
    const socmon_target_ops *ops = cs.target ? socmon_target_ops_of(cs.target) : NULL;
    if (st == SOCMON_OK && socmon_target_is_hardware(cs.target) && !o.duration_ns) {
        fprintf(stderr, "socmon record: target '%s' is hardware: give a duration with -d\n", ops->name);
        cli_session_close(&cs);
        return 2;
    }
    if (st == SOCMON_OK) {
        o.interval_ns = cli_interval(cs.target, o.interval_ns, o.interval_set);
        st = socmon_recording_new(cs.set, socmon_target_spec(cs.target), o.interval_ns, &rec);
    }
    if (st == SOCMON_OK)
        st = socmon_target_start(cs.target, o.workload);
    if (st != SOCMON_OK) {
        rc = cli_error("record", st);
        socmon_recording_free(rec);
        cli_session_close(&cs);
        return rc;
    }
    cli_program_attach(&cs);
    live l = {&cs, &o, NULL, NULL, socmon_target_now_ns(cs.target), 0};
    size_t shown[LIVE_PICK_MAX], nshown = 0;
    if (cs.metrics) {
        l.mv = calloc(socmon_metrics_nresults(cs.metrics) + 1, sizeof *l.mv);
        nshown = cli_pick_metrics(cs.metrics, o.metrics, shown, o.metrics ? LIVE_PICK_MAX : LIVE_MAX);
        if (o.metrics && cli_check_metric_patterns("record", cs.ms, cs.metrics, o.metrics, "not selected by -e")) {
            free(l.mv);
            socmon_recording_free(rec);
            cli_session_close(&cs);
            return 2;
        }
    }
    size_t nset = socmon_set_size(cs.set);
    socmon_counter_list sch = {nset, cs.schema, cs.names};
    cli_output co = {0};
    socmon_status ost = SOCMON_OK;
    if (!o.quiet) {
        socmon_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording",
                               .target = socmon_target_spec(cs.target), .workload = o.workload,
                               .interval_ns = o.interval_ns, .ncounters = nset,
                               .simulated = !o.realtime && !socmon_target_is_hardware(cs.target)};
        socmon_interval_cols cols = {cs.metrics, shown, nshown, &sch};
        if ((ost = cli_output_open(&co, &o, "live")) == SOCMON_OK &&
            (ost = socmon_output_begin(co.out, &run)) == SOCMON_OK &&
            (ost = socmon_output_begin_intervals(co.out, &cols)) == SOCMON_OK)
            l.out = co.out;
    }
    socmon_sampler_opts so = {o.interval_ns, o.duration_ns, o.realtime, o.interval_count};
    socmon_sampler_stats stats = {0};
    socmon_timeline *tl = socmon_recording_timeline(rec);
    st = socmon_sampler_run(cs.target, cs.set, &so, tl, on_sample, &l, &stats);
    if (st == SOCMON_OK)
        st = cli_trace_flush(&cs);
    /* Keep what was recorded even if the run stopped early. */
    socmon_status sst = socmon_timeline_len(tl) ? socmon_recording_save(rec, path) : SOCMON_OK;
    if (ost == SOCMON_OK && l.out)
        ost = socmon_output_end_intervals(l.out);
    if (st != SOCMON_OK)
        rc = cli_error("record", st);
    else if (sst != SOCMON_OK)
        rc = cli_error("record: saving", sst);
    else
        rc = 0;
    /* The live lines' first write error, if any; nothing to report with -q. */
    if (co.sink && cli_output_close(&co, "record", ost) && !rc)
        rc = 1;
    if (sst == SOCMON_OK && socmon_timeline_len(tl)) {
        struct stat sb;
        long long size = stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
        fprintf(rc || o.to_stderr ? stderr : stdout, "wrote %zu samples (%llu intervals missed) to %s (%lld bytes)\n",
                socmon_timeline_len(tl), (unsigned long long)stats.missed, path, size);
    }
    if (rc == 0)
        rc = cli_program_exit(&cs, "record");
    free(l.mv);
    socmon_recording_free(rec);
    cli_session_close(&cs);
    return rc;
}
