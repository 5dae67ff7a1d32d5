/* Tensix performance counters, device side: the C form of tt-llk's
 * llk_perf::PerfCounters / ScopedPerfCounters (counters.h, V1).
 *
 * A kernel thread (UNPACK, MATH or PACK) calls llk_perf_start(), which reads
 * the thread's counter slots from L1 and starts each configured bank, and
 * llk_perf_stop(), which stops them and writes interleaved (cycles, count)
 * pairs for the valid slots, in slot order, to the thread's L1 data area and
 * returns them. The scoped form starts at declaration and stops when the
 * variable leaves scope:
 *
 *     LLK_PERF_SCOPED(pc, bus, regs_base, l1_base, LLK_PERF_THREAD_MATH);
 *     ... kernel work ...
 *     // stopped, results in L1 and in pc.results
 *
 * Where real firmware writes fixed addresses, these functions reach the core
 * through a socmon_bus (a model bus in tests and simulation, an mmio bus on
 * hardware). A thin layer over socmon's Tensix driver; see docs/tensix.md. */
#ifndef SOCMON_COMPAT_LLK_PERF_COUNTERS_H
#define SOCMON_COMPAT_LLK_PERF_COUNTERS_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef enum llk_perf_counter_bank {
    LLK_PERF_INSTRN_THREAD = 0,
    LLK_PERF_FPU = 1,
    LLK_PERF_TDMA_UNPACK = 2,
    LLK_PERF_L1 = 3,
    LLK_PERF_TDMA_PACK = 4
} llk_perf_counter_bank;

enum { LLK_PERF_THREAD_UNPACK = 0, LLK_PERF_THREAD_MATH = 1, LLK_PERF_THREAD_PACK = 2 };

#define LLK_PERF_COUNTER_SLOT_COUNT 86
#define LLK_PERF_REGS_BASE 0xFFB12000ull   /* RISCV_DEBUG_REGS_START_ADDR (WH/BH) */

typedef struct llk_perf_counter_result {
    uint32_t cycles;
    uint32_t count;
    llk_perf_counter_bank bank;
    uint32_t counter_id;
    int undefined;   /* L1 only: the mux changed while counting; cycles/count are 0 */
} llk_perf_counter_result;

typedef struct llk_perf_counters {
    socmon_bus *bus;
    uint64_t regs_base, l1_base;
    unsigned thread;
    int started, stopped;
    socmon_status status;      /* of the last start/stop (the scoped form has no return) */
    uint32_t config[LLK_PERF_COUNTER_SLOT_COUNT];
    llk_perf_counter_result results[LLK_PERF_COUNTER_SLOT_COUNT];
    size_t nresults;
    void *drv;                 /* internal */
} llk_perf_counters;

/* Binds pc to a core; thread is LLK_PERF_THREAD_*. */
socmon_status llk_perf_init(llk_perf_counters *pc, socmon_bus *bus, uint64_t regs_base,
                            uint64_t l1_base, unsigned thread);
/* Reads the slots from L1 and starts every configured bank. Bad slots are
 * errors naming the slot; invalid slots (bit 31 clear) are skipped. */
socmon_status llk_perf_start(llk_perf_counters *pc);
/* Stops, reads every valid slot, writes the pairs to L1 and points *results
 * (may be NULL) at pc->results. SOCMON_EUNDEF if L1 results are undefined:
 * their entries are marked and their L1 pair is 0xFFFFFFFF, 0xFFFFFFFF. */
socmon_status llk_perf_stop(llk_perf_counters *pc, const llk_perf_counter_result **results,
                            size_t *n);
/* Releases what init took. Safe to call twice. */
void llk_perf_release(llk_perf_counters *pc);

/* Scoped form: begin = init + start; end = stop unless stopped, then release.
 * Errors land in pc->status. */
socmon_status llk_perf_scoped_begin(llk_perf_counters *pc, socmon_bus *bus, uint64_t regs_base,
                                    uint64_t l1_base, unsigned thread);
void llk_perf_scoped_end(llk_perf_counters *pc);

#if defined(__GNUC__) || defined(__clang__)
#define LLK_PERF_SCOPED(name, bus, regs_base, l1_base, thread)                                    \
    llk_perf_counters name __attribute__((cleanup(llk_perf_scoped_end)));                          \
    (void)llk_perf_scoped_begin(&name, (bus), (regs_base), (l1_base), (thread))
#endif

SOCMON_END_DECLS
#endif
