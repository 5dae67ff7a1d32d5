/* What a counter read costs through the bus layer.
 *
 * A regdev device over the model bus with a trivial register model, so the
 * figures are the cost of socmon itself (device dispatch, bus dispatch, model
 * lookup, hi-lo-hi), not of any hardware. Also the raw read32 cost of an mmio
 * bus over a mapped temp file, the floor a real device mapping starts from. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "drivers/generic/regdev.h"
#include "socmon/bus.h"
#include "socmon/sample.h"

#define NCTR 64
#define MIN_NS 200000000ull /* run each figure for at least 0.2 s */

/* NCTR counters seen two ways: region 0 holds them as 32-bit registers at
 * 4*k, region 1 as lo/hi pairs at 8*k and 8*k+4. Each read ticks the counter,
 * so the values move like real ones. */
typedef struct regs {
    uint64_t c[NCTR];
} regs;

static socmon_status r32_read(void *model, uint64_t off, uint32_t *val)
{
    regs *r = model;
    uint64_t k = off / 4;
    *val = (uint32_t)r->c[k]++;
    return SOCMON_OK;
}

static socmon_status r64_read(void *model, uint64_t off, uint32_t *val)
{
    regs *r = model;
    uint64_t k = off / 8;
    *val = off % 8 ? (uint32_t)(r->c[k] >> 32) : (uint32_t)r->c[k]++;
    return SOCMON_OK;
}

static const socmon_regmodel_ops ops32 = {.read = r32_read};
static const socmon_regmodel_ops ops64 = {.read = r64_read};

static uint64_t now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, socmon_status st)
{
    fprintf(stderr, "bench_bus: %s: %s: %s\n", what, socmon_status_name(st), socmon_errmsg());
    exit(1);
}

/* ns per call of one counter read, device-level. */
static double ns_per_read(socmon_device *dev, uint32_t first)
{
    uint64_t v, iters = 0, t0 = now_ns(), t;
    do {
        for (uint32_t i = 0; i < 4096; i++) {
            uint32_t idx = first + (i % NCTR);
            socmon_status st = socmon_device_read(dev, &idx, 1, &v);
            if (st != SOCMON_OK)
                die("socmon_device_read", st);
        }
        iters += 4096;
    } while ((t = now_ns()) - t0 < MIN_NS);
    return (double)(t - t0) / (double)iters;
}

static void bench_sample(socmon_device *dev, socmon_bus *bus, const char *pattern, const char *label)
{
    socmon_set *set;
    socmon_sample s;
    socmon_status st = socmon_set_new(dev, pattern, &set);
    if (st != SOCMON_OK)
        die("socmon_set_new", st);
    if ((st = socmon_sample_alloc(set, &s)) != SOCMON_OK)
        die("socmon_sample_alloc", st);
    socmon_bus_stats_reset(bus);
    uint64_t iters = 0, t0 = now_ns(), t;
    do {
        for (int i = 0; i < 256; i++)
            if ((st = socmon_set_read(set, iters + (uint64_t)i, &s)) != SOCMON_OK)
                die("socmon_set_read", st);
        iters += 256;
    } while ((t = now_ns()) - t0 < MIN_NS);
    socmon_bus_stats bs;
    socmon_bus_stats_get(bus, &bs);
    printf("model bus: %.1f ns/sample (%zu-counter set, %s), %.1f bus reads/sample\n",
           (double)(t - t0) / (double)iters, socmon_set_size(set), label,
           (double)bs.reads / (double)iters);
    socmon_sample_free(&s);
    socmon_set_free(set);
}

static void bench_mmio(void)
{
    char path[] = "/tmp/socmon-bench-bus-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0 || ftruncate(fd, 4096) != 0) {
        fprintf(stderr, "bench_bus: cannot create a temp file, skipping the mmio figure\n");
        if (fd >= 0)
            close(fd);
        return;
    }
    close(fd);
    socmon_bus *bus;
    socmon_status st = socmon_bus_mmio_open(path, 0, 4096, &bus);
    unlink(path);
    if (st != SOCMON_OK)
        die("socmon_bus_mmio_open", st);
    uint32_t v, sum = 0;
    uint64_t iters = 0, t0 = now_ns(), t;
    do {
        for (uint64_t a = 0; a < 4096; a += 4) {
            socmon_bus_read32(bus, a, &v);
            sum += v;
        }
        iters += 1024;
    } while ((t = now_ns()) - t0 < MIN_NS);
    printf("mmio bus (mapped file): %.1f ns/read32 (checksum %u)\n",
           (double)(t - t0) / (double)iters, sum);
    socmon_bus_free(bus);
}

int main(void)
{
    static regs r32, r64;
    socmon_counter c[2 * NCTR];
    char names[2 * NCTR][16];
    for (int k = 0; k < NCTR; k++) {
        snprintf(names[k], sizeof names[k], "c%d", k);
        snprintf(names[NCTR + k], sizeof names[NCTR + k], "c%d", k);
        c[k] = (socmon_counter){.name = names[k], .instance = "w32", .unit = "events",
                                .width = 32, .reg = 0x1000 + 4u * (unsigned)k};
        c[NCTR + k] = (socmon_counter){.name = names[NCTR + k], .instance = "w64",
                                       .unit = "events", .width = 64,
                                       .reg = 0x2000 + 8u * (unsigned)k,
                                       .reg_hi = 0x2000 + 8u * (unsigned)k + 4};
    }

    socmon_bus *bus;
    socmon_device *dev;
    socmon_status st;
    if ((st = socmon_bus_model_new(&bus)) != SOCMON_OK)
        die("socmon_bus_model_new", st);
    if ((st = socmon_bus_model_map(bus, 0x1000, 4 * NCTR, &ops32, &r32)) != SOCMON_OK ||
        (st = socmon_bus_model_map(bus, 0x2000, 8 * NCTR, &ops64, &r64)) != SOCMON_OK)
        die("socmon_bus_model_map", st);
    if ((st = smn_regdev_new("bench", bus, c, 2 * NCTR, &dev)) != SOCMON_OK)
        die("smn_regdev_new", st);

    double n32 = ns_per_read(dev, 0), n64 = ns_per_read(dev, NCTR);
    printf("model bus: %.1f ns/counter read (32-bit), %.1f ns/counter read (64-bit hi-lo-hi)\n",
           n32, n64);
    bench_sample(dev, bus, "w32.*", "32-bit counters");
    bench_sample(dev, bus, "w64.*", "64-bit hi-lo-hi counters");
    bench_mmio();

    socmon_device_free(dev);
    socmon_bus_free(bus);
    return 0;
}
