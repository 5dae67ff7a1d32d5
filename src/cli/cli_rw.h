/* --remote-write on the command line (agent, record, serve): the options into the writer
 * (serve/remote_write.h), and its summary at the end. Each command calls these in a line or two,
 * so the commands keep their own shape. */
#ifndef SOCMON_CLI_CLI_RW_H
#define SOCMON_CLI_CLI_RW_H

#include "analysis/session.h"
#include "cli/opts.h"
#include "serve/remote_write.h"

/* The writer of o->rw (NULL in *out without --remote-write). Returns 0, or the exit code after
 * saying what is wrong: 2 for a bad URL or an option of --remote-write without it, 1 for a
 * token file that cannot be read. */
int cli_rw_open(const cli_opts *o, const char *cmd, smn_rw **out);
/* Adds the writer (if any) to the run as one more consumer. */
socmon_status cli_rw_add(smn_rw *rw, smn_session *s);
/* The end: the queue's last points go out (for up to 5 s), the summary goes to `to`, and the
 * writer is freed. NULL is fine. */
void cli_rw_close(smn_rw *rw, const char *cmd, FILE *to);

#endif
