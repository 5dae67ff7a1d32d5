/* report's notes and --stats about the recording file (report_file.c). */
#ifndef SOCMON_CLI_REPORT_FILE_H
#define SOCMON_CLI_REPORT_FILE_H

#include "cli/opts.h"
#include "socmon/recording.h"

/* Lines on stderr when the recording was damaged, cut short or has gaps: the rows that follow
 * are real, but not the whole run. Nothing for a complete recording. */
void report_loss_note(socmon_recording *rec, const char *path);
/* --stats: what the file holds, in the options' format (table, -x CSV, --json). Returns the
 * exit code. */
int report_print_stats(socmon_recording *rec, const cli_opts *o, const char *path);

#endif
