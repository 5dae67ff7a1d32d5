/* Zynq-7000 monitors: socmon's register-accurate model of an AXI Performance
 * Monitor (PL) and the two Cortex-A9 PMUs (PS), and socmon's drivers for them.
 *
 * The model answers on a socmon_bus exactly as the silicon answers on the
 * AXI/APB bus: map it onto a model bus (socmon_bus_model_new), and any driver
 * that reaches registers through socmon_bus_read32/write32 runs against it,
 * socmon's own (below) or yours (for example Xilinx's standalone xaxipmon
 * driver through a Xil_In32/Xil_Out32 shim over the bus). The traffic and CPU
 * knobs say what the model counts, so a test can check that a driver reads
 * what the configured traffic implies. Register map and behaviour:
 * docs/zynq.md.
 *
 * Every function that can fail returns a socmon_status and leaves a message
 * naming the bad value (socmon_errmsg()). */
#ifndef SOCMON_ZYNQ_H
#define SOCMON_ZYNQ_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* ==== the model ==== */

#define SOCMON_ZYNQ_NCORES 2u                        /* Cortex-A9 cores of a Zynq-7000 */
#define SOCMON_ZYNQ_APM_DEFAULT_BASE 0x43C00000ull   /* first GP0 PL peripheral address */

/* Traffic of one monitored AXI slot. Rates of 0 mean no traffic in that
 * direction. lat_ns is the address-accept to last-data latency the slave
 * gives an unloaded transaction; each transaction draws its latency
 * uniformly from [lat_ns - lat_jitter_ns, lat_ns + lat_jitter_ns]. */
typedef struct socmon_zynq_traffic {
    double wr_mbps;            /* 1 MB = 1e6 bytes; 0 or 0.001..1e6 */
    double rd_mbps;
    uint32_t burst_bytes;      /* bytes per transaction: 1..256 beats of the bus width */
    double lat_ns;             /* (0, 1e6] */
    double lat_jitter_ns;      /* 0..lat_ns */
    /* AXI IDs, for the APM's Advanced-mode ID filter: transaction k of a
     * direction carries id_base + k mod id_count (0 counts as 1: every
     * transaction has ID id_base, 0 by default). id_count <= 256. */
    uint32_t id_base;
    uint32_t id_count;
} socmon_zynq_traffic;

/* What one Cortex-A9 core does, as rates per non-idle cycle. */
typedef struct socmon_zynq_cpu_profile {
    double util;               /* fraction of cycles not in WFI, 0..1 */
    double ipc;                /* instructions through rename per non-idle cycle, 0..4 */
    double ldst_per_inst;      /* L1D accesses per instruction, 0..2 */
    double store_frac;         /* fraction of those that are stores, 0..1 */
    double l1d_miss;           /* refills per L1D access, 0..1 */
    double stall_per_miss;     /* data-side stall cycles per refill, 0..1000 */
    double wstall_per_store;   /* write stall cycles per store, 0..1000 */
    double br_per_inst;        /* 0..1 */
    double br_miss;            /* mispredictions per branch, 0..1 */
} socmon_zynq_cpu_profile;

/* ==== APM modes (Advanced mode, issue 13) ==== */
typedef enum socmon_zapm_mode {
    SOCMON_ZAPM_PROFILE = 0,    /* 6 fixed counters per slot (the SPA design) */
    SOCMON_ZAPM_ADVANCED = 1    /* 1..10 counters, any metric of any slot each */
} socmon_zapm_mode;
#define SOCMON_ZAPM_MAX_SEL 10u /* metric counters of Advanced mode */

/* How an APM was built (its IP parameters). Only mode matters in Profile
 * mode; the rest describes Advanced mode. Defaults (socmon_zynq_desc_default):
 * Profile, 10 counters, event count on, sampled counters on, scale 1,
 * 16-bit ID filter. */
typedef struct socmon_zapm_hw {
    int mode;                   /* socmon_zapm_mode */
    unsigned ncounters;         /* C_NUM_OF_COUNTERS: 1..10 */
    int event_count;            /* C_ENABLE_EVENT_COUNT: incrementers and ranges */
    int sampled;                /* C_HAVE_SAMPLED_METRIC_CNT: SMCn/SINCn */
    unsigned scale;             /* C_METRIC_COUNT_SCALE: 1, 2, 4, 8 */
    int id32;                   /* C_ENABLE_32BIT_FILTER_ID: RID/RIDMASK at 0x30C/0x310 */
} socmon_zapm_hw;

/* What the model is: its shape, clocks, addresses and default traffic. */
typedef struct socmon_zynq_desc {
    unsigned nslots;                     /* 1..8 monitored AXI slots */
    double apm_hz;                       /* APM core clock (1e6..1e9): latencies count in it */
    unsigned bus_width_bytes;            /* data width of the monitored ports: 4..128 */
    int gcc_width;                       /* global clock counter of Advanced mode: 0
                                            (absent), 32 or 64; Profile mode has none */
    double cpu_hz;                       /* Cortex-A9 clock, 1e6..4e9 */
    uint64_t apm_base;                   /* where smn_zynq_soc_map puts the APM */
    uint64_t pmu_base[SOCMON_ZYNQ_NCORES];/* and each core's PMU window */
    uint64_t seed;                       /* for latency draws: runs repeat exactly */
    socmon_zynq_traffic traffic;         /* the configured traffic, for every slot */
    socmon_zapm_hw apm;                  /* the APM's mode and build parameters */
} socmon_zynq_desc;

/* 5 slots (HP0..HP3 + ACP, as the SPM design), 64-bit ports at 200 MHz, 64-bit
 * GCC, 400 MB/s write and 800 MB/s read per slot, 128-byte bursts, 250 ns, no
 * jitter, A9 at 666.67 MHz, APM at SOCMON_ZYNQ_APM_DEFAULT_BASE, PMUs at
 * 0xF8891000 and 0xF8893000. d must not be NULL. */
void socmon_zynq_desc_default(socmon_zynq_desc *d);
/* SOCMON_ERANGE (or EINVAL for NULL) naming the first field out of range. */
socmon_status socmon_zynq_desc_check(const socmon_zynq_desc *d);

/* The model behind a "zynq" target: open the target (socmon_target_open("zynq:driver=none,..."),
 * socmon/target.h; driver=none attaches no socmon driver, so every register is at its reset
 * value), take its bus (socmon_target_bus) for a driver of your own and its model
 * (socmon_zynq_soc_of_target, below) for the knobs, the interrupts, the UIO device and CP15.
 * socmon's own drivers of these blocks are internal (src/drivers/zynq/zynq_drv.h). */
typedef struct socmon_zynq_soc socmon_zynq_soc;

/* What the model was made from; soc must not be NULL. */
const socmon_zynq_desc *socmon_zynq_soc_desc(const socmon_zynq_soc *soc);

/* Workloads, NULL-terminated; [0] ("mixed") is the default.
 *   mixed   250 ms phases: compute-bound, memory-bound, idle, repeating
 *   steady  the configured traffic on every slot and a constant CPU load
 *   idle    no traffic, both cores almost always in WFI */
const char *const *socmon_zynq_workloads(void);
/* Starts a workload now (workload NULL: the default). With duration_ns 0 it
 * never finishes. SOCMON_ENOENT for an unknown name. */
socmon_status socmon_zynq_soc_start(socmon_zynq_soc *soc, const char *workload,
                                    uint64_t duration_ns);
/* Runs the model ns nanoseconds of simulated time; *done (may be NULL) says
 * whether the workload has finished. A workload's duration_ns that ends
 * inside the step stops the clock at its end. SOCMON_ERANGE past 1e17 ns. */
socmon_status socmon_zynq_soc_advance(socmon_zynq_soc *soc, uint64_t ns, int *done);
/* The model's clock; soc must not be NULL. */
uint64_t socmon_zynq_soc_now_ns(const socmon_zynq_soc *soc);

/* Knobs: one slot's traffic (0..nslots-1) or one core's activity (0..1)
 * from now on, replacing what the workload set until its next phase.
 * SOCMON_ERANGE naming the bad field. */
socmon_status socmon_zynq_soc_set_traffic(socmon_zynq_soc *soc, unsigned slot,
                                          const socmon_zynq_traffic *tr);
socmon_status socmon_zynq_soc_set_cpu(socmon_zynq_soc *soc, unsigned core,
                                      const socmon_zynq_cpu_profile *p);

/* Interrupt outputs, for interrupt-driven drivers: APM IRQ = GIE & |(IS & IE);
 * PMU IRQ = |(PMOVSR & PMINTEN). soc must not be NULL. */
int socmon_zynq_apm_irq(const socmon_zynq_soc *soc);
int socmon_zynq_pmu_irq(const socmon_zynq_soc *soc, unsigned core);

/* ==== time and interrupts ====
 * docs/zynq.md, "Time on the bus" and "Interrupts". */

/* Every bus access (read or write) to a model window (the APM, either PMU)
 * takes this much simulated time, and acts at its end: a read returns the
 * register as it is once the access is over. A driver polling a status
 * register therefore sees time pass. The default is an estimate of one
 * AXI4-Lite access from a Zynq-7000 A9 through M_AXI_GP0 (docs/zynq.md);
 * 0 makes accesses take no time (socmon before issue 13). */
#define SOCMON_ZYNQ_ACCESS_NS_DEFAULT 200u
#define SOCMON_ZYNQ_ACCESS_NS_MAX 1000000u   /* 1 ms */
/* SOCMON_ERANGE naming ns if above SOCMON_ZYNQ_ACCESS_NS_MAX. */
socmon_status socmon_zynq_soc_set_access_ns(socmon_zynq_soc *soc, uint64_t ns);
uint64_t socmon_zynq_soc_access_ns(const socmon_zynq_soc *soc);

/* The model's interrupt lines (levels, active high). */
typedef enum socmon_zynq_irq {
    SOCMON_ZYNQ_IRQ_APM = 0,    /* GIE & |(IS & IE) */
    SOCMON_ZYNQ_IRQ_PMU0 = 1,   /* |(PMOVSR & PMINTEN) of CPU0 */
    SOCMON_ZYNQ_IRQ_PMU1 = 2    /* of CPU1 */
} socmon_zynq_irq;
#define SOCMON_ZYNQ_NIRQ 3u
/* GIC interrupt IDs on a Zynq-7000: the PMUs are SPI 5 and 6 (the
 * zynq-7000.dtsi pmu node); the APM's is the design's choice, the model's is
 * the first PL-to-PS line IRQ_F2P[0] (UG585 ch. 7: IDs 61-68, 84-91). */
#define SOCMON_ZYNQ_GIC_APM 61u
#define SOCMON_ZYNQ_GIC_PMU0 37u
#define SOCMON_ZYNQ_GIC_PMU1 38u

/* Called once per rising edge of a line, with the simulated time of the
 * edge. An edge during socmon_zynq_soc_advance or _wait_irq is found to the
 * nanosecond and the handler runs there (socmon_zynq_soc_now_ns == edge_ns),
 * seeing the registers as of that moment; an edge during a register access
 * is taken when the access completes, as a CPU takes an interrupt after the
 * instruction (now_ns is then up to one access later). The handler may
 * access registers over the bus (clear IS, read counters); its accesses take
 * time too. Edges that happen while it runs are delivered after it returns,
 * never nested. It must not free the model. */
typedef void (*socmon_zynq_irq_fn)(void *ctx, socmon_zynq_soc *soc, socmon_zynq_irq line,
                                   uint64_t edge_ns);
/* Installs fn (NULL removes it) for all lines. */
socmon_status socmon_zynq_soc_set_irq_handler(socmon_zynq_soc *soc, socmon_zynq_irq_fn fn,
                                              void *ctx);
/* Runs simulated time until `line` is asserted: at once (0 ns) if it is,
 * otherwise to its next rising edge, where the handler (if any) runs before
 * this returns. *waited_ns (may be NULL) gets the simulated time from the
 * call to the edge (the clock is later by whatever the handler's accesses
 * took). If the line does not rise
 * within max_ns the clock stands max_ns later and the call fails with
 * SOCMON_EAGAIN naming the line and the registers that gate it (GIE/IE/IS,
 * or PMCR.E/PMINTEN/PMOVSR), so a misprogrammed driver gets an error, never a
 * hang. SOCMON_ERANGE for an unknown line or a max_ns past the model's 1e17 ns. */
socmon_status socmon_zynq_soc_wait_irq(socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t max_ns,
                                       uint64_t *waited_ns);

/* The APM as a board user's code sees it through Linux's uio_xilinx_apm
 * driver (/dev/uioN): map 0 is the register window, map 1 a 4096-byte page
 * holding the driver's struct xapm_param, and read() blocks until the next
 * interrupt. The model's stand-in: */
typedef struct socmon_zynq_uio socmon_zynq_uio;
/* Map 1's layout (the kernel's struct xapm_param, without its trailing
 * clock pointer, which user space never reads). mode uses the UIO numbering:
 * Advanced 1, Profile 2, Trace 3. */
typedef struct socmon_zynq_xapm_param {
    uint32_t mode, maxslots, eventcnt, eventlog, sampledcnt, numcounters, metricwidth,
        sampledwidth, globalcntwidth, scalefactor, isr;
    uint8_t is_32bit_filter;
} socmon_zynq_xapm_param;
#define SOCMON_ZYNQ_UIO_MAP1_SIZE 4096u
#define SOCMON_ZYNQ_UIO_TIMEOUT_NS_DEFAULT 10000000000ull   /* 10 s of simulated time */

/* Binds the model's APM to a UIO device (one per model: SOCMON_ESTATE for a
 * second). From then on each rising edge of the APM line runs the driver's
 * handler: read IS, write it back (clearing everything pending), copy the
 * parameters with that isr into map 1, count the event. Free it before the
 * model. */
socmon_status socmon_zynq_uio_new(socmon_zynq_soc *soc, socmon_zynq_uio **out);
void socmon_zynq_uio_free(socmon_zynq_uio *u);
/* Map 0: the APM registers at offsets 0..0xFFFF (as smn_zapm_bus_uio on a
 * board). Owned by u. */
socmon_bus *socmon_zynq_uio_bus(socmon_zynq_uio *u);
/* Map 1: SOCMON_ZYNQ_UIO_MAP1_SIZE bytes, starting with a
 * socmon_zynq_xapm_param; the rest reads 0. */
const void *socmon_zynq_uio_map1(const socmon_zynq_uio *u);
/* read(2) on the device: count must be 4 (SOCMON_EINVAL otherwise, as UIO's
 * EINVAL); returns at once if an interrupt came since the last read, else
 * runs simulated time to the next one. buf gets the total interrupt count
 * (uint32_t). SOCMON_EAGAIN, as socmon_zynq_soc_wait_irq, if none comes
 * within the timeout. */
socmon_status socmon_zynq_uio_read(socmon_zynq_uio *u, void *buf, size_t count);
/* The simulated time a read may wait (default 10 s); SOCMON_ERANGE past 1e17 ns. */
socmon_status socmon_zynq_uio_set_timeout(socmon_zynq_uio *u, uint64_t max_ns);

/* The model behind an open "zynq" target (socmon/target.h), so a program
 * can turn its traffic knobs while socmon samples it; NULL if t is another
 * target or a board (zynq:hw=1). The target owns it. */
struct socmon_target;
socmon_zynq_soc *socmon_zynq_soc_of_target(const struct socmon_target *t);

/* ==== CP15 ====
 * The Cortex-A9 PMU through its coprocessor interface, as code running on the
 * core reaches it: MRC/MCR p15, opc1, Rt, CRn, CRm, opc2 (spec §5.1). The
 * twelve PMU encodings (all opc1 0, CRn c9) reach the same state as the
 * memory-mapped window of that core; PMSELR (c9,c12,5) exists only here and
 * selects the counter PMXEVTYPER (c9,c13,1) and PMXEVCNTR (c9,c13,2) reach.
 * The CoreSight lock guards only the window, never CP15. Table and choices:
 * docs/zynq.md, "CP15 and the Xilinx BSP shims".
 *
 * Errors: SOCMON_ERANGE for a core out of range, SOCMON_EINVAL for a field
 * no instruction can encode (opc1 or opc2 > 7, CRn or CRm > 15),
 * SOCMON_ENOTSUP for an encoding the A9 PMU does not implement (an Undefined
 * Instruction on silicon, e.g. PMUv2's PMCEID0 at c9,c12,6), SOCMON_EUNDEF
 * for PMXEVTYPER/PMXEVCNTR while PMSELR selects no event counter (UNPREDICTABLE
 * in the ARM ARM; *val is then 0 and a write changes nothing).
 *
 * Code on the two cores may run on two threads at once, as on the board: CP15 calls, register
 * accesses through the model's bus, advances and waits hold the model's lock, one at a time. */
socmon_status socmon_zynq_cp15_read(socmon_zynq_soc *soc, unsigned core, unsigned opc1,
                                    unsigned crn, unsigned crm, unsigned opc2, uint32_t *val);
socmon_status socmon_zynq_cp15_write(socmon_zynq_soc *soc, unsigned core, unsigned opc1,
                                     unsigned crn, unsigned crm, unsigned opc2, uint32_t val);

/* A coprocessor to run CP15 code against: the model's core or, on an Arm
 * build, the real one. ctx is the implementation's. */
typedef struct socmon_cp15 {
    socmon_status (*read)(void *ctx, unsigned opc1, unsigned crn, unsigned crm, unsigned opc2,
                          uint32_t *val);
    socmon_status (*write)(void *ctx, unsigned opc1, unsigned crn, unsigned crm, unsigned opc2,
                           uint32_t val);
    void *ctx;
} socmon_cp15;
/* Core `core` of the model (which must outlive *out). SOCMON_ERANGE. */
socmon_status socmon_zynq_cp15_of(socmon_zynq_soc *soc, unsigned core, socmon_cp15 *out);
/* The executing core's own CP15 through MRC/MCR, for the same twelve
 * encodings (others: SOCMON_ENOTSUP, never an instruction that would trap).
 * Only on 32-bit Arm builds (SOCMON_ENOTSUP elsewhere); from user space the
 * kernel must have set PMUSERENR.EN, or the instruction traps (SIGILL). */
socmon_status socmon_cp15_native(socmon_cp15 *out);
SOCMON_END_DECLS
#endif
