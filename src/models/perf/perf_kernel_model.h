/* A model of the kernel's perf_event interface, for socmon's tests and
 * benchmarks: internal (it was public in socmon/perf.h before issue 24). Its
 * socmon_perf_sys (smn_perf_model_sys) goes into socmon_perf_opts.sys. */
#ifndef SOCMON_MODELS_PERF_KERNEL_MODEL_H
#define SOCMON_MODELS_PERF_KERNEL_MODEL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/perf.h"

/* ---- a model of the kernel, for tests and benchmarks ---- */

typedef struct smn_perf_model smn_perf_model;
typedef struct smn_perf_model_opts {
    unsigned hw_counters;     /* general-purpose counters the modelled PMU has (0: no PMU:
                                 hardware events fail with ENOENT, as in a VM) */
    int rdpmc;                /* 1: the mmap pages allow user rdpmc (cap_user_rdpmc) */
    unsigned pmc_width;       /* counter width for rdpmc sign extension (0: 48) */
    int paranoid;             /* perf_event_paranoid the model enforces (-1..3) */
    int privileged;           /* 1: the caller has CAP_PERFMON (paranoid does not apply) */
    unsigned ncpus;           /* CPUs (0: 2); a cpu beyond them is ENODEV */
    uint64_t tick_ns;         /* how often multiplexed groups rotate (0: 1 ms, the kernel's
                                 default perf_event_mux_interval_ms) */
    unsigned rdpmc_races;     /* the next N rdpmc reads see the page change under them */
} smn_perf_model_opts;

socmon_status smn_perf_model_new(const smn_perf_model_opts *opts, smn_perf_model **out);
void smn_perf_model_free(smn_perf_model *m);
/* The model as a kernel interface (valid until the model is freed). */
const socmon_perf_sys *smn_perf_model_sys(smn_perf_model *m);
/* Every event of this type and config counts per_ns events per ns of time while it is on
 * a counter (hardware) or enabled (software); task-clock and cpu-clock count time itself. */
socmon_status smn_perf_model_set_rate(smn_perf_model *m, uint32_t type, uint64_t config, double per_ns);
/* n events of this type and config happen now (page faults, context switches): every
 * enabled event of that kind counts them. */
socmon_status smn_perf_model_inject(smn_perf_model *m, uint32_t type, uint64_t config, uint64_t n);
/* Makes ns of time pass. Groups that do not all fit on the counters rotate every tick
 * (all or nothing, pinned first), so time_enabled and time_running differ as they do on a
 * real PMU; a pinned group that cannot fit goes into error (its reads return 0 bytes). */
socmon_status smn_perf_model_advance(smn_perf_model *m, uint64_t ns);
/* The monitored task execs: events opened with enable_on_exec start counting. */
void smn_perf_model_exec(smn_perf_model *m);
/* What the event would have counted had it run all the time it was enabled (the oracle
 * a scaled estimate is checked against), by the fd the driver got. */
socmon_status smn_perf_model_truth(const smn_perf_model *m, int fd, double *count);

#endif
