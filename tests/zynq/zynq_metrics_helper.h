/* Test helper: the built-in "zynq" metric file bound to a counter set. */
#ifndef TESTS_ZYNQ_METRICS_HELPER_H
#define TESTS_ZYNQ_METRICS_HELPER_H

#include <stdlib.h>
#include <string.h>

#include "socmon/socmon.h"

typedef struct zm {
    socmon_metricset *ms;
    socmon_metrics *m;
    socmon_counter *counters;
    const char **pnames;
    double *pvals;
    double *out;
} zm;

static inline socmon_status zm_bind(zm *z, socmon_set *set)
{
    memset(z, 0, sizeof *z);
    socmon_device *dev = socmon_set_device(set);
    size_t n = socmon_set_size(set), np = socmon_device_nparams(dev);
    socmon_status st = socmon_metricset_load_string(socmon_builtin_metrics("zynq"), "zynq.json",
                                                    &z->ms);
    if (st)
        return st;
    z->counters = calloc(n ? n : 1, sizeof *z->counters);
    z->pnames = calloc(np ? np : 1, sizeof *z->pnames);
    z->pvals = calloc(np ? np : 1, sizeof *z->pvals);
    for (size_t i = 0; i < n; i++)
        z->counters[i] = *socmon_set_counter(set, i);
    for (size_t i = 0; i < np; i++)
        socmon_device_param_at(dev, i, &z->pnames[i], &z->pvals[i]);
    socmon_metric_schema sc = {.ncounters = n, .counters = z->counters, .nparams = np,
        .param_names = z->pnames, .param_values = z->pvals};
    if ((st = socmon_metrics_bind(z->ms, &sc, &z->m)) != SOCMON_OK)
        return st;
    z->out = calloc(socmon_metrics_nresults(z->m) + 1, sizeof *z->out);
    return SOCMON_OK;
}

/* Index of metric `name` for `instance` ("" for device-wide), or -1. */
static inline int zm_find(const zm *z, const char *name, const char *instance)
{
    for (size_t i = 0; i < socmon_metrics_nresults(z->m); i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(z->m, i);
        if (!strcmp(r->def->name, name) && !strcmp(r->instance, instance))
            return (int)i;
    }
    return -1;
}

static inline void zm_free(zm *z)
{
    socmon_metrics_free(z->m);
    socmon_metricset_free(z->ms);
    free(z->counters);
    free(z->pnames);
    free(z->pvals);
    free(z->out);
}

#endif
