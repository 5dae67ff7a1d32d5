/* A model of the kernel's perf_event interface, behind socmon_perf_sys: the
 * driver cannot tell it from the real kernel, so every path the real kernel
 * cannot show on this machine (hardware events, multiplexing, rdpmc, permission
 * levels) runs in tests. What it checks on open follows perf_event_open(2) and
 * kernel/events/core.c: the attr size, pid/cpu combinations, perf_event_paranoid
 * against CAP_PERFMON (cpu-wide needs <= 0, kernel counting <= 1), a PMU for
 * hardware events (ENOENT without one, as in a VM), a group leader fd, and a group
 * that could never fit the counters (EINVAL, x86's validate_group). Reads follow
 * the read_format layouts of include/uapi/linux/perf_event.h. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/perf/perf_model.h"

static pm_event *by_fd(smn_perf_model *m, int fd)
{
    int i = fd - PM_FD_BASE;
    return i >= 0 && i < m->nev && !m->ev[i].closed ? &m->ev[i] : NULL;
}

static int m_open(void *ctx, void *attr, int pid, int cpu, int group_fd, unsigned long flags)
{
    smn_perf_model *m = ctx;
    (void)flags;
    const struct perf_event_attr *a = attr;
    if (a->size < PERF_ATTR_SIZE_VER0)
        return -EINVAL;
    if (pid == -1 && cpu == -1)
        return -EINVAL;
    if (cpu < -1 || (cpu >= 0 && (unsigned)cpu >= (m->o.ncpus ? m->o.ncpus : 2)))
        return -ENODEV;
    if (!m->o.privileged && ((pid == -1 && m->o.paranoid > 0) || (!a->exclude_kernel && m->o.paranoid > 1)))
        return -EACCES;
    if (a->type > PERF_TYPE_BREAKPOINT)
        return -ENOENT;
    int hw = smn_pm_is_hw(a);
    if (hw && m->o.hw_counters == 0)
        return -ENOENT;
    if (a->type == PERF_TYPE_SOFTWARE && a->config >= PERF_COUNT_SW_MAX)
        return -ENOENT;
    if (m->nev >= PM_MAX_EVENTS)
        return -EMFILE;
    int leader = m->nev;
    if (group_fd >= 0) {
        pm_event *l = by_fd(m, group_fd);
        if (!l)
            return -EBADF;
        if (l->leader != group_fd - PM_FD_BASE || l->cpu != cpu || l->pid != pid)
            return -EINVAL;
        leader = group_fd - PM_FD_BASE;
        unsigned need = (unsigned)hw;
        for (int i = 0; i < m->nev; i++)
            need += !m->ev[i].closed && m->ev[i].leader == leader && m->ev[i].hw;
        if (need > m->o.hw_counters && hw)
            return -EINVAL;
    }
    pm_event *e = &m->ev[m->nev];
    memset(e, 0, sizeof *e);
    e->attr = *a;
    e->leader = leader;
    e->cpu = cpu;
    e->pid = pid;
    e->hw = hw;
    e->slot = -1;
    e->enabled = !a->disabled;
    m->nev++;
    smn_pm_schedule(m);
    return PM_FD_BASE + m->nev - 1;
}

/* One event's read (no GROUP): value, [enabled], [running], [id] */
static size_t put_one(const pm_event *e, int fd, uint64_t fmt, uint64_t *w)
{
    size_t k = 0;
    w[k++] = (uint64_t)e->count;
    if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
        w[k++] = e->time_enabled;
    if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
        w[k++] = e->time_running;
    if (fmt & PERF_FORMAT_ID)
        w[k++] = (uint64_t)fd;
    return k;
}

static long m_read(void *ctx, int fd, void *buf, size_t len)
{
    smn_perf_model *m = ctx;
    pm_event *e = by_fd(m, fd);
    if (!e)
        return -EBADF;
    const pm_event *l = &m->ev[e->leader];
    if (l->error)
        return 0; /* a pinned group in error reads as end of file */
    uint64_t fmt = e->attr.read_format, w[3 + 2 * PM_MAX_EVENTS];
    size_t k = 0;
    if (fmt & PERF_FORMAT_GROUP) {
        if (e->leader != fd - PM_FD_BASE)
            return -EINVAL; /* the model reads groups through their leader only */
        uint64_t nr = 0;
        for (int i = 0; i < m->nev; i++)
            nr += !m->ev[i].closed && m->ev[i].leader == e->leader;
        w[k++] = nr;
        if (fmt & PERF_FORMAT_TOTAL_TIME_ENABLED)
            w[k++] = e->time_enabled;
        if (fmt & PERF_FORMAT_TOTAL_TIME_RUNNING)
            w[k++] = e->time_running;
        for (int i = 0; i < m->nev; i++)
            if (!m->ev[i].closed && m->ev[i].leader == e->leader) {
                w[k++] = (uint64_t)m->ev[i].count;
                if (fmt & PERF_FORMAT_ID)
                    w[k++] = (uint64_t)(PM_FD_BASE + i);
            }
    } else {
        k = put_one(e, fd, fmt, w);
    }
    if (len < k * 8)
        return -ENOSPC;
    memcpy(buf, w, k * 8);
    return (long)(k * 8);
}

static void reset(pm_event *e)
{
    e->count = e->count_at_in = e->frac_truth = 0;
    e->time_enabled = e->time_running = 0;
}

static int m_ioctl(void *ctx, int fd, unsigned long req, unsigned long arg)
{
    smn_perf_model *m = ctx;
    pm_event *e = by_fd(m, fd);
    if (!e)
        return -EBADF;
    if (req == PERF_EVENT_IOC_ID) {
        *(uint64_t *)(uintptr_t)arg = (uint64_t)fd;
        return 0;
    }
    int group = (arg & PERF_IOC_FLAG_GROUP) != 0;
    for (int i = 0; i < m->nev; i++) {
        pm_event *x = &m->ev[i];
        if (x->closed || !(x == e || (group && x->leader == e->leader)))
            continue;
        if (req == PERF_EVENT_IOC_ENABLE)
            x->enabled = 1;
        else if (req == PERF_EVENT_IOC_DISABLE)
            x->enabled = 0;
        else if (req == PERF_EVENT_IOC_RESET)
            reset(x);
        else
            return -ENOTTY;
    }
    smn_pm_schedule(m);
    return 0;
}

static void *m_mmap_page(void *ctx, int fd)
{
    smn_perf_model *m = ctx;
    pm_event *e = by_fd(m, fd);
    if (!e)
        return NULL;
    if (!e->page) {
        e->page = aligned_alloc(4096, 4096);
        if (!e->page)
            return NULL;
        memset(e->page, 0, 4096);
        smn_pm_update_page(m, e);
    }
    return e->page;
}

static void m_munmap_page(void *ctx, void *page)
{
    (void)ctx;
    (void)page; /* freed with its event */
}

static int m_close(void *ctx, int fd)
{
    smn_perf_model *m = ctx;
    pm_event *e = by_fd(m, fd);
    if (!e)
        return -EBADF;
    e->closed = 1;
    free(e->page);
    e->page = NULL;
    smn_pm_schedule(m);
    return 0;
}

static uint64_t m_rdpmc(void *ctx, unsigned idx)
{
    smn_perf_model *m = ctx;
    for (int i = 0; i < m->nev; i++) {
        pm_event *e = &m->ev[i];
        if (e->closed || e->slot != (int)idx || e->cpu != -1) /* rdpmc: self-monitoring only */
            continue;
        if (m->races && e->page) {
            m->races--;
            e->page->lock += 2; /* an update landed while the reader was inside */
        }
        uint64_t width = m->o.pmc_width ? m->o.pmc_width : 48;
        uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
        return (e->pmc_start + (uint64_t)(e->count - e->count_at_in)) & mask;
    }
    return 0;
}

socmon_status smn_perf_model_new(const smn_perf_model_opts *opts, smn_perf_model **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "perf model: NULL argument");
    smn_perf_model_opts o = {0};
    if (opts)
        o = *opts;
    if (o.hw_counters > 64 || o.pmc_width > 64 || (o.pmc_width && o.pmc_width < 8) || o.paranoid < -1 ||
        o.paranoid > 4)
        return socmon_fail(SOCMON_ERANGE, "perf model: hw_counters %u (0..64), pmc_width %u (8..64) or paranoid %d "
                           "(-1..4) out of range", o.hw_counters, o.pmc_width, o.paranoid);
    smn_perf_model *m = calloc(1, sizeof *m);
    if (!m)
        return socmon_fail(SOCMON_ENOMEM, "perf model: out of memory");
    m->o = o;
    m->races = o.rdpmc_races;
    m->sys = (socmon_perf_sys){.open = m_open, .read = m_read, .ioctl = m_ioctl,
        .mmap_page = m_mmap_page, .munmap_page = m_munmap_page, .close = m_close, .rdpmc = m_rdpmc,
        .ctx = m};
    *out = m;
    return SOCMON_OK;
}

void smn_perf_model_free(smn_perf_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nev; i++)
        free(m->ev[i].page);
    free(m);
}

const socmon_perf_sys *smn_perf_model_sys(smn_perf_model *m)
{
    return m ? &m->sys : NULL;
}

socmon_status smn_perf_model_set_rate(smn_perf_model *m, uint32_t type, uint64_t config, double per_ns)
{
    if (!m || type >= 8 || config >= 32 || !(per_ns >= 0))
        return socmon_fail(SOCMON_EINVAL, "perf model: rate for type %u config %llu: type < 8, config < 32, rate >= 0",
                           type, (unsigned long long)config);
    m->rate[type][config] = per_ns;
    return SOCMON_OK;
}

socmon_status smn_perf_model_inject(smn_perf_model *m, uint32_t type, uint64_t config, uint64_t n)
{
    if (!m)
        return SOCMON_EINVAL;
    for (int i = 0; i < m->nev; i++) {
        pm_event *e = &m->ev[i];
        if (e->closed || e->attr.type != type || e->attr.config != config)
            continue;
        const pm_event *l = &m->ev[e->leader];
        if (!l->enabled || l->error)
            continue;
        e->frac_truth += (double)n;
        if (!e->hw || e->slot >= 0)
            e->count += (double)n;
    }
    for (int i = 0; i < m->nev; i++)
        smn_pm_update_page(m, &m->ev[i]);
    return SOCMON_OK;
}

void smn_perf_model_exec(smn_perf_model *m)
{
    if (!m)
        return;
    for (int i = 0; i < m->nev; i++)
        if (!m->ev[i].closed && m->ev[i].attr.enable_on_exec)
            m->ev[i].enabled = 1;
    smn_pm_schedule(m);
}

socmon_status smn_perf_model_truth(const smn_perf_model *m, int fd, double *count)
{
    if (!m || !count)
        return SOCMON_EINVAL;
    int i = fd - PM_FD_BASE;
    if (i < 0 || i >= m->nev)
        return socmon_fail(SOCMON_ENOENT, "perf model: no event with fd %d", fd);
    *count = m->ev[i].frac_truth;
    return SOCMON_OK;
}
