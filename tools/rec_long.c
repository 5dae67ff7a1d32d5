/* Writes a long recording through the library's writer, fast: COUNTERS 64-bit counters over
 * SAMPLES samples 1 us apart, counter j counting j + 1 events an interval (sample i holds
 * i * (j + 1)), so every column compresses to almost nothing and the totals are known. The tests
 * use it for recordings no load can hold (more than 2^30 values: report streams them).
 *
 *   build/rec_long OUT COUNTERS SAMPLES */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/socmon.h"

static socmon_status no_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)drv, (void)idx, (void)n, (void)out;
    return socmon_fail(SOCMON_EINVAL, "rec_long: the counters are written, not read");
}

static const socmon_device_ops ops = {.read = no_read, .destroy = NULL};

static int die(const char *what)
{
    fprintf(stderr, "rec_long: %s: %s\n", what, socmon_errmsg());
    return 1;
}

int main(int argc, char **argv)
{
    char *e1 = NULL, *e2 = NULL;
    unsigned long long nc = argc == 4 ? strtoull(argv[2], &e1, 10) : 0, ns = argc == 4 ? strtoull(argv[3], &e2, 10) : 0;
    if (argc != 4 || *e1 || *e2 || nc < 1 || nc > 65536 || ns < 1) {
        fprintf(stderr, "usage: rec_long OUT COUNTERS SAMPLES (COUNTERS 1..65536, SAMPLES >= 1)\n");
        return 2;
    }
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    if (socmon_device_new("long", &ops, NULL, &dev) != SOCMON_OK)
        return die("device");
    for (unsigned long long j = 0; j < nc; j++) {
        char name[32];
        snprintf(name, sizeof name, "c%llu", j);
        socmon_counter c = {.name = name, .instance = "", .desc = "counts j + 1 an interval", .unit = "events",
                            .width = 64, .reg = j};
        if (socmon_device_add_counter(dev, &c, NULL) != SOCMON_OK)
            return die("counter");
    }
    if (socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return die("set");
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return perror(argv[1]), 1;
    socmon_recwriter_opts o = {.simulated = 1, .level = 1};
    socmon_recwriter *w = NULL;
    if (socmon_recwriter_open(fd, set, "long", 1000, &o, &w) != SOCMON_OK)
        return die(argv[1]);
    uint64_t *v = calloc(nc, sizeof *v);
    if (!v)
        return fprintf(stderr, "rec_long: out of memory\n"), 1;
    socmon_sample s = {.n = nc, .v = v};
    for (unsigned long long i = 0; i < ns; i++) {
        s.t_ns = i * 1000;
        for (unsigned long long j = 0; j < nc; j++)
            v[j] = i * (j + 1);
        if (socmon_recwriter_append(w, &s) != SOCMON_OK)
            return die("append");
    }
    if (socmon_recwriter_close(w) != SOCMON_OK || close(fd) != 0)
        return die(argv[1]);
    free(v);
    socmon_set_free(set);
    socmon_device_free(dev);
    return 0;
}
