/* Stopping a run cleanly on SIGINT or SIGTERM (record and stat).
 *
 * The handler only sets a flag; the sampler callback checks it after each sample and returns
 * cli_stop_status(), which ends the run like any callback failure would, so the command then
 * finishes as usual: record writes its last block and closes the file, stat prints the counts so
 * far, and both exit 128 + the signal (130 for SIGINT, 143 for SIGTERM). The handler is one-shot:
 * a second Ctrl-C kills the process at once (a recording then still reads up to its last block). */
#ifndef SOCMON_CLI_STOP_H
#define SOCMON_CLI_STOP_H

#include "socmon/status.h"

/* Installs the handlers for SIGINT and SIGTERM. */
void cli_stop_install(void);
/* The signal that asked to stop, 0 if none. */
int cli_stop_signal(void);
/* "SIGINT" or "SIGTERM" (or "a signal"). */
const char *cli_stop_name(void);
/* SOCMON_ESTATE with "stopped by SIGINT" (or SIGTERM) as the message: what a sampler callback
 * returns to end the run. */
socmon_status cli_stop_status(void);
/* 128 + the signal: the exit code of a stopped run. */
int cli_stop_exit_code(void);

#endif
