/* Shared pieces of the socmon subcommands. */
#ifndef SOCMON_CLI_H
#define SOCMON_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "analysis/target_open.h"
#include "socmon/socmon.h"

#define SOCMON_DEFAULT_TARGET SMN_DEFAULT_TARGET

int cmd_list(int argc, char **argv);
int cmd_read(int argc, char **argv);
int cmd_stat(int argc, char **argv);
int cmd_record(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_diff(int argc, char **argv);
int cmd_check(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_serve(int argc, char **argv);

/* Prints "socmon: <what>: <message>" for a failed status and returns exit code 1. */
int cli_error(const char *what, socmon_status st);
int cli_parse_sep(const char *s, char *sep);

struct cli_opts;
/* What o asks of the target (analysis/target_open.h): -t (several: combined), '-- PROGRAM' or the
 * host's command, -e, -C, -a, --trace-bus, --max-cycles, per-function counters. */
smn_target_want cli_target_want(const struct cli_opts *o);

#endif
