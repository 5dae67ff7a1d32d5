/* Multiplexed counts (socmon/scaling.h): pairing each counter NAME with its
 * NAME--enabled and NAME--running time counters, and the estimate perf and
 * PAPI compute, delta * enabled / running. Time counters are ordinary counters,
 * so this works the same on a live set, a recording and an agent's schema. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/scaling.h"

#define EN_SUFFIX "--enabled"
#define RUN_SUFFIX "--running"

struct socmon_scaling {
    size_t n;
    long *en, *run;        /* per counter: index of its time counters, -1 if none */
    unsigned char *is_time;
};

static int ends_with(const char *s, const char *suffix)
{
    size_t ls = strlen(s), lf = strlen(suffix);
    return ls > lf && strcmp(s + ls - lf, suffix) == 0;
}

/* The counter whose full name is base (the first len bytes of a time counter's name). */
static long find(const char *const *names, size_t n, const char *base, size_t len)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(names[i], base, len) == 0 && names[i][len] == 0)
            return (long)i;
    return -1;
}

socmon_status socmon_scaling_new(const socmon_counter *c, const char *const *names, size_t n, socmon_scaling **out)
{
    if (!out || (n && (!c || !names)))
        return socmon_fail(SOCMON_EINVAL, "socmon_scaling_new: NULL argument");
    *out = NULL;
    socmon_scaling *s = calloc(1, sizeof *s);
    if (!s || !(s->en = malloc((n + 1) * sizeof *s->en)) || !(s->run = malloc((n + 1) * sizeof *s->run)) ||
        !(s->is_time = calloc(n + 1, 1))) {
        socmon_scaling_free(s);
        return socmon_fail(SOCMON_ENOMEM, "socmon_scaling_new: out of memory");
    }
    s->n = n;
    for (size_t i = 0; i < n; i++)
        s->en[i] = s->run[i] = -1;
    for (size_t i = 0; i < n; i++) {
        if (!names[i])
            continue;
        int en = ends_with(names[i], EN_SUFFIX), run = !en && ends_with(names[i], RUN_SUFFIX);
        if (!en && !run)
            continue;
        s->is_time[i] = 1;
        size_t len = strlen(names[i]) - strlen(en ? EN_SUFFIX : RUN_SUFFIX);
        long b = find(names, n, names[i], len);
        if (b >= 0)
            *(en ? &s->en[b] : &s->run[b]) = (long)i;
    }
    /* a counter with only one of its two time counters cannot be scaled */
    for (size_t i = 0; i < n; i++)
        if ((s->en[i] < 0) != (s->run[i] < 0))
            s->en[i] = s->run[i] = -1;
    *out = s;
    return SOCMON_OK;
}

void socmon_scaling_free(socmon_scaling *s)
{
    if (!s)
        return;
    free(s->en);
    free(s->run);
    free(s->is_time);
    free(s);
}

int socmon_scaling_is_time(const socmon_scaling *s, size_t i)
{
    return s && i < s->n && s->is_time[i];
}

int socmon_scaling_has_time(const socmon_scaling *s, size_t i)
{
    return s && i < s->n && s->en[i] >= 0;
}

void socmon_scaling_apply(const socmon_scaling *s, const uint64_t *d, double *value, double *running)
{
    if (!s || !d)
        return;
    for (size_t i = 0; i < s->n; i++) {
        double v = (double)d[i], pct = 100;
        if (s->en[i] >= 0) {
            double en = (double)d[s->en[i]], run = (double)d[s->run[i]];
            if (run > 0 && en > 0) {
                pct = run >= en ? 100 : 100 * run / en;
                if (run < en)
                    v = v * en / run;
            } else if (en > 0) {
                v = NAN; /* enabled but never on a counter: perf's "<not counted>" */
                pct = 0;
            } else if (d[i] == 0) {
                v = NAN; /* not enabled at all in the interval */
                pct = 0;
            }
            /* enabled == running == 0 with a count: times not advanced (an rdpmc read of a
             * group that was never multiplexed): the count is exact */
        }
        if (value)
            value[i] = v;
        if (running)
            running[i] = pct;
    }
}
