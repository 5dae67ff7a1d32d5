/* socmon stat and socmon read: counts over a run, and one snapshot. */
#include <stdlib.h>
#include <string.h>

#include "cli/opts.h"
#include "cli/output.h"
#include "cli/program.h"

#define STAT_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_ALL | OPT_DURATION | \
                   OPT_INTERVAL | OPT_REALTIME | OPT_TRACE | OPT_OUTPUT | OPT_PROGRAM | OPT_MAX_CYCLES | \
                   OPT_INTERVAL_COUNT | OPT_BIG_NUM | OPT_REPEAT | OPT_APPEND | OPT_METRIC_FILE)
#define READ_OPTS (OPT_TARGET | OPT_EVENTS | OPT_WORKLOAD | OPT_FORMAT | OPT_ALL | OPT_DURATION | OPT_TRACE | \
                   OPT_BIG_NUM)

static void stat_help(FILE *fp)
{
    fprintf(fp, "usage: socmon stat [options]\n\n"
                "Runs a workload on the target and prints how much every counter moved, the target's\n"
                "derived metrics, and hot spots. The counters are sampled every interval while it runs,\n"
                "so none can wrap twice unseen, and the deltas are summed.\n\n"
                "With a program (socmon stat -t ibex -- prog.elf) the program's output goes to stdout\n"
                "and the counts to stderr (or -o FILE); exit status 3: it trapped out, 4: it did not\n"
                "halt within --max-cycles, 5: it hangs (sleeps or spins forever).\n\n");
    cli_help_opts(fp, STAT_OPTS);
}

static void read_help(FILE *fp)
{
    fprintf(fp, "usage: socmon read [options]\n\n"
                "Prints the current raw value of every selected counter. With -w or -d, first runs\n"
                "that workload (or for that long) on a model target.\n\n");
    cli_help_opts(fp, READ_OPTS);
}

static socmon_status accumulate(void *user, const socmon_sample *prev, const socmon_sample *cur,
                                const uint64_t *deltas)
{
    uint64_t *acc = user;
    for (size_t i = 0; i < cur->n; i++)
        acc[i] += deltas[i];
    return SOCMON_OK;
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
    st = socmon_sampler_run(cs->target, cs->set, &so, NULL, acc ? accumulate : NULL, acc, NULL);
    *elapsed = socmon_target_now_ns(cs->target) - t0;
    return st;
}

static const char *workload_name(const cli_session *cs, const char *w)
{
    const socmon_target_ops *ops = socmon_target_ops_of(cs->target);
    return w ? w : (ops->workloads ? ops->workloads[0] : NULL);
}

static int stat_body(cli_session *cs, const cli_opts *opts)
{
    cli_opts oo = *opts;   /* stat's -o names where the counts go */
    const cli_opts *o = &oo;
    oo.print_path = opts->output;
    cli_program_attach(cs);
    const socmon_target_ops *ops = socmon_target_ops_of(cs->target);
    if (socmon_target_is_hardware(cs->target) && !o->duration_ns) {
        fprintf(stderr, "socmon stat: target '%s' is hardware: give a duration with -d\n", ops->name);
        return 2;
    }
    size_t n = socmon_set_size(cs->set);
    uint64_t *acc = calloc(n, sizeof *acc), elapsed = 0;
    double *mv = calloc(cs->metrics ? socmon_metrics_nresults(cs->metrics) + 1 : 1, sizeof *mv);
    socmon_status st;
    int rc;
    if (!acc || !mv) {
        fprintf(stderr, "socmon stat: out of memory\n");
        rc = 1;
    } else if ((st = run(cs, o, acc, &elapsed)) != SOCMON_OK) {
        rc = cli_error("stat", st);
    } else if (cs->metrics && (st = socmon_metrics_eval(cs->metrics, acc, (double)elapsed / 1e9, mv)) != SOCMON_OK) {
        rc = cli_error("stat: metrics", st);
    } else {
        cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats",
                         .target = socmon_target_spec(cs->target), .workload = workload_name(cs, o->workload),
                         .elapsed_ns = elapsed, .simulated = !socmon_target_is_hardware(cs->target)},
                        {n, cs->schema, cs->names}, acc, cs->ms, cs->metrics, mv, ops->hotspots};
        rc = cli_print_totals("stat", o, &t);
        if (rc == 0)
            rc = cli_program_exit(cs, "stat");
    }
    free(acc);
    free(mv);
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
    int rc;
    if (st != SOCMON_OK) {
        rc = cli_error("read", st);
    } else {
        cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Counter values", .target = socmon_target_spec(cs->target),
                         .workload = o->workload, .elapsed_ns = elapsed,
                         .simulated = !socmon_target_is_hardware(cs->target)},
                        {socmon_set_size(cs->set), cs->schema, cs->names}, s.v, NULL, NULL, NULL, NULL};
        rc = cli_print_totals("read", o, &t);
    }
    socmon_sample_free(&s);
    return rc;
}

int cmd_stat(int argc, char **argv)
{
    return cli_run_session(argc, argv, STAT_OPTS, stat_help, "stat", stat_body);
}

int cmd_read(int argc, char **argv)
{
    return cli_run_session(argc, argv, READ_OPTS, read_help, "read", read_body);
}
