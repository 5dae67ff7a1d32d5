/* How fast the virtual ESP SoC's NoC moves flits (issue 38): flit hops per CPU second, a hop
 * being a router traversal (a flit forwarded by a router into one of its output registers, as the
 * RTL's speed is counted in tests/esp/noc_rtl/README.md). Two runs on the 8x8 SoC file, advanced
 * in 50 us steps as `socmon record -I 50us` does:
 *   - multifft, the built-in workload;
 *   - noc:pattern=uniform at 0.26 flits/cycle/tile (0.9 x the RTL's saturation load, 1..5 flits),
 *     20,000 cycles of injection, then the drain.
 * Prints each run's flit hops, CPU seconds, M flit hops per CPU second and the ratio to ESP's router
 * RTL in Verilator (0.86 M router traversals/s on this VM, 8x8 uniform near saturation, timing the
 * testbench's simulation loop: tests/esp/noc_rtl/README.md, "Speed of the RTL"; `--rtl MHOPS` gives
 * another figure). bench/esp_noc_speed.py runs the same against a build of an older socmon.
 *
 * Measured on the 2-core development VM (shared, RelWithDebInfo; docs/performance.md, "Issue 38"):
 * multifft 24.4 M hops in 9.47 M cycles, 22.9 M flit hops/s best of 7 at load average 2.4-3.3
 * (22.0 before the offer walk, x86-64-v3 clones and plane mask of branch h/nocspeed; 8.2 before the
 * sleeping routers and per-span monitors); uniform 2.11 M hops in 20,030 cycles, 24.5 M flit hops/s
 * (24.0 before; 16.3-17.3 before the branch-free ports, 13.3-14.1 before that). Run it from the
 * source tree, or set SOCMON_SRC to it (a ccache build may record __FILE__ relative to another
 * tree). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "models/esp/esp_soc.h"
#include "socmon/status.h"

static double cpu_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(socmon_esp_soc_desc *d)
{
    char path[4096];
    const char *src = getenv("SOCMON_SRC");
    if (src) {
        snprintf(path, sizeof path, "%s/socs/esp_8x8.soc", src);
    } else {
        const char *f = __FILE__, *slash = strrchr(f, '/');
        int n = slash ? (int)(slash - f) : 1;
        snprintf(path, sizeof path, "%.*s/../socs/esp_8x8.soc", n, slash ? f : ".");
    }
    if (socmon_esp_soc_desc_load(path, d) != SOCMON_OK) {
        fprintf(stderr, "bench_esp_noc: %s\n", socmon_errmsg());
        return -1;
    }
    return 0;
}

static int run(const socmon_esp_soc_desc *d, const char *workload, double rtl_mhops)
{
    socmon_esp_soc *soc;
    if (smn_esp_soc_new(d, &soc) != SOCMON_OK || socmon_esp_soc_start(soc, workload) != SOCMON_OK) {
        fprintf(stderr, "bench_esp_noc: %s: %s\n", workload, socmon_errmsg());
        return 1;
    }
    double t0 = cpu_s();
    int done = 0;
    while (!done)
        if (socmon_esp_soc_advance(soc, 50000, &done) != SOCMON_OK) {
            fprintf(stderr, "bench_esp_noc: %s: %s\n", workload, socmon_errmsg());
            smn_esp_soc_free(soc);
            return 1;
        }
    double cpu = cpu_s() - t0;
    smn_esp_model_stats st;
    smn_esp_soc_stats(soc, &st);
    double mhops = cpu > 0 ? st.flit_hops / cpu / 1e6 : 0;
    printf("esp 8x8 %-44.44s %11llu flit hops %9llu cycles %7.3f CPU s  %6.1f M flit hops/s  %5.0fx the RTL\n",
           workload, (unsigned long long)st.flit_hops, (unsigned long long)st.cycles, cpu, mhops,
           rtl_mhops > 0 ? mhops / rtl_mhops : 0);
    smn_esp_soc_free(soc);
    return 0;
}

int main(int argc, char **argv)
{
    double rtl = 0.86; /* tests/esp/noc_rtl/README.md: 0.86-0.87 M router traversals/s */
    if (argc == 3 && strcmp(argv[1], "--rtl") == 0)
        rtl = atof(argv[2]);
    else if (argc != 1) {
        fprintf(stderr, "usage: bench_esp_noc [--rtl MHOPS]\n");
        return 2;
    }
    socmon_esp_soc_desc d;
    if (load(&d) != 0)
        return 1;
    setvbuf(stdout, NULL, _IOLBF, 0);
    int rc = run(&d, "multifft", rtl);
    rc |= run(&d, "noc:pattern=uniform,rate=0.26,len=mix,seed=1,cycles=20000", rtl);
    return rc;
}
