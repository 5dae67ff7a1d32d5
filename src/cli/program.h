/* A program run by a target (ibex): its output and its exit status (program.c). */
#ifndef SOCMON_CLI_PROGRAM_H
#define SOCMON_CLI_PROGRAM_H

#include "cli/cli.h"

enum { CLI_EXIT_TRAPPED = 3, CLI_EXIT_LIMIT = 4, CLI_EXIT_HANG = 5 };

/* Sends the program's output of cs's target (if it runs one) to stdout as it is produced. */
void cli_program_attach(cli_session *cs);
/* The exit status for how the program ended, with a line on stderr unless it halted. */
int cli_program_exit(const cli_session *cs, const char *cmd);

/* rc, or 127 / 126 when the host's command could not be run (not found / not executable),
 * as a shell reports it. */
int cli_program_failed(const cli_session *cs, int rc);

#endif
