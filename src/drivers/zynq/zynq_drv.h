/* Zynq monitor drivers, internal side: the "parts" the public device calls
 * (include/socmon/zynq.h) and the zynq target are built from.
 *
 * Each driver is a part: it programs its block, owns a list of counters and
 * reads them by local index. zynq_parts_device_new puts parts together on one
 * socmon_device, so one set, one sample and one timeline hold PL and PS
 * counters. Register facts: src/hw/zynq_apm.h and src/hw/a9_pmu.h.
 *
 * The drivers speak only the register protocol over a socmon_bus: on Linux
 * hardware the APM is reached through its UIO device's map 0
 * (socmon_zapm_bus_uio) and the PMUs through /dev/mem at 0xF8891000 and
 * 0xF8893000 (socmon_bus_mmio_open); in tests through the Zynq model. */
#ifndef SOCMON_DRIVERS_ZYNQ_DRV_H
#define SOCMON_DRIVERS_ZYNQ_DRV_H

#include <stddef.h>
#include <stdint.h>
#include "hw/a9_pmu.h"
#include "hw/zynq_apm.h"
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/zynq.h"

/* The public config's capacity is the hardware's. */
_Static_assert(SOCMON_ZA9_MAX_EVENTS == SOCMON_ZA9_NCOUNTERS,
               "socmon_za9_config.events has one entry per A9 event counter");

typedef struct socmon_zynq_part {
    void *drv;
    size_t ncounters;
    const socmon_counter *counters;   /* owned by drv */
    socmon_status (*read)(void *drv, const uint32_t *idx, size_t n, uint64_t *out);
    void (*destroy)(void *drv);
} socmon_zynq_part;

/* Builds one device over parts[0..nparts) (taken over: they are destroyed
 * with the device, or here on failure). Counter i of part p gets device index
 * (sum of earlier parts' counts) + i. */
socmon_status zynq_parts_device_new(const char *name, socmon_zynq_part *parts, size_t nparts,
                                    socmon_device **out);

/* What an Advanced-mode metric is called and how fast it can count
 * (apm_sel.c): per_clock increments per core clock, times the bus width if
 * per_byte; 0 for a live value. NULL for a number that is no metric. */
typedef struct zapm_metric_info {
    const char *name, *unit, *desc;
    unsigned per_clock;
    int per_byte;
} zapm_metric_info;
const zapm_metric_info *zapm_metric_info_of(unsigned metric);
/* "SLOT:METRIC+SLOT:METRIC..." (1..10 items; METRIC a counter name or a
 * number) into sel[]; errors name the bad item. */
socmon_status zapm_sel_parse(const char *list, socmon_zapm_sel *sel, unsigned *nsel);

/* The APM part: the programming and counters socmon_zapm_device_new
 * describes. The part does not own the bus. */
socmon_status socmon_zapm_part_new(socmon_bus *bus, uint64_t base, const socmon_zapm_config *cfg,
                                   socmon_zynq_part *out);
/* The PMU parts: memory-mapped windows, or perf_event (Arm Linux only, else
 * SOCMON_ENOTSUP), as socmon_za9_device_new / socmon_za9_perf_device_new. */
socmon_status socmon_za9_part_new(socmon_bus *bus, const socmon_za9_config *cfg,
                                  socmon_zynq_part *out);
socmon_status socmon_za9_perf_part_new(const socmon_za9_config *cfg, socmon_zynq_part *out);
/* The PMUs through one CP15 interface per core (a9pmu_cp15.c). */
socmon_status socmon_za9_cp15_part_new(const socmon_cp15 *cps, const socmon_za9_config *cfg,
                                       socmon_zynq_part *out);

#endif
