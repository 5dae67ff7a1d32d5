/* socmon record: an interval timeline into a recording file, shown live. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "export/table.h"

#define RECORD_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_DURATION | OPT_INTERVAL | OPT_OUTPUT | \
                     OPT_REALTIME | OPT_QUIET | OPT_EVERY | OPT_TRACE | OPT_METRICS)
#define LIVE_MAX 6
#define LIVE_PICK_MAX 32

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon record [options]\n\n"
                "Samples the selected counters every interval while the workload runs (or for the\n"
                "duration), prints one line per interval with the target's device-wide metrics, and\n"
                "writes the timeline to a recording for 'socmon report'. Intervals missed because the\n"
                "host was late are recorded as missed, never merged.\n\n");
    cli_help_opts(fp, RECORD_OPTS);
}

typedef struct live {
    cli_session *cs;
    const cli_opts *o;
    double *mv;
    size_t shown[LIVE_PICK_MAX], nshown;
    uint64_t t0, n;
} live;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    live *l = user;
    l->n++;
    if (l->o->quiet || (l->n - 1) % l->o->every)
        return SOCMON_OK;
    char t[32];
    cli_format_ns(t, sizeof t, cur->t_ns - l->t0);
    printf("%12s", t);
    if (l->cs->metrics && socmon_metrics_eval(l->cs->metrics, deltas, (double)(cur->t_ns - prev->t_ns) / 1e9,
                                              l->mv) == SOCMON_OK) {
        for (size_t k = 0; k < l->nshown; k++) {
            const socmon_metric_result_info *r = socmon_metrics_result(l->cs->metrics, l->shown[k]);
            const char *label = cli_metric_label(r->def, l->mv[l->shown[k]]);
            char v[48];
            if (label)
                snprintf(v, sizeof v, "%s", label);
            else
                socmon_format_value(v, sizeof v, l->mv[l->shown[k]]);
            const char *unit = label || !r->def->unit || strcmp(r->def->unit, "%") ? "" : "%";
            if (*r->instance)
                printf("  %s.%s=%s%s", r->instance, r->def->name, v, unit);
            else
                printf("  %s=%s%s", r->def->name, v, unit);
        }
    } else {
        uint64_t sum = 0;
        for (size_t i = 0; i < cur->n; i++)
            sum += deltas[i];
        printf("  events=%llu", (unsigned long long)sum);
    }
    if (cur->flags & SOCMON_SAMPLE_MISSED)
        printf("  MISSED %u interval%s", cur->missed, cur->missed == 1 ? "" : "s");
    if (cur->flags & SOCMON_SAMPLE_UNDEF)
        printf("  UNDEFINED values");
    printf("\n");
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
    socmon_status st = cli_session_open(&cs, o.target, o.events, o.trace);
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
    live l = {&cs, &o, NULL, {0}, 0, socmon_target_now_ns(cs.target), 0};
    if (cs.metrics) {
        l.mv = calloc(socmon_metrics_nresults(cs.metrics) + 1, sizeof *l.mv);
        l.nshown = cli_pick_metrics(cs.metrics, o.metrics, l.shown, o.metrics ? LIVE_PICK_MAX : LIVE_MAX);
        if (o.metrics && !l.nshown) {
            fprintf(stderr, "socmon record: -M '%s' matches no metric (see 'socmon list metrics')\n", o.metrics);
            free(l.mv);
            socmon_recording_free(rec);
            cli_session_close(&cs);
            return 2;
        }
    }
    if (!o.quiet) {
        char iv[32];
        cli_format_ns(iv, sizeof iv, o.interval_ns);
        printf("recording target '%s'%s%s, %zu counters every %s%s\n", socmon_target_spec(cs.target),
               o.workload ? ", workload " : "", o.workload ? o.workload : "", socmon_set_size(cs.set), iv,
               o.realtime || socmon_target_is_hardware(cs.target) ? " (real time)" : " (simulated time)");
    }
    socmon_sampler_opts so = {o.interval_ns, o.duration_ns, o.realtime};
    socmon_sampler_stats stats = {0};
    socmon_timeline *tl = socmon_recording_timeline(rec);
    st = socmon_sampler_run(cs.target, cs.set, &so, tl, on_sample, &l, &stats);
    /* Keep what was recorded even if the run stopped early. */
    socmon_status sst = socmon_timeline_len(tl) ? socmon_recording_save(rec, path) : SOCMON_OK;
    if (st != SOCMON_OK)
        rc = cli_error("record", st);
    else if (sst != SOCMON_OK)
        rc = cli_error("record: saving", sst);
    else
        rc = 0;
    if (sst == SOCMON_OK && socmon_timeline_len(tl)) {
        struct stat sb;
        long long size = stat(path, &sb) == 0 ? (long long)sb.st_size : -1;
        fprintf(rc ? stderr : stdout, "wrote %zu samples (%llu intervals missed) to %s (%lld bytes)\n",
                socmon_timeline_len(tl), (unsigned long long)stats.missed, path, size);
    }
    free(l.mv);
    socmon_recording_free(rec);
    cli_session_close(&cs);
    return rc;
}
