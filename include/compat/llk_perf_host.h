/* Tensix performance counters, host side: the C form of tt-llk's
 * helpers/counters.py and helpers/metrics.py (V1 guide), and a simulator to
 * run them against. The Python module python/socmon_tensix wraps these.
 *
 * configure_counters writes the guide's 86 slots to all three threads' L1
 * config areas; read_counters reads every thread's slots and (cycles, count)
 * pairs back; compute_metrics evaluates metrics/tensix.json (the guide's
 * formulas, in the core's metrics engine) on them. Where tt-llk names a core
 * by "x,y", these take the bus that reaches the core's L1 and its base. */
#ifndef SOCMON_COMPAT_LLK_PERF_HOST_H
#define SOCMON_COMPAT_LLK_PERF_HOST_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "socmon/bus.h"
#include "socmon/status.h"
#include "socmon/target.h"

SOCMON_BEGIN_DECLS

typedef struct llk_perf_row {
    unsigned thread;            /* 0 UNPACK, 1 MATH, 2 PACK */
    unsigned bank;              /* 0 INSTRN_THREAD, 1 FPU, 2 TDMA_UNPACK, 3 L1, 4 TDMA_PACK */
    unsigned counter_id;
    int l1_mux;                 /* 0 or 1 on L1 rows, -1 elsewhere */
    uint32_t cycles;
    uint32_t count;
    int undefined;              /* 1: L1 mux changed while counting; cycles/count mean nothing */
    const char *thread_name;    /* "UNPACK" */
    const char *bank_name;      /* "FPU" */
    const char *counter_name;   /* "FPU_OR_SFPU_INSTRN" */
} llk_perf_row;

typedef struct llk_perf_results llk_perf_results;
typedef struct llk_perf_metrics llk_perf_metrics;

socmon_status llk_perf_configure_counters(socmon_bus *bus, uint64_t l1_base);
/* One thread's slots (n <= 86), validated first: errors name the slot. */
socmon_status llk_perf_configure_slots(socmon_bus *bus, uint64_t l1_base, unsigned thread,
                                       const uint32_t *words, size_t n);
/* Every valid slot of every thread, in thread then slot order. An all-ones
 * (cycles, count) pair, which stop() writes for undefined L1 results, gives
 * a row with undefined = 1. */
socmon_status llk_perf_read_counters(socmon_bus *bus, uint64_t l1_base, llk_perf_results **out);

/* Results built by hand (tests, data from elsewhere). counter_id 0..511: an id
 * the guide does not list is named as tt-llk names it ("FPU_UNKNOWN_300",
 * "L1_UNKNOWN_9_0"; socmon_tensix_counter_name). */
socmon_status llk_perf_results_new(llk_perf_results **out);
socmon_status llk_perf_results_add(llk_perf_results *r, unsigned thread, unsigned bank,
                                   unsigned counter_id, unsigned l1_mux, uint32_t cycles,
                                   uint32_t count, int undefined);
size_t llk_perf_results_count(const llk_perf_results *r);
const llk_perf_row *llk_perf_results_row(const llk_perf_results *r, size_t i);
void llk_perf_results_free(llk_perf_results *r);

/* Text as print_counters shows it: snprintf-like, *len = the full length (buf may be NULL with
 * any cap, and len NULL). r NULL or empty prints "No counter results to display.", as tt-llk
 * prints None. */
socmon_status llk_perf_format_counters(const llk_perf_results *r, char *buf, size_t cap, size_t *len);
socmon_status llk_perf_print_counters(const llk_perf_results *r, FILE *fp);
/* Appends rows to FILENAME.WORKER_ID.csv (worker_id NULL: "gw0"); columns
 * thread,bank,counter_name,counter_id,cycles,count,l1_mux then one constant
 * column per test parameter. The header is written when the file is new;
 * appending rows with other columns to an existing file is an error. */
socmon_status llk_perf_export_counters(const llk_perf_results *r, const char *filename,
                                       const socmon_kv *params, size_t nparams,
                                       const char *worker_id);

/* platform: "wormhole_b0" (NULL), "blackhole" or "quasar", any case, or tt-llk's
 * spelling "wormhole": the bytes/cycle table. Counts are averaged over the threads
 * that ran (a thread whose rows all counted 0 cycles is left out and named by
 * llk_perf_metrics_warning), cycles are the bank's maximum. Every metric of metrics/tensix.json is
 * returned; one whose counters were not read is undefined: its value is NaN
 * (isnan(); None in Python, empty in CSV), as tt-llk's None. Empty results give
 * no metrics (tt-llk's {}), and export_metrics then writes no file. */
socmon_status llk_perf_compute_metrics(const llk_perf_results *r, const char *platform,
                                       llk_perf_metrics **out);
size_t llk_perf_metrics_count(const llk_perf_metrics *m);
/* label is NULL unless the metric has labels (dominant_bound). name, value, unit and label may
 * each be NULL. */
socmon_status llk_perf_metrics_at(const llk_perf_metrics *m, size_t i, const char **name,
                                  double *value, const char **unit, const char **label);
/* The value of the metric called name. */
socmon_status llk_perf_metrics_value(const llk_perf_metrics *m, const char *name, double *value);
const char *llk_perf_metrics_platform(const llk_perf_metrics *m);
/* NULL, or a warning naming the threads left out of the means: a thread whose rows all counted
 * 0 cycles never started the counters (a one-thread kernel, e.g. C++ built for MATH only), and
 * averaging its zeros in would divide every utilisation by the threads read (tt-llk's V1 does;
 * docs/tensix.md). print_metrics/format_metrics show it as a WARNING line. Valid until free. */
const char *llk_perf_metrics_warning(const llk_perf_metrics *m);
void llk_perf_metrics_free(llk_perf_metrics *m);
/* As format_counters (buf may be NULL with any cap, and len NULL). */
socmon_status llk_perf_format_metrics(const llk_perf_metrics *m, char *buf, size_t cap, size_t *len);
socmon_status llk_perf_print_metrics(const llk_perf_metrics *m, FILE *fp);
/* One row per call to FILENAME.WORKER_ID.csv (worker_id NULL: "gw0"): the metrics, then test
 * parameters. */
socmon_status llk_perf_export_metrics(const llk_perf_metrics *m, const char *filename,
                                      const socmon_kv *params, size_t nparams,
                                      const char *worker_id);

/* ---- a simulated core to run against ---- */

typedef struct llk_perf_sim llk_perf_sim;

/* options: "key=value,..." with tiles, format, fidelity, bound, platform, kernel
 * (matmul default, sfpu, reduce, topk, sync), or NULL. */
socmon_status llk_perf_sim_new(const char *options, llk_perf_sim **out);
void llk_perf_sim_free(llk_perf_sim *s);
socmon_bus *llk_perf_sim_bus(const llk_perf_sim *s);
uint64_t llk_perf_sim_l1_base(const llk_perf_sim *s);
uint64_t llk_perf_sim_regs_base(const llk_perf_sim *s);
const char *llk_perf_sim_platform(const llk_perf_sim *s);
/* Runs the kernel once with every thread's counters started before and
 * stopped after it, as ScopedPerfCounters in each TRISC kernel would. */
socmon_status llk_perf_sim_run(llk_perf_sim *s);
/* Runs the kernel once, to its last cycle, touching no counter: the "kernel
 * work" to wrap in your own llk_perf_start/stop or LLK_PERF_SCOPED calls. */
socmon_status llk_perf_sim_kernel(llk_perf_sim *s);

SOCMON_END_DECLS
#endif
