/* What socmon diff and socmon check share: the two runs of the command line, paired. */
#ifndef SOCMON_CLI_RUN_PAIR_H
#define SOCMON_CLI_RUN_PAIR_H

#include "cli/opts.h"
#include "cli/print.h"
#include "results/run_pair.h"

typedef smn_run_pair cli_compare;
#define cli_compare_close smn_run_pair_close

/* Checks there are two files, reads them (--metric-file) and pairs them (-e, -M,
 * --only-changed). Returns 0, or 2 after a message "socmon CMD: ..." naming the bad input. */
int cli_compare_open(cli_compare *c, const cli_opts *o, const char *cmd, void (*help)(FILE *));
/* Writes a document (diff or check) in `format` (NULL: the options') to path (NULL: stdout),
 * whole or not at all. Returns the exit code (0, or 1 after the message). */
int cli_compare_write(const cli_opts *o, const char *cmd, const char *format, const char *path,
                      const socmon_diff *d, const socmon_check *k);

#endif
