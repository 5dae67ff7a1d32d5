/* What stat, record and serve read from (and report, a file): one source, opened from the
 * options: a target sampled here, an agent's stream (--remote HOST:PORT), or a recording (-i).
 * The commands past this point never ask which (socmon/analysis.h). */
#ifndef SOCMON_CLI_OPEN_SOURCE_H
#define SOCMON_CLI_OPEN_SOURCE_H

#include "cli/opts.h"
#include "socmon/analysis.h"

typedef enum cli_interval_rule {
    CLI_INTERVAL_TARGET,    /* -I, else the target's default (record, serve) */
    CLI_INTERVAL_STAT       /* -I, else the longest no counter can wrap twice in (stat) */
} cli_interval_rule;

typedef struct cli_source {
    cli_session sess;          /* a target sampled here (else zero) */
    socmon_recording *rec;     /* a recording read (report), opened: its samples stay in the file */
    void *bytes;               /* -i -: stdin's bytes, which the opened recording reads from */
    socmon_source *src;
    const socmon_source_info *info;
    socmon_metricset *ms;      /* the source's target's metrics, or --metric-file's; NULL: none */
    int remote;
    int from;                  /* --remote: where the stream starts, CLI_FROM_NOW or CLI_FROM_OLDEST */
} cli_source;

/* Opens o's source for command cmd: --remote's agent (its HELLO read, -e sent as CONFIG), or the
 * local target (started here, unless `start` is 0: the caller starts it) sampled by `rule`,
 * paced to the wall clock when `pace`. Options that are the agent's to choose are refused with
 * --remote (exit code 2 in *rc). On failure the message is printed and *rc set. */
int cli_source_open(cli_source *s, const cli_opts *o, const char *cmd, cli_interval_rule rule, int pace, int start);
/* A recording file (report -i; "-": stdin). */
socmon_status cli_source_open_file(cli_source *s, const char *path, const char *metric_file);
/* The same local source again for another run (stat -r): the target reopened from scratch. */
socmon_status cli_source_reopen(cli_source *s, const cli_opts *o, cli_interval_rule rule, int pace);
void cli_source_close(cli_source *s);
/* The lines on stderr saying what of its run the source lost (socmon_source_info.lost), each
 * "socmon <cmd>: <name>: ...": the rows that follow are real, but not the whole run. */
void cli_source_say_lost(const cli_source *s, const char *cmd, const char *name);

/* A pipeline over s with its metrics, stopped by SIGINT/SIGTERM (cli/stop.h); with
 * --metric-file, a file none of whose metrics the counters give is warned about. */
socmon_status cli_pipeline_new(const cli_source *s, const cli_opts *o, const char *cmd, socmon_pipeline **p);

/* A pipeline's should_stop: SIGINT or SIGTERM came (cli/stop.h). */
int cli_stop_requested(void *user);
/* --agent-timeout in ms: how long an agent may send nothing. */
int cli_remote_idle_ms(const cli_opts *o);

#endif
