/* Copies a recording with some samples dropped as gaps the writer declares
 * (socmon_recwriter_skip_to), the way a collector records samples its agent
 * lost: the tests use it to make recordings with gaps from real ones.
 *
 *   build/rec_gap IN OUT ROW:COUNT [ROW:COUNT ...]
 *
 * drops COUNT samples starting at timeline position ROW (0 is the first
 * sample); the ranges must be in order and not overlap. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/socmon.h"

static socmon_status no_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)drv, (void)idx, (void)n, (void)out;
    return socmon_fail(SOCMON_EINVAL, "rec_gap: a recording's schema cannot be read");
}

static const socmon_device_ops ops = {.read = no_read, .destroy = NULL};

static int die(const char *what)
{
    fprintf(stderr, "rec_gap: %s: %s\n", what, socmon_errmsg());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: rec_gap IN OUT ROW:COUNT [ROW:COUNT ...]\n");
        return 2;
    }
    uint64_t from[64], to[64];
    int ng = argc - 3;
    if (ng > 64)
        return fprintf(stderr, "rec_gap: at most 64 gaps\n"), 2;
    for (int g = 0; g < ng; g++) {
        char *end;
        unsigned long long r = strtoull(argv[3 + g], &end, 10), c = 0;
        if (*end == ':')
            c = strtoull(end + 1, &end, 10);
        if (*end || !c || (g && r < to[g - 1]))
            return fprintf(stderr, "rec_gap: bad range '%s' (ROW:COUNT, in order, COUNT >= 1)\n", argv[3 + g]), 2;
        from[g] = r, to[g] = r + c;
    }
    socmon_recording *rec = NULL;
    if (socmon_recording_load(argv[1], &rec) != SOCMON_OK)
        return die(argv[1]);
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    if (socmon_device_new(socmon_recording_device(rec), &ops, NULL, &dev) != SOCMON_OK)
        return die("device");
    size_t n = socmon_recording_ncounters(rec);
    for (size_t j = 0; j < n; j++)
        if (socmon_device_add_counter(dev, &socmon_recording_counters(rec)[j], NULL) != SOCMON_OK)
            return die("counter");
    for (size_t i = 0; i < socmon_recording_nparams(rec); i++)
        if (socmon_device_set_param(dev, socmon_recording_param_names(rec)[i],
                                    socmon_recording_param_values(rec)[i]) != SOCMON_OK)
            return die("parameter");
    if (socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return die("set");
    int fd = open(argv[2], O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return perror(argv[2]), 1;
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    socmon_recwriter_opts o = {.simulated = !in.clock_known ? 0 : in.simulated ? 1 : -1};
    socmon_recwriter *w = NULL;
    if (socmon_recwriter_open(fd, set, socmon_recording_target(rec), socmon_recording_interval_ns(rec), &o, &w) !=
        SOCMON_OK)
        return die(argv[2]);
    uint64_t *v = calloc(n + 1, sizeof *v);
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = n, .v = v};
    socmon_timeline *tl = socmon_recording_timeline(rec);
    int g = 0;
    for (uint64_t row = 0; row < socmon_timeline_len(tl); row++) {
        if (g < ng && row == from[g]) {
            row = to[g++] - 1;
            if (socmon_recwriter_skip_to(w, row + 1) != SOCMON_OK)
                return die("skip");
            continue;
        }
        if (socmon_timeline_get(tl, row, &s) != SOCMON_OK || socmon_recwriter_append(w, &s) != SOCMON_OK)
            return die("append");
    }
    if (socmon_recwriter_close(w) != SOCMON_OK || close(fd) != 0)
        return die(argv[2]);
    free(v);
    socmon_set_free(set);
    socmon_device_free(dev);
    socmon_recording_free(rec);
    return 0;
}
