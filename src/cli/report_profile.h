/* socmon report's views of a program's exact profile (report_profile.c). */
#ifndef SOCMON_CLI_REPORT_PROFILE_H
#define SOCMON_CLI_REPORT_PROFILE_H

#include "cli/opts.h"
#include "cli/open_source.h"
#include "socmon/phase.h"
#include "socmon/profile.h"

/* The view o->profile_view of src's recording, p its profile (cli_report_load_profile; NULL:
 * none, said here); file: its name for messages. The exit code. */
int cli_report_profile(cli_source *src, const cli_opts *o, const char *file, const socmon_profile *p);
/* The recording's profile, read once per report for every view that uses it (the note on
 * counters the program stopped, --summary, --html's flame graph, --perfetto's slices, the
 * profile's views): *out NULL when the recording has none, or when it cannot be read (said on
 * stderr: the report goes on without it). Free with socmon_profile_free. */
void cli_report_load_profile(cli_source *src, const char *file, socmon_profile **out);

/* The recording's workload phases (its attachment "phases") for the timeline's phase column,
 * slices and bands: none (*n 0) from a recording without them; SOCMON_EINVAL naming the
 * problem from one whose attachment does not parse. *out is the caller's to free. */
socmon_status cli_report_phases(cli_source *src, socmon_phase **out, size_t *n);

#endif
