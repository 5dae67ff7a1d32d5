/* Devices and their counters: the counter schema.
 *
 * A device is one monitor block (an ESP SoC's tile monitors, a Tensix core's
 * counter banks, an APM) seen through its driver. It exposes a list of
 * counters; each says what it counts, how wide it is and where it lives. The
 * core never touches registers: it asks the driver to read counters by index. */
#ifndef SOCMON_DEVICE_H
#define SOCMON_DEVICE_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_counter {
    const char *name;      /* short name within its instance, e.g. "l2_hits" */
    const char *instance;  /* where: "tile2", "core0", "slot3"; "" if device-wide */
    const char *desc;      /* one line for humans */
    const char *unit;      /* "events", "cycles", "bytes", "ns", ... */
    unsigned width;        /* 1..64 bits; the counter wraps modulo 2^width */
    uint64_t reg;          /* register address (low word of a split counter) */
    uint64_t reg_hi;       /* high word of a 64-bit counter split over two regs, else 0 */
    double max_rate_hz;    /* most increments per second it can make; 0 if unknown */
} socmon_counter;

typedef struct socmon_device socmon_device;

typedef struct socmon_device_ops {
    /* Read counters idx[0..n) into out[0..n), masked to their widths.
     * socmon_device_read has already checked every idx[i] < ncounters. */
    socmon_status (*read)(void *drv, const uint32_t *idx, size_t n, uint64_t *out);
    void (*destroy)(void *drv);   /* optional: release drv */
    size_t size;            /* sizeof(socmon_device_ops) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_device_ops;

socmon_status socmon_device_new(const char *name, const socmon_device_ops *ops, void *drv,
                                socmon_device **out);
void socmon_device_free(socmon_device *dev);
const char *socmon_device_name(const socmon_device *dev);
void *socmon_device_driver(const socmon_device *dev);

/* Adds a counter; strings are copied. Fails on width outside 1..64, an empty
 * name, or a duplicate instance.name. *idx (may be NULL) gets its index. */
socmon_status socmon_device_add_counter(socmon_device *dev, const socmon_counter *c,
                                        uint32_t *idx);
size_t socmon_device_ncounters(const socmon_device *dev);
/* NULL if i is out of range. */
const socmon_counter *socmon_device_counter(const socmon_device *dev, size_t i);
/* "tile2.l2_hits", or "l2_hits" for a device-wide counter. */
const char *socmon_device_full_name(const socmon_device *dev, size_t i);
socmon_status socmon_device_find(const socmon_device *dev, const char *full_name, uint32_t *idx);

/* Numeric parameters a device publishes for metrics (clock_hz, bus_width_bytes, ...). */
socmon_status socmon_device_set_param(socmon_device *dev, const char *name, double value);
socmon_status socmon_device_param(const socmon_device *dev, const char *name, double *value);
size_t socmon_device_nparams(const socmon_device *dev);
/* Parameter i's name and value; name and value may each be NULL. */
socmon_status socmon_device_param_at(const socmon_device *dev, size_t i, const char **name,
                                     double *value);

/* The vendor's own number of a counter, beside socmon's name: ESP's monitor index ("monitor"), a
 * RISC-V hpmcounter's CSR number. A device has at most one such numbering, named index_name
 * (the same on every call); counters it does not number have none. Fails on an idx out of range,
 * an empty or different index_name, or the value UINT64_MAX (reserved for none). */
socmon_status socmon_device_set_counter_index(socmon_device *dev, const char *index_name, uint32_t idx,
                                              uint64_t value);
/* The numbering's name ("monitor"), or NULL when the device has none. */
const char *socmon_device_index_name(const socmon_device *dev);
/* 1 and *value (value may be NULL) when counter i has a vendor number, else 0. */
int socmon_device_counter_index(const socmon_device *dev, size_t i, uint64_t *value);

socmon_status socmon_device_read(socmon_device *dev, const uint32_t *idx, size_t n,
                                 uint64_t *out);

SOCMON_END_DECLS
#endif
