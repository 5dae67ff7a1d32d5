/* socmon report's views of a program's exact profile (report_profile.c). */
#ifndef SOCMON_CLI_REPORT_PROFILE_H
#define SOCMON_CLI_REPORT_PROFILE_H

#include "cli/opts.h"
#include "cli/source.h"

/* The view o->profile_view of src's recording (file: its name for messages); the exit code. */
int cli_report_profile(cli_source *src, const cli_opts *o, const char *file);

#endif
