/* The model bus: routes each access to the register model mapped at its address.
 *
 * Regions are kept sorted by base so lookup is a binary search; the last hit
 * is cached because drivers read runs of registers in the same region. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/grow.h"
#include "bus/bus_internal.h"

typedef struct region {
    uint64_t base, size;
    const socmon_regmodel_ops *ops;
    void *model;
    smn_regmodel_run_fn run;     /* its run reader (smn_bus_model_set_run), or NULL */
} region;

typedef struct model_bus {
    region *r;
    size_t n, cap;
    size_t last;
} model_bus;

static const region *find(model_bus *mb, uint64_t addr)
{
    if (mb->last < mb->n) {
        const region *c = &mb->r[mb->last];
        if (addr >= c->base && addr - c->base < c->size)
            return c;
    }
    size_t lo = 0, hi = mb->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        const region *c = &mb->r[mid];
        if (addr < c->base)
            hi = mid;
        else if (addr - c->base >= c->size)
            lo = mid + 1;
        else {
            mb->last = mid;
            return c;
        }
    }
    return NULL;
}

static socmon_status check(model_bus *mb, uint64_t addr, const region **out)
{
    if (addr & 3)
        return socmon_fail(SOCMON_EIO, "model bus: unaligned access at 0x%llx (must be 4-byte aligned)",
                           (unsigned long long)addr);
    *out = find(mb, addr);
    if (!*out)
        return socmon_fail(SOCMON_EIO, "model bus: no register model mapped at 0x%llx",
                           (unsigned long long)addr);
    return SOCMON_OK;
}

/* The region of the last access, if it holds addr and addr is aligned (align: 4 or 8), else NULL:
 * the common case of a read, which needs no lookup (a driver reads a tile's window in a run, an
 * Ibex profile's per-function table of 1,128 counters at every sample). */
static inline const region *last_holding(const model_bus *mb, uint64_t addr, uint64_t align)
{
    const region *r = mb->last < mb->n ? &mb->r[mb->last] : NULL;
    return r && !(addr & (align - 1)) && addr >= r->base && addr - r->base < r->size ? r : NULL;
}

static socmon_status mb_read_other(model_bus *mb, uint64_t addr, uint32_t *val);

static socmon_status mb_read(void *priv, uint64_t addr, uint32_t *val)
{
    model_bus *mb = priv;
    const region *r = last_holding(mb, addr, 4);
    /* the rest apart, so this part needs no stack frame */
    if (r && r->ops->read)
        return r->ops->read(r->model, addr - r->base, val);
    return mb_read_other(mb, addr, val);
}

static __attribute__((noinline)) socmon_status mb_read_other(model_bus *mb, uint64_t addr, uint32_t *val)
{
    const region *r;
    socmon_status st = check(mb, addr, &r);
    if (st != SOCMON_OK)
        return st;
    if (!r->ops->read) {
        *val = 0;
        return SOCMON_OK;
    }
    return r->ops->read(r->model, addr - r->base, val);
}

static socmon_status mb_write(void *priv, uint64_t addr, uint32_t val)
{
    const region *r;
    socmon_status st = check(priv, addr, &r);
    if (st != SOCMON_OK)
        return st;
    return r->ops->write ? r->ops->write(r->model, addr - r->base, val) : SOCMON_OK;
}

/* A region with 64-bit callbacks takes a 64-bit access whole (8-byte
 * aligned); for any other SOCMON_ENOTSUP makes the generic bus split it into
 * 32-bit accesses (hi-lo-hi for a read, low word then high word for a write). */
static socmon_status region64(void *priv, uint64_t addr, int write, const region **out)
{
    socmon_status st = check(priv, addr, out);
    if (st != SOCMON_OK)
        return st;
    if (write ? !(*out)->ops->write64 : !(*out)->ops->read64)
        return SOCMON_ENOTSUP;
    if (addr & 7)
        return socmon_fail(SOCMON_EIO, "model bus: unaligned 64-bit access at 0x%llx (must be 8-byte aligned)",
                           (unsigned long long)addr);
    return SOCMON_OK;
}

static socmon_status mb_read64_other(model_bus *mb, uint64_t addr, uint64_t *val);

static socmon_status mb_read64(void *priv, uint64_t addr, uint64_t *val)
{
    model_bus *mb = priv;
    const region *r = last_holding(mb, addr, 8);   /* as mb_read */
    if (r && r->ops->read64)
        return r->ops->read64(r->model, addr - r->base, val);
    return mb_read64_other(mb, addr, val);
}

static __attribute__((noinline)) socmon_status mb_read64_other(model_bus *mb, uint64_t addr, uint64_t *val)
{
    const region *r;
    socmon_status st = region64(mb, addr, 0, &r);
    return st ? st : r->ops->read64(r->model, addr - r->base, val);
}

static socmon_status mb_write64(void *priv, uint64_t addr, uint64_t val)
{
    const region *r;
    socmon_status st = region64(priv, addr, 1, &r);
    return st ? st : r->ops->write64(r->model, addr - r->base, val);
}

/* n consecutive 64-bit registers through the run reader of the region that holds them all. */
static socmon_status mb_read64_run(void *priv, uint64_t addr, size_t n, uint64_t *vals)
{
    model_bus *mb = priv;
    const region *r = last_holding(mb, addr, 8);
    if (!r) {
        if (addr & 7)
            return SOCMON_ENOTSUP;   /* socmon_bus_read64's error, each */
        r = find(mb, addr);
    }
    if (!r || !r->run || n > (r->size - (addr - r->base)) / 8)
        return SOCMON_ENOTSUP;
    return r->run(r->model, addr - r->base, n, vals);
}

static void mb_fence(void *priv)
{
    (void)priv; /* models apply accesses in program order already */
}

static void mb_destroy(void *priv)
{
    model_bus *mb = priv;
    free(mb->r);
    free(mb);
}

static const socmon_bus_ops model_ops = {
    .read32 = mb_read, .write32 = mb_write, .fence = mb_fence, .destroy = mb_destroy, .read64 = mb_read64, .write64 = mb_write64};

socmon_status socmon_bus_model_new(socmon_bus **out)
{
    model_bus *mb = calloc(1, sizeof *mb);
    if (!mb)
        return socmon_fail(SOCMON_ENOMEM, "model bus: out of memory");
    socmon_status st = socmon_bus_new("model", &model_ops, mb, out);
    if (st != SOCMON_OK)
        free(mb);
    else
        smn_bus_set_run(*out, mb_read64_run);
    return st;
}

static model_bus *model_of(socmon_bus *bus)
{
    return smn_bus_backend_priv(bus, mb_read);
}

socmon_status socmon_bus_model_map(socmon_bus *bus, uint64_t base, uint64_t size,
                                   const socmon_regmodel_ops *ops, void *model)
{
    model_bus *mb = model_of(bus);
    if (!mb)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_model_map: bus '%s' is not a model bus",
                           socmon_bus_name(bus));
    if (!ops)
        return socmon_fail(SOCMON_EINVAL, "socmon_bus_model_map: ops is NULL");
    socmon_status sz = smn_check_size("socmon_regmodel_ops", ops->size, sizeof *ops);
    if (sz != SOCMON_OK)
        return sz;
    if (size == 0 || base + size - 1 < base)
        return socmon_fail(SOCMON_ERANGE, "socmon_bus_model_map: region 0x%llx size 0x%llx is empty or wraps",
                           (unsigned long long)base, (unsigned long long)size);
    size_t at = 0;
    while (at < mb->n && mb->r[at].base < base)
        at++;
    const region *prev = at > 0 ? &mb->r[at - 1] : NULL, *next = at < mb->n ? &mb->r[at] : NULL;
    /* Inclusive ends: a region may end at the top of the address space. */
    int hit_prev = prev && prev->base + (prev->size - 1) >= base;
    int hit_next = next && base + (size - 1) >= next->base;
    if (hit_prev || hit_next) {
        const region *o = hit_prev ? prev : next;
        return socmon_fail(SOCMON_ERANGE,
                           "socmon_bus_model_map: region 0x%llx..0x%llx overlaps 0x%llx..0x%llx",
                           (unsigned long long)base, (unsigned long long)(base + size - 1),
                           (unsigned long long)o->base, (unsigned long long)(o->base + o->size - 1));
    }
    if (SOCMON_GROW(mb->r, mb->cap, mb->n, 8))
        return socmon_fail(SOCMON_ENOMEM, "model bus: out of memory");
    memmove(&mb->r[at + 1], &mb->r[at], (mb->n - at) * sizeof *mb->r);
    mb->r[at] = (region){base, size, ops, model, NULL};
    mb->n++;
    mb->last = 0;
    return SOCMON_OK;
}

socmon_status smn_bus_model_set_run(socmon_bus *bus, uint64_t base, smn_regmodel_run_fn fn)
{
    model_bus *mb = model_of(bus);
    if (!mb)
        return socmon_fail(SOCMON_EINVAL, "smn_bus_model_set_run: bus '%s' is not a model bus", socmon_bus_name(bus));
    for (size_t i = 0; i < mb->n; i++)
        if (mb->r[i].base == base) {
            mb->r[i].run = fn;
            return SOCMON_OK;
        }
    return socmon_fail(SOCMON_EINVAL, "smn_bus_model_set_run: no region mapped at 0x%llx", (unsigned long long)base);
}
