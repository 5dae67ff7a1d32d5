/* The bus: how drivers reach registers.
 *
 * A driver sees only read32/write32/fence on byte addresses. Behind it is a
 * register model in this process (model bus), a mapping of a device or file
 * (mmio bus), or anything a user plugs in with socmon_bus_new (e.g. RISC-V CSR
 * instructions). Every bus counts its accesses so benchmarks and tests can
 * state exactly what a driver costs. */
#ifndef SOCMON_BUS_H
#define SOCMON_BUS_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_bus socmon_bus;

typedef struct socmon_bus_ops {
    socmon_status (*read32)(void *priv, uint64_t addr, uint32_t *val);
    socmon_status (*write32)(void *priv, uint64_t addr, uint32_t val);
    void (*fence)(void *priv);     /* optional: order earlier accesses before later ones */
    void (*destroy)(void *priv);   /* optional: release priv */
    /* Optional: one native 64-bit access (a 64-bit CSR or AXI register).
     * Without them, or where they answer SOCMON_ENOTSUP for an address,
     * socmon_bus_read64/write64 split the access into 32-bit ones at addr
     * (low word) and addr+4 (high word). */
    socmon_status (*read64)(void *priv, uint64_t addr, uint64_t *val);
    socmon_status (*write64)(void *priv, uint64_t addr, uint64_t val);
    size_t size;            /* sizeof(socmon_bus_ops) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_bus_ops;

typedef struct socmon_bus_stats {
    uint64_t reads;
    uint64_t writes;
    uint64_t fences;
    uint64_t errors;
} socmon_bus_stats;

/* A bus over user-supplied callbacks. name is copied. */
socmon_status socmon_bus_new(const char *name, const socmon_bus_ops *ops, void *priv,
                             socmon_bus **out);
void socmon_bus_free(socmon_bus *bus);

socmon_status socmon_bus_read32(socmon_bus *bus, uint64_t addr, uint32_t *val);
socmon_status socmon_bus_write32(socmon_bus *bus, uint64_t addr, uint32_t val);
void socmon_bus_fence(socmon_bus *bus);
const char *socmon_bus_name(const socmon_bus *bus);

void socmon_bus_stats_get(const socmon_bus *bus, socmon_bus_stats *out);
void socmon_bus_stats_reset(socmon_bus *bus);

/* Reads a 64-bit value split over two 32-bit registers: hi, lo, hi again,
 * retried until both hi reads agree, so a carry from lo into hi between the
 * reads never yields a value off by 2^32. Gives up with SOCMON_EAGAIN after
 * max_tries attempts (0 means the default, 8). */
socmon_status socmon_bus_read64_hilohi(socmon_bus *bus, uint64_t lo_addr, uint64_t hi_addr,
                                       unsigned max_tries, uint64_t *val);

/* A 64-bit register at addr: one access where the bus has 64-bit accesses,
 * else hi-lo-hi over the low word at addr and the high word at addr+4 (a
 * read; see above) or the low word then the high word (a write). A native
 * access counts as one read or write in the bus statistics. */
socmon_status socmon_bus_read64(socmon_bus *bus, uint64_t addr, uint64_t *val);
socmon_status socmon_bus_write64(socmon_bus *bus, uint64_t addr, uint64_t val);

/* ---- model bus: dispatches accesses to register models in this process ---- */

/* One register region of a model, in the style of QEMU's MemoryRegionOps:
 * offsets are relative to the region's base. */
typedef struct socmon_regmodel_ops {
    socmon_status (*read)(void *model, uint64_t offset, uint32_t *val);
    socmon_status (*write)(void *model, uint64_t offset, uint32_t val);
    /* Optional: 64-bit registers accessed whole (8-byte aligned). Without
     * them a 64-bit access to the region is split into 32-bit ones. */
    socmon_status (*read64)(void *model, uint64_t offset, uint64_t *val);
    socmon_status (*write64)(void *model, uint64_t offset, uint64_t val);
    size_t size;            /* sizeof(socmon_regmodel_ops) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_regmodel_ops;

socmon_status socmon_bus_model_new(socmon_bus **out);
/* Maps [base, base+size) to a model. Regions may not overlap. Accesses must be
 * 4-byte aligned; unmapped or unaligned accesses fail with SOCMON_EIO. */
socmon_status socmon_bus_model_map(socmon_bus *bus, uint64_t base, uint64_t size,
                                   const socmon_regmodel_ops *ops, void *model);

/* ---- mmio bus: mmap of a file or device (/dev/mem, /dev/uioN, a plain file) ---- */

/* Maps size bytes of path at file offset `offset` (page-aligned or not: the
 * mapping is adjusted). Bus addresses are then byte offsets 0..size-1 in the
 * window. Errors name the path and the reason (permission, missing file,
 * window past the end of a regular file, zero size). */
socmon_status socmon_bus_mmio_open(const char *path, uint64_t offset, uint64_t size,
                                   socmon_bus **out);

/* ---- recording bus: logs every access of an inner bus ---- */

typedef struct socmon_bus_access {
    char op;          /* 'R', 'W' or 'F' */
    uint64_t addr;
    uint64_t val;
    socmon_status st;
    unsigned bits;    /* 32, or 64 for a native 64-bit access; 0 for a fence */
} socmon_bus_access;

typedef void (*socmon_bus_access_fn)(void *user, const socmon_bus_access *acc);

/* Wraps inner (not owned) and calls fn for every access after it completes.
 * socmon_bus_record_file is the same with a text line per access on fp:
 * "R 0x00000104 = 0x0000002a" (a 64-bit access prints 16 hex digits). */
socmon_status socmon_bus_record_new(socmon_bus *inner, socmon_bus_access_fn fn, void *user,
                                    socmon_bus **out);
socmon_status socmon_bus_record_file(socmon_bus *inner, FILE *fp, socmon_bus **out);

SOCMON_END_DECLS
#endif
