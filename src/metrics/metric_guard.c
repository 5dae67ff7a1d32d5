/* "undefined_below": the smallest values a metric's inputs must reach in an
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

socmon_status metric_guard_expr(const char *where, json_t *guard, const char *expr, char **out)
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
