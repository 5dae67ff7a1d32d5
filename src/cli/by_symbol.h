/* report --by-symbol (by_symbol.c). */
#ifndef SOCMON_CLI_BY_SYMBOL_H
#define SOCMON_CLI_BY_SYMBOL_H

#include "cli/opts.h"
#include "export/sink.h"

/* Prints the per-function table of counters c[0..n) whose totals over the recording are acc[];
 * *mismatch = 1 if the functions' total differs from the whole-program counters. */
socmon_status cli_by_symbol_print(socmon_sink *s, const cli_opts *o, const socmon_counter *c, size_t n,
                                  const uint64_t *acc, int *mismatch);

#endif
