/* Sources (socmon/analysis.h): the generic handle, and the metrics that go with a source's
 * target. The implementations: source_target.c, source_recording.c, source_regions.c, and the
 * agent's stream (agent/collector_source.c). */
#include <stdlib.h>
#include <string.h>

#include "analysis/pipeline_internal.h"
#include "analysis/source_internal.h"
#include "core/error.h"

struct socmon_source {
    socmon_source_ops ops;
    void *self;
    const socmon_source_info *info;
};

socmon_status socmon_source_new(const socmon_source_ops *ops, void *self, const socmon_source_info *info,
                                socmon_source **out)
{
    if (!ops || !ops->run || !info || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_source_new: NULL argument");
    socmon_status st = smn_check_size("socmon_source_ops", ops->size, sizeof *ops);
    if (st != SOCMON_OK)
        return st;
    socmon_source *s = calloc(1, sizeof *s);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "source: out of memory");
    s->ops = *ops;
    s->self = self;
    s->info = info;
    *out = s;
    return SOCMON_OK;
}

const socmon_source_info *socmon_source_info_of(const socmon_source *s)
{
    return s ? s->info : NULL;
}

void *socmon_source_self(const socmon_source *s)
{
    return s ? s->self : NULL;
}

void socmon_source_close(socmon_source *s)
{
    if (!s)
        return;
    if (s->ops.close)
        s->ops.close(s->self);
    free(s);
}

socmon_status smn_source_run(socmon_source *s, socmon_pipeline *p)
{
    return s->ops.run(s->self, p);
}

const char *smn_source_end_reason(const socmon_source *s)
{
    return s->info->end_reason && *s->info->end_reason ? s->info->end_reason : NULL;
}

socmon_status socmon_source_metricset(const socmon_source_info *info, const char *metric_file,
                                      socmon_metricset **out)
{
    if (!info || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_source_metricset: NULL argument");
    *out = NULL;
    if (metric_file)
        return socmon_metricset_load_file(metric_file, out);
    socmon_status st = socmon_metrics_for_target(info->ops, info->target, out);
    if (st == SOCMON_ENOENT)
        socmon_clear_error();   /* counters only */
    return st == SOCMON_ENOENT ? SOCMON_OK : st;
}

