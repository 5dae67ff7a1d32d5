/* Metrics engine speed: bind time and ns per metric result evaluated, for a
 * realistic file (20 metrics) over 400 counters (20 tiles x 20 counters); then
 * bind time as the schema grows to 20,000 counters (1,000 tiles), whose time per
 * counter must stay flat: binding resolves names through sorted indexes
 * (O(n log n)), never by scanning the schema per name (O(n^2)). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "socmon/metrics.h"

#define NTILES 20
#define NPER 20

static const char *const cnames[NPER] = {
    "l2_hits", "l2_misses", "l1_hits", "l1_misses", "noc_rd_flits", "noc_wr_flits",
    "noc_stall", "mem_rd_bytes", "mem_wr_bytes", "busy_cycles", "idle_cycles", "instr",
    "tlb_misses", "dma_rd", "dma_wr", "acc_busy", "acc_stall", "lat_sum", "lat_cnt", "cycles"};

static const char metrics_json[] =
    "{\"description\": \"benchmark: a typical tile-based SoC metric file\", \"metrics\": [\n"
    "{\"name\": \"l2_hit_rate\", \"per\": \"instance\", \"expr\": \"100 * l2_hits / (l2_hits + l2_misses)\"},\n"
    "{\"name\": \"l1_hit_rate\", \"per\": \"instance\", \"expr\": \"100 * l1_hits / (l1_hits + l1_misses)\"},\n"
    "{\"name\": \"ipc\", \"per\": \"instance\", \"expr\": \"instr / cycles\"},\n"
    "{\"name\": \"noc_bw\", \"per\": \"instance\", \"expr\": \"(noc_rd_flits + noc_wr_flits) * flit_bytes / interval_s\"},\n"
    "{\"name\": \"noc_stall\", \"per\": \"instance\", \"expr\": \"noc_stall / cycles\"},\n"
    "{\"name\": \"mem_bw\", \"per\": \"instance\", \"expr\": \"(mem_rd_bytes + mem_wr_bytes) / interval_s\"},\n"
    "{\"name\": \"util\", \"per\": \"instance\", \"expr\": \"busy_cycles / (busy_cycles + idle_cycles)\"},\n"
    "{\"name\": \"avg_lat\", \"per\": \"instance\", \"expr\": \"lat_cnt ? lat_sum / lat_cnt : 0\"},\n"
    "{\"name\": \"dma_bw\", \"per\": \"instance\", \"expr\": \"(dma_rd + dma_wr) * 64 / interval_s\"},\n"
    "{\"name\": \"acc_util\", \"per\": \"instance\", \"expr\": \"acc_busy / max(acc_busy + acc_stall, 1)\"},\n"
    "{\"name\": \"tlb_mpki\", \"per\": \"instance\", \"expr\": \"1000 * tlb_misses / instr\"},\n"
    "{\"name\": \"mem_share\", \"per\": \"instance\", \"expr\": \"mem_bw / sum(mem_bw)\"},\n"
    "{\"name\": \"total_mem_bw\", \"expr\": \"mem_bw\"},\n"
    "{\"name\": \"avg_util\", \"expr\": \"avg(util)\"},\n"
    "{\"name\": \"max_lat\", \"expr\": \"max(avg_lat)\"},\n"
    "{\"name\": \"busy_tiles\", \"expr\": \"sum(util > 0.5)\"},\n"
    "{\"name\": \"l2_hit_rate_all\", \"expr\": \"100 * l2_hits / (l2_hits + l2_misses)\"},\n"
    "{\"name\": \"noc_total\", \"expr\": \"noc_bw / 1e9\"},\n"
    "{\"name\": \"stall_spread\", \"expr\": \"max(noc_stall) - min(noc_stall)\"},\n"
    "{\"name\": \"bound\", \"labels\": [\"memory\", \"noc\", \"compute\"],"
    " \"expr\": \"argmax(total_mem_bw / (mem_peak * 1e9), noc_total / noc_peak, avg_util)\"}\n"
    "]}\n";

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Bind time over schemas of 20 .. 1,000 tiles of the same 20 counters. */
static void bind_scaling(const socmon_metricset *ms, const socmon_metric_schema *base)
{
    static const int tiles[] = {20, 100, 500, 1000};
    printf("  bind as the schema grows (same 20 metrics):\n");
    for (size_t k = 0; k < sizeof tiles / sizeof tiles[0]; k++) {
        int nt = tiles[k], n = nt * NPER;
        socmon_counter *c = calloc((size_t)n, sizeof *c);
        char (*inst)[16] = calloc((size_t)nt, sizeof *inst);
        if (!c || !inst) {
            free(c), free(inst);
            return;
        }
        for (int t = 0; t < nt; t++) {
            snprintf(inst[t], sizeof inst[t], "tile%d", t);
            for (int j = 0; j < NPER; j++)
                c[t * NPER + j] = (socmon_counter){.name = cnames[j], .instance = inst[t],
                    .width = 32};
        }
        socmon_metric_schema sc = {.ncounters = (size_t)n, .counters = c, .nparams = base->nparams,
            .param_names = base->param_names, .param_values = base->param_values};
        int reps = n >= 10000 ? 5 : 50;
        socmon_metrics *m = NULL;
        double t0 = now_s();
        for (int r = 0; r < reps; r++) {
            socmon_metrics_free(m);
            m = NULL;
            if (socmon_metrics_bind(ms, &sc, &m) != SOCMON_OK)
                break;
        }
        double us = (now_s() - t0) / reps * 1e6;
        printf("    %6d counters (%4d instances): %10.1f us, %6.3f us per counter, %zu results\n", n, nt, us,
               us / n, socmon_metrics_nresults(m));
        socmon_metrics_free(m);
        free(c);
        free(inst);
    }
}

int main(void)
{
    static socmon_counter counters[NTILES * NPER];
    static char inst[NTILES][16];
    static uint64_t deltas[NTILES * NPER];
    for (int t = 0; t < NTILES; t++) {
        snprintf(inst[t], sizeof inst[t], "tile%d", t);
        for (int c = 0; c < NPER; c++) {
            counters[t * NPER + c] = (socmon_counter){.name = cnames[c], .instance = inst[t],
                                                     .width = 32};
            deltas[t * NPER + c] = 1000 + (uint64_t)(t * 37 + c * 101) % 5000;
        }
    }
    const char *pn[] = {"flit_bytes", "mem_peak", "noc_peak"};
    double pv[] = {16, 25.6, 64};
    socmon_metric_schema sc = {.ncounters = NTILES * NPER, .counters = counters, .nparams = 3,
        .param_names = pn, .param_values = pv};

    socmon_metricset *ms;
    if (socmon_metricset_load_string(metrics_json, "bench", &ms) != SOCMON_OK) {
        fprintf(stderr, "bench_metrics: %s\n", socmon_errmsg());
        return 1;
    }
    int nload = 2000;
    double t0 = now_s();
    for (int i = 0; i < nload; i++) {
        socmon_metricset *tmp;
        socmon_metricset_load_string(metrics_json, "bench", &tmp);
        socmon_metricset_free(tmp);
    }
    double load_us = (now_s() - t0) / nload * 1e6;

    socmon_metrics *m = NULL;
    int nbind = 2000;
    t0 = now_s();
    for (int i = 0; i < nbind; i++) {
        socmon_metrics_free(m);
        if (socmon_metrics_bind(ms, &sc, &m) != SOCMON_OK) {
            fprintf(stderr, "bench_metrics: %s\n", socmon_errmsg());
            return 1;
        }
    }
    double bind_us = (now_s() - t0) / nbind * 1e6;

    size_t nres = socmon_metrics_nresults(m);
    double *out = malloc(nres * sizeof *out);
    double sink = 0;
    long iters = 0;
    t0 = now_s();
    double t1 = t0;
    while (t1 - t0 < 1.0) {   /* about a second of intervals */
        for (int k = 0; k < 1000; k++) {
            deltas[k % (NTILES * NPER)] += 1;   /* values change like real intervals */
            socmon_metrics_eval(m, deltas, 0.001, out);
            sink += out[nres - 1];
        }
        iters += 1000;
        t1 = now_s();
    }
    double per_interval_ns = (t1 - t0) / iters * 1e9;

    printf("bench_metrics: %zu metrics over %d counters (%d instances) -> %zu results\n",
           socmon_metricset_count(ms), NTILES * NPER, NTILES, nres);
    printf("  load (parse JSON + expressions): %8.1f us\n", load_us);
    printf("  bind (resolve + compile):        %8.1f us\n", bind_us);
    printf("  eval, one interval:              %8.1f ns\n", per_interval_ns);
    printf("  eval, per result:                %8.1f ns\n", per_interval_ns / (double)nres);
    printf("  eval, per metric definition:     %8.1f ns\n",
           per_interval_ns / (double)socmon_metricset_count(ms));
    printf("  (checksum %g)\n", sink);
    free(out);
    socmon_metrics_free(m);
    bind_scaling(ms, &sc);
    socmon_metricset_free(ms);
    return 0;
}
