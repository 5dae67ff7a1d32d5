/* Devices: a named list of counters, parameters, and the driver that reads them.
 *
 * Full names are also kept in a hash table (open addressing, indices + 1), so
 * adding the 2,840 counters of an 8x8 ESP SoC does not compare every name
 * with every other one to refuse duplicates. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/device_kind.h"
#include "core/grow.h"
#include "socmon/device.h"

typedef struct param {
    char *name;
    double value;
} param;

struct socmon_device {
    char *name;
    socmon_device_ops ops;
    void *drv;
    socmon_counter *c;
    char **full;          /* "instance.name" per counter */
    size_t n, cap;
    uint32_t *slot;       /* hash of full -> index + 1, 0 = empty; nslot a power of 2 */
    size_t nslot;
    param *p;
    size_t np, pcap;
    /* the vendor's own number of each counter (socmon_device_set_counter_index): what it is called,
     * and per counter the number or NO_INDEX; grown on demand, so devices without one pay nothing */
    char *index_name;
    uint64_t *vidx;
    size_t nvidx;
};

#define NO_INDEX UINT64_MAX

socmon_status socmon_device_new(const char *name, const socmon_device_ops *ops, void *drv,
                                socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_new: out is NULL");
    *out = NULL;
    if (!name || !*name)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_new: empty device name");
    if (!ops || !ops->read)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_new: device '%s' has no read callback", name);
    socmon_status st = smn_check_size("socmon_device_ops", ops->size, sizeof *ops);
    if (st != SOCMON_OK)
        return st;
    socmon_device *d = calloc(1, sizeof *d);
    if (!d || !(d->name = strdup(name))) {
        free(d);
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_new: out of memory");
    }
    d->ops = *ops;
    d->drv = drv;
    *out = d;
    return SOCMON_OK;
}

static void free_counter(socmon_counter *c)
{
    free((char *)c->name);
    free((char *)c->instance);
    free((char *)c->desc);
    free((char *)c->unit);
}

void socmon_device_free(socmon_device *dev)
{
    if (!dev)
        return;
    if (dev->ops.destroy)
        dev->ops.destroy(dev->drv);
    for (size_t i = 0; i < dev->n; i++) {
        free_counter(&dev->c[i]);
        free(dev->full[i]);
    }
    for (size_t i = 0; i < dev->np; i++)
        free(dev->p[i].name);
    free(dev->c);
    free(dev->full);
    free(dev->slot);
    free(dev->p);
    free(dev->index_name);
    free(dev->vidx);
    free(dev->name);
    free(dev);
}

const char *socmon_device_name(const socmon_device *dev)
{
    return dev ? dev->name : "";
}

void *socmon_device_driver(const socmon_device *dev)
{
    return dev ? dev->drv : NULL;
}

static char *join(const char *inst, const char *name)
{
    size_t a = strlen(inst), b = strlen(name);
    char *s = malloc(a + b + 2);
    if (!s)
        return NULL;
    if (a) {
        memcpy(s, inst, a);
        s[a] = '.';
        memcpy(s + a + 1, name, b + 1);
    } else {
        memcpy(s, name, b + 1);
    }
    return s;
}

static size_t hash_name(const char *s)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 1099511628211u;
    return (size_t)h;
}

/* The slot holding full_name, or the empty slot where it would go. */
static uint32_t *find_slot(const socmon_device *dev, const char *full_name)
{
    size_t mask = dev->nslot - 1;
    for (size_t i = hash_name(full_name) & mask;; i = (i + 1) & mask) {
        uint32_t *s = &dev->slot[i];
        if (!*s || strcmp(dev->full[*s - 1], full_name) == 0)
            return s;
    }
}

/* Keeps the table at most half full for n + 1 names; 0 or -1 (out of memory). */
static int reserve_slots(socmon_device *dev)
{
    if (2 * (dev->n + 1) <= dev->nslot)
        return 0;
    size_t nslot = dev->nslot ? dev->nslot * 2 : 64;
    uint32_t *ns = calloc(nslot, sizeof *ns);
    if (!ns)
        return -1;
    free(dev->slot);
    dev->slot = ns;
    dev->nslot = nslot;
    for (size_t i = 0; i < dev->n; i++)
        *find_slot(dev, dev->full[i]) = (uint32_t)(i + 1);
    return 0;
}

static int valid_ident(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

socmon_status socmon_device_add_counter(socmon_device *dev, const socmon_counter *c, uint32_t *idx)
{
    if (!dev || !c)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_add_counter: %s is NULL", dev ? "counter" : "device");
    const char *inst = c->instance ? c->instance : "";
    if (!c->name || !valid_ident(c->name))
        return socmon_fail(SOCMON_EINVAL, "device '%s': counter name '%s' is not [A-Za-z0-9_-]+",
                           dev->name, c->name ? c->name : "(null)");
    if (*inst && !valid_ident(inst))
        return socmon_fail(SOCMON_EINVAL, "device '%s': instance '%s' of counter '%s' is not [A-Za-z0-9_-]+",
                           dev->name, inst, c->name);
    if (c->width < 1 || c->width > 64)
        return socmon_fail(SOCMON_ERANGE, "device '%s': counter '%s' width %u out of range 1..64",
                           dev->name, c->name, c->width);
    char *full = join(inst, c->name);
    if (!full)
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_add_counter: out of memory");
    if (reserve_slots(dev) != 0) {
        free(full);
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_add_counter: out of memory");
    }
    uint32_t *slot = find_slot(dev, full);
    if (*slot) {
        socmon_status st = socmon_fail(SOCMON_EINVAL, "device '%s': duplicate counter '%s'", dev->name, full);
        free(full);
        return st;
    }
    if (dev->n == dev->cap) {
        size_t cap = dev->cap ? dev->cap * 2 : 16;
        socmon_counter *nc = realloc(dev->c, cap * sizeof *nc);
        if (nc)
            dev->c = nc;
        char **nf = nc ? realloc(dev->full, cap * sizeof *nf) : NULL;
        if (!nc || !nf) {
            free(full);
            return socmon_fail(SOCMON_ENOMEM, "socmon_device_add_counter: out of memory");
        }
        dev->full = nf;
        dev->cap = cap;
    }
    socmon_counter k = *c;
    k.name = strdup(c->name);
    k.instance = strdup(inst);
    k.desc = strdup(c->desc ? c->desc : "");
    k.unit = strdup(c->unit ? c->unit : "events");
    if (!k.name || !k.instance || !k.desc || !k.unit) {
        free_counter(&k);
        free(full);
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_add_counter: out of memory");
    }
    dev->c[dev->n] = k;
    dev->full[dev->n] = full;
    *slot = (uint32_t)(dev->n + 1);
    if (idx)
        *idx = (uint32_t)dev->n;
    dev->n++;
    return SOCMON_OK;
}

size_t socmon_device_ncounters(const socmon_device *dev)
{
    return dev ? dev->n : 0;
}

const socmon_counter *socmon_device_counter(const socmon_device *dev, size_t i)
{
    return dev && i < dev->n ? &dev->c[i] : NULL;
}

const char *socmon_device_full_name(const socmon_device *dev, size_t i)
{
    return dev && i < dev->n ? dev->full[i] : NULL;
}

socmon_status socmon_device_find(const socmon_device *dev, const char *full_name, uint32_t *idx)
{
    if (!dev || !full_name)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_find: %s is NULL", dev ? "name" : "device");
    uint32_t *slot = dev->nslot ? find_slot(dev, full_name) : NULL;
    if (slot && *slot) {
        if (idx)
            *idx = *slot - 1;
        return SOCMON_OK;
    }
    return socmon_fail(SOCMON_ENOENT, "device '%s' has no counter '%s'", dev->name, full_name);
}

socmon_status socmon_device_set_param(socmon_device *dev, const char *name, double value)
{
    if (!dev || !name || !*name)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_set_param: %s", dev ? "empty name" : "device is NULL");
    for (size_t i = 0; i < dev->np; i++)
        if (strcmp(dev->p[i].name, name) == 0) {
            dev->p[i].value = value;
            return SOCMON_OK;
        }
    if (SOCMON_GROW(dev->p, dev->pcap, dev->np, 8))
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_set_param: out of memory");
    char *copy = strdup(name);
    if (!copy)
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_set_param: out of memory");
    dev->p[dev->np++] = (param){copy, value};
    return SOCMON_OK;
}

socmon_status socmon_device_param(const socmon_device *dev, const char *name, double *value)
{
    if (!dev || !name || !value)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_param: NULL argument");
    for (size_t i = 0; i < dev->np; i++)
        if (strcmp(dev->p[i].name, name) == 0) {
            *value = dev->p[i].value;
            return SOCMON_OK;
        }
    return socmon_fail(SOCMON_ENOENT, "device '%s' has no parameter '%s'", dev->name, name);
}

size_t socmon_device_nparams(const socmon_device *dev)
{
    return dev ? dev->np : 0;
}

socmon_status socmon_device_param_at(const socmon_device *dev, size_t i, const char **name, double *value)
{
    if (!dev || i >= dev->np)
        return socmon_fail(SOCMON_ERANGE, "parameter index %zu out of range 0..%zu", i,
                           dev && dev->np ? dev->np - 1 : 0);
    if (name)
        *name = dev->p[i].name;
    if (value)
        *value = dev->p[i].value;
    return SOCMON_OK;
}

socmon_status socmon_device_read(socmon_device *dev, const uint32_t *idx, size_t n, uint64_t *out)
{
    if (!dev || (n && (!idx || !out)))
        return socmon_fail(SOCMON_EINVAL, "socmon_device_read: NULL argument");
    for (size_t i = 0; i < n; i++)
        if (idx[i] >= dev->n)
            return socmon_fail(SOCMON_ERANGE, "device '%s': counter index %u out of range 0..%zu",
                               dev->name, idx[i], dev->n ? dev->n - 1 : 0);
    return dev->ops.read(dev->drv, idx, n, out);
}

int smn_device_reads_with(const socmon_device *dev,
                             socmon_status (*read)(void *drv, const uint32_t *idx, size_t n, uint64_t *out))
{
    return dev && dev->ops.read == read;
}

socmon_status socmon_device_set_counter_index(socmon_device *dev, const char *index_name, uint32_t idx,
                                              uint64_t value)
{
    if (!dev || !index_name || !*index_name)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_set_counter_index: %s",
                           !dev ? "dev (the device) is NULL" : "index_name is NULL or empty");
    if (idx >= dev->n)
        return socmon_fail(SOCMON_ERANGE, "socmon_device_set_counter_index: counter %u out of range 0..%zu", idx,
                           dev->n ? dev->n - 1 : 0);
    if (value == NO_INDEX)
        return socmon_fail(SOCMON_ERANGE, "socmon_device_set_counter_index: %s %llu is reserved (none)",
                           index_name, (unsigned long long)value);
    if (dev->index_name && strcmp(dev->index_name, index_name) != 0)
        return socmon_fail(SOCMON_EINVAL, "socmon_device_set_counter_index: device '%s' numbers its counters by "
                           "'%s', not '%s'", dev->name, dev->index_name, index_name);
    if (!dev->index_name && !(dev->index_name = strdup(index_name)))
        return socmon_fail(SOCMON_ENOMEM, "socmon_device_set_counter_index: out of memory");
    if (idx >= dev->nvidx) {
        uint64_t *v = realloc(dev->vidx, dev->n * sizeof *v);
        if (!v)
            return socmon_fail(SOCMON_ENOMEM, "socmon_device_set_counter_index: out of memory");
        for (size_t i = dev->nvidx; i < dev->n; i++)
            v[i] = NO_INDEX;
        dev->vidx = v;
        dev->nvidx = dev->n;
    }
    dev->vidx[idx] = value;
    return SOCMON_OK;
}

const char *socmon_device_index_name(const socmon_device *dev)
{
    return dev ? dev->index_name : NULL;
}

int socmon_device_counter_index(const socmon_device *dev, size_t i, uint64_t *value)
{
    if (!dev || i >= dev->nvidx || dev->vidx[i] == NO_INDEX)
        return 0;
    if (value)
        *value = dev->vidx[i];
    return 1;
}
