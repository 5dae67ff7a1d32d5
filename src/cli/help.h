/* The commands' --help: their texts are docs/help/CMD.txt and the options' lines
 * docs/help/options.txt, compiled in (cmake/embed_help.cmake), so a help text is read and
 * edited as the text it prints. */
#ifndef SOCMON_CLI_HELP_H
#define SOCMON_CLI_HELP_H

#include <stdio.h>

/* The text of docs/help/NAME.txt, or NULL (generated/cli_help.c). */
const char *cli_help_file(const char *name);
/* Writes text with the build's values for @SOCMON_DEFAULT_TARGET@, @NET_DEFAULT_PORT@ and
 * @SERVE_DEFAULT_PORT@. */
void cli_help_write(FILE *fp, const char *text, size_t len);
/* The --help lines of the option whose key (its table entry's bits and long name, as
 * options.txt heads it: "OPT_TARGET target") is key, or NULL; *len gets their length. */
const char *cli_help_option(const char *key, size_t *len);
/* docs/help/CMD.txt, the command's usage and what it does. */
void cli_help_intro(FILE *fp, const char *cmd);

#endif
