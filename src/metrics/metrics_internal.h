/* Internal: a loaded metric set, shared by the file loader and the binder. */
#ifndef SOCMON_METRICS_INTERNAL_H
#define SOCMON_METRICS_INTERNAL_H

#include "socmon/metrics.h"
#include "core/strmap.h"
#include "metrics/expr.h"

typedef struct metric {
    socmon_metric_def def;   /* its strings point at the owned copies below */
    char *name, *unit, *desc, *expr;
    char **labels;
    expr_tree tree;
    int absent;              /* "absent" of the metric itself: 1 undefined, 0 skip, -1 the file's */
} metric;

struct socmon_metricset {
    size_t n, cap;
    metric *m;
    /* "absent": "undefined" in the file: a name the schema lacks binds to NaN
     * instead of skipping the metric (docs/metrics.md). */
    int absent_undefined;
    /* name -> index in m: duplicates are refused and the binder finds earlier
     * metrics in O(1), so a file of 300,000 metrics loads in a second, not in
     * hours. Its keys are the metrics' own name strings. */
    smn_strmap names;
};

/* Appends a metric whose expression is parsed already (takes ownership of
 * every string and of tree, also on failure); its name must not be in the set
 * yet (SOCMON_EPARSE). Used by the file loader and by socmon_expr_eval. */
socmon_status smn_metricset_add(socmon_metricset *ms, metric *m);

/* The expression a metric with "undefined_below" evaluates: expr guarded by the
 * object's minimums (metric_guard.c). where prefixes errors ("file: metric 'x': "). */
struct json_t;
socmon_status smn_metric_guard_expr(const char *where, struct json_t *guard, const char *expr, char **out);
/* The expression a metric with "range": [lo, hi] evaluates: expr where it lies in lo..hi, else
 * undefined (metric_guard.c). */
socmon_status smn_metric_range_expr(const char *where, struct json_t *range, const char *expr, char **out);

#endif
