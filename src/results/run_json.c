/* A run from the JSON of `socmon stat` (and `report --summary --json`, the same document):
 * "counters" and "metrics" arrays of {name, instance, value, unit}, and with `stat -r N` "runs"
 * and per value "stddev" (of the mean, as perf) or "sd" (of the runs). docs/output.md. */
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "results/run_internal.h"
#include "core/error.h"


static const char *str_of(const json_t *o, const char *key)
{
    const json_t *s = json_object_get(o, key);
    return json_is_string(s) ? json_string_value(s) : NULL;
}

int smn_value_from_json(socmon_value *v, const json_t *x)
{
    if (json_is_integer(x) && v->kind == SOCMON_VALUE_COUNTER) {
        v->defined = v->integer = 1;
        v->i = json_integer_value(x);
        v->v = (double)v->i;
    } else if (json_is_number(x)) {
        v->defined = 1;
        v->v = json_number_value(x);
    } else if (x && !json_is_null(x)) {
        return -1;
    }
    return 0;
}

/* One element of "counters" or "metrics". */
static socmon_status add_value(socmon_run *r, const char *path, const char *array, size_t idx, const json_t *e,
                               socmon_value_kind kind, unsigned runs)
{
    socmon_value v = {.kind = kind, .n = 1};
    v.name = str_of(e, "name");
    if (!json_is_object(e) || !v.name || !*v.name)
        return socmon_fail(SOCMON_EINVAL, "%s: %s[%zu] has no name: not the JSON of socmon stat", path, array, idx);
    v.instance = str_of(e, "instance");
    v.unit = str_of(e, "unit");
    const json_t *mean = json_object_get(e, "mean"), *val = json_object_get(e, "value");
    /* the unrounded mean of repeated runs, unless it is the count itself (a model's exact runs) */
    int use_mean = json_is_number(mean) && !(json_is_integer(val) && json_number_value(mean) == json_number_value(val));
    const json_t *x = use_mean ? mean : val;
    if (smn_value_from_json(&v, x) != 0)
        return socmon_fail(SOCMON_EINVAL, "%s: %s[%zu] (%s): its value is not a number", path, array, idx, v.name);
    /* a count is 0 or more: a negative one (an edited or foreign document) would make a delta that
     * wraps (-2^63 against 5 is a rise of 2^63) or a ratio of the wrong sign */
    if (kind == SOCMON_VALUE_COUNTER && v.defined && (v.integer ? v.i < 0 : v.v < 0)) {
        char num[40];
        if (v.integer)
            snprintf(num, sizeof num, "%lld", (long long)v.i);
        else
            snprintf(num, sizeof num, "%.17g", v.v);
        int inst = v.instance && *v.instance;
        return socmon_fail(SOCMON_EINVAL, "%s: %s[%zu] (%s%s%s): %s %s is negative: a count is 0 or more", path,
                           array, idx, inst ? v.instance : "", inst ? "." : "", v.name, use_mean ? "mean" : "value",
                           num);
    }
    if (runs > 1 && v.defined) {
        /* "sd" is the runs' spread; older documents have only perf's "stddev" of the mean */
        const json_t *sd = json_object_get(e, "sd"), *sem = json_object_get(e, "stddev");
        double s = json_is_number(sd) ? json_number_value(sd)
                   : json_is_number(sem) ? json_number_value(sem) * sqrt((double)runs) : NAN;
        if (isfinite(s) && s >= 0) {
            smn_value_set_spread(&v, runs, s);
        }
    }
    return smn_run_add(r, &v);
}

static socmon_status add_array(socmon_run *r, const char *path, const json_t *doc, const char *array,
                               socmon_value_kind kind, unsigned runs)
{
    const json_t *a = json_object_get(doc, array);
    if (!a)
        return SOCMON_OK;
    if (!json_is_array(a))
        return socmon_fail(SOCMON_EINVAL, "%s: \"%s\" is not an array: not the JSON of socmon stat", path, array);
    size_t i;
    const json_t *e;
    json_array_foreach(a, i, e) {
        socmon_status st = add_value(r, path, array, i, e, kind, runs);
        if (st != SOCMON_OK)
            return st;
    }
    return SOCMON_OK;
}

socmon_status smn_run_read_json(const char *path, socmon_run **out)
{
    json_error_t err;
    json_t *doc = json_load_file(path, JSON_REJECT_DUPLICATES, &err);
    if (!doc)
        return socmon_fail(SOCMON_EINVAL, "%s: not valid JSON (line %d: %s)", path, err.line, err.text);
    socmon_run *r = NULL;
    socmon_status st = SOCMON_OK;
    const json_t *runs = json_object_get(doc, "runs");
    json_int_t n = json_is_integer(runs) ? json_integer_value(runs) : 1;
    if (!json_is_object(doc) || (!json_object_get(doc, "counters") && !json_object_get(doc, "metrics")))
        st = socmon_fail(SOCMON_EINVAL, "%s: JSON without \"counters\" or \"metrics\": not the totals of socmon "
                                        "stat --json (or report --summary --json)", path);
    else if (n < 1 || n > 1000000)
        st = socmon_fail(SOCMON_EINVAL, "%s: \"runs\" %lld is out of range (1..1000000)", path, (long long)n);
    if (st == SOCMON_OK)
        st = smn_run_new(path, "stat", &r);
    if (st == SOCMON_OK)
        st = smn_run_set_facts(r, str_of(doc, "target"), str_of(doc, "workload"), (unsigned)n, 0);
    if (st == SOCMON_OK)
        st = add_array(r, path, doc, "counters", SOCMON_VALUE_COUNTER, (unsigned)n);
    if (st == SOCMON_OK)
        st = add_array(r, path, doc, "metrics", SOCMON_VALUE_METRIC, (unsigned)n);
    json_decref(doc);
    if (st != SOCMON_OK) {
        socmon_run_free(r);
        return st;
    }
    *out = r;
    return SOCMON_OK;
}
