/* Recording format v2 figures (docs/recording-format.md, "Figures"):
 *
 * 1. bytes per counter value, whole file included, of real timelines
 *    recorded from the models (ESP multifft with its 259 counters at 1 us,
 *    Tensix and Zynq), in v1 and in v2 with both column layouts and three
 *    zstd levels: the measurements behind the defaults;
 * 2. the streaming writer's throughput (samples/s, wall and CPU) and peak RSS
 *    (getrusage ru_maxrss) for a 10-million-sample recording of 8 counters
 *    moving as hardware counters do, written to a file in /tmp (deleted
 *    after), flushed (fdatasync) every million samples.
 * Usage: bench_recording [samples]   (default 10000000) */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "recording/recording_internal.h"
#include "recording/recording_v2.h"
#include "socmon/sampler.h"
#include "socmon/target.h"
#include "support/clock.h"
#include "support/fake.h"
#include "support/rng.h"

static long maxrss_kb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

static int die(const char *what)
{
    fprintf(stderr, "bench_recording: %s: %s\n", what, socmon_errmsg());
    return 1;
}

/* ---- 2. the writer at 10 M samples ---- */
static int writer_run(size_t n)
{
    static const uint64_t rates[] = {78000, 10, 100, 1000, 10000, 100000, 0, 3};
    enum { NC = 8 };
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    if (socmon_device_new("synthetic", &fake_index_ops, NULL, &dev) != SOCMON_OK)
        return die("device_new");
    for (size_t j = 0; j < NC; j++) {
        char name[16];
        snprintf(name, sizeof name, "c%zu", j);
        socmon_counter c = {.name = name, .instance = "", .desc = "", .unit = "events",
            .width = j % 2 ? 32 : 64, .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
        if (socmon_device_add_counter(dev, &c, NULL) != SOCMON_OK)
            return die("add_counter");
    }
    if (socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return die("set_new");
    char path[] = "/tmp/socmon-bench-rec-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return die("mkstemp");
    long rss0 = maxrss_kb();
    socmon_recwriter *w = NULL;
    socmon_recwriter_opts o = {.flush_ns = 1000000000};
    if (socmon_recwriter_open(fd, set, "bench", 1000000, &o, &w) != SOCMON_OK)
        return die("recwriter_open");
    uint64_t v[NC] = {0}, seed = 1;
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = NC, .v = v};
    /* increments drawn beforehand, so the timing is the writer's */
    enum { TABLE = 4096 };
    static uint64_t inc[TABLE][NC];
    for (size_t i = 0; i < TABLE; i++)
        for (size_t j = 0; j < NC; j++)
            inc[i][j] = rates[j] ? rates[j] - rates[j] / 4 + rng_next(&seed) % (rates[j] / 2 + 1) : 0;
    double w0 = clock_seconds(CLOCK_MONOTONIC), c0 = clock_seconds(CLOCK_PROCESS_CPUTIME_ID);
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        s.t_ns += 1000000;
        for (size_t j = 0; j < NC; j++)
            v[j] = (v[j] + inc[i % TABLE][j]) & (j % 2 ? 0xffffffffu : UINT64_MAX);
        st = socmon_recwriter_append(w, &s);
        if (st == SOCMON_OK && i % 1000000 == 999999)
            st = socmon_recwriter_flush(w);
    }
    /* close writes the last block and frees w: count blocks after a flush, before close */
    if (st == SOCMON_OK)
        st = socmon_recwriter_flush(w);
    socmon_recwriter_stats ws;
    socmon_recwriter_get_stats(w, &ws);
    if (st != SOCMON_OK || (st = socmon_recwriter_close(w)) != SOCMON_OK) {
        unlink(path);
        return die("writing");
    }
    close(fd);
    double wall = clock_seconds(CLOCK_MONOTONIC) - w0, cpu = clock_seconds(CLOCK_PROCESS_CPUTIME_ID) - c0;
    struct stat sb;
    stat(path, &sb);
    unlink(path);
    printf("writer: %zu samples x %d counters to /tmp: %.2f M samples/s wall, %.2f M samples/s CPU; "
           "%.3f bytes/value (%lld bytes, %llu blocks); peak RSS %ld kB (before the writer %ld kB)\n",
           n, NC, (double)n / wall / 1e6, (double)n / cpu / 1e6, (double)sb.st_size / ((double)n * NC),
           (long long)sb.st_size, (unsigned long long)ws.blocks, maxrss_kb(), rss0);
    socmon_set_free(set);
    socmon_device_free(dev);
    return 0;
}

/* ---- 1. real timelines ---- */
static socmon_status no_op(void *user, const socmon_sample *prev, const socmon_sample *cur, const uint64_t *d)
{
    return SOCMON_OK;
}

static long long v2_bytes(const socmon_recording *rec, int fd, int layout, int level)
{
    if (ftruncate(fd, 0) != 0 || lseek(fd, 0, SEEK_SET) != 0)
        return -1;
    socmon_recwriter_opts o = {.level = level};
    if (smn_recording_write_fd(rec, fd, &o, layout) != SOCMON_OK)
        return -1;
    struct stat sb;
    return fstat(fd, &sb) == 0 ? (long long)sb.st_size : -1;
}

static int timeline_run(const char *spec, const char *workload, uint64_t interval_ns, uint64_t duration_ns)
{
    socmon_target *t = NULL;
    socmon_set *set = NULL;
    socmon_recording *rec = NULL;
    socmon_sampler_stats ss;
    if (socmon_target_open(spec, &t) != SOCMON_OK || socmon_set_new(socmon_target_device(t), NULL, &set) != SOCMON_OK ||
        socmon_recording_new(set, spec, interval_ns, &rec) != SOCMON_OK || socmon_target_start(t, workload) != SOCMON_OK)
        return die(spec);
    socmon_sampler_opts so = {.interval_ns = interval_ns, .duration_ns = duration_ns};
    if (socmon_sampler_run(t, set, &so, socmon_recording_timeline(rec), no_op, NULL, &ss) != SOCMON_OK)
        return die("sampler_run");
    size_t n = socmon_timeline_len(socmon_recording_timeline(rec)), nc = socmon_recording_ncounters(rec);
    double values = (double)n * (double)nc;
    uint8_t *buf;
    size_t v1;
    if (smn_recording_serialize(rec, &buf, &v1) != SOCMON_OK)
        return die("serialize");
    free(buf);
    char path[] = "/tmp/socmon-bench-tl-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return die("mkstemp");
    printf("%-8s %-9s I=%-6.0fns %6zu samples x %3zu counters: v1 %.3f", spec, workload ? workload : "default",
           (double)interval_ns, n, nc, (double)v1 / values);
    static const int levels[] = {3, 9, 19};
    for (int layout = 0; layout <= 1; layout++)
        for (size_t k = 0; k < 3; k++)
            printf(" | %s/%d %.3f", layout ? "planes" : "varint", levels[k],
                   (double)v2_bytes(rec, fd, layout, levels[k]) / values);
    printf("  bytes/value\n");
    close(fd);
    unlink(path);
    socmon_recording_free(rec);
    socmon_set_free(set);
    socmon_target_close(t);
    return 0;
}

int main(int argc, char **argv)
{
    size_t n = 10000000;
    if (argc > 1) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(argv[1], &end, 10);
        if (argc > 2 || errno || end == argv[1] || *end || v == 0 || argv[1][0] == '-') {
            fprintf(stderr, "usage: bench_recording [SAMPLES]\n  SAMPLES: how many samples the writer bench writes "
                            "(a whole number > 0, default 10000000); got '%s'\n", argv[1]);
            return 2;
        }
        n = (size_t)v;
    }
    /* the writer first, so its peak RSS is its own */
    if (writer_run(n))
        return 1;
    printf("bytes per counter value, whole file (v1; v2 as layout/zstd level; default planes/%d):\n",
           SOCMON_REC2_DEFAULT_LEVEL);
    if (timeline_run("esp", "multifft", 1000, 0) || timeline_run("tensix", NULL, 100, 0) ||
        timeline_run("tensix", NULL, 10000, 100000000) || timeline_run("zynq", NULL, 1000000, 0))
        return 1;
    return 0;
}
