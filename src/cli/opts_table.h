/* Internal to the CLI's option parser (opts.c): the options every subcommand may take, each
 * with the commands' mask bits that take it and the key of its --help lines (opts_table.c), and the
 * getopt values of the long-only ones. */
#ifndef SOCMON_CLI_OPTS_TABLE_H
#define SOCMON_CLI_OPTS_TABLE_H

#include <getopt.h>
#include <stddef.h>

#include "cli/opts.h"

/* Long-only options whose getopt value is no character (above 'z': no short form). */
enum { OPT_LONG_PROMETHEUS = 0x7101, OPT_LONG_OPENMETRICS, OPT_LONG_PARQUET };
enum { OPT_LONG_FINDINGS = 0x7110 };
/* socmon agent's own long-only options */
enum { OPT_LONG_LISTEN = 0x190, OPT_LONG_ALLOW_CONFIG, OPT_LONG_RING, OPT_LONG_MAX_CLIENTS, OPT_LONG_WAIT_COLLECTOR,
       OPT_LONG_EXIT_DRAINED, OPT_LONG_USER, OPT_LONG_HTTP_PORT_FILE, OPT_LONG_WIRE_VERSION };
/* socmon diff's and check's */
enum { OPT_LONG_ONLY_CHANGED = 0x1a0, OPT_LONG_RULES, OPT_LONG_JUNIT, OPT_LONG_MARKDOWN, OPT_LONG_UPDATE };
enum { OPT_LONG_RW = 0x1d0, OPT_LONG_RW_TOKEN, OPT_LONG_RW_PUSH, OPT_LONG_RW_QUEUE };   /* --remote-write's */

typedef struct cli_opt_entry {
    cli_optmask bit;    /* the option is taken by a command whose mask has any of these bits */
    struct option lo;
    const char *key;    /* its --help lines' heading in docs/help/options.txt: "BITS name" */
} cli_opt_entry;

/* The parser's getopt arrays are sized by this (opts_table.c checks the table fits). */
#define CLI_MAX_OPTS 160
extern const cli_opt_entry cli_opt_table[];
extern const size_t cli_nopts;

#endif
