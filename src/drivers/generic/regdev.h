/* A generic driver for counters that are plain registers.
 *
 * Many monitor blocks need nothing more: each counter is one 32-bit register
 * (width <= 32) or a lo/hi register pair (width up to 64, read hi-lo-hi).
 * Drivers whose blocks need a protocol (freeze, snapshot, select) wrap their
 * own ops; everything else, and the benchmarks, build on this one. */
#ifndef SOCMON_DRIVERS_GENERIC_REGDEV_H
#define SOCMON_DRIVERS_GENERIC_REGDEV_H

#include <stddef.h>

#include "socmon/bus.h"
#include "socmon/device.h"

/* Builds a device named name whose counters are counters[0..n) (copied), read
 * through bus. The device does not own the bus: free the device first. A
 * counter with reg_hi == 0 must have width <= 32. */
socmon_status smn_regdev_new(const char *name, socmon_bus *bus, const socmon_counter *counters,
                                size_t n, socmon_device **out);

/* The same, where counters[whole_from..n) with reg_hi == reg + 4 are 64-bit registers (a block
 * whose registers are 64 bits wide, low word at reg): read with socmon_bus_read64, one access
 * where the bus has 64-bit accesses there, else hi-lo-hi over the two words as above. */
socmon_status smn_regdev_new_whole(const char *name, socmon_bus *bus, const socmon_counter *counters, size_t n,
                                   size_t whole_from, socmon_device **out);

#endif
