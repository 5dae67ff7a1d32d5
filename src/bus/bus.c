/* The generic bus: dispatch to a backend's callbacks and count every access. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "bus/bus_internal.h"

struct socmon_bus {
    socmon_bus_ops ops;
    void *priv;
    char *name;
    socmon_bus_stats stats;
    smn_bus_run_fn run;          /* the backend's run reader (smn_bus_read64_run), or NULL */
};

socmon_status socmon_bus_new(const char *name, const socmon_bus_ops *ops, void *priv,
                             socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_new: out is NULL");
    *out = NULL;
    if (!ops || !ops->read32 || !ops->write32)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_new: ops must provide read32 and write32");
    socmon_status st = smn_check_size("socmon_bus_ops", ops->size, sizeof *ops);
    if (st != SOCMON_OK)
        return st;
    socmon_bus *b = calloc(1, sizeof *b);
    if (!b)
        return socmon_fail(SOCMON_ENOMEM, "socmon_bus_new: out of memory");
    b->name = strdup(name ? name : "bus");
    if (!b->name) {
        free(b);
        return socmon_fail(SOCMON_ENOMEM, "socmon_bus_new: out of memory");
    }
    b->ops = *ops;
    b->priv = priv;
    *out = b;
    return SOCMON_OK;
}

void socmon_bus_free(socmon_bus *bus)
{
    if (!bus)
        return;
    if (bus->ops.destroy)
        bus->ops.destroy(bus->priv);
    free(bus->name);
    free(bus);
}

/* Counts one access of a kind (reads or writes), and its failure. */
static socmon_status tally(socmon_bus *bus, uint64_t *kind, socmon_status st)
{
    (*kind)++;
    if (st != SOCMON_OK)
        bus->stats.errors++;
    return st;
}

/* One 32-bit read, bus and val checked already. */
static inline socmon_status read32(socmon_bus *bus, uint64_t addr, uint32_t *val)
{
    return tally(bus, &bus->stats.reads, bus->ops.read32(bus->priv, addr, val));
}

socmon_status socmon_bus_read32(socmon_bus *bus, uint64_t addr, uint32_t *val)
{
    if (!bus || !val)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_read32: %s is NULL", bus ? "val" : "bus");
    return read32(bus, addr, val);
}

socmon_status socmon_bus_write32(socmon_bus *bus, uint64_t addr, uint32_t val)
{
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_write32: bus is NULL");
    return tally(bus, &bus->stats.writes, bus->ops.write32(bus->priv, addr, val));
}

void socmon_bus_fence(socmon_bus *bus)
{
    if (!bus)
        return;
    bus->stats.fences++;
    if (bus->ops.fence)
        bus->ops.fence(bus->priv);
}

const char *socmon_bus_name(const socmon_bus *bus)
{
    return bus ? bus->name : "";
}

void socmon_bus_stats_get(const socmon_bus *bus, socmon_bus_stats *out)
{
    if (!out)
        return;
    if (!bus) {
        memset(out, 0, sizeof *out);
        return;
    }
    *out = bus->stats;
}

void socmon_bus_stats_reset(socmon_bus *bus)
{
    if (bus)
        memset(&bus->stats, 0, sizeof bus->stats);
}

socmon_status socmon_bus_read64_hilohi(socmon_bus *bus, uint64_t lo_addr, uint64_t hi_addr,
                                       unsigned max_tries, uint64_t *val)
{
    if (!val)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_read64_hilohi: val is NULL");
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_read32: bus is NULL");
    if (max_tries == 0)
        max_tries = 8;
    uint32_t hi1, lo, hi2;
    for (unsigned i = 0; i < max_tries; i++) {
        socmon_status st;   /* (three reads as socmon_bus_read32's, bus checked once) */
        if ((st = read32(bus, hi_addr, &hi1)) != SOCMON_OK || (st = read32(bus, lo_addr, &lo)) != SOCMON_OK ||
            (st = read32(bus, hi_addr, &hi2)) != SOCMON_OK)
            return st;
        /* Equal hi reads bracket the lo read: no carry crossed it. */
        if (hi1 == hi2) {
            *val = ((uint64_t)hi1 << 32) | lo;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_EAGAIN,
                       "hi-lo-hi read at lo 0x%llx hi 0x%llx: high word changed on all %u tries",
                       (unsigned long long)lo_addr, (unsigned long long)hi_addr, max_tries);
}

/* A backend's 64-bit callback may answer SOCMON_ENOTSUP for an address it
 * cannot access whole (the model bus, for a region without 64-bit
 * callbacks): the access is then split like on a bus without them. */
socmon_status socmon_bus_read64(socmon_bus *bus, uint64_t addr, uint64_t *val)
{
    if (!bus || !val)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_read64: %s is NULL", bus ? "val" : "bus");
    socmon_status st = bus->ops.read64 ? bus->ops.read64(bus->priv, addr, val) : SOCMON_ENOTSUP;
    if (st != SOCMON_ENOTSUP)
        return tally(bus, &bus->stats.reads, st);
    return socmon_bus_read64_hilohi(bus, addr, addr + 4, 0, val);
}

socmon_status socmon_bus_write64(socmon_bus *bus, uint64_t addr, uint64_t val)
{
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_write64: bus is NULL");
    socmon_status st = bus->ops.write64 ? bus->ops.write64(bus->priv, addr, val) : SOCMON_ENOTSUP;
    if (st != SOCMON_ENOTSUP)
        return tally(bus, &bus->stats.writes, st);
    st = socmon_bus_write32(bus, addr, (uint32_t)val);
    return st ? st : socmon_bus_write32(bus, addr + 4, (uint32_t)(val >> 32));
}

void smn_bus_set_run(socmon_bus *bus, smn_bus_run_fn fn)
{
    if (bus)
        bus->run = fn;
}

socmon_status smn_bus_read64_run(socmon_bus *bus, uint64_t addr, size_t n, uint64_t *vals, size_t *done)
{
    if (done)
        *done = 0;
    if (!bus || (!vals && n))
        return socmon_fail(SOCMON_EINVAL, "smn_bus_read64_run: %s is NULL", bus ? "vals" : "bus");
    socmon_status st = bus->run ? bus->run(bus->priv, addr, n, vals) : SOCMON_ENOTSUP;
    if (st != SOCMON_ENOTSUP) {
        bus->stats.reads += n;
        if (st != SOCMON_OK)
            bus->stats.errors++;
        return st;   /* (n reads, failed or not) */
    }
    for (size_t i = 0; i < n; i++) {
        if ((st = socmon_bus_read64(bus, addr + 8 * i, &vals[i])) != SOCMON_OK)
            return st;
        if (done)
            *done = i + 1;
    }
    return SOCMON_OK;
}

void *smn_bus_backend_priv(socmon_bus *bus, socmon_bus_read_fn read_fn)
{
    return bus && bus->ops.read32 == read_fn ? bus->priv : NULL;
}
