/* What stat, record and serve read from (and report, a file): a run plan (analysis/session.h)
 * made from the options, and the session that runs it: a target sampled here, an agent's stream
 * (--remote HOST:PORT), or a recording (-i). The commands past this point never ask which. */
#ifndef SOCMON_CLI_OPEN_SOURCE_H
#define SOCMON_CLI_OPEN_SOURCE_H

#include "analysis/session.h"
#include "cli/opts.h"

typedef struct cli_source {
    smn_session *sess;
    socmon_recording *rec;     /* a recording read (report), opened: its samples stay in the file */
    void *bytes;               /* -i -: stdin's bytes, which the opened recording reads from */
    socmon_source *remote;     /* --remote: the agent's stream (the session's, closed with it) */
    const socmon_source_info *info;
    const socmon_metricset *ms; /* the source's target's metrics, or --metric-file's; NULL: none */
    int from;                  /* --remote: where the stream starts, CLI_FROM_NOW or CLI_FROM_OLDEST */
    int usage;                 /* the session found the request at fault: exit status 2 */
} cli_source;

/* How a command runs its source: the default interval's rule, paced to the wall clock (unless
 * --no-pace), started by the caller (smn_session_start) rather than by the run, running until
 * stopped (so hardware needs no -d), whether the consumers get totals at the end, and what to
 * say between repeats. */
typedef struct cli_how {
    smn_step_rule rule;
    int pace, caller_starts, until_stopped;
    smn_plan_totals totals;
    void (*on_repeat)(void *user, unsigned run, const smn_session_end *e);
} cli_how;

/* Opens o's source for command cmd: --remote's agent (its HELLO read, -e sent as CONFIG), or the
 * local target run as `how` says. Options that are
 * the agent's to choose are refused with --remote (exit code 2). On failure the message is
 * printed and the exit code returned, else 0. */
int cli_source_open(cli_source *s, const cli_opts *o, const char *cmd, cli_how how);
/* A recording file (report -i; "-": stdin) and a session over it (info, metric set). */
socmon_status cli_source_open_file(cli_source *s, const char *path, const char *metric_file);
/* A fresh session over the opened file for one view, its consumers getting totals or not; 0, or
 * the exit code after a message. */
int cli_source_read(cli_source *s, const cli_opts *o, smn_plan_totals totals);
void cli_source_close(cli_source *s);
/* The lines on stderr saying what of its run the source lost (socmon_source_info.lost), each
 * "socmon <cmd>: <name>: ...": the rows that follow are real, but not the whole run. */
void cli_source_say_lost(const cli_source *s, const char *cmd, const char *name);
/* A failed run's exit code: 2 for a request at fault, 127/126 for a command that could not be
 * run, else 1, after the message. */
int cli_source_error(const cli_source *s, const char *cmd, socmon_status st);

/* A pipeline's should_stop: SIGINT or SIGTERM came (cli/stop.h). */
int cli_stop_requested(void *user);

#endif
