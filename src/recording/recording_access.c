/* What a recording holds, for code outside the library: socmon/recording.h
 * keeps the layout opaque (struct in recording/recording_internal.h) so it can
 * change without breaking programs built against an older socmon. */
#include "recording/recording_internal.h"

const char *socmon_recording_target(const socmon_recording *rec)
{
    return rec->target;
}

const char *socmon_recording_device(const socmon_recording *rec)
{
    return rec->device;
}

uint64_t socmon_recording_interval_ns(const socmon_recording *rec)
{
    return rec->interval_ns;
}

size_t socmon_recording_ncounters(const socmon_recording *rec)
{
    return rec->ncounters;
}

const socmon_counter *socmon_recording_counters(const socmon_recording *rec)
{
    return rec->counters;
}

size_t socmon_recording_nparams(const socmon_recording *rec)
{
    return rec->nparams;
}

const char *const *socmon_recording_param_names(const socmon_recording *rec)
{
    return (const char *const *)rec->param_names;
}

const double *socmon_recording_param_values(const socmon_recording *rec)
{
    return rec->param_values;
}

socmon_timeline *socmon_recording_timeline(socmon_recording *rec)
{
    return rec->tl;
}
