/* Internal to src/models/perf: the kernel model's state (perf_model.c opens,
 * reads and controls events; perf_sched.c makes time pass and schedules groups
 * onto the modelled PMU's counters). */
#ifndef SOCMON_MODELS_PERF_MODEL_H
#define SOCMON_MODELS_PERF_MODEL_H

#include <linux/perf_event.h>
#include <stddef.h>
#include <stdint.h>
#include "models/perf/perf_kernel_model.h"
#include "socmon/perf.h"

#define PM_FD_BASE 1000   /* model fds: far from a test's small real ones */
#define PM_MAX_EVENTS 1024

typedef struct pm_event {
    struct perf_event_attr attr;
    int leader;              /* index of the group leader (itself for a leader) */
    int cpu, pid;
    int enabled;             /* an enabled leader's group counts; members follow the leader */
    int error;               /* a pinned group that could not be scheduled */
    int closed;
    int hw;                  /* needs a hardware counter */
    int slot;                /* counter it is on now, -1 if none */
    double count, frac_truth;
    uint64_t time_enabled, time_running;
    uint64_t pmc_start;      /* raw counter value when scheduled in (near the top: wraps are tested) */
    double count_at_in;
    struct perf_event_mmap_page *page;
} pm_event;

struct smn_perf_model {
    smn_perf_model_opts o;
    pm_event ev[PM_MAX_EVENTS];
    int nev;
    double rate[8][32];      /* per type (0..5 used) and config (< 32) */
    uint64_t rot;            /* rotation of flexible groups */
    uint64_t tick_left;      /* ns until the next rotation */
    unsigned races;
    unsigned char placed[PM_MAX_EVENTS]; /* scheduling scratch: leaders placed this tick */
    socmon_perf_sys sys;
};

int smn_pm_is_hw(const struct perf_event_attr *a);
int smn_pm_group_running(const smn_perf_model *m, int leader);
/* Chooses which groups sit on the counters for the next tick and updates the pages. */
void smn_pm_schedule(smn_perf_model *m);
void smn_pm_update_page(smn_perf_model *m, pm_event *e);

#endif
