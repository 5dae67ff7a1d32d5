/* "undefined_below" and "range": guards compiled into a metric's expression.
 *
 * "undefined_below": the smallest values a metric's inputs must reach in an
 * interval for its result to mean something.
 *
 * A zero denominator already gives NaN, but some averages are wrong before the
 * denominator reaches zero: an APM interval that saw one transaction's address
 * and none of its completion counts 1 transaction and 0 latency cycles, and
 * 0 / 1 reads as a 0 ns latency (docs/zynq.md: transactions count at the
 * address, latency at completion). The guard turns such an interval into NaN,
 * which every output already shows as undefined (docs/metrics.md). It is
 * compiled into the metric's expression as `(g1 >= k1 && ...) ? (expr) : 0/0`,
 * so binding and evaluation need nothing new. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/error.h"
#include "metrics/metrics_internal.h"

socmon_status smn_metric_guard_expr(const char *where, json_t *guard, const char *expr, char **out)
{
    *out = NULL;
    if (!json_is_object(guard) || json_object_size(guard) == 0)
        return socmon_fail(SOCMON_EPARSE, "%s\"undefined_below\" must be a non-empty object "
                           "{\"expression\": minimum, ...}", where);
    size_t cap = strlen(expr) + 32, len = 0;
    const char *key;
    json_t *val;
    json_object_foreach(guard, key, val)
        cap += strlen(key) + 48;
    char *s = malloc(cap);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
    len += (size_t)snprintf(s + len, cap - len, "(");
    int first = 1;
    json_object_foreach(guard, key, val) {
        double k = json_is_number(val) ? json_number_value(val) : NAN;
        if (!isfinite(k)) {
            free(s);
            return socmon_fail(SOCMON_EPARSE, "%s\"undefined_below\": the minimum of '%s' must be "
                               "a finite number", where, key);
        }
        if (!*key) {
            free(s);
            return socmon_fail(SOCMON_EPARSE, "%s\"undefined_below\": empty expression", where);
        }
        len += (size_t)snprintf(s + len, cap - len, "%s(%s) >= %.17g", first ? "" : " && ", key, k);
        first = 0;
    }
    snprintf(s + len, cap - len, ") ? (%s) : 0/0", expr);
    *out = s;
    return SOCMON_OK;
}

/* "range": [lo, hi], the values a metric can take (a share of cycles is 0..100 %). A value outside
 * it is no measurement of that quantity, whatever the counters did (a counter the program
 * inhibited, zeroed or wrote while the others ran on), so it is undefined rather than shown:
 * `((expr) >= lo && (expr) <= hi) ? (expr) : 0/0`. */
socmon_status smn_metric_range_expr(const char *where, json_t *range, const char *expr, char **out)
{
    *out = NULL;
    double lo = NAN, hi = NAN;
    if (json_is_array(range) && json_array_size(range) == 2 && json_is_number(json_array_get(range, 0)) &&
        json_is_number(json_array_get(range, 1))) {
        lo = json_number_value(json_array_get(range, 0));
        hi = json_number_value(json_array_get(range, 1));
    }
    if (!isfinite(lo) || !isfinite(hi) || lo > hi)
        return socmon_fail(SOCMON_EPARSE, "%s\"range\" must be [lo, hi], two finite numbers with lo <= hi", where);
    size_t cap = 3 * strlen(expr) + 96;
    char *s = malloc(cap);
    if (!s)
        return socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
    snprintf(s, cap, "((%s) >= %.17g && (%s) <= %.17g) ? (%s) : 0/0", expr, lo, expr, hi, expr);
    *out = s;
    return SOCMON_OK;
}
