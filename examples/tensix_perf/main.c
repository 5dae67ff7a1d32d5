/* Tensix performance counters end to end, as a tt-llk test does it, on the
 * simulated core:
 *   host:   configure_counters (the guide's 86 slots on all three threads)
 *   device: each TRISC thread wraps its part of the kernel in LLK_PERF_SCOPED
 *           (ScopedPerfCounters); the counters stop and write L1 at scope exit
 *   host:   read_counters, print_counters, compute_metrics, print_metrics.
 *
 * Usage: example_tensix_perf [KERNEL [OPTIONS]]
 *   KERNEL  matmul, sfpu (default), reduce, topk or sync
 *   OPTIONS more simulator options, e.g. "tiles=256,fidelity=HiFi4" */
#include <stdio.h>
#include <string.h>

#include "llk_perf_counters.h"
#include "llk_perf_host.h"

static int die(const char *what)
{
    fprintf(stderr, "example_tensix_perf: %s: %s\n", what, socmon_errmsg());
    return 1;
}

/* The device side. On silicon the three threads run concurrently, each with
 * its own ScopedPerfCounters; all three arm the same banks, the first stop
 * freezes them, so every thread writes the same values to its L1 area. */
static socmon_status run_kernel(llk_perf_sim *sim)
{
    socmon_bus *bus = llk_perf_sim_bus(sim);
    uint64_t regs = llk_perf_sim_regs_base(sim), l1 = llk_perf_sim_l1_base(sim);
    LLK_PERF_SCOPED(unpack, bus, regs, l1, LLK_PERF_THREAD_UNPACK);
    LLK_PERF_SCOPED(math, bus, regs, l1, LLK_PERF_THREAD_MATH);
    LLK_PERF_SCOPED(pack, bus, regs, l1, LLK_PERF_THREAD_PACK);
    if (unpack.status != SOCMON_OK)
        return unpack.status;
    if (math.status != SOCMON_OK)
        return math.status;
    if (pack.status != SOCMON_OK)
        return pack.status;
    return llk_perf_sim_kernel(sim);   /* ... kernel work ... */
}

/* dominant_bound is tt-llk's classification (its risc score sums the three
 * threads' stall rates); dominant_bound_per_thread uses their mean. */
static const char *bound(const llk_perf_metrics *m, const char *which)
{
    for (size_t i = 0; i < llk_perf_metrics_count(m); i++) {
        const char *name, *unit, *label;
        double v;
        if (llk_perf_metrics_at(m, i, &name, &v, &unit, &label) == SOCMON_OK && strcmp(name, which) == 0)
            return label ? label : "undefined";
    }
    return "not computed";
}

int main(int argc, char **argv)
{
    const char *kernel = argc > 1 ? argv[1] : "sfpu";
    char opts[256];
    if (snprintf(opts, sizeof opts, "kernel=%s,tiles=64%s%s", kernel, argc > 2 ? "," : "",
                 argc > 2 ? argv[2] : "") >= (int)sizeof opts) {
        fprintf(stderr, "example_tensix_perf: options too long\n");
        return 2;
    }
    llk_perf_sim *sim;
    if (llk_perf_sim_new(opts, &sim) != SOCMON_OK)
        return die(opts);
    socmon_bus *bus = llk_perf_sim_bus(sim);
    uint64_t l1 = llk_perf_sim_l1_base(sim);
    llk_perf_results *res = NULL;
    llk_perf_metrics *met = NULL;
    int rc = 0;
    if (llk_perf_configure_counters(bus, l1) != SOCMON_OK)
        rc = die("configure_counters");
    else if (run_kernel(sim) != SOCMON_OK)
        rc = die("kernel");
    else if (llk_perf_read_counters(bus, l1, &res) != SOCMON_OK)
        rc = die("read_counters");
    else if (llk_perf_print_counters(res, stdout) != SOCMON_OK)
        rc = die("print_counters");
    else if (llk_perf_compute_metrics(res, llk_perf_sim_platform(sim), &met) != SOCMON_OK)
        rc = die("compute_metrics");
    else if (llk_perf_print_metrics(met, stdout) != SOCMON_OK)
        rc = die("print_metrics");
    else
        printf("kernel %s on %s: %s; per thread %s\n", kernel, llk_perf_sim_platform(sim),
               bound(met, "dominant_bound"), bound(met, "dominant_bound_per_thread"));
    llk_perf_metrics_free(met);
    llk_perf_results_free(res);
    llk_perf_sim_free(sim);
    return rc;
}
