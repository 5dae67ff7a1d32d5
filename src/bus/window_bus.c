/* The window bus (window_bus.h): inner buses moved to base addresses, one
 * address space of their windows, with every access outside them refused
 * rather than passed on, so a stray address can never reach some other
 * register of a mapped device. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/window_bus.h"
#include "core/error.h"

#define MAX_WINDOWS 8

typedef struct window {
    smn_bus_window w[MAX_WINDOWS];
    size_t n;
    char name[256];
} window;

/* The window holding a `bytes`-wide access at addr and its inner address, or SOCMON_EIO. */
static socmon_status find(const window *m, uint64_t addr, unsigned bytes, socmon_bus **inner, uint64_t *off)
{
    for (size_t i = 0; i < m->n; i++) {
        const smn_bus_window *w = &m->w[i];
        if (w->size >= bytes && addr >= w->base && addr - w->base <= w->size - bytes) {
            *inner = w->inner;
            *off = addr - w->base;
            return SOCMON_OK;
        }
    }
    if (m->n == 1)
        return socmon_fail(SOCMON_EIO,
                           "%s: %u-byte access at 0x%" PRIx64 " outside the window 0x%" PRIx64
                           "..0x%" PRIx64,
                           socmon_bus_name(m->w[0].inner), bytes, addr, m->w[0].base,
                           m->w[0].base + m->w[0].size - 1);
    return socmon_fail(SOCMON_EIO, "%s: %u-byte access at 0x%" PRIx64 " is in none of its %zu windows", m->name,
                       bytes, addr, m->n);
}

static socmon_status win_read32(void *priv, uint64_t addr, uint32_t *val)
{
    socmon_bus *inner = NULL;
    uint64_t off = 0;
    socmon_status st = find(priv, addr, 4, &inner, &off);
    return st ? st : socmon_bus_read32(inner, off, val);
}

static socmon_status win_write32(void *priv, uint64_t addr, uint32_t val)
{
    socmon_bus *inner = NULL;
    uint64_t off = 0;
    socmon_status st = find(priv, addr, 4, &inner, &off);
    return st ? st : socmon_bus_write32(inner, off, val);
}

/* 64-bit accesses stay whole: the inner bus decides between one access and
 * two 32-bit ones, exactly as without the window. */
static socmon_status win_read64(void *priv, uint64_t addr, uint64_t *val)
{
    socmon_bus *inner = NULL;
    uint64_t off = 0;
    socmon_status st = find(priv, addr, 8, &inner, &off);
    return st ? st : socmon_bus_read64(inner, off, val);
}

static socmon_status win_write64(void *priv, uint64_t addr, uint64_t val)
{
    socmon_bus *inner = NULL;
    uint64_t off = 0;
    socmon_status st = find(priv, addr, 8, &inner, &off);
    return st ? st : socmon_bus_write64(inner, off, val);
}

static void win_fence(void *priv)
{
    window *m = priv;
    for (size_t i = 0; i < m->n; i++)
        socmon_bus_fence(m->w[i].inner);
}

static void win_destroy(void *priv)
{
    window *m = priv;
    for (size_t i = 0; i < m->n; i++)
        socmon_bus_free(m->w[i].inner);
    free(m);
}

static const socmon_bus_ops win_ops = {
    .read32 = win_read32,
    .write32 = win_write32,
    .fence = win_fence,
    .destroy = win_destroy,
    .read64 = win_read64,
    .write64 = win_write64,
};

socmon_status smn_bus_windows_new(const char *name, const smn_bus_window *w, size_t n, socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "window bus: out is NULL");
    *out = NULL;
    if (!w || n == 0 || n > MAX_WINDOWS)
        return socmon_fail(SOCMON_EINVAL, "window bus: %zu windows (1..%d)", n, MAX_WINDOWS);
    for (size_t i = 0; i < n; i++) {
        if (!w[i].inner)
            return socmon_fail(SOCMON_EINVAL, "window bus: inner bus %zu is NULL", i);
        if (w[i].size == 0 || w[i].base + w[i].size - 1 < w[i].base)
            return socmon_fail(SOCMON_ERANGE,
                               "window bus: window of 0x%" PRIx64 " bytes at 0x%" PRIx64
                               " is empty or wraps past 2^64",
                               w[i].size, w[i].base);
        for (size_t j = 0; j < i; j++)
            if (w[i].base <= w[j].base + w[j].size - 1 && w[j].base <= w[i].base + w[i].size - 1)
                return socmon_fail(SOCMON_EINVAL,
                                   "window bus: windows at 0x%" PRIx64 " and 0x%" PRIx64 " overlap",
                                   w[j].base, w[i].base);
    }
    window *m = calloc(1, sizeof *m);
    if (!m)
        return socmon_fail(SOCMON_ENOMEM, "window bus: out of memory");
    memcpy(m->w, w, n * sizeof *w);
    m->n = n;
    char bus_name[256];
    if (n == 1 || !name)
        snprintf(bus_name, sizeof bus_name, "window@0x%" PRIx64 ":%s", w[0].base, socmon_bus_name(w[0].inner));
    else
        snprintf(bus_name, sizeof bus_name, "%s", name);
    memcpy(m->name, bus_name, sizeof m->name);
    socmon_status st = socmon_bus_new(bus_name, &win_ops, m, out);
    if (st != SOCMON_OK)
        free(m);
    return st;
}

socmon_status smn_bus_window_new(socmon_bus *inner, uint64_t base, uint64_t size, socmon_bus **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "window bus: out is NULL");
    *out = NULL;
    if (!inner)
        return socmon_fail(SOCMON_EINVAL, "window bus: inner bus is NULL");
    smn_bus_window w = {.inner = inner, .base = base, .size = size};
    return smn_bus_windows_new(NULL, &w, 1, out);
}
