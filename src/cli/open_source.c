/* Opening the source a command reads (cli/open_source.h). */
#include <stdlib.h>
#include <string.h>

#include "agent/remote_open.h"
#include "analysis/recording_stream.h"
#include "cli/open_source.h"
#include "cli/stop.h"

/* With --remote, what the agent samples is the agent's to choose: 0, or 2 after a message
 * naming the option. Without it, the options of --remote alone are refused the same way. */
static int check_remote_opts(const char *cmd, const cli_opts *o)
{
    /* serve's and the agent's --token-file is their own server's token */
    int serve = strcmp(cmd, "serve") == 0, own_token = serve || strcmp(cmd, "agent") == 0;
    const char *bad = !o->remote ? (o->token_file && !own_token ? "--token-file" : o->agent_timeout_set ? "--agent-timeout"
                                    : o->from ? "--from" : NULL)
                      : o->target && strcmp(o->target, SOCMON_DEFAULT_TARGET) ? "-t" : o->workload ? "-w" : o->interval_set ? "-I" : o->program ? "--"
                      : o->trace ? "--trace-bus" : o->realtime ? "--realtime" : o->max_cycles_set ? "--max-cycles"
                      :  o->duration_ns && serve ? "-d" : o->no_pace ? "--no-pace"
                      : o->interval_count ? "--interval-count" : o->repeat > 1 ? "-r" : NULL;
    if (!bad)
        return 0;
    if (!o->remote)
        fprintf(stderr, "socmon %s: %s is for --remote\n", cmd, bad);
    else if (strcmp(bad, "-r") == 0)
        fprintf(stderr, "socmon %s: -r is for local runs: a remote window cannot be run again\n", cmd);
    else
        fprintf(stderr, "socmon %s: %s is the agent's to choose with --remote (give it to 'socmon agent')\n", cmd, bad);
    return 2;
}

/* The plan of o's run: the agent's stream, or a target sampled here. */
static smn_run_plan plan_of(cli_source *s, const cli_opts *o, cli_how how)
{
    smn_run_plan p = {.source = s->remote, .metric_file = o->metric_file, .totals = how.totals,
                      .should_stop = cli_stop_requested, .on_repeat = how.on_repeat, .usage_error = &s->usage};
    if (s->remote)
        return p;
    p.target = cli_target_want(o);
    p.workload = o->workload;
    p.repeat = o->repeat;
    p.sampling = (smn_sampling){.interval_ns = o->interval_set ? o->interval_ns : 0, .rule = how.rule,
                                .duration_ns = o->duration_ns, .realtime = how.pace ? !o->no_pace : o->realtime,
                                .max_intervals = o->interval_count, .started = how.caller_starts,
                                .until_stopped = how.until_stopped};
    return p;
}

static int opened(cli_source *s, const cli_opts *o, const char *cmd, socmon_status st)
{
    if (st != SOCMON_OK)
        return cli_source_error(s, cmd, st);
    s->info = smn_session_info(s->sess);
    s->ms = smn_session_metricset(s->sess);
    cli_warn_metric_file(cmd, o->metric_file, s->ms, smn_session_metrics(s->sess));
    return 0;
}

int cli_source_open(cli_source *s, const cli_opts *o, const char *cmd, cli_how how)
{
    memset(s, 0, sizeof *s);
    int rc = check_remote_opts(cmd, o);
    if (rc)
        return rc;
    remote_open_opts ro = {.addr = o->remote, .token_file = o->token_file, .events = o->events, .from = o->from,
                           .duration_ns = o->duration_ns, .idle_ns = o->agent_timeout_ns};
    socmon_status st = o->remote ? remote_open(&ro, &s->remote, &s->from) : SOCMON_OK;
    smn_run_plan p = plan_of(s, o, how);
    if (st == SOCMON_OK)
        st = smn_session_open(&p, &s->sess);
    return opened(s, o, cmd, st);
}

int cli_source_error(const cli_source *s, const char *cmd, socmon_status st)
{
    int rc = cli_error(cmd, st);
    return s->usage ? 2 : smn_session_failed_exit(s->sess, rc);
}

/* Opened, not loaded (socmon_recording_open): every view reads the samples from the file a block
 * at a time, so a recording of any length is reported in the memory of a block. */
/* The session over s's recording (closing one made before): its info stays as the file's. */
static socmon_status read_plan(cli_source *s, const char *metric_file, smn_plan_totals totals)
{
    smn_session_close(s->sess);
    s->sess = NULL;
    smn_run_plan p = {.opened = s->rec, .metric_file = metric_file, .totals = totals,
                      .should_stop = cli_stop_requested};
    socmon_status st = smn_session_open(&p, &s->sess);
    s->info = st == SOCMON_OK ? smn_session_info(s->sess) : NULL;
    s->ms = st == SOCMON_OK ? smn_session_metricset(s->sess) : NULL;
    return st;
}

socmon_status cli_source_open_file(cli_source *s, const char *path, const char *metric_file)
{
    memset(s, 0, sizeof *s);
    static const char empty[] = "-i -: stdin is empty (pipe a recording in: socmon report -i - < run.rec)";
    socmon_status st = strcmp(path, "-") == 0 ? smn_recording_read_stream(stdin, "stdin", empty, &s->rec, &s->bytes)
                                              : socmon_recording_open(path, &s->rec);
    return st == SOCMON_OK ? read_plan(s, metric_file, SMN_TOTALS_NEVER) : st;
}

int cli_source_read(cli_source *s, const cli_opts *o, smn_plan_totals totals)
{
    socmon_status st = read_plan(s, o->metric_file, totals);
    if (st != SOCMON_OK)
        return cli_error("report", st);
    cli_warn_metric_file("report", o->metric_file, s->ms, smn_session_metrics(s->sess));
    return 0;
}

void cli_source_say_lost(const cli_source *s, const char *cmd, const char *name)
{
    for (const char *p = s->info->lost, *nl; p && (nl = strchr(p, '\n')); p = nl + 1)
        fprintf(stderr, "socmon %s: %s: %.*s\n", cmd, name, (int)(nl - p), p);
}

void cli_source_close(cli_source *s)
{
    smn_session_close(s->sess);   /* closes the agent's stream too */
    socmon_recording_free(s->rec);
    free(s->bytes);
    memset(s, 0, sizeof *s);
}

int cli_stop_requested(void *user)
{
    (void)user;
    return cli_stop_signal();
}
