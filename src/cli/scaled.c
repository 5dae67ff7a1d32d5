/* The people's view of perf_event counts (cli/scaled.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli/scaled.h"

/* The perf device of t or of one of its members, or NULL. */
static const socmon_device *perf_device(const socmon_target *t)
{
    if (!t)
        return NULL;
    if (socmon_perf_device_unsupported(socmon_target_device(t), 0, NULL, NULL) != SOCMON_EINVAL)
        return socmon_target_device(t);
    for (size_t i = 0; socmon_target_member(t, i); i++) {
        const socmon_device *d = perf_device(socmon_target_member(t, i));
        if (d)
            return d;
    }
    return NULL;
}

int cli_scaled_view(cli_scaled *v, const socmon_counter *cs, const char *const *cnames, size_t n, const socmon_target *t,
                    const socmon_scaling *sc, const uint64_t *values, const double *pct, const double *stddev)
{
    memset(v, 0, sizeof *v);
    size_t k = 0, nu = 0;
    const socmon_device *dev = perf_device(t);
    while (dev && socmon_perf_device_unsupported(dev, nu, NULL, NULL) == SOCMON_OK)
        nu++;
    socmon_clear_error();
    v->c = calloc(n + 1, sizeof *v->c);
    v->names = calloc(n + 1, sizeof *v->names);
    v->values = calloc(n + 1, sizeof *v->values);
    v->running = calloc(n + 1, sizeof *v->running);
    v->stddev = stddev ? calloc(n + 1, sizeof *v->stddev) : NULL;
    v->unsupported = calloc(nu + 1, sizeof *v->unsupported);
    if (!v->c || !v->names || !v->values || !v->running || (stddev && !v->stddev) || !v->unsupported)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (socmon_scaling_is_time(sc, i))
            continue;
        v->c[k] = cs[i];
        v->names[k] = cnames[i];
        v->values[k] = values[i];
        v->running[k] = pct[i];
        if (stddev)
            v->stddev[k] = stddev[i];
        k++;
    }
    for (size_t i = 0; i < nu; i++)
        socmon_perf_device_unsupported(dev, i, &v->unsupported[i], NULL);
    v->list = (socmon_counter_list){k, v->c, v->names, v->running, nu, v->unsupported};
    return 0;
}

void cli_scaled_free(cli_scaled *v)
{
    free(v->c);
    free(v->names);
    free(v->values);
    free(v->running);
    free(v->stddev);
    free(v->unsupported);
    memset(v, 0, sizeof *v);
}

int cli_scale_deltas(const socmon_scaling *sc, size_t n, const uint64_t *d, uint64_t *out, double *pct)
{
    if (out != d)
        memcpy(out, d, n * sizeof *out);
    if (!sc)
        return 0;
    double *v = malloc((n + 1) * sizeof *v);
    if (!v)
        return -1;
    socmon_scaling_apply(sc, d, v, pct);
    for (size_t i = 0; i < n; i++)
        if (socmon_scaling_has_time(sc, i))
            out[i] = isnan(v[i]) ? 0 : (uint64_t)llround(v[i]);
    free(v);
    return 0;
}
