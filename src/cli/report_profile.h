/* socmon report's views of a program's exact profile (report_profile.c). */
#ifndef SOCMON_CLI_REPORT_PROFILE_H
#define SOCMON_CLI_REPORT_PROFILE_H

#include "cli/opts.h"
#include "cli/source.h"
#include "socmon/profile.h"

/* The view o->profile_view of src's recording (file: its name for messages); the exit code. */
int cli_report_profile(cli_source *src, const cli_opts *o, const char *file);
/* The recording's profile for --html (a flame graph) and --perfetto (function slices): *out NULL
 * when the recording has none, or when it cannot be read (said on stderr: the page or trace is
 * then written without it). Free with socmon_profile_free. */
void cli_report_load_profile(cli_source *src, const char *file, const char *what, socmon_profile **out);

#endif
