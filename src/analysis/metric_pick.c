/* Picking and checking the metrics shown (metric_pick.h). */
#define _GNU_SOURCE
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/metric_pick.h"

/* 1 if name matches one of the comma-separated globs; the list may be of any length. */
static int matches_any(const char *name, const char *patterns)
{
    char *buf = strdup(patterns);
    int hit = 0;
    char *save = NULL;
    for (char *p = buf ? strtok_r(buf, ",", &save) : NULL; p && !hit; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ')
            p++;
        hit = *p && fnmatch(p, name, 0) == 0;
    }
    free(buf);
    return hit;
}

size_t smn_metrics_pick(const socmon_metrics *m, const char *patterns, size_t *out, size_t max)
{
    size_t k = 0;
    for (size_t i = 0; m && i < socmon_metrics_nresults(m) && k < max; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        if (patterns ? matches_any(r->def->name, patterns) : !*r->instance)
            out[k++] = i;
    }
    return k;
}

socmon_status smn_metrics_check_patterns(const socmon_metricset *ms, const socmon_metrics *m, const char *patterns,
                                         const char *lacking, void (*say)(void *user, const char *line), void *user)
{
    char *buf = strdup(patterns), line[1024];
    if (!buf)
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    socmon_status st = SOCMON_OK;
    char *save = NULL;
    for (char *p = strtok_r(buf, ",", &save); p; p = strtok_r(NULL, ",", &save)) {
        while (*p == ' ')
            p++;
        int shown = 0;
        for (size_t i = 0; m && i < socmon_metrics_nresults(m) && !shown; i++)
            shown = fnmatch(p, socmon_metrics_result(m, i)->def->name, 0) == 0;
        if (shown)
            continue;
        /* No result: either no such metric, or one the counters at hand cannot compute. */
        size_t nm = ms ? socmon_metricset_count(ms) : 0, j = 0;
        while (j < nm && fnmatch(p, socmon_metricset_def(ms, j)->name, 0) != 0)
            j++;
        const char *why = j < nm && m ? socmon_metrics_skipped(m, j) : NULL;
        if (j == nm)
            snprintf(line, sizeof line, "-M '%s' matches no metric (see 'socmon list metrics'%s)", p,
                     ms ? "" : "; this target has none");
        else
            snprintf(line, sizeof line, "-M '%s' matches metric %s, which needs counters %s: %s", p,
                     socmon_metricset_def(ms, j)->name, lacking, why ? why : "none of its counters are there");
        say(user, line);
        st = socmon_fail(SOCMON_EINVAL, "%s", line);
        break;   /* as before: the first glob that gives nothing is the one said */
    }
    free(buf);
    return st;
}

int smn_metric_file_unused(const char *path, const socmon_metricset *ms, const socmon_metrics *m, char *buf,
                           size_t len)
{
    size_t nm = ms ? socmon_metricset_count(ms) : 0;
    if (!path || (m && socmon_metrics_nresults(m) > 0))
        return 0;
    if (nm == 0) {
        snprintf(buf, len, "warning: %s defines no metrics", path);
        return 1;
    }
    const char *why = m ? socmon_metrics_skipped(m, 0) : NULL;
    snprintf(buf, len, "warning: none of the %zu metric%s in %s can be computed from these counters (a file for "
             "another target?); the first, %s: %s", nm, nm == 1 ? "" : "s", path, socmon_metricset_def(ms, 0)->name,
             why ? why : "none of its counters are there");
    return 1;
}
