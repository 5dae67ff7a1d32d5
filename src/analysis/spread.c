/* The spread of a repeated run (stat -r N): Welford's running mean and M2, then perf's "+-",
 * the standard deviation of the mean. See spread.h. */
#include <math.h>
#include <stdlib.h>

#include "analysis/spread.h"

int smn_spread_init(smn_spread *s, size_t n)
{
    s->n = n;
    s->mean = calloc(n + 1, sizeof *s->mean);
    s->m2 = calloc(n + 1, sizeof *s->m2);
    return s->mean && s->m2 ? 0 : -1;
}

void smn_spread_add(smn_spread *s, unsigned run, const double *x)
{
    for (size_t i = 0; i < s->n; i++) {
        double d = x[i] - s->mean[i];
        s->mean[i] += d / run;
        s->m2[i] += d * (x[i] - s->mean[i]);
    }
}

void smn_spread_finish(smn_spread *s, unsigned runs)
{
    for (size_t i = 0; i < s->n; i++)
        s->m2[i] = runs > 1 ? sqrt(s->m2[i] / (runs - 1) / runs) : 0;
}

void smn_spread_free(smn_spread *s)
{
    free(s->mean);
    free(s->m2);
    s->mean = s->m2 = NULL;
}
