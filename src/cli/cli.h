/* Shared pieces of the socmon subcommands. */
#ifndef SOCMON_CLI_H
#define SOCMON_CLI_H

#include <stdint.h>
#include <stdio.h>
#include "analysis/target_open.h"
#include "socmon/socmon.h"

#define SOCMON_DEFAULT_TARGET SMN_DEFAULT_TARGET

/* What a command sampling a target here opens: the target and a counter set (its metrics go with
 * the source, cli/open_source.h). */
typedef struct cli_session {
    socmon_target *target;
    socmon_set *set;
    socmon_counter *schema;    /* the set's counters, contiguous, for binding */
    const char **names;        /* the set's full counter names */
} cli_session;

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
/* "200us", "1.5ms", "2s", "100ns"; a bare number means milliseconds (like perf -I). */
int cli_parse_duration(const char *s, uint64_t *ns);
int cli_parse_sep(const char *s, char *sep);

/* Opens o's target (-t) with the options the command line adds to its spec: trace_bus=FILE
 * (--trace-bus, passed as it is, so any file name works), program=PATH ('-- PATH'),
 * max_cycles=N (--max-cycles) and symbols=1 (o->symbols, if the target has per-function
 * counters and the spec does not say). A program or a cycle limit for a target that takes none
 * is an error naming it. Then selects o's events (-e). */
struct cli_opts;
/* What o asks of the target (analysis/target_open.h): -t (several: combined), '-- PROGRAM' or the
 * host's command, -e, -C, -a, --trace-bus, --max-cycles, per-function counters. */
smn_target_want cli_target_want(const struct cli_opts *o);
socmon_status cli_session_open(cli_session *cs, const struct cli_opts *o);
void cli_session_close(cli_session *cs);

#endif
