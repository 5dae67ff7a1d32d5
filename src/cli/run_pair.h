/* What socmon diff and socmon check share: the two runs of the command line, paired. */
#ifndef SOCMON_CLI_RUN_PAIR_H
#define SOCMON_CLI_RUN_PAIR_H

#include "cli/opts.h"
#include "cli/print.h"
#include "socmon/compare.h"

typedef struct cli_compare {
    socmon_run *a, *b;
    socmon_diff *d;
    char *ebuf, *mbuf;           /* -e and -M split into globs */
} cli_compare;

/* Checks there are two files, reads them (--metric-file) and pairs them (-e, -M,
 * --only-changed). Returns 0, or 2 after a message "socmon CMD: ..." naming the bad input. */
int cli_compare_open(cli_compare *c, const cli_opts *o, const char *cmd, void (*help)(FILE *));
void cli_compare_close(cli_compare *c);
/* Writes a document (diff or check) in `format` (NULL: the options') to path (NULL: stdout),
 * whole or not at all. Returns the exit code (0, or 1 after the message). */
int cli_compare_write(const cli_opts *o, const char *cmd, const char *format, const char *path,
                      const socmon_diff *d, const socmon_check *k);

#endif
