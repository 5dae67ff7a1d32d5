/* A program run by a target (ibex) or a command run by the host: its output and its exit status,
 * as the session says how it ended (analysis/session.h, smn_session_exit). */
#ifndef SOCMON_CLI_PROGRAM_H
#define SOCMON_CLI_PROGRAM_H

#include "analysis/session.h"

/* A program's console byte to stdout as the model produces it (socmon's own results then go to
 * stderr or -o FILE, as perf stat does); a line is flushed whole. */
void cli_program_to_stdout(void *ctx, uint8_t byte);
/* The exit status for how the program ended (e), with a line on stderr when it ended badly
 * (trapped, over its cycle limit, hung, killed by a signal). */
int cli_program_exit(const char *cmd, const smn_session_end *e);

#endif
