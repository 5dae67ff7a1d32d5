/* The generic register-counter driver (see regdev.h). */
#include <inttypes.h>
#include <stdlib.h>

#include "core/error.h"
#include "bus/bus_internal.h"
#include "drivers/generic/regdev.h"
#include "socmon/delta.h"

typedef struct regslot {
    uint64_t reg;
    uint64_t reg_hi;  /* 0: a single register */
    unsigned width;
    int whole;        /* one 64-bit register at reg (reg_hi == reg + 4): socmon_bus_read64 */
    uint32_t run;     /* whole: how many whole slots from this one have registers 8 bytes apart */
} regslot;

typedef struct regdev {
    socmon_bus *bus;
    socmon_device *dev;  /* the device that owns us, for counter names in errors */
    size_t n;
    regslot slot[];
} regdev;

static socmon_status read_slot(regdev *d, uint32_t i, uint64_t *out)
{
    const regslot *s = &d->slot[i];
    socmon_status st;
    uint64_t v;
    if (s->whole) {
        st = socmon_bus_read64(d->bus, s->reg, &v);
    } else if (s->reg_hi) {
        st = socmon_bus_read64_hilohi(d->bus, s->reg, s->reg_hi, 0, &v);
    } else {
        uint32_t w = 0;
        st = socmon_bus_read32(d->bus, s->reg, &w);
        v = w;
    }
    if (st != SOCMON_OK)
        return st;
    *out = v & socmon_width_mask(s->width);
    return SOCMON_OK;
}

/* How many of idx[k..n) are 64-bit registers one after another (a run read in one go): the
 * slots' runs, as far as idx asks for them in order. */
static size_t run_at(const regdev *d, const uint32_t *idx, size_t k, size_t n)
{
    size_t m = d->slot[idx[k]].run;
    if (m > n - k)
        m = n - k;
    for (size_t j = 1; j < m; j++)
        if (idx[k + j] != idx[k] + j)
            return j;
    return m ? m : 1;
}

static socmon_status regdev_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    regdev *d = drv;
    for (size_t k = 0; k < n;) {
        size_t m = run_at(d, idx, k, n), done = 0;
        socmon_status st;
        if (m > 1) {   /* a block of 64-bit registers (the Ibex profile's table): one run */
            st = smn_bus_read64_run(d->bus, d->slot[idx[k]].reg, m, &out[k], &done);
            for (size_t j = 0; st == SOCMON_OK && j < m; j++)
                out[k + j] &= socmon_width_mask(d->slot[idx[k + j]].width);
        } else {
            st = read_slot(d, idx[k], &out[k]);
        }
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "device '%s': counter %s: ", socmon_device_name(d->dev),
                                      socmon_device_full_name(d->dev, idx[k + done]));
        k += m;
    }
    return SOCMON_OK;
}

static void regdev_destroy(void *drv)
{
    free(drv);
}

static const socmon_device_ops regdev_ops = {
    .read = regdev_read,
    .destroy = regdev_destroy,
};

static socmon_status check_counter(const char *name, const socmon_counter *c, size_t i)
{
    const char *cn = c->name ? c->name : "(null)";
    if (c->reg_hi == 0 && c->width > 32)
        return socmon_fail(SOCMON_EINVAL,
                           "regdev '%s': counter %zu (%s) width %u needs reg_hi: one 32-bit register "
                           "holds at most 32 bits",
                           name, i, cn, c->width);
    if (c->reg_hi != 0 && c->reg_hi == c->reg)
        return socmon_fail(SOCMON_EINVAL,
                           "regdev '%s': counter %zu (%s) reg_hi 0x%" PRIx64 " equals reg", name, i, cn,
                           c->reg_hi);
    return SOCMON_OK;
}

socmon_status smn_regdev_new(const char *name, socmon_bus *bus, const socmon_counter *counters,
                                size_t n, socmon_device **out)
{
    return smn_regdev_new_whole(name, bus, counters, n, n, out);
}

socmon_status smn_regdev_new_whole(const char *name, socmon_bus *bus, const socmon_counter *counters, size_t n,
                                   size_t whole_from, socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "regdev: out is NULL");
    *out = NULL;
    if (!name || !*name)
        return socmon_fail(SOCMON_EINVAL, "regdev: name is NULL or empty");
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "regdev '%s': bus is NULL", name);
    if (n && !counters)
        return socmon_fail(SOCMON_EINVAL, "regdev '%s': counters is NULL with n=%zu", name, n);
    for (size_t i = 0; i < n; i++) {
        socmon_status st = check_counter(name, &counters[i], i);
        if (st != SOCMON_OK)
            return st;
    }

    regdev *d = calloc(1, sizeof *d + n * sizeof d->slot[0]);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "regdev '%s': out of memory for %zu counters", name, n);
    d->bus = bus;
    d->n = n;
    for (size_t i = 0; i < n; i++) {
        d->slot[i].reg = counters[i].reg;
        d->slot[i].reg_hi = counters[i].reg_hi;
        d->slot[i].width = counters[i].width;
        d->slot[i].whole = i >= whole_from && counters[i].reg_hi == counters[i].reg + 4;
    }
    for (size_t i = n; i-- > 0;)
        d->slot[i].run = !d->slot[i].whole ? 0
                         : i + 1 < n && d->slot[i + 1].whole && d->slot[i + 1].reg == d->slot[i].reg + 8
                             ? d->slot[i + 1].run + 1
                             : 1;

    socmon_device *dev;
    socmon_status st = socmon_device_new(name, &regdev_ops, d, &dev);
    if (st != SOCMON_OK) {
        free(d);
        return st;
    }
    d->dev = dev;
    for (size_t i = 0; i < n; i++) {
        st = socmon_device_add_counter(dev, &counters[i], NULL);
        if (st != SOCMON_OK) {
            socmon_device_free(dev); /* destroys d too */
            return socmon_fail_prefix(st, "regdev '%s': counter %zu: ", name, i);
        }
    }
    *out = dev;
    return SOCMON_OK;
}
