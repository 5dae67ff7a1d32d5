/* Cortex-A9 PMU through Linux perf_event, for software running on the Zynq's
 * own Arm cores (no /dev/mem needed, the kernel multiplexes the PMU safely).
 * Compiled on Arm Linux only; elsewhere the entry point says so. */
#include "core/error.h"
#include "drivers/zynq/a9pmu_internal.h"

#if defined(__linux__) && (defined(__arm__) || defined(__aarch64__))
#include <errno.h>
#include <linux/perf_event.h>
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
    for (size_t i = 0; i < z->nfd; i++)
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
        if (read(z->fd[idx[i]], &v, sizeof v) != (ssize_t)sizeof v)
            return socmon_fail(SOCMON_EIO, "a9 perf: reading %s.%s: %s", z->d.c[idx[i]].instance,
                               z->d.c[idx[i]].name, strerror(errno));
        out[i] = v;
    }
    return SOCMON_OK;
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
    for (unsigned k = 0; k < cfg.ncores; k++)
        for (unsigned i = 0; i < z->d.per_core; i++) {
            struct perf_event_attr a;
            memset(&a, 0, sizeof a);
            a.size = sizeof a;
            a.type = i == 0 ? PERF_TYPE_HARDWARE : PERF_TYPE_RAW;
            a.config = i == 0 ? PERF_COUNT_HW_CPU_CYCLES : cfg.events[i - 1];
            int fd = (int)syscall(__NR_perf_event_open, &a, -1, (int)k, -1, 0);
            if (fd < 0) {
                int e = errno;
                perf_destroy(z);
                if (e == EACCES || e == EPERM)
                    return socmon_fail(SOCMON_EPERM,
                                       "a9 perf: cpu%u %s: permission denied (system-wide events "
                                       "need root or kernel.perf_event_paranoid <= 0)",
                                       k, i ? "raw event" : "cycles");
                return socmon_fail(e == ENOENT || e == EOPNOTSUPP ? SOCMON_ENOTSUP : SOCMON_EIO,
                                   "a9 perf: cpu%u event 0x%02x: %s", k,
                                   i ? cfg.events[i - 1] : 0xFFu, strerror(e));
            }
            z->fd[z->nfd++] = fd;
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
