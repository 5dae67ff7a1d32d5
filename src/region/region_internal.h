/* Internal to src/region: the state behind a socmon_regions handle. */
#ifndef SOCMON_REGION_INTERNAL_H
#define SOCMON_REGION_INTERNAL_H

#include <pthread.h>
#include <stdint.h>
#include "socmon/device.h"
#include "socmon/region.h"

#define REGION_MAX 64            /* region names per handle */
#define REGION_MAX_COUNTERS 48   /* 16 events, each with its two time counters */

typedef struct region_frame {
    size_t id;
    uint64_t t0;
    uint64_t start[REGION_MAX_COUNTERS];
} region_frame;

typedef struct region_acc {
    uint64_t v[REGION_MAX_COUNTERS];
    uint64_t calls, time_ns;
} region_acc;

typedef struct socmon_regions socmon_regions;

typedef struct region_thread {
    struct region_thread *next;
    socmon_regions *owner;
    socmon_device *dev;          /* this thread's perf group (pid 0: itself); NULL once the thread
                                    has exited (its fds closed, its sums kept) */
    size_t n;
    uint32_t idx[REGION_MAX_COUNTERS];
    size_t depth;
    region_frame stack[SOCMON_REGION_DEPTH];
    region_acc acc[REGION_MAX];
    /* the names this thread has used, with their ids: a begin looks here first, without the lock
     * (the handle's names never move or change once registered) */
    const char *seen[REGION_MAX];
    size_t seen_id[REGION_MAX], nseen;
} region_thread;

struct socmon_regions {
    pthread_mutex_t lock;
    pthread_key_t key;
    char *path;
    socmon_perf_attr *ev;
    size_t nev;
    const socmon_perf_sys *sys;
    char names[REGION_MAX][SOCMON_REGION_NAME_MAX + 1];
    size_t nregions;
    region_thread *threads;
    socmon_device *tmpl;         /* the first thread's device, kept open for the counters'
                                    descriptions at close (one thread's fds, not every thread's) */
    uint64_t t_open;
};

/* The thread key's destructor: a thread that used the handle has exited. */
void smn_region_thread_exit(void *p);

#endif
