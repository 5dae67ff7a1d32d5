/* Timeline and recording figures: memory per sample, append and iteration
 * cost, random access cost, and save/load throughput, for 1 M and 10 M
 * samples of 8 and 64 counters.
 *
 * The counters move the way hardware counters do between 1 ms samples: a
 * cycle counter at 78 MHz, event counters spread over five decades of rate
 * (10..10^5 a millisecond, with +-25% noise), and a few that barely move;
 * half of them are 32-bit and wrap. In-memory figures are CPU time; save and
 * load give wall time (with fsync and page cache) and CPU time.
 * Usage: bench_timeline [max_samples]   (default 10000000) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "recording/recording_internal.h" /* builds a recording field by field */
#include "socmon/timeline.h"
#include "support/clock.h"
#include "support/rng.h"

static double now_s(void)
{
    return clock_seconds(CLOCK_MONOTONIC);
}

/* CPU time of this thread: the figures should not depend on what else the
 * machine is running; wall time is printed too where the disk matters. */
static double cpu_s(void)
{
    return clock_seconds(CLOCK_THREAD_CPUTIME_ID);
}

/* Mean increments per 1 ms interval of counter j. */
static uint64_t rate_of(size_t j)
{
    static const uint64_t rates[] = {78000, 10, 100, 1000, 10000, 100000, 0, 3};
    return rates[j % (sizeof rates / sizeof rates[0])];
}

static int die(const char *what)
{
    fprintf(stderr, "bench_timeline: %s: %s\n", what, socmon_errmsg());
    return 1;
}

static int run(size_t n, size_t nc)
{
    socmon_recording *rec = calloc(1, sizeof *rec);
    if (!rec)
        return 1;
    rec->target = strdup("bench");
    rec->device = strdup("synthetic");
    rec->interval_ns = 1000000;
    rec->ncounters = nc;
    rec->counters = calloc(nc, sizeof *rec->counters);
    uint64_t *v = calloc(nc, sizeof *v);
    if (!rec->counters || !v)
        return 1;
    for (size_t j = 0; j < nc; j++) {
        char name[32];
        snprintf(name, sizeof name, "c%zu", j);
        rec->counters[j] = (socmon_counter){.name = strdup(name), .instance = strdup(""),
            .desc = strdup(""), .unit = strdup("events"),
                                            .width = j % 2 ? 32 : 64, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
    }
    if (socmon_timeline_new(nc, &rec->tl) != SOCMON_OK)
        return die("timeline_new");

    /* Increments come from a table made beforehand, so the timing below is
     * the timeline's and not the random number generator's. */
    enum { NINC = 4096 };
    uint64_t r = 1, *inc = malloc(NINC * nc * sizeof *inc), *dt = malloc(NINC * sizeof *dt);
    if (!inc || !dt)
        return 1;
    for (size_t i = 0; i < NINC; i++) {
        dt[i] = 1000000 + (rng_next(&r) & 0x3ff); /* up to 1 us of jitter */
        for (size_t j = 0; j < nc; j++) {
            uint64_t m = rate_of(j), noise = rng_next(&r) & 0xffff; /* m +- 25% */
            inc[i * nc + j] = m - m / 4 + (m / 2) * noise / 0xffff;
        }
    }
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = nc, .v = v};
    double t0 = cpu_s();
    for (size_t i = 0; i < n; i++) {
        const uint64_t *d = inc + (i % NINC) * nc;
        s.t_ns += dt[i % NINC];
        s.missed = i % 99991 == 0 ? 1 : 0; /* a rare missed interval */
        s.flags = s.missed ? 1 : 0;
        for (size_t j = 0; j < nc; j++)
            v[j] = j % 2 ? (v[j] + d[j]) & 0xffffffffu : v[j] + d[j]; /* odd ones are 32-bit */
        if (socmon_timeline_append(rec->tl, &s) != SOCMON_OK)
            return die("append");
    }
    free(inc);
    free(dt);
    double t_append = cpu_s() - t0;

    socmon_timeline_iter it;
    if (socmon_timeline_iter_init(rec->tl, &it) != SOCMON_OK)
        return die("iter_init");
    uint64_t sum = 0;
    t0 = cpu_s();
    while (socmon_timeline_iter_next(&it, &s) == SOCMON_OK)
        sum += s.v[0];
    double t_iter = cpu_s() - t0;
    socmon_timeline_iter_free(&it);

    const size_t gets = 20000;
    t0 = cpu_s();
    for (size_t i = 0; i < gets; i++) {
        if (socmon_timeline_get(rec->tl, rng_next(&r) % n, &s) != SOCMON_OK)
            return die("get");
        sum += s.v[0];
    }
    double t_get = cpu_s() - t0;

    size_t bytes = socmon_timeline_bytes(rec->tl);
    double raw = (double)n * (double)(8 + 4 + 4 + 8 * nc);
    printf("timeline %5zu k samples x %2zu counters: %6.2f bytes/sample (raw %4.0f, %4.1f%%), "
           "%6.1f MB; append %6.1f ns/sample (%5.2f ns/value), iterate %6.1f ns/sample, "
           "get %7.0f ns\n",
           n / 1000, nc, (double)bytes / (double)n, raw / (double)n, 100.0 * (double)bytes / raw,
           (double)bytes / 1e6, t_append * 1e9 / (double)n, t_append * 1e9 / (double)n / (double)nc,
           t_iter * 1e9 / (double)n, t_get * 1e9 / (double)gets);

    char path[] = "/tmp/socmon-bench-XXXXXX";
    double c0;
    int fd = mkstemp(path);
    if (fd < 0)
        return 1;
    close(fd);
    t0 = now_s();
    c0 = cpu_s();
    if (socmon_recording_save(rec, path) != SOCMON_OK)
        return die("save");
    double t_save = now_s() - t0, c_save = cpu_s() - c0;
    FILE *f = fopen(path, "rb");
    fseek(f, 0, SEEK_END);
    double fsize = (double)ftell(f);
    fclose(f);
    socmon_recording *back = NULL;
    t0 = now_s();
    c0 = cpu_s();
    if (socmon_recording_load(path, &back) != SOCMON_OK)
        return die("load");
    double t_load = now_s() - t0, c_load = cpu_s() - c0;
    unlink(path);
    if (socmon_timeline_len(back->tl) != n)
        return die("load length");
    printf("recording %4zu k samples x %2zu counters: file %7.1f MB, save %5.0f MB/s "
           "(CPU %5.0f), load (validating) %5.0f MB/s (CPU %5.0f)\n",
           n / 1000, nc, fsize / 1e6, fsize / 1e6 / t_save, fsize / 1e6 / c_save,
           fsize / 1e6 / t_load, fsize / 1e6 / c_load);
    fflush(stdout);
    socmon_recording_free(back);
    socmon_recording_free(rec);
    free(v);
    return sum == 42 ? 2 : 0; /* keeps the reads from being optimised away */
}

int main(int argc, char **argv)
{
    size_t max = argc > 1 ? strtoull(argv[1], NULL, 10) : 10000000;
    static const size_t ns[] = {1000000, 10000000};
    static const size_t ncs[] = {8, 64};
    for (size_t a = 0; a < 2; a++)
        for (size_t b = 0; b < 2; b++)
            if (ns[a] <= max && run(ns[a], ncs[b]) != 0)
                return 1;
    return 0;
}
