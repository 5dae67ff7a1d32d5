/* The window bus (window_bus.h): an inner bus moved to a base address, with
 * every access outside the window refused rather than passed on, so a stray
 * address can never reach some other register of a mapped device. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "bus/window_bus.h"
#include "core/error.h"

typedef struct window {
    socmon_bus *inner;
    uint64_t base, size;
} window;

/* The inner address of a `bytes`-wide access at addr, or SOCMON_EIO. */
static socmon_status translate(const window *w, uint64_t addr, unsigned bytes, uint64_t *off)
{
    if (w->size < bytes || addr < w->base || addr - w->base > w->size - bytes)
        return socmon_fail(SOCMON_EIO,
                           "%s: %u-byte access at 0x%" PRIx64 " outside the window 0x%" PRIx64
                           "..0x%" PRIx64,
                           socmon_bus_name(w->inner), bytes, addr, w->base, w->base + w->size - 1);
    *off = addr - w->base;
    return SOCMON_OK;
}

static socmon_status win_read32(void *priv, uint64_t addr, uint32_t *val)
{
    window *w = priv;
    uint64_t off = 0;
    socmon_status st = translate(w, addr, 4, &off);
    return st ? st : socmon_bus_read32(w->inner, off, val);
}

static socmon_status win_write32(void *priv, uint64_t addr, uint32_t val)
{
    window *w = priv;
    uint64_t off = 0;
    socmon_status st = translate(w, addr, 4, &off);
    return st ? st : socmon_bus_write32(w->inner, off, val);
}

/* 64-bit accesses stay whole: the inner bus decides between one access and
 * two 32-bit ones, exactly as without the window. */
static socmon_status win_read64(void *priv, uint64_t addr, uint64_t *val)
{
    window *w = priv;
    uint64_t off = 0;
    socmon_status st = translate(w, addr, 8, &off);
    return st ? st : socmon_bus_read64(w->inner, off, val);
}

static socmon_status win_write64(void *priv, uint64_t addr, uint64_t val)
{
    window *w = priv;
    uint64_t off = 0;
    socmon_status st = translate(w, addr, 8, &off);
    return st ? st : socmon_bus_write64(w->inner, off, val);
}

static void win_fence(void *priv)
{
    socmon_bus_fence(((window *)priv)->inner);
}

static void win_destroy(void *priv)
{
    window *w = priv;
    socmon_bus_free(w->inner);
    free(w);
}

static const socmon_bus_ops win_ops = {
    .read32 = win_read32,
    .write32 = win_write32,
    .fence = win_fence,
    .destroy = win_destroy,
    .read64 = win_read64,
    .write64 = win_write64,
};

socmon_status smn_bus_window_new(socmon_bus *inner, uint64_t base, uint64_t size,
                                    socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "window bus: out is NULL");
    *out = NULL;
    if (!inner)
        return socmon_fail(SOCMON_EINVAL, "window bus: inner bus is NULL");
    if (size == 0 || base + size - 1 < base)
        return socmon_fail(SOCMON_ERANGE,
                           "window bus: window of 0x%" PRIx64 " bytes at 0x%" PRIx64
                           " is empty or wraps past 2^64",
                           size, base);
    window *w = malloc(sizeof *w);
    if (!w)
        return socmon_fail(SOCMON_ENOMEM, "window bus: out of memory");
    w->inner = inner;
    w->base = base;
    w->size = size;
    char name[256];
    snprintf(name, sizeof name, "window@0x%" PRIx64 ":%s", base, socmon_bus_name(inner));
    socmon_status st = socmon_bus_new(name, &win_ops, w, out);
    if (st != SOCMON_OK)
        free(w);
    return st;
}
