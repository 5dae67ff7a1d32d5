/* The Zynq monitor models: an AXI Performance Monitor in Profile mode fed by an
 * AXI traffic model per slot, and the two Cortex-A9 PMUs fed by a CPU activity
 * model per core, all on one simulated clock.
 *
 * Contract between the models (src/models/zynq/) and their users (the "zynq"
 * target, tests, benchmarks). Registers are reached through a model bus
 * (socmon_zynq_soc_map), exactly as a driver reaches silicon; the functions
 * below are for configuring the workload and for tests (IRQ lines, peek/poke).
 * Register maps: src/drivers/zynq/zynq_regs.h; behaviour: docs/zynq.md. */
#ifndef SOCMON_MODELS_ZYNQ_MODEL_H
#define SOCMON_MODELS_ZYNQ_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/status.h"
#include "drivers/zynq/zynq_regs.h"

#define SOCMON_ZYNQ_NCORES 2u
#define SOCMON_ZYNQ_APM_DEFAULT_BASE 0x43C00000ull  /* first GP0 PL peripheral slot */

/* Traffic of one monitored AXI slot. Rates of 0 mean no traffic in that
 * direction. lat_ns is the address-accept to last-data latency the slave
 * would give an unloaded transaction; each transaction draws its latency
 * uniformly from [lat_ns - lat_jitter_ns, lat_ns + lat_jitter_ns]. */
typedef struct socmon_zynq_traffic {
    double wr_mbps;            /* 1 MB = 1e6 bytes */
    double rd_mbps;
    uint32_t burst_bytes;      /* bytes per transaction, a multiple of the bus width */
    double lat_ns;
    double lat_jitter_ns;
} socmon_zynq_traffic;

/* What one Cortex-A9 core does, as rates per non-idle cycle. */
typedef struct socmon_zynq_cpu_profile {
    double util;               /* fraction of cycles not in WFI, 0..1 */
    double ipc;                /* instructions through rename per non-idle cycle */
    double ldst_per_inst;      /* L1D accesses per instruction */
    double store_frac;         /* fraction of those that are stores */
    double l1d_miss;           /* refills per L1D access */
    double stall_per_miss;     /* data-side stall cycles per refill */
    double wstall_per_store;   /* write stall cycles per store */
    double br_per_inst;
    double br_miss;            /* mispredictions per branch */
} socmon_zynq_cpu_profile;

typedef struct socmon_zynq_desc {
    unsigned nslots;                     /* 1..8 monitored slots */
    double apm_hz;                       /* APM core clock: latencies count in it */
    unsigned bus_width_bytes;            /* data width of the monitored ports */
    int gcc_width;                       /* 0 (absent, as the v5.0 profile HDL), 32 or 64 */
    double cpu_hz;
    uint64_t apm_base;
    uint64_t pmu_base[SOCMON_ZYNQ_NCORES];
    uint64_t seed;                       /* for latency draws */
    socmon_zynq_traffic traffic;         /* the configured traffic, for every slot */
} socmon_zynq_desc;

/* 5 slots (HP0..HP3 + ACP, as the SPM design), 64-bit ports at 200 MHz,
 * 400 MB/s write and 800 MB/s read per slot, 128-byte bursts, 250 ns, A9 at
 * 666.67 MHz. */
void socmon_zynq_desc_default(socmon_zynq_desc *d);
/* Checks ranges; errors name the field and its valid range. */
socmon_status socmon_zynq_desc_check(const socmon_zynq_desc *d);

typedef struct socmon_zynq_soc socmon_zynq_soc;

socmon_status socmon_zynq_soc_new(const socmon_zynq_desc *d, socmon_zynq_soc **out);
void socmon_zynq_soc_free(socmon_zynq_soc *soc);
const socmon_zynq_desc *socmon_zynq_soc_desc(const socmon_zynq_soc *soc);
/* Maps the APM window and both PMU windows onto a model bus. */
socmon_status socmon_zynq_soc_map(socmon_zynq_soc *soc, socmon_bus *model_bus);

/* Workloads, NULL-terminated; [0] ("mixed") is the default.
 *   mixed   250 ms phases: compute-bound, memory-bound, idle, repeating
 *   steady  the configured traffic on every slot and a constant CPU load
 *   idle    no traffic, both cores almost always in WFI */
const char *const *socmon_zynq_workloads(void);
/* duration_ns 0 means the workload never finishes. */
socmon_status socmon_zynq_soc_start(socmon_zynq_soc *soc, const char *workload,
                                    uint64_t duration_ns);
socmon_status socmon_zynq_soc_advance(socmon_zynq_soc *soc, uint64_t ns, int *done);
uint64_t socmon_zynq_soc_now_ns(const socmon_zynq_soc *soc);

/* Direct control for tests: set one slot's traffic or one core's activity
 * from now on (replaces what the workload set). */
socmon_status socmon_zynq_soc_set_traffic(socmon_zynq_soc *soc, unsigned slot,
                                          const socmon_zynq_traffic *tr);
socmon_status socmon_zynq_soc_set_cpu(socmon_zynq_soc *soc, unsigned core,
                                      const socmon_zynq_cpu_profile *p);

/* Interrupt outputs: APM IRQ = GIE & |(IS & IE); PMU IRQ = |(PMOVSR & PMINTEN). */
int socmon_zynq_apm_irq(const socmon_zynq_soc *soc);
int socmon_zynq_pmu_irq(const socmon_zynq_soc *soc, unsigned core);
/* Test back doors: live APM metric counter k (6*slot + j), and setting it;
 * PMU counters n = 0..5 and 31 for CCNT. */
uint32_t socmon_zynq_apm_peek(const socmon_zynq_soc *soc, unsigned k);
socmon_status socmon_zynq_apm_poke(socmon_zynq_soc *soc, unsigned k, uint32_t v);
socmon_status socmon_zynq_pmu_poke(socmon_zynq_soc *soc, unsigned core, unsigned n, uint32_t v);
/* Transactions the traffic model could not issue on time because 32 were
 * already outstanding on that slot and direction (0 unless overloaded). */
uint64_t socmon_zynq_apm_stalls(const socmon_zynq_soc *soc, unsigned slot);

#endif
