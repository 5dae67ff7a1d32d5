/* Derived metrics, defined as data.
 *
 * A metric file (JSON, see docs/metrics.md) lists metrics, each an expression
 * over counter deltas, the interval length and device parameters:
 *
 *   {"metrics": [
 *     {"name": "l2_hit_rate", "unit": "%", "per": "instance",
 *      "expr": "100 * l2_hits / (l2_hits + l2_misses)",
 *      "desc": "L2 hits per L2 access"}]}
 *
 * Identifiers resolve, in order, to: an earlier metric of the file; a counter
 * (in a per-instance metric, the counter of that instance; elsewhere the sum
 * over all instances, or one instance as "tile2.l2_hits"); a device parameter;
 * the built-in `interval_s`. Operators: + - * / % unary -, comparisons,
 * && || !, c ? a : b. Functions: min, max, abs, sqrt, sum(x) and avg(x) over
 * instances, count(x) (instances having counter x), argmax(a, b, ...) (index
 * of the first largest: ties go to the earliest argument); min(x) and max(x)
 * with one argument are over instances. Division by zero
 * gives NaN, which outputs show as "-".
 *
 * Binding a metric set to a schema resolves every name once; evaluation per
 * interval is then a walk over compiled code with no lookups. */
#ifndef SOCMON_METRICS_H
#define SOCMON_METRICS_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/device.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_metricset socmon_metricset;
typedef struct socmon_metrics socmon_metrics;   /* a metric set bound to a schema */

typedef struct socmon_metric_def {
    const char *name;
    const char *unit;
    const char *desc;
    const char *expr;
    int per_instance;           /* "per": "instance" */
    size_t nlabels;             /* "labels": [...] names values 0..nlabels-1 */
    const char *const *labels;
    int precision;              /* "precision": decimals people see (0..9); -1: from the unit */
} socmon_metric_def;

/* Parses a metric file. Errors name the file, line and column, and the metric. */
socmon_status socmon_metricset_load_file(const char *path, socmon_metricset **out);
/* srcname is used in error messages only. */
socmon_status socmon_metricset_load_string(const char *text, const char *srcname,
                                           socmon_metricset **out);
void socmon_metricset_free(socmon_metricset *ms);
size_t socmon_metricset_count(const socmon_metricset *ms);
const socmon_metric_def *socmon_metricset_def(const socmon_metricset *ms, size_t i);

/* Schema a metric set is bound to: the counters whose deltas will be given,
 * and named numeric parameters. */
typedef struct socmon_metric_schema {
    size_t ncounters;
    const socmon_counter *counters;
    size_t nparams;
    const char *const *param_names;
    const double *param_values;
    size_t size;            /* sizeof(socmon_metric_schema) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_metric_schema;

/* Metrics whose counters are absent from the schema are skipped, not errors
 * (a MANY read may hold only some counters): socmon_metrics_nresults tells
 * what remains and socmon_metrics_skipped why a metric gave nothing. Any name
 * that is not a counter, parameter, earlier metric or interval_s counts as an
 * absent counter: the schema cannot tell a typo from a counter this read lacks.
 * Errors (SOCMON_EPARSE) are the file's own faults, caught at load: syntax,
 * unknown function, wrong argument count, duplicate or malformed metric name;
 * and at bind, a metric using itself or a later metric. ms must outlive m. */
socmon_status socmon_metrics_bind(const socmon_metricset *ms, const socmon_metric_schema *schema,
                                  socmon_metrics **out);
void socmon_metrics_free(socmon_metrics *m);
/* Why metric i of the set (as in socmon_metricset_def) has no results, e.g.
 * "'l3_misses' is not a counter, parameter or earlier metric of this schema";
 * NULL if it has results. */
const char *socmon_metrics_skipped(const socmon_metrics *m, size_t i);

typedef struct socmon_metric_result_info {
    const socmon_metric_def *def;
    const char *instance;       /* "" for a device-wide metric */
    int absent;                 /* 1: it reads a name the schema lacks (a file with "absent":
                                   "undefined"), itself or through an earlier metric: undefined in
                                   every interval unless max/argmax chose among the other names */
} socmon_metric_result_info;

size_t socmon_metrics_nresults(const socmon_metrics *m);
const socmon_metric_result_info *socmon_metrics_result(const socmon_metrics *m, size_t i);
/* Evaluates every result for one interval: deltas[] in schema counter order. */
socmon_status socmon_metrics_eval(socmon_metrics *m, const uint64_t *deltas, double interval_s,
                                  double *out);

/* One-off evaluation of a single expression (used by tests and the CLI's --expr). */
socmon_status socmon_expr_eval(const char *expr, const socmon_metric_schema *schema,
                               const uint64_t *deltas, double interval_s, double *out);

SOCMON_END_DECLS
#endif
