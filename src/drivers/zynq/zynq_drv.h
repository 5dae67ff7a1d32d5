/* Zynq monitor drivers: internal, as their devices (the "zynq" target builds
 * them; users open the target) and the "parts" they are built from.
 *
 * Each driver is a part: it programs its block, owns a list of counters and
 * reads them by local index. smn_zynq_parts_device_new puts parts together on one
 * socmon_device, so one set, one sample and one timeline hold PL and PS
 * counters. Register facts: src/hw/zynq_apm.h and src/hw/a9_pmu.h.
 *
 * The drivers speak only the register protocol over a socmon_bus: on Linux
 * hardware the APM is reached through its UIO device's map 0
 * (smn_zapm_bus_uio) and the PMUs through /dev/mem at 0xF8891000 and
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

/* ==== socmon's drivers (were public in socmon/zynq.h before issue 24) ====
 * Each makes a socmon_device whose counters socmon reads, samples and turns
 * into metrics (metrics/zynq.json). They program the block when created and
 * only read afterwards; the bus is not owned and must outlive the device. */

/* AXI Performance Monitor, Profile or Advanced mode (the mode the APM was
 * built in: a driver cannot change it). */
typedef struct smn_zapm_sel {
    uint8_t slot;               /* 0..nslots-1 */
    uint8_t metric;             /* 0..22 or 30 (spec numbers, docs/zynq.md) */
} smn_zapm_sel;
typedef struct smn_zapm_config {
    unsigned nslots;            /* 1..8 monitored slots */
    double clock_hz;            /* APM core clock (> 0): bounds counter rates */
    unsigned bus_width_bytes;   /* widest monitored port (0: 8), for the byte counters' rate */
    /* ==== Advanced mode (ignored in Profile mode) ==== */
    int mode;                   /* socmon_zapm_mode */
    unsigned ncounters;         /* metric counters the APM has, 1..10 (0: 10) */
    unsigned nsel;              /* selections given, 0..ncounters; 0: the default set */
    smn_zapm_sel sel[SOCMON_ZAPM_MAX_SEL];
    unsigned scale;             /* metric count scale 1, 2, 4, 8 (0: 1) */
    int no_sampled;             /* 1: the APM has no sampled counters (read MCn live) */
    int gcc_width;              /* 0: do not read the GCC; 32 or 64: counter "apm.gcc" */
} smn_zapm_config;

/* The default Advanced-mode selection for nslots slots and ncounters
 * counters: slot 0's six SPA metrics (write bytes, write transactions,
 * write latency, read bytes, read transactions, read latency), then write
 * bytes, read bytes, write and read transactions of slots 1, 2, ... until
 * the counters run out. Fills sel[0..ncounters), returns how many. */
unsigned smn_zapm_default_sel(unsigned nslots, unsigned ncounters, smn_zapm_sel *sel);
/* The counter name a metric number gets ("wr_bytes", "rd_lat_max", ...), or
 * NULL for a number no APM metric has. */
const char *smn_zapm_metric_name(unsigned metric);

/* Cortex-A9 PMUs. */
#define SOCMON_ZA9_MAX_CORES 4u
#define SOCMON_ZA9_MAX_EVENTS 6u   /* event counters of an A9 PMU */
typedef struct smn_za9_config {
    unsigned ncores;                         /* 1..4 */
    uint64_t bases[SOCMON_ZA9_MAX_CORES];    /* memory-mapped PMU window per core */
    unsigned nevents;                        /* 0..6 */
    uint8_t events[SOCMON_ZA9_MAX_EVENTS];   /* A9 event numbers, distinct */
    int ccnt_div64;                          /* PMCR.D: CCNT counts every 64th cycle */
    double cpu_hz;                           /* > 0 */
} smn_za9_config;

/* The SPA monitor framework's programming: INST_RENAME, L1D refill, L1D
 * access, DCACHE_DEP_STALL, MEM_WRITE_STALL, BR_MIS_PRED; 2 cores at the
 * Zynq-7000 bases, no divider. */
void smn_za9_config_spa(smn_za9_config *cfg, double cpu_hz);

/* The APM at base: resets the counters, sets SPA's latency points (address
 * accept to last data), turns reset-on-sample off so counters run free
 * (consumers take deltas), enables counting. Profile mode: counters per
 * slot, instance "slotN": wr_bytes, wr_txns, wr_lat, rd_bytes, rd_txns,
 * rd_lat (32-bit). Advanced mode: programs the metric selectors (cfg->sel,
 * or smn_zapm_default_sel) and gives one counter per selection, instance
 * "slotN", named smn_zapm_metric_name(metric), 32 + log2(scale) bits in
 * the metric's own units; plus "apm.gcc" if gcc_width. A device read
 * latches them all at once through the sample register. Params:
 * apm_clock_hz, bus_width_bytes. SOCMON_ERANGE for a bad config, EINVAL for
 * a selection given twice, or the bus's error. */
socmon_status smn_zapm_device_new(socmon_bus *bus, uint64_t base, const smn_zapm_config *cfg,
                                     socmon_device **out);
/* The PMUs at cfg->bases: unlocks each window, stops and clears every counter
 * and interrupt, selects the events, resets and enables. Counters per core,
 * instance "cpuN": ccnt, then one per event named for it ("inst_rename",
 * 32-bit). Params: cpu_clock_hz, ref_clock_hz (cpu/2, the A9 global timer),
 * pmu_ccnt_div. SOCMON_ENOENT for a number that is not an A9 event, EIO if
 * a window stays locked. */
socmon_status smn_za9_device_new(socmon_bus *bus, const smn_za9_config *cfg,
                                    socmon_device **out);
/* Both on one device, as the "zynq" target builds it: the APM's counters,
 * then the cores', so one sample holds PL and PS with one timestamp. Params of
 * both. */
socmon_status smn_zynq_device_new(socmon_bus *bus, uint64_t apm_base,
                                     const smn_zapm_config *apm, const smn_za9_config *pmu,
                                     socmon_device **out);
/* The PMU counters through Linux perf_event instead of the window (for
 * software on the Zynq's own cores; 64-bit counts, bases ignored).
 * SOCMON_ENOTSUP except on Arm Linux. */
socmon_status smn_za9_perf_device_new(const smn_za9_config *cfg, socmon_device **out);

/* The register window of an APM bound to Linux's uio_xilinx_apm driver: map 0
 * of /dev/uioN, addresses 0..0xFFFF. */
socmon_status smn_zapm_bus_uio(const char *uio_path, socmon_bus **out);

/* smn_za9_device_new's PMUs programmed and read through CP15 instead of
 * the window: cps[k] is core k's interface (cfg->ncores of them; bases are
 * ignored). Same counters, names and params; reading an event counter
 * writes PMSELR. SOCMON_EINVAL for a NULL interface function. */
socmon_status smn_za9_cp15_device_new(const socmon_cp15 *cps, const smn_za9_config *cfg,
                                         socmon_device **out);


/* The public config's capacity is the hardware's. */
_Static_assert(SOCMON_ZA9_MAX_EVENTS == SOCMON_ZA9_NCOUNTERS,
               "smn_za9_config.events has one entry per A9 event counter");

typedef struct smn_zynq_part {
    void *drv;
    size_t ncounters;
    const socmon_counter *counters;   /* owned by drv */
    socmon_status (*read)(void *drv, const uint32_t *idx, size_t n, uint64_t *out);
    void (*destroy)(void *drv);
} smn_zynq_part;

/* Builds one device over parts[0..nparts) (taken over: they are destroyed
 * with the device, or here on failure). Counter i of part p gets device index
 * (sum of earlier parts' counts) + i. */
socmon_status smn_zynq_parts_device_new(const char *name, smn_zynq_part *parts, size_t nparts,
                                    socmon_device **out);

/* What an Advanced-mode metric is called and how fast it can count
 * (apm_sel.c): per_clock increments per core clock, times the bus width if
 * per_byte; 0 for a live value. NULL for a number that is no metric. */
typedef struct zapm_metric_info {
    const char *name, *unit, *desc;
    unsigned per_clock;
    int per_byte;
} zapm_metric_info;
const zapm_metric_info *smn_zapm_metric_info_of(unsigned metric);
/* "SLOT:METRIC+SLOT:METRIC..." (1..10 items; METRIC a counter name or a
 * number) into sel[]; errors name the bad item. */
socmon_status smn_zapm_sel_parse(const char *list, smn_zapm_sel *sel, unsigned *nsel);

/* The APM part: the programming and counters smn_zapm_device_new
 * describes. The part does not own the bus. */
socmon_status smn_zapm_part_new(socmon_bus *bus, uint64_t base, const smn_zapm_config *cfg,
                                   smn_zynq_part *out);
/* The PMU parts: memory-mapped windows, or perf_event (Arm Linux only, else
 * SOCMON_ENOTSUP), as smn_za9_device_new / smn_za9_perf_device_new. */
socmon_status smn_za9_part_new(socmon_bus *bus, const smn_za9_config *cfg,
                                  smn_zynq_part *out);
socmon_status smn_za9_perf_part_new(const smn_za9_config *cfg, smn_zynq_part *out);
/* The PMUs through one CP15 interface per core (a9pmu_cp15.c). */
socmon_status smn_za9_cp15_part_new(const socmon_cp15 *cps, const smn_za9_config *cfg,
                                       smn_zynq_part *out);

#endif
