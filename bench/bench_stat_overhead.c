/* The wall time `socmon stat -- true` takes next to `perf stat -- true` and a bare `true`, in
 * the same run, interleaved (so both see the same machine), 100 runs each, default events for
 * both. Prints the median and p90 in ms and the ratio socmon/perf (the goal: at most 1). The
 * socmon binary is $SOCMON_BIN or ./socmon; perf is the one on PATH (Debian linux-perf). */
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench_time.h"

#define RUNS 100

extern char **environ;

/* ms one run of argv took (stdout and stderr to /dev/null); -1 if it did not exit 0 */
static double run(char *const argv[])
{
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", 1 /* O_WRONLY */, 0);
    posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", 1, 0);
    pid_t pid;
    double t0 = bench_now_ns() / 1e6;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0)
        return -1;
    int ws;
    waitpid(pid, &ws, 0);
    double t = bench_now_ns() / 1e6 - t0;
    return WIFEXITED(ws) && WEXITSTATUS(ws) == 0 ? t : -1;
}

int main(void)
{
    const char *bin = getenv("SOCMON_BIN") ? getenv("SOCMON_BIN") : "./socmon";
    char *soc[] = {(char *)bin, "stat", "--", "true", NULL};
    char *perf[] = {"perf", "stat", "--", "true", NULL};
    char *bare[] = {"true", NULL};
    double s[RUNS], p[RUNS], b[RUNS];
    int have_perf = run(perf) >= 0, ns = 0, np = 0, nb = 0;
    if (run(soc) < 0) {
        printf("bench_stat_overhead: '%s stat -- true' failed (perf_event unavailable?)\n", bin);
        return 0;
    }
    for (int i = 0; i < RUNS; i++) {
        double t;
        if ((t = run(soc)) >= 0)
            s[ns++] = t;
        if (have_perf && (t = run(perf)) >= 0)
            p[np++] = t;
        if ((t = run(bare)) >= 0)
            b[nb++] = t;
    }
    qsort(s, (size_t)ns, sizeof s[0], bench_cmp_double);
    qsort(p, (size_t)np, sizeof p[0], bench_cmp_double);
    qsort(b, (size_t)nb, sizeof b[0], bench_cmp_double);
    printf("bench_stat_overhead: wall time of a short command, %d runs each, interleaved\n", RUNS);
    printf("  %-26s median %7.3f ms   p90 %7.3f ms\n", "true (bare)", b[nb / 2], b[nb * 9 / 10]);
    printf("  %-26s median %7.3f ms   p90 %7.3f ms\n", "socmon stat -- true", s[ns / 2], s[ns * 9 / 10]);
    if (np) {
        printf("  %-26s median %7.3f ms   p90 %7.3f ms\n", "perf stat -- true", p[np / 2], p[np * 9 / 10]);
        printf("  socmon/perf (median): %.2f (goal <= 1)\n", s[ns / 2] / p[np / 2]);
        printf("  overhead over bare true: socmon %.3f ms, perf %.3f ms\n", s[ns / 2] - b[nb / 2], p[np / 2] - b[nb / 2]);
    } else {
        printf("  perf stat: not installed (Debian linux-perf)\n");
    }
    return 0;
}
