/* The window bus: an inner bus seen at another base address, or several as one address space.
 *
 * A mapping of a device window (the mmio bus over /dev/mem at the ESP monitor
 * base) answers at offsets 0..size-1, while the model of the same block answers
 * at the block's own addresses (base..base+size-1). Wrapping the mapping in a
 * window bus at that base gives one address space on model and silicon, so a
 * driver, a bus trace and socmon_target_bus() see the same addresses on both. */
#ifndef SOCMON_BUS_WINDOW_BUS_H
#define SOCMON_BUS_WINDOW_BUS_H

#include "socmon/bus.h"

/* Accesses to [base, base+size) go to inner at addr - base; any other address
 * (a 64-bit access must fit whole) fails with SOCMON_EIO and a message naming
 * the address and the window. The window takes inner over on success and
 * frees it with itself; on failure the caller keeps inner. size > 0 and
 * base + size must not wrap. */
socmon_status smn_bus_window_new(socmon_bus *inner, uint64_t base, uint64_t size,
                                    socmon_bus **out);

/* Several windows as one bus named name (a board whose blocks are mapped through different
 * devices: Zynq's APM through UIO, its PMUs through /dev/mem): an access goes to the window that
 * holds it whole, at addr - base, any other fails with SOCMON_EIO naming the address. 1..8
 * windows, none empty, wrapping or overlapping another. The bus takes the inner buses over on
 * success and frees them with itself; on failure the caller keeps them. */
typedef struct smn_bus_window {
    socmon_bus *inner;
    uint64_t base, size;
} smn_bus_window;
socmon_status smn_bus_windows_new(const char *name, const smn_bus_window *w, size_t n, socmon_bus **out);

#endif
