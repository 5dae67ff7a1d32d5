/* What is said after a Perfetto trace is written (report --perfetto): where it went, its
 * intervals and tracks, that a long recording's intervals were merged so the trace opens
 * (smn_perfetto_merge), and that the profile dropped slices past those it kept. */
#ifndef SOCMON_EXPORT_PERFETTO_NOTES_H
#define SOCMON_EXPORT_PERFETTO_NOTES_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/profile.h"

/* Each line to say (samples: the recording's; prof may be NULL; big: grouped digits). */
void smn_perfetto_notes(const char *path, uint64_t samples, size_t ncounters, size_t nmetrics,
                        const socmon_profile *prof, int big, void (*say)(void *user, const char *line), void *user);

#endif
