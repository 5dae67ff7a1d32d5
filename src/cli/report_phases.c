/* report: the recording's workload phases, read once per document. */
#include "cli/report_profile.h"

socmon_status cli_report_phases(cli_source *src, socmon_phase **out, size_t *n)
{
    *out = NULL;
    *n = 0;
    if (!src->rec)
        return SOCMON_OK;
    socmon_status st = socmon_recording_phases(src->rec, out, n);
    if (st == SOCMON_ENOENT) {   /* a recording from before phases, or of a target without them */
        socmon_clear_error();
        return SOCMON_OK;
    }
    return st;
}
