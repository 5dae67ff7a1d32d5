/* Internal to src/drivers/zynq: what the A9 PMU's bus and perf paths share. */
#ifndef SOCMON_DRIVERS_ZYNQ_A9PMU_INTERNAL_H
#define SOCMON_DRIVERS_ZYNQ_A9PMU_INTERNAL_H

#include "drivers/zynq/zynq_drv.h"

#define PER_CORE (1 + SOCMON_ZA9_NCOUNTERS)

typedef struct za9_drv {
    socmon_bus *bus;
    unsigned ncores, per_core;
    char inst[SOCMON_ZA9_MAX_CORES][16];
    socmon_counter c[SOCMON_ZA9_MAX_CORES * PER_CORE];
} za9_drv;

socmon_status smn_za9_check_config(const smn_za9_config *cfg);
/* Counter list: per core ccnt then the events; bus_path 0 gives 64-bit
 * counters without register addresses (perf). */
void smn_za9_fill_counters(za9_drv *d, const smn_za9_config *cfg, int bus_path);

/* The perf_event path against the kernel interface sys (NULL: the real kernel), on any host:
 * the public smn_za9_perf_part_new is this on Arm Linux; tests drive it through the model. */
struct socmon_perf_sys;
socmon_status smn_za9_perf_part_new_sys(const smn_za9_config *cfg, const struct socmon_perf_sys *sys,
                                    smn_zynq_part *out);

#endif
