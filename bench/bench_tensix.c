/* Tensix figures: bus accesses and time of the device-side start/stop with
 * the guide's 86 slots, of one device read of every counter, the kernel
 * model's speed, and host-side compute_metrics. */
#include <stdio.h>
#include <time.h>

#include "drivers/tensix/tensix_drv.h"
#include "models/tensix/tensix_model.h"
#include "socmon/tensix.h"
#include "llk_perf_counters.h"
#include "llk_perf_host.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(void)
{
    llk_perf_sim *sim;
    if (llk_perf_sim_new("tiles=64", &sim) != SOCMON_OK) {
        fprintf(stderr, "bench_tensix: %s\n", socmon_errmsg());
        return 1;
    }
    socmon_bus *bus = llk_perf_sim_bus(sim);
    llk_perf_configure_counters(bus, 0);

    enum { N = 2000 };
    socmon_bus_stats s0, s1, s2;
    llk_perf_counters pc;
    llk_perf_init(&pc, bus, SOCMON_TENSIX_REGS_BASE, 0, SOCMON_TENSIX_THREAD_MATH);
    double t_start = 0, t_stop = 0;
    for (int i = 0; i < N; i++) {
        socmon_bus_stats_get(bus, &s0);
        double a = now_s();
        llk_perf_start(&pc);
        double b = now_s();
        socmon_bus_stats_get(bus, &s1);
        llk_perf_stop(&pc, NULL, NULL);
        double c = now_s();
        socmon_bus_stats_get(bus, &s2);
        t_start += b - a;
        t_stop += c - b;
    }
    llk_perf_release(&pc);
    printf("tensix start (86 slots, 5 banks): %llu reads, %llu writes, %.2f us on the model\n",
           (unsigned long long)(s1.reads - s0.reads), (unsigned long long)(s1.writes - s0.writes),
           t_start / N * 1e6);
    printf("tensix stop + readout + L1 write: %llu reads, %llu writes, %.2f us on the model\n",
           (unsigned long long)(s2.reads - s1.reads), (unsigned long long)(s2.writes - s1.writes),
           t_stop / N * 1e6);

    socmon_tensix_drv *d;
    socmon_tensix_drv_new(bus, SOCMON_TENSIX_REGS_BASE, 0, &d);
    uint32_t w[86];
    size_t n = socmon_tensix_default_slots(w, 86);
    socmon_device *dev;
    smn_tensix_drv_device(d, "tensix", w, n, 1e9, &dev);
    size_t nc = socmon_device_ncounters(dev);
    uint32_t idx[128];
    uint64_t v[128];
    for (size_t i = 0; i < nc; i++)
        idx[i] = (uint32_t)i;
    socmon_bus_stats_get(bus, &s0);
    double a = now_s();
    for (int i = 0; i < N; i++)
        socmon_device_read(dev, idx, nc, v);
    double b = now_s();
    socmon_bus_stats_get(bus, &s1);
    printf("tensix device read of %zu counters: %.0f accesses, %.2f us\n", nc,
           (double)(s1.reads + s1.writes - s0.reads - s0.writes) / N, (b - a) / N * 1e6);
    socmon_device_free(dev);
    socmon_tensix_drv_free(d);

    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    p.tiles = 1u << 20;
    socmon_tensix_core *c;
    smn_tensix_core_new(&p, &c);
    socmon_tensix_core_kernel_start(c);
    a = now_s();
    for (int i = 0; i < 100000; i++)
        socmon_tensix_core_advance(c, 1, NULL);
    b = now_s();
    printf("tensix kernel model, 1-cycle steps: %.1f M simulated cycles/s\n", 100000 / (b - a) / 1e6);
    a = now_s();
    for (int i = 0; i < 100000; i++)
        socmon_tensix_core_advance(c, 1000, NULL);
    b = now_s();
    printf("tensix kernel model, 1000-cycle steps: %.1f G simulated cycles/s\n", 1e8 / (b - a) / 1e9);
    smn_tensix_core_free(c);

    llk_perf_sim_run(sim);
    llk_perf_results *r;
    llk_perf_read_counters(bus, 0, &r);
    a = now_s();
    for (int i = 0; i < 200; i++) {
        llk_perf_metrics *m;
        llk_perf_compute_metrics(r, NULL, &m);
        llk_perf_metrics_free(m);
    }
    b = now_s();
    printf("tensix compute_metrics (258 rows, 23 metrics): %.1f us\n", (b - a) / 200 * 1e6);
    llk_perf_results_free(r);
    llk_perf_sim_free(sim);
    return 0;
}
