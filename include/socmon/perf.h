/* The host CPU (and any other Linux PMU) through perf_event_open(2).
 *
 * Three pieces, each usable alone:
 *   - event names: socmon_perf_event_parse turns what a user writes ("cycles",
 *     "page-faults", "r003c", "cpu/event=0x3c,umask=0x1/", a libpfm4 name such as
 *     "INST_RETIRED:ANY_P", each with optional :u/:k/:h modifiers) into the
 *     kernel's attribute fields, or an error naming the bad name and the closest
 *     known names;
 *   - the kernel interface (socmon_perf_sys): the real system calls, or another
 *     implementation of them (socmon's tests use an internal model of the kernel
 *     with the same read formats, multiplexing, mmap page and rdpmc, so every
 *     path of the driver runs on a machine without a hardware PMU);
 *   - the device (socmon_perf_device_new): the events opened in groups, read with
 *     PERF_FORMAT_GROUP | TOTAL_TIME_ENABLED | TOTAL_TIME_RUNNING (rdpmc where the
 *     kernel allows it, read() otherwise), per thread or per CPU.
 *
 * Multiplexing, as data: the kernel counts an event only while its group is on
 * the PMU. So beside each event counter NAME the device has two counters of the
 * same instance, NAME--enabled and NAME--running (unit "ns", 64 bits): the time the
 * event was enabled and the time it actually counted. The estimate perf prints is
 * delta(NAME) * delta(NAME--enabled) / delta(NAME--running), marked with the
 * running percentage; socmon/scaling.h computes it for any schema (a live set or a
 * recording), so recordings, the agent and reports keep what is needed to scale.
 *
 * Events the kernel cannot count here (a VM without a PMU: "instructions") are
 * not counters of the device: socmon_perf_device_unsupported lists them with the
 * reason, and the device counts what it can. */
#ifndef SOCMON_PERF_H
#define SOCMON_PERF_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/device.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* ---- event names ---- */

/* One event as the kernel takes it (the perf_event_attr fields a name decides). */
typedef struct socmon_perf_attr {
    uint32_t type;          /* PERF_TYPE_HARDWARE, _SOFTWARE, _HW_CACHE, _RAW, or a PMU's
                               dynamic type from /sys/bus/event_source/devices/PMU/type */
    uint64_t config, config1, config2;
    int exclude_user, exclude_kernel, exclude_hv;   /* modifiers :k / :u / :h */
    char name[128];         /* the name as the user wrote it (counter name and messages) */
    char pmu[32];           /* "cpu", "software", "msr", ...; "" if not known */
    char unit[16];          /* "ns" for task-clock/cpu-clock, else "events" */
    int group;              /* >= 0: the index of the {...} group it was written in (list
                               parser); -1: alone (its own group) */
} socmon_perf_attr;

/* Where names are looked up. All fields optional (zero: the defaults). */
typedef struct socmon_perf_names {
    const char *sysfs_root;  /* NULL: "/sys"; tests point it at a fixture tree holding
                                bus/event_source/devices/PMU/{type,format,events} */
    int no_pfm;              /* 1: do not ask libpfm4 even when built with it */
} socmon_perf_names;

/* Parses one event name into *out. A name no table knows fails with SOCMON_ENOENT and
 * a message naming it and up to three close matches ("no event 'instrutions' (did you
 * mean 'instructions'?)"); a malformed one (bad raw hex, unknown PMU format term) with
 * SOCMON_EPARSE naming the bad part. names may be NULL. */
socmon_status socmon_perf_event_parse(const char *name, const socmon_perf_names *names,
                                      socmon_perf_attr *out);
/* Parses a comma-separated list ("cycles,{instructions,branches},cpu/event=0x3c/"): commas
 * inside /.../ belong to the PMU term, braces make a group. *out is malloc'd (free it). */
socmon_status socmon_perf_event_list_parse(const char *list, const socmon_perf_names *names,
                                           socmon_perf_attr **out, size_t *n);
/* 1 if socmon was built with libpfm4 (names of every event the CPU's tables know). */
int socmon_perf_have_pfm(void);

/* ---- the kernel interface ---- */

/* The calls the driver makes. Each returns what the system call returns, or -errno on
 * failure (never sets errno). attr points at a struct perf_event_attr. */
typedef struct socmon_perf_sys {
    int (*open)(void *ctx, void *attr, int pid, int cpu, int group_fd, unsigned long flags);
    long (*read)(void *ctx, int fd, void *buf, size_t len);
    int (*ioctl)(void *ctx, int fd, unsigned long request, unsigned long arg);
    /* The event's perf_event_mmap_page (one page), or NULL when it cannot be mapped. */
    void *(*mmap_page)(void *ctx, int fd);
    void (*munmap_page)(void *ctx, void *page);
    int (*close)(void *ctx, int fd);
    /* Reads hardware counter idx (the mmap page's index - 1): the rdpmc instruction on
     * the real kernel, the model's counter on the model. NULL: no rdpmc here. */
    uint64_t (*rdpmc)(void *ctx, unsigned idx);
    void *ctx;
} socmon_perf_sys;

/* The real kernel (static; never NULL on Linux). */
const socmon_perf_sys *socmon_perf_sys_kernel(void);

/* ---- the device ---- */

enum {
    SOCMON_PERF_THREAD = 0,   /* count one task (pid; 0: the calling thread), on any CPU */
    SOCMON_PERF_CPU = 1       /* count everything on each listed CPU (perf stat -a / -C) */
};

typedef struct socmon_perf_opts {
    const socmon_perf_attr *events;  /* from the list parser; events with the same group >= 0
                                        are opened as one group, the others each alone */
    size_t nevents;
    int mode;                 /* SOCMON_PERF_THREAD or SOCMON_PERF_CPU */
    int pid;                  /* THREAD: the task (0: the caller) */
    const char *cpus;         /* CPU: a list such as "0-3,6" (NULL: every online CPU) */
    int inherit;              /* THREAD: count the task's future children and threads too */
    int enable_on_exec;       /* THREAD: start counting when the task execs (perf's way to
                                 count exactly a command) */
    int disabled;             /* open stopped; socmon_perf_device_enable starts */
    int pinned;               /* groups must stay on the PMU (never multiplexed): a group
                                 evicted reads as an error */
    int no_rdpmc;             /* 1: always read(); else rdpmc when the kernel allows it
                                 (self-monitoring thread mode only) */
    const socmon_perf_sys *sys;   /* NULL: the real kernel */
    size_t size;            /* sizeof(socmon_perf_opts) as the caller was built, or 0 (the first
                               layout): members are only added after this one, and the library
                               reads them only where size covers them */
} socmon_perf_opts;

/* Opens the events and builds a device named name (counters: each event as NAME, with
 * NAME--enabled and NAME--running; instance "" in thread mode, "cpuN" per CPU). An event
 * the kernel cannot count (ENOENT/EOPNOTSUPP) is listed as unsupported and left out;
 * permission errors fail with SOCMON_EPERM saying what to change (perf_event_paranoid's
 * value, CAP_PERFMON); no event countable at all fails with SOCMON_ENOTSUP. */
socmon_status socmon_perf_device_new(const char *name, const socmon_perf_opts *opts,
                                     socmon_device **out);
/* Events left out of a perf device: i-th one's name and why ("not supported: no PMU
 * counts it here"). Returns SOCMON_ERANGE past the last, SOCMON_EINVAL for a device not
 * made by socmon_perf_device_new. */
socmon_status socmon_perf_device_unsupported(const socmon_device *dev, size_t i,
                                             const char **event, const char **reason);
socmon_status socmon_perf_device_enable(socmon_device *dev);
socmon_status socmon_perf_device_disable(socmon_device *dev);
/* 1 if the last read of dev used rdpmc for at least one group (benchmarks, tests). */
int socmon_perf_device_used_rdpmc(const socmon_device *dev);

SOCMON_END_DECLS
#endif
