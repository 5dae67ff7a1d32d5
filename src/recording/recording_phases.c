/* A recording's workload phases: its attachment "phases" (socmon/phase.h's text form), parsed. */
#include "core/error.h"
#include "socmon/recording.h"

socmon_status socmon_recording_phases(const socmon_recording *rec, socmon_phase **out, size_t *n)
{
    const void *data = NULL;
    size_t len = 0;
    if (!out || !n)
        return socmon_fail(SOCMON_EINVAL, "recording: NULL argument to socmon_recording_phases");
    *out = NULL;
    *n = 0;
    socmon_status st = socmon_recording_attachment(rec, "phases", &data, &len);
    return st == SOCMON_OK ? socmon_phases_parse(data, len, out, n) : st;
}
