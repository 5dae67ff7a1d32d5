/* Cortex-A9 PMU through Linux perf_event, for software running on the Zynq's
 * own Arm cores (no /dev/mem needed, the kernel multiplexes the PMU safely).
 * Compiled on Arm Linux only; elsewhere the entry point says so.
 *
 * What a board needs (docs/install.md, "Building for a Zynq board"): a kernel
 * with CONFIG_PERF_EVENTS and the device tree's arm,cortex-a9-pmu node (Xilinx's
 * zynq-7000.dtsi has it), and, since the events count a whole CPU (pid -1, cpu
 * N), CAP_PERFMON (or root) or kernel.perf_event_paranoid <= 0. Each core's
 * events form one pinned group led by the cycle counter: the kernel schedules
 * them all on the PMU together or not at all, so the counts are never silently
 * multiplexed (scaled estimates); a group evicted by another PMU user reads as
 * end-of-file, reported as an error. Under qemu-user perf_event_open is ENOSYS:
 * tests/zynq/test_zynq_a9perf.c checks that clean failure. */
#include "core/error.h"
#include "drivers/zynq/a9pmu_internal.h"

#if defined(__linux__) && (defined(__arm__) || defined(__aarch64__))
#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

typedef struct za9_perf {
    za9_drv d;
    int fd[SOCMON_ZA9_MAX_CORES * PER_CORE];
    size_t nfd;
} za9_perf;

static void perf_destroy(void *p)
{
    za9_perf *z = p;
    /* members before their leader, as perf closes groups */
    for (size_t i = z->nfd; i-- > 0;)
        close(z->fd[i]);
    free(z);
}

static socmon_status perf_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    za9_perf *z = p;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= z->nfd)
            return socmon_fail(SOCMON_ERANGE, "a9 perf: counter %u out of range 0..%zu", idx[i],
                               z->nfd - 1);
        uint64_t v;
        ssize_t got = read(z->fd[idx[i]], &v, sizeof v);
        if (got == 0)
            return socmon_fail(SOCMON_EIO, "a9 perf: %s.%s: the core's counter group lost the PMU "
                               "to another perf user (pinned group evicted); counts would be partial",
                               z->d.c[idx[i]].instance, z->d.c[idx[i]].name);
        if (got != (ssize_t)sizeof v)
            return socmon_fail(SOCMON_EIO, "a9 perf: reading %s.%s: %s", z->d.c[idx[i]].instance,
                               z->d.c[idx[i]].name, got < 0 ? strerror(errno) : "short read");
        out[i] = v;
    }
    return SOCMON_OK;
}

/* kernel.perf_event_paranoid as text, for the permission message ("?" if unreadable) */
static void paranoid_level(char *buf, size_t len)
{
    snprintf(buf, len, "?");
    FILE *f = fopen("/proc/sys/kernel/perf_event_paranoid", "r");
    if (!f)
        return;
    int v;
    if (fscanf(f, "%d", &v) == 1)
        snprintf(buf, len, "%d", v);
    fclose(f);
}

/* perf_event_open's errno as a socmon status, with what to do about it */
static socmon_status open_error(int e, unsigned cpu, unsigned event, int raw)
{
    char ev[24];
    if (raw)
        snprintf(ev, sizeof ev, "event 0x%02x", event);
    else
        snprintf(ev, sizeof ev, "cycles");
    switch (e) {
    case EACCES:
    case EPERM: {
        char lvl[16];
        paranoid_level(lvl, sizeof lvl);
        return socmon_fail(SOCMON_EPERM,
                           "a9 perf: cpu%u %s: permission denied: counting a whole CPU needs "
                           "CAP_PERFMON (or root) or kernel.perf_event_paranoid <= 0 (it is %s)",
                           cpu, ev, lvl);
    }
    case ENOSYS:
        return socmon_fail(SOCMON_ENOTSUP,
                           "a9 perf: perf_event_open is not available here (a kernel without "
                           "CONFIG_PERF_EVENTS, or an emulator such as qemu-user); use the "
                           "memory-mapped path (zynq:hw=1)");
    case ENOENT:
    case EOPNOTSUPP:
        return socmon_fail(SOCMON_ENOTSUP,
                           "a9 perf: cpu%u %s: no hardware PMU driver for it (does the device tree "
                           "have the arm,cortex-a9-pmu node?): %s",
                           cpu, ev, strerror(e));
    case ENODEV:
        return socmon_fail(SOCMON_ERANGE, "a9 perf: cpu%u is offline or absent (%s)", cpu,
                           strerror(e));
    case EINVAL:
        return socmon_fail(SOCMON_EINVAL, "a9 perf: cpu%u %s: rejected by the kernel: %s", cpu, ev,
                           strerror(e));
    default:
        return socmon_fail(SOCMON_EIO, "a9 perf: cpu%u %s: %s", cpu, ev, strerror(e));
    }
}

socmon_status socmon_za9_perf_part_new(const socmon_za9_config *cfg_in, socmon_zynq_part *out)
{
    if (!cfg_in || !out)
        return socmon_fail(SOCMON_EINVAL, "a9 perf: NULL argument");
    socmon_status st = za9_check_config(cfg_in);
    if (st)
        return st;
    socmon_za9_config cfg = *cfg_in;
    cfg.ccnt_div64 = 0;   /* perf's cycles event counts every cycle */
    za9_perf *z = calloc(1, sizeof *z);
    if (!z)
        return socmon_fail(SOCMON_ENOMEM, "a9 perf: out of memory");
    za9_fill_counters(&z->d, &cfg, 0);
    for (unsigned k = 0; k < cfg.ncores; k++) {
        int leader = -1;
        for (unsigned i = 0; i < z->d.per_core; i++) {
            struct perf_event_attr a;
            memset(&a, 0, sizeof a);
            a.size = sizeof a;
            a.type = i == 0 ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW;
            a.config = i == 0 ? PERF_COUNT_HW_CPU_CYCLES : cfg.events[i - 1];
            a.pinned = i == 0;   /* only a group leader may be pinned */
            int fd = (int)syscall(__NR_perf_event_open, &a, -1, (int)k, leader, 0);
            if (fd < 0) {
                int e = errno;
                perf_destroy(z);
                return open_error(e, k, i ? cfg.events[i - 1] : 0, i != 0);
            }
            if (i == 0)
                leader = fd;
            z->fd[z->nfd++] = fd;
        }
    }
    out->drv = z;
    out->ncounters = z->nfd;
    out->counters = z->d.c;
    out->read = perf_read;
    out->destroy = perf_destroy;
    return SOCMON_OK;
}

#else

socmon_status socmon_za9_perf_part_new(const socmon_za9_config *cfg, socmon_zynq_part *out)
{
    (void)cfg;
    (void)out;
    return socmon_fail(SOCMON_ENOTSUP, "a9 pmu: the perf_event path exists on Arm Linux only; "
                                       "use the memory-mapped path (bus)");
}

#endif
