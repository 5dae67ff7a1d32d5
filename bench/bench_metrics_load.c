/* Metric files with very many metrics: load (JSON, names, expressions) and
 * bind time for 1,000 .. 300,000 metrics, the last near the 16 MB file limit.
 * Time per metric must stay flat: duplicate names are refused and earlier
 * metrics found through a hash table, never by comparing a name with every
 * other one (which took 52 s for 40,000 metrics, issue 23).
 *
 * usage: bench_metrics_load [MAX]   (only the sizes up to MAX metrics) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench_time.h"
#include "socmon/metrics.h"

#define NCOUNTERS 64
#define NPARAMS 8

/* Metric i: a counter over cycles, twice an earlier metric, or a parameter
 * plus a counter, so binding resolves all three kinds of name. Compact JSON,
 * so that 300,000 metrics stay under the 16 MB limit. */
static char *make_file(int n, size_t *len)
{
    size_t cap = (size_t)n * 64 + 64, used = 0;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    used += (size_t)snprintf(s, cap, "{\"metrics\":[\n");
    for (int i = 0; i < n; i++) {
        char expr[48];
        if (i % 3 == 1)
            snprintf(expr, sizeof expr, "m%d*2", i - 1);
        else if (i % 3 == 2)
            snprintf(expr, sizeof expr, "p%d+c%d", i % NPARAMS, i % NCOUNTERS);
        else
            snprintf(expr, sizeof expr, "c%d/cycles", i % NCOUNTERS);
        used += (size_t)snprintf(s + used, cap - used, "{\"name\":\"m%d\",\"expr\":\"%s\"}%s\n", i,
                                 expr, i + 1 < n ? "," : "");
    }
    used += (size_t)snprintf(s + used, cap - used, "]}\n");
    *len = used;
    return s;
}

int main(int argc, char **argv)
{
    static const int sizes[] = {1000, 10000, 40000, 300000};
    long max = argc > 1 ? strtol(argv[1], NULL, 10) : 300000;
    static char names[NCOUNTERS + 1][16], pnames[NPARAMS][16];
    socmon_counter counters[NCOUNTERS + 1];
    const char *pn[NPARAMS];
    double pv[NPARAMS];
    for (int c = 0; c < NCOUNTERS; c++) {
        snprintf(names[c], sizeof names[c], "c%d", c);
        counters[c] = (socmon_counter){.name = names[c], .instance = "", .width = 48};
    }
    counters[NCOUNTERS] = (socmon_counter){.name = "cycles", .instance = "", .width = 64};
    for (int p = 0; p < NPARAMS; p++) {
        snprintf(pnames[p], sizeof pnames[p], "p%d", p);
        pn[p] = pnames[p];
        pv[p] = p + 1;
    }
    socmon_metric_schema sc = {.ncounters = NCOUNTERS + 1, .counters = counters, .nparams = NPARAMS,
        .param_names = pn, .param_values = pv};

    printf("bench_metrics_load: metric files of N metrics over %d counters, %d parameters\n",
           NCOUNTERS + 1, NPARAMS);
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        int n = sizes[k];
        if (n > max)
            break;
        size_t len = 0;
        char *text = make_file(n, &len);
        if (!text) {
            fprintf(stderr, "bench_metrics_load: out of memory\n");
            return 1;
        }
        /* the median of a few runs for the small files; one run for the big ones */
        int reps = n <= 10000 ? 5 : 1;
        double load[5], bind[5];
        size_t nres = 0;
        for (int r = 0; r < reps; r++) {
            socmon_metricset *ms = NULL;
            socmon_metrics *m = NULL;
            double t0 = bench_now_ns();
            socmon_status st = socmon_metricset_load_string(text, "bench", &ms);
            double t1 = bench_now_ns();
            if (!st)
                st = socmon_metrics_bind(ms, &sc, &m);
            double t2 = bench_now_ns();
            if (st) {
                fprintf(stderr, "bench_metrics_load: %d metrics: %s\n", n, socmon_errmsg());
                free(text);
                socmon_metricset_free(ms);
                return 1;
            }
            nres = socmon_metrics_nresults(m);
            load[r] = (t1 - t0) / 1e6;
            bind[r] = (t2 - t1) / 1e6;
            socmon_metrics_free(m);
            socmon_metricset_free(ms);
        }
        double lm = bench_median(load, (size_t)reps), bm = bench_median(bind, (size_t)reps);
        printf("  %7d metrics (%5.1f MB): load %9.1f ms, bind %9.1f ms, total %9.1f ms, "
               "%6.2f us per metric, %zu results\n",
               n, (double)len / 1e6, lm, bm, lm + bm, (lm + bm) * 1e3 / n, nres);
        free(text);
    }
    return 0;
}
