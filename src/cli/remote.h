/* record --remote and stat --remote: the host side of `socmon agent` (remote.c, remote_stat.c). */
#ifndef SOCMON_CLI_REMOTE_H
#define SOCMON_CLI_REMOTE_H

#include "agent/collector.h"
#include "cli/opts.h"

/* Connects to o->remote with o->token_file's token; the collector has read the HELLO. With -e
 * it then asks the agent to count those events (CONFIG) and has the new HELLO. */
socmon_status cli_remote_connect(const cli_opts *o, collector **c);
/* With --remote, options that choose what the agent samples are the agent's: 0, or exit code 2
 * after a message naming the option. */
int cli_remote_check_opts(const char *cmd, const cli_opts *o);
/* --agent-timeout in ms for collector_set_idle_timeout: how long an agent may send nothing. */
int cli_remote_idle_ms(const cli_opts *o);
/* The commands' remote paths; each returns the exit code. */
int cli_record_remote(const cli_opts *o);
int cli_stat_remote(const cli_opts *o);

#endif
