/* Which of a run's metric results a person is shown, and what to say when a choice gives none:
 * -M's globs checked against the bound metrics, and a metric file none of whose metrics the
 * counters at hand can compute. The lines are the caller's to write. */
#ifndef SOCMON_ANALYSIS_METRIC_PICK_H
#define SOCMON_ANALYSIS_METRIC_PICK_H

#include <stddef.h>
#include "socmon/metrics.h"

/* The results whose name matches one of patterns (comma-separated globs), or with no patterns
 * the first `max` device-wide ones: their indexes into out (at most max), how many. */
size_t smn_metrics_pick(const socmon_metrics *m, const char *patterns, size_t *out, size_t max);
/* Each glob of patterns that gives no result of m (bound from ms) is said: "-M 'P' matches no
 * metric ...", or for a metric the counters cannot compute "-M 'P' matches metric X, which needs
 * counters <lacking>: <why>". SOCMON_OK if every glob gave one, else SOCMON_EINVAL (message set
 * to the last line). */
socmon_status smn_metrics_check_patterns(const socmon_metricset *ms, const socmon_metrics *m, const char *patterns,
                                         const char *lacking, void (*say)(void *user, const char *line),
                                         void *user);
/* A metric file (path) of which m computes nothing: 1 and the warning naming it and why its
 * first metric gave nothing, else 0. */
int smn_metric_file_unused(const char *path, const socmon_metricset *ms, const socmon_metrics *m, char *buf,
                           size_t len);

#endif
