/* Writes a small recording whose text a hostile source chose: the target, the device, counter
 * units and descriptions and a parameter name hold ESC sequences, CR/LF and a C1 CSI byte, as a
 * .rec file from anywhere might (counter names are identifiers: the device API refuses others).
 * The tests run report on it and check that nothing reaches the terminal raw.
 *
 *   build/rec_hostile OUT */
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "socmon/socmon.h"

static socmon_status no_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)drv, (void)idx, (void)n, (void)out;
    return socmon_fail(SOCMON_EINVAL, "rec_hostile: nothing to read");
}

static const socmon_device_ops ops = {.read = no_read, .destroy = NULL};

static int die(const char *what)
{
    fprintf(stderr, "rec_hostile: %s: %s\n", what, socmon_errmsg());
    return 1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: rec_hostile OUT\n");
        return 2;
    }
    socmon_device *dev = NULL;
    socmon_set *set = NULL;
    if (socmon_device_new("dev\x1b]0;pwned\x07\r\nFORGED-DEVICE", &ops, NULL, &dev) != SOCMON_OK)
        return die("device");
    socmon_counter c = {.name = "a", .instance = "i", .unit = "ev\x1b[1m\nFORGED-UNIT",
                        .desc = "d\x1b[2J\nFORGED-DESC \xc2\x9b" "31m", .width = 32};
    if (socmon_device_add_counter(dev, &c, NULL) != SOCMON_OK)
        return die("counter");
    c.name = "b";
    if (socmon_device_add_counter(dev, &c, NULL) != SOCMON_OK)
        return die("counter");
    if (socmon_device_set_param(dev, "clock\x1b[2J\nFORGED-PARAM", 1e9) != SOCMON_OK)
        return die("parameter");
    if (socmon_set_new(dev, NULL, &set) != SOCMON_OK)
        return die("set");
    int fd = open(argv[1], O_RDWR | O_CREAT | O_TRUNC, 0644);
    if (fd < 0)
        return perror(argv[1]), 1;
    socmon_recwriter_opts o = {.simulated = 1};
    socmon_recwriter *w = NULL;
    if (socmon_recwriter_open(fd, set, "fake\x1b[2J\nFORGED-TARGET", 1000000, &o, &w) != SOCMON_OK)
        return die(argv[1]);
    for (uint64_t k = 0; k < 4; k++) {
        uint64_t v[2] = {10 * k, k};
        socmon_sample s = {.t_ns = 1000000 * (k + 1), .flags = 0, .missed = 0, .n = 2, .v = v};
        if (socmon_recwriter_append(w, &s) != SOCMON_OK)
            return die("append");
    }
    if (socmon_recwriter_close(w) != SOCMON_OK || close(fd) != 0)
        return die(argv[1]);
    socmon_set_free(set);
    socmon_device_free(dev);
    return 0;
}
