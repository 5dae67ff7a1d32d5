/* bench_esp_record: how many samples per second `socmon record` takes on an
 * 8x8 ESP SoC with every monitor (2,840 counters), at -I 50us, and where the
 * time goes. The same run is made three times, each adding one stage:
 *
 *   model   the workload model advanced 50 us at a time, nothing read
 *   +read   the sampler: every counter read through the bus each interval
 *           (freeze, read, release per tile, as on silicon) and the deltas
 *   +write  the recording writer too (what `record -q` does: one file, one
 *           fdatasync per second), i.e. the local record rate
 *
 * so each stage's cost per sample is the difference of two rows. Rates are
 * per CPU second of this process (the machine may be shared; wall-clock
 * figures follow). Workloads: multifft (the acceptance run, 28 ms simulated)
 * and idle, whose model costs nothing, run as long: idle is the rate of the
 * sampling path alone.
 *
 * Usage: bench_esp_record [SOC_FILE [WORKLOAD...]]  (default: socs/esp_8x8.soc,
 * multifft idle). Not a test: it prints figures, it asserts nothing. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "socmon/socmon.h"

#define INTERVAL_NS 50000u

typedef struct run_figures {
    uint64_t samples;
    double cpu_s, wall_s;
    uint64_t bytes;
} run_figures;

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

typedef struct writer_ctx {
    socmon_recwriter *w;
    uint64_t n;
    double next_flush;
} writer_ctx;

static socmon_status on_sample(void *user, const socmon_sample *prev, const socmon_sample *cur,
                               const uint64_t *deltas)
{
    (void)deltas;
    writer_ctx *c = user;
    if (!c->w)
        return SOCMON_OK;
    socmon_status st;
    if (c->n++ == 0 && (st = socmon_recwriter_append(c->w, prev)) != SOCMON_OK)
        return st;
    if ((st = socmon_recwriter_append(c->w, cur)) != SOCMON_OK)
        return st;
    double now = clock_s(CLOCK_MONOTONIC);
    if (now >= c->next_flush) { /* record's default --flush 1s */
        c->next_flush = now + 1.0;
        return socmon_recwriter_flush(c->w);
    }
    return SOCMON_OK;
}

/* stage 0: model only; 1: + sampler reads; 2: + recording writer. A run
 * lasts duration_ns of simulated time, 0: until the workload is done. */
static int run(const char *spec, const char *workload, int stage, uint64_t duration_ns,
               run_figures *f)
{
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    writer_ctx wc = {0};
    char path[] = "/tmp/bench_esp_record_XXXXXX";
    int fd = -1, rc = 1;
    memset(f, 0, sizeof *f);
    if (socmon_target_open(spec, &t) != SOCMON_OK || socmon_target_start(t, workload) != SOCMON_OK)
        goto out;
    if (socmon_set_new(socmon_target_device(t), "*", &set) != SOCMON_OK)
        goto out;
    if (stage == 2) {
        if ((fd = mkstemp(path)) < 0) {
            perror("bench_esp_record: mkstemp");
            goto out;
        }
        unlink(path);
        socmon_recwriter_opts wo = {.flush_ns = 1000000000u, .simulated = 1};
        if (socmon_recwriter_open(fd, set, spec, INTERVAL_NS, &wo, &wc.w) != SOCMON_OK)
            goto out;
        wc.next_flush = clock_s(CLOCK_MONOTONIC) + 1.0;
    }
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID), w0 = clock_s(CLOCK_MONOTONIC);
    if (stage == 0) {
        int done = 0;
        while (duration_ns ? f->samples * INTERVAL_NS < duration_ns : !done) {
            if (socmon_target_advance(t, INTERVAL_NS, &done) != SOCMON_OK)
                goto out;
            f->samples++;
        }
    } else {
        socmon_sampler_opts so = {.interval_ns = INTERVAL_NS, .duration_ns = duration_ns};
        socmon_sampler_stats ss = {0};
        if (socmon_sampler_run(t, set, &so, NULL, on_sample, &wc, &ss) != SOCMON_OK)
            goto out;
        f->samples = ss.samples;
        if (wc.w) {
            socmon_recwriter_stats ws;
            socmon_status st = socmon_recwriter_flush(wc.w);
            socmon_recwriter_get_stats(wc.w, &ws);
            f->bytes = ws.bytes;
            st = st != SOCMON_OK ? st : socmon_recwriter_close(wc.w);
            wc.w = NULL;
            if (st != SOCMON_OK)
                goto out;
        }
    }
    f->cpu_s = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    f->wall_s = clock_s(CLOCK_MONOTONIC) - w0;
    rc = 0;
out:
    if (rc)
        fprintf(stderr, "bench_esp_record: %s, %s: %s\n", spec, workload, socmon_errmsg());
    socmon_recwriter_close(wc.w);
    if (fd >= 0)
        close(fd);
    socmon_set_free(set);
    socmon_target_close(t);
    return rc;
}

static void default_soc(char *buf, size_t len)
{
    const char *src = getenv("SOCMON_SRC");
    if (src) {
        snprintf(buf, len, "%s/socs/esp_8x8.soc", src);
    } else {
        /* The source tree from this file's own path: bench/../socs. */
        const char *f = __FILE__, *slash = strrchr(f, '/');
        int n = slash ? (int)(slash - f) : 1;
        snprintf(buf, len, "%.*s/../socs/esp_8x8.soc", n, slash ? f : ".");
    }
}

int main(int argc, char **argv)
{
    if (argc > 1 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
        printf("usage: bench_esp_record [SOC_FILE [WORKLOAD...]]\n"
               "Samples/s of a local record at -I 50us (default: socs/esp_8x8.soc, "
               "workloads multifft and idle), by stage: model, +read, +write.\n");
        return 0;
    }
    char soc[4096], spec[4200];
    if (argc > 1)
        snprintf(soc, sizeof soc, "%s", argv[1]);
    else
        default_soc(soc, sizeof soc);
    snprintf(spec, sizeof spec, "esp:soc=%s", soc);
    static const char *const defaults[] = {"multifft", "idle"};
    const char *const *wl = argc > 2 ? (const char *const *)argv + 2 : defaults;
    int nwl = argc > 2 ? argc - 2 : 2;
    static const char *const stage_names[] = {"model", "+read", "+write"};
    setvbuf(stdout, NULL, _IOLBF, 0);
    printf("local record, %s, -I 50us, all counters (samples/s per CPU second; us per sample)\n",
           soc);
    printf("  %-10s %-7s %8s %12s %10s %12s %10s\n", "workload", "stage", "samples",
           "samples/s", "us/sample", "wall samp/s", "B/sample");
    uint64_t first_ns = 0; /* every workload runs as long as the first one does */
    for (int w = 0; w < nwl; w++) {
        double prev_us = 0;
        for (int stage = 0; stage < 3; stage++) {
            run_figures f;
            if (run(spec, wl[w], stage, w ? first_ns : 0, &f) != 0)
                return 1;
            if (w == 0 && stage == 0)
                first_ns = f.samples * INTERVAL_NS;
            double us = f.samples ? f.cpu_s * 1e6 / (double)f.samples : 0;
            printf("  %-10s %-7s %8llu %12.0f %10.1f %12.0f", wl[w], stage_names[stage],
                   (unsigned long long)f.samples, f.cpu_s > 0 ? f.samples / f.cpu_s : 0, us,
                   f.wall_s > 0 ? f.samples / f.wall_s : 0);
            if (stage == 2)
                printf(" %10.0f", f.samples ? (double)f.bytes / (double)f.samples : 0);
            if (stage > 0)
                printf("   (stage: %.1f us/sample)", us - prev_us);
            printf("\n");
            prev_us = us;
        }
    }
    return 0;
}
