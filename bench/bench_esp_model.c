/* How fast the virtual ESP SoC simulates: every built-in workload on the
 * 2x3 default and the 4x4 and 8x8 SoC files, advanced in 200 us steps as
 * `socmon record -I 200us` does. Prints simulated time, host time, the
 * simulation rate, NoC flits moved, and peak memory. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "models/esp/esp_soc.h"
#include "socmon/status.h"

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int load(const char *name, socmon_esp_soc_desc *d)
{
    char path[4096];
    const char *src = getenv("SOCMON_SRC");
    if (src) {
        snprintf(path, sizeof path, "%s/socs/%s", src, name);
    } else {
        /* The source tree from this file's own path: bench/../socs. */
        const char *f = __FILE__, *slash = strrchr(f, '/');
        int n = slash ? (int)(slash - f) : 1;
        snprintf(path, sizeof path, "%.*s/../socs/%s", n, slash ? f : ".", name);
    }
    if (socmon_esp_soc_desc_load(path, d) != SOCMON_OK) {
        fprintf(stderr, "bench_esp_model: %s\n", socmon_errmsg());
        return -1;
    }
    return 0;
}

int main(void)
{
    static const char *const socs[] = {NULL, "esp_4x4.soc", "esp_8x8.soc"};
    static const char *const labels[] = {"2x3", "4x4", "8x8"};
    setvbuf(stdout, NULL, _IOLBF, 0); /* a line per result as it comes */
    printf("ESP model: workloads advanced in 200 us steps\n");
    for (unsigned s = 0; s < 3; s++) {
        socmon_esp_soc_desc d;
        if (!socs[s])
            socmon_esp_soc_desc_default(&d);
        else if (load(socs[s], &d) != 0)
            return 1;
        for (const char *const *w = socmon_esp_workloads(); *w; w++) {
            socmon_esp_soc *soc;
            if (smn_esp_soc_new(&d, &soc) != SOCMON_OK || socmon_esp_soc_start(soc, *w) != SOCMON_OK) {
                fprintf(stderr, "bench_esp_model: %s\n", socmon_errmsg());
                return 1;
            }
            double t0 = now_s();
            int done = 0;
            unsigned steps = 0;
            while (!done) {
                if (socmon_esp_soc_advance(soc, 200000, &done) != SOCMON_OK) {
                    fprintf(stderr, "bench_esp_model: %s\n", socmon_errmsg());
                    return 1;
                }
                steps++;
            }
            double host = now_s() - t0;
            smn_esp_model_stats st;
            smn_esp_soc_stats(soc, &st);
            uint64_t flits = 0;
            for (unsigned p = 0; p < 6; p++)
                flits += st.flits_injected[p];
            printf("esp model %s %-10s: %8.3f ms simulated (%9llu cycles, %3u steps) in %7.3f s host"
                   " = %6.2f Mcycles/s, %9llu flits\n",
                   labels[s], *w, st.cycles / d.clock_hz * 1e3, (unsigned long long)st.cycles, steps,
                   host, host > 0 ? st.cycles / host / 1e6 : 0.0, (unsigned long long)flits);
            smn_esp_soc_free(soc);
        }
    }
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("esp model: peak RSS %.1f MiB\n", ru.ru_maxrss / 1024.0);
    return 0;
}
