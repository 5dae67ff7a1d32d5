/* What one perf_event group read costs: the real kernel by read() (a task-clock + page-faults
 * group: the software events every machine has), by rdpmc where the kernel allows it (a
 * hardware PMU and cap_user_rdpmc), PAPI_read of the same events where Debian's libpapi
 * works, and the kernel model's read() and rdpmc paths (labelled: the model, not the kernel).
 * Prints ns per read (median of 5 batches). Published figures (peers.md 1.8): read() 750-2200
 * cycles, rdpmc 120-650 cycles on real PMUs. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_time.h"
#include "models/perf/perf_kernel_model.h"
#include "socmon/perf.h"
#ifdef SOCMON_HAVE_PAPI
#include <papi.h>
#endif

#define N 20000

/* ns per socmon_device_read of every counter, median of 5 batches of N; -1 on failure */
static double time_reads(socmon_device *d)
{
    size_t n = socmon_device_ncounters(d);
    uint32_t idx[64];
    uint64_t v[64];
    for (size_t i = 0; i < n && i < 64; i++)
        idx[i] = (uint32_t)i;
    double b[5];
    for (int k = 0; k < 5; k++) {
        double t0 = bench_now_ns();
        for (int i = 0; i < N; i++)
            if (socmon_device_read(d, idx, n, v) != SOCMON_OK)
                return -1;
        b[k] = (bench_now_ns() - t0) / N;
    }
    return bench_median(b, 5);
}

static void kernel(const char *list, int no_rdpmc, const char *label)
{
    socmon_perf_attr *ev;
    size_t n;
    socmon_device *d;
    if (socmon_perf_event_list_parse(list, NULL, &ev, &n) != SOCMON_OK) {
        printf("  %-44s %s\n", label, socmon_errmsg());
        return;
    }
    socmon_perf_opts o = {.events = ev, .nevents = n, .mode = SOCMON_PERF_THREAD, .no_rdpmc = no_rdpmc};
    if (socmon_perf_device_new("host", &o, &d) != SOCMON_OK) {
        printf("  %-44s not here: %s\n", label, socmon_errmsg());
        free(ev);
        return;
    }
    double ns = time_reads(d);
    int rd = socmon_perf_device_used_rdpmc(d);
    if (!no_rdpmc && !rd)
        printf("  %-44s not available here (no hardware PMU, or cap_user_rdpmc=0): read() was used\n", label);
    else
        printf("  %-44s %8.1f ns per group read\n", label, ns);
    socmon_device_free(d);
    free(ev);
}

static void model(int rdpmc, const char *label)
{
    smn_perf_model *m;
    smn_perf_model_opts mo = {.hw_counters = 4, .rdpmc = rdpmc, .paranoid = 2};
    smn_perf_model_new(&mo, &m);
    socmon_perf_attr *ev;
    size_t n;
    socmon_perf_event_list_parse("{cycles:u,instructions:u}", NULL, &ev, &n);
    socmon_perf_opts o = {.events = ev, .nevents = n, .mode = SOCMON_PERF_THREAD, .sys = smn_perf_model_sys(m)};
    socmon_device *d;
    if (socmon_perf_device_new("model", &o, &d) == SOCMON_OK) {
        printf("  %-44s %8.1f ns per group read (the model, not a kernel)\n", label, time_reads(d));
        socmon_device_free(d);
    }
    free(ev);
    smn_perf_model_free(m);
}

static void papi(void)
{
#ifdef SOCMON_HAVE_PAPI
    int es = PAPI_NULL, rc = PAPI_library_init(PAPI_VER_CURRENT);
    if (rc != PAPI_VER_CURRENT) {
        printf("  %-44s PAPI_library_init failed: %s\n", "PAPI_read (perf::TASK-CLOCK, PAGE-FAULTS)", PAPI_strerror(rc));
        return;
    }
    const PAPI_component_info_t *ci = PAPI_get_component_info(0);
    if ((rc = PAPI_create_eventset(&es)) != PAPI_OK || (rc = PAPI_add_named_event(es, "perf::TASK-CLOCK")) != PAPI_OK ||
        (rc = PAPI_add_named_event(es, "perf::PAGE-FAULTS")) != PAPI_OK || (rc = PAPI_start(es)) != PAPI_OK) {
        printf("  %-44s not here: %s%s%s\n", "PAPI_read (perf::TASK-CLOCK, PAGE-FAULTS)", PAPI_strerror(rc),
               ci && ci->disabled ? "; perf_event component: " : "", ci && ci->disabled ? ci->disabled_reason : "");
        return;
    }
    long long v[2];
    double b[5];
    for (int k = 0; k < 5; k++) {
        double t0 = bench_now_ns();
        for (int i = 0; i < N; i++)
            PAPI_read(es, v);
        b[k] = (bench_now_ns() - t0) / N;
    }
    printf("  %-44s %8.1f ns per read\n", "PAPI_read (perf::TASK-CLOCK, PAGE-FAULTS)", bench_median(b, 5));
    PAPI_stop(es, v);
#else
    printf("  %-44s not built (Debian libpapi-dev missing)\n", "PAPI_read");
#endif
}

int main(void)
{
    printf("bench_perf_read: one group read (task-clock + page-faults unless said)\n");
    kernel("{task-clock,page-faults}", 1, "socmon, read() (kernel)");
    kernel("{cycles:u,instructions:u}", 0, "socmon, rdpmc (kernel, cycles+instructions)");
    papi();
    model(0, "socmon, read() through the kernel model");
    model(1, "socmon, rdpmc through the kernel model");
    return 0;
}
