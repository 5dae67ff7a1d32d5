/* What a begin/end pair of the region API costs: on a NULL handle (regions off), and on with
 * one software event (read() each time: this VM has no PMU for rdpmc) and with the kernel model
 * (socmon's own overhead with the model's rdpmc path). ns per pair, median of 5 batches. */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "bench_time.h"
#include "models/perf/perf_kernel_model.h"
#include "socmon/region.h"

static double pairs(socmon_regions *r, int n)
{
    double b[5];
    for (int k = 0; k < 5; k++) {
        double t0 = bench_now_ns();
        for (int i = 0; i < n; i++) {
            socmon_region_begin(r, "hot");
            socmon_region_end(r, "hot");
        }
        b[k] = (bench_now_ns() - t0) / n;
    }
    return bench_median(b, 5);
}

int main(void)
{
    char path[64];
    snprintf(path, sizeof path, "/tmp/bench_region_%d.smr", (int)getpid());
    printf("bench_region: one begin/end pair\n");
    printf("  %-40s %8.2f ns\n", "off (NULL handle)", pairs(NULL, 10000000));
    socmon_regions *r;
    socmon_regions_opts o = {.path = path, .events = "task-clock", .sys = NULL};
    if (socmon_regions_open(&o, &r) == SOCMON_OK && socmon_region_begin(r, "probe") == SOCMON_OK) {
        socmon_region_end(r, "probe");
        printf("  %-40s %8.1f ns\n", "on, task-clock by read() (kernel)", pairs(r, 20000));
    } else {
        printf("  %-40s not here: %s\n", "on, task-clock (kernel)", socmon_errmsg());
    }
    socmon_regions_close(r);
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .rdpmc = 1, .paranoid = 2};
    smn_perf_model_new(&mo, &m);
    socmon_regions_opts om = {.path = path, .events = "{cycles:u,instructions:u}",
        .sys = smn_perf_model_sys(m)};
    if (socmon_regions_open(&om, &r) == SOCMON_OK) {
        printf("  %-40s %8.1f ns (the model, not a kernel)\n", "on, cycles+instructions by rdpmc", pairs(r, 200000));
        socmon_regions_close(r);
    }
    smn_perf_model_free(m);
    unlink(path);
    return 0;
}
