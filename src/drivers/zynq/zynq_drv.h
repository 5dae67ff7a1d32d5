/* Zynq monitor drivers: the AXI Performance Monitor (PL) and the Cortex-A9
 * PMUs (PS), and a device that holds both on one counter list.
 *
 * Each driver is a "part": it programs its block, owns a list of counters and
 * reads them by local index. socmon_zynq_device_new puts parts together on
 * one socmon_device, so one set, one sample and one timeline hold PL and PS
 * counters. A device with a single part is just that driver's device.
 *
 * The drivers speak only the register protocol over a socmon_bus: on Linux
 * hardware the APM is reached through its UIO device's map 0
 * (socmon_zapm_bus_uio) and the PMUs through /dev/mem at 0xF8891000 and
 * 0xF8893000 (socmon_bus_mmio_open); in tests through the Zynq model. */
#ifndef SOCMON_DRIVERS_ZYNQ_DRV_H
#define SOCMON_DRIVERS_ZYNQ_DRV_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "drivers/zynq/zynq_regs.h"

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
socmon_status socmon_zynq_device_new(const char *name, socmon_zynq_part *parts, size_t nparts,
                                     socmon_device **out);

/* ---- AXI Performance Monitor, Profile mode ---- */

typedef struct socmon_zapm_config {
    unsigned nslots;            /* 1..8 monitored slots */
    double clock_hz;            /* APM core clock: bounds counter rates */
    unsigned bus_width_bytes;   /* widest monitored port, for the byte counters' rate */
} socmon_zapm_config;

/* Resets the counters, sets SPA's latency points (address accept to last
 * data), turns off reset-on-sample so counters run free (consumers take
 * deltas), enables counting, and starts the sample register's clock. Counters
 * per slot, instance "slotN": wr_bytes, wr_txns, wr_lat, rd_bytes, rd_txns,
 * rd_lat (32-bit). A read latches all counters at once by reading the sample
 * register, then reads the sampled copies. The part does not own the bus. */
socmon_status socmon_zapm_part_new(socmon_bus *bus, uint64_t base, const socmon_zapm_config *cfg,
                                   socmon_zynq_part *out);
/* The register window of an APM bound to the uio_xilinx_apm driver: map 0 of
 * /dev/uioN. */
socmon_status socmon_zapm_bus_uio(const char *uio_path, socmon_bus **out);

/* ---- Cortex-A9 PMU ---- */

#define SOCMON_ZA9_MAX_CORES 4u

typedef struct socmon_za9_config {
    unsigned ncores;                     /* 1..4 */
    uint64_t bases[SOCMON_ZA9_MAX_CORES];/* memory-mapped PMU window per core (bus path) */
    unsigned nevents;                    /* 0..6 */
    uint8_t events[SOCMON_ZA9_NCOUNTERS];/* A9 event numbers, e.g. the SPA set */
    int ccnt_div64;                      /* PMCR.D: CCNT counts every 64th cycle */
    double cpu_hz;
} socmon_za9_config;

/* The SPA monitor framework's programming: INST_RENAME, L1D refill, L1D
 * access, DCACHE_DEP_STALL, MEM_WRITE_STALL, BR_MIS_PRED; 2 cores at the
 * Zynq-7000 bases, no divider. */
void socmon_za9_config_spa(socmon_za9_config *cfg, double cpu_hz);

/* Memory-mapped path: unlocks each core's window, stops and clears every
 * counter and interrupt, selects the events, resets and enables. Counters per
 * core, instance "cpuN": ccnt, then one per event named as in a9_events.h
 * (32-bit). The part does not own the bus. */
socmon_status socmon_za9_part_new(socmon_bus *bus, const socmon_za9_config *cfg,
                                  socmon_zynq_part *out);

/* perf_event path, on Arm Linux only (elsewhere SOCMON_ENOTSUP): one
 * system-wide event per core and counter (cycles, then raw A9 event numbers),
 * 64-bit counts. bases are ignored. */
socmon_status socmon_za9_perf_part_new(const socmon_za9_config *cfg, socmon_zynq_part *out);

#endif
