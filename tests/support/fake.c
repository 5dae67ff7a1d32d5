/* Test doubles; see fake.h. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "support/fake.h"

static socmon_status fake_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    fake_dev *fd = drv;
    fd->reads++;
    for (size_t i = 0; i < n; i++)
        out[i] = socmon_delta(0, fd->value[idx[i]], fd->width[idx[i]]);
    return SOCMON_OK;
}

static const socmon_device_ops fake_dev_ops = {.read = fake_read, .destroy = NULL};

static socmon_status index_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    for (size_t i = 0; i < n; i++)
        out[i] = idx[i];
    return SOCMON_OK;
}

const socmon_device_ops fake_index_ops = {.read = index_read, .destroy = NULL};

socmon_status fake_device_new(fake_dev *fd, size_t n, const unsigned *widths, socmon_device **out)
{
    socmon_status st = socmon_device_new("fake", &fake_dev_ops, fd, out);
    fd->n = n;
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        char name[16];
        snprintf(name, sizeof name, "c%zu", i);
        fd->width[i] = widths[i];
        socmon_counter c = {.name = name, .instance = i % 2 ? "u1" : "u0", .desc = "test counter",
            .unit = "events", .width = widths[i], .reg = 0, .reg_hi = 0, .max_rate_hz = 0};
        st = socmon_device_add_counter(*out, &c, NULL);
    }
    return st;
}

fake_target_cfg fake_cfg;
unsigned fake_stalls;

typedef struct fake_target {
    fake_dev dev;
    fake_target_cfg cfg;
    uint64_t now_ns;      /* simulated */
    uint64_t t0_mono;     /* realtime mode */
    int done;
    unsigned advances;    /* advance calls so far */
    socmon_device *device;
} fake_target;

static uint64_t mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static socmon_status ft_open(const socmon_target_ops *self, const socmon_kv *kv, size_t nkv, void **priv,
                             socmon_device **dev)
{
    uint64_t speed = 0;
    socmon_status pst = socmon_options_parse(self->name, self->options, kv, nkv, &speed, NULL);
    if (pst != SOCMON_OK)
        return pst;
    fake_target *t = calloc(1, sizeof *t);
    if (!t)
        return SOCMON_ENOMEM;
    t->cfg = fake_cfg;
    t->t0_mono = mono();
    socmon_status st = fake_device_new(&t->dev, t->cfg.n, t->cfg.width, dev);
    for (size_t i = 0; st == SOCMON_OK && i < t->cfg.n; i++)
        ((socmon_counter *)socmon_device_counter(*dev, i))->max_rate_hz = t->cfg.max_rate_hz[i];
    socmon_device_set_param(*dev, "clock_hz", 1e9);
    t->device = *dev;
    *priv = t;
    return st;
}

static socmon_status ft_start(void *priv, const char *workload)
{
    fake_target *t = priv;
    t->done = 0;
    return SOCMON_OK;
}

static void grow(fake_target *t, uint64_t ns)
{
    uint64_t before = t->now_ns;
    t->now_ns += ns;
    for (size_t i = 0; i < t->cfg.n; i++) {
        /* Whole events since time 0, so no rounding drift accumulates. */
        uint64_t a = (uint64_t)floor(t->cfg.rate_per_us[i] * (double)before / 1000.0);
        uint64_t b = (uint64_t)floor(t->cfg.rate_per_us[i] * (double)t->now_ns / 1000.0);
        t->dev.value[i] += b - a;
    }
}

static socmon_status ft_advance(void *priv, uint64_t ns, int *done)
{
    fake_target *t = priv;
    if (++t->advances == t->cfg.stall_on) {
        /* Makes the caller late on purpose: a host that stalled. */
        struct timespec ts = {(time_t)(t->cfg.stall_ns / 1000000000u), (long)(t->cfg.stall_ns % 1000000000u)};
        nanosleep(&ts, NULL);
        fake_stalls++;
    }
    if (t->cfg.simulated && t->cfg.stuck) {
        /* the clock stays where it is */
    } else if (t->cfg.simulated) {
        if (t->cfg.stop_at_end && t->now_ns < t->cfg.end_ns && t->now_ns + ns > t->cfg.end_ns)
            ns = t->cfg.end_ns - t->now_ns;
        grow(t, ns);
    } else {
        uint64_t now = mono() - t->t0_mono;
        grow(t, now > t->now_ns ? now - t->now_ns : 0);
    }
    *done = t->cfg.end_ns && t->now_ns >= t->cfg.end_ns;
    return SOCMON_OK;
}

static uint64_t ft_now(void *priv)
{
    return ((fake_target *)priv)->now_ns;
}

static void ft_close(void *priv)
{
    socmon_device_free(((fake_target *)priv)->device);
    free(priv);
}

/* One option, to exercise the generic parser through socmon_target_open_ops. */
static const socmon_option ft_options[] = {
    {.name = "speed", .type = SOCMON_OPT_UINT, .help = "ignored", .def = "1", .lo = 1, .hi = 10,
        .offset = 0},
    {0},
};
static const char *const ft_workloads[] = {"finite", "other", NULL};

/* simulated is taken from fake_cfg at open; the ops flag must match what tests set. */
const socmon_target_ops fake_target_ops = {
    .name = "fake", .desc = "test target", .options = ft_options, .workloads = ft_workloads,
    .simulated = 1, .open = ft_open, .start = ft_start, .advance = ft_advance, .now_ns = ft_now,
    .close = ft_close};

/* The same target presented as hardware: the sampler paces it in real time. */
const socmon_target_ops fake_rt_target_ops = {
    .name = "fake-rt", .desc = "test target in real time", .options = ft_options,
    .workloads = ft_workloads, .simulated = 0, .open = ft_open, .start = ft_start,
    .advance = ft_advance, .now_ns = ft_now, .close = ft_close};
