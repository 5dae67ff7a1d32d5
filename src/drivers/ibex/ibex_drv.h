/* The Ibex counter driver: builds a socmon_device whose counters are Ibex's
 * mcycle, minstret and mhpmcounter3.. read as CSRs over a socmon bus (CSR N
 * at byte N * 4, src/hw/ibex_csr.h), plus optional per-function counters
 * from socmon's attribution table on the same bus. It knows nothing of the
 * model: any bus that answers CSR reads (a debugger bridge, the model) works. */
#ifndef SOCMON_DRIVERS_IBEX_DRV_H
#define SOCMON_DRIVERS_IBEX_DRV_H

#include <stddef.h>
#include "socmon/bus.h"
#include "socmon/device.h"

typedef struct ibex_drv_config {
    unsigned mhpm_num;          /* MHPMCounterNum 0..29: mhpmcounter3..(2+mhpm_num) */
    unsigned mhpm_width;        /* MHPMCounterWidth 1..64 */
    double clock_hz;            /* core clock: the counters' max rate and the clock_hz parameter */
    size_t nfuncs;              /* per-function counters for funcs[0..nfuncs) (0: none) */
    const char *const *funcs;   /* instance names, attribution table order */
} ibex_drv_config;

/* Counter i's name ("cycles", "instret", "lsu_wait", ...; "mhpmcounterN" for
 * 13..31), or NULL for 1 (time: no counter) and out of range. */
const char *smn_ibex_drv_counter_name(unsigned i);

/* The device "ibex": counters cycles, instret (64 bits), then mhpmcounter3..
 * under their event names (mhpm_width bits); for each function f, counters
 * f.fn_cycles, f.fn_instret, f.fn_lsu_wait ... (the events of counters 0, 2
 * and the implemented ones of 3..12, same widths). Parameters: clock_hz,
 * mhpm_num, mhpm_width. The device does not own the bus. */
socmon_status smn_ibex_device_new(socmon_bus *bus, const ibex_drv_config *cfg, socmon_device **out);

#endif
