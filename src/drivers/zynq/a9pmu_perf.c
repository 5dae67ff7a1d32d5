/* Cortex-A9 PMU through Linux perf_event, for software running on the Zynq's own Arm cores (no
 * /dev/mem needed, the kernel shares the PMU safely): a user of the generic perf driver
 * (src/drivers/perf/, socmon/perf.h), which does the opening, the group reads and the
 * permission messages. The public entry is for Arm Linux only (elsewhere the A9's raw event
 * codes would go to another CPU's PMU); smn_za9_perf_part_new_sys runs the same code on any host
 * against a given kernel interface, which is how the tests drive it through the kernel model.
 *
 * What a board needs (docs/install.md, "Building for a Zynq board"): a kernel with
 * CONFIG_PERF_EVENTS and the device tree's arm,cortex-a9-pmu node (Xilinx's zynq-7000.dtsi has
 * it), and, since the events count a whole CPU (pid -1, cpu N), CAP_PERFMON (or root) or
 * kernel.perf_event_paranoid <= 0. Each core's events form one pinned group led by the cycle
 * counter: the kernel schedules them all on the PMU together or not at all, so the counts are
 * never multiplexed estimates; a group evicted by another PMU user reads as an error. Under
 * qemu-user perf_event_open is ENOSYS: tests/zynq/test_zynq_a9perf.c checks that clean failure. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/zynq/a9pmu_internal.h"
#include "socmon/perf.h"

typedef struct za9_perf {
    za9_drv d;
    socmon_device *inner;   /* the generic perf device: per CPU, per event NAME, --enabled, --running */
    size_t per_cpu;         /* inner counters per CPU */
} za9_perf;

static void perf_destroy(void *p)
{
    za9_perf *z = p;
    socmon_device_free(z->inner);
    free(z);
}

/* A9 counter (core k, slot j) is the inner device's event j on cpu k: its count only (a pinned
 * group is never scaled). */
static socmon_status perf_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    za9_perf *z = p;
    uint32_t *in = malloc((n + 1) * sizeof *in);
    if (!in)
        return socmon_fail(SOCMON_ENOMEM, "a9 perf: out of memory");
    for (size_t i = 0; i < n; i++) {
        unsigned k = idx[i] / z->d.per_core, j = idx[i] % z->d.per_core;
        in[i] = (uint32_t)(k * z->per_cpu + 3 * j);
    }
    socmon_status st = socmon_device_read(z->inner, in, n, out);
    free(in);
    return st ? socmon_fail_prefix(st, "a9 perf: ") : SOCMON_OK;
}

socmon_status smn_za9_perf_part_new_sys(const smn_za9_config *cfg_in, const socmon_perf_sys *sys,
                                    smn_zynq_part *out)
{
    if (!cfg_in || !out)
        return socmon_fail(SOCMON_EINVAL, "a9 perf: NULL argument");
    socmon_status st = smn_za9_check_config(cfg_in);
    if (st)
        return st;
    smn_za9_config cfg = *cfg_in;
    cfg.ccnt_div64 = 0; /* perf's cycles event counts every cycle */
    za9_perf *z = calloc(1, sizeof *z);
    socmon_perf_attr ev[1 + SOCMON_ZA9_NCOUNTERS];
    if (!z)
        return socmon_fail(SOCMON_ENOMEM, "a9 perf: out of memory");
    smn_za9_fill_counters(&z->d, &cfg, 0);
    /* one pinned group per core: the cycle counter leads, the raw A9 event numbers follow */
    memset(ev, 0, sizeof ev);
    for (unsigned i = 0; i < z->d.per_core; i++) {
        ev[i].type = i == 0 ? 0 /* PERF_TYPE_HARDWARE */ : 4 /* PERF_TYPE_RAW */;
        ev[i].config = i == 0 ? 0 /* PERF_COUNT_HW_CPU_CYCLES */ : cfg.events[i - 1];
        ev[i].group = 0;
        snprintf(ev[i].name, sizeof ev[i].name, "%s", z->d.c[i].name);
        snprintf(ev[i].unit, sizeof ev[i].unit, "%s", z->d.c[i].unit);
    }
    char cpus[32];
    snprintf(cpus, sizeof cpus, "0-%u", cfg.ncores - 1);
    socmon_perf_opts po = {.events = ev, .nevents = z->d.per_core, .mode = SOCMON_PERF_CPU, .cpus = cpus,
                           .pinned = 1, .no_rdpmc = 1, .sys = sys};
    st = socmon_perf_device_new("a9pmu", &po, &z->inner);
    const char *bad, *why;
    if (st == SOCMON_OK && socmon_perf_device_unsupported(z->inner, 0, &bad, &why) == SOCMON_OK)
        st = socmon_fail(SOCMON_ENOTSUP, "'%s' %s (does the device tree have the arm,cortex-a9-pmu node?)", bad, why);
    if (st) {
        perf_destroy(z);
        char msg[512];
        snprintf(msg, sizeof msg, "%s", socmon_errmsg());
        if (st == SOCMON_ENOTSUP && !strstr(msg, "not available here") && !strstr(msg, "cortex-a9"))
            return socmon_fail(SOCMON_ENOTSUP, "a9 perf: %s (does the device tree have the arm,cortex-a9-pmu "
                               "node?)", msg);
        if (st == SOCMON_ENOTSUP && strstr(msg, "not available here"))
            return socmon_fail(SOCMON_ENOTSUP, "a9 perf: perf_event_open is not available here (a kernel without "
                               "CONFIG_PERF_EVENTS, or an emulator such as qemu-user); use the memory-mapped "
                               "path (zynq:hw=1)");
        return socmon_fail_prefix(st, "a9 perf: ");
    }
    z->per_cpu = 3 * (size_t)z->d.per_core;
    out->drv = z;
    out->ncounters = (size_t)z->d.ncores * z->d.per_core;
    out->counters = z->d.c;
    out->read = perf_read;
    out->destroy = perf_destroy;
    return SOCMON_OK;
}

socmon_status smn_za9_perf_part_new(const smn_za9_config *cfg, smn_zynq_part *out)
{
#if defined(__linux__) && (defined(__arm__) || defined(__aarch64__))
    return smn_za9_perf_part_new_sys(cfg, NULL, out);
#else
    (void)cfg;
    (void)out;
    return socmon_fail(SOCMON_ENOTSUP, "a9 pmu: the perf_event path exists on Arm Linux only; "
                                       "use the memory-mapped path (bus)");
#endif
}
