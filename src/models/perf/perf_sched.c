/* The kernel model's PMU: time passing and groups scheduled onto counters.
 *
 * As the kernel does (kernel/events/core.c, ctx_sched_in / merge_sched_in): pinned
 * groups go on first, and one that cannot fit goes into the error state; then the
 * flexible groups in rotation order, all of a group's events or none, stopping at
 * the first that does not fit; every tick (perf_event_mux_interval_ms, 1 ms by
 * default) the rotation moves by one group. Software events need no counter and
 * run whenever enabled. An event counts its rate while it runs; its "truth" counts
 * while it is enabled: the estimate count * enabled / running is checked against it. */
#include <string.h>

#include "models/perf/perf_model.h"

int smn_pm_is_hw(const struct perf_event_attr *a)
{
    return a->type == PERF_TYPE_HARDWARE || a->type == PERF_TYPE_HW_CACHE || a->type == PERF_TYPE_RAW;
}

static int leader_live(const smn_perf_model *m, int i)
{
    const pm_event *e = &m->ev[i];
    return !e->closed && e->leader == i && e->enabled && !e->error;
}

static unsigned hw_in_group(const smn_perf_model *m, int leader)
{
    unsigned n = 0;
    for (int i = 0; i < m->nev; i++)
        n += !m->ev[i].closed && m->ev[i].leader == leader && m->ev[i].hw;
    return n;
}

int smn_pm_group_running(const smn_perf_model *m, int leader)
{
    if (!leader_live(m, leader))
        return 0;
    if (!hw_in_group(m, leader))
        return 1;
    for (int i = 0; i < m->nev; i++)
        if (!m->ev[i].closed && m->ev[i].leader == leader && m->ev[i].hw)
            return m->ev[i].slot >= 0;
    return 0;
}

void smn_pm_update_page(smn_perf_model *m, pm_event *e)
{
    struct perf_event_mmap_page *pg = e->page;
    if (!pg)
        return;
    pg->lock++;
    /* The model's "kernel" updates the page on the reader's own thread, as the kernel interrupts
     * the task that reads it: a compiler barrier orders them (as the reader's barrier() does),
     * and a thread fence would be one ThreadSanitizer cannot model (-Wtsan). */
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    uint64_t width = m->o.pmc_width ? m->o.pmc_width : 48;
    uint64_t mask = width >= 64 ? ~0ull : (1ull << width) - 1;
    pg->cap_user_rdpmc = (unsigned)!!m->o.rdpmc;
    pg->pmc_width = (uint16_t)width;
    pg->time_enabled = e->time_enabled;
    pg->time_running = e->time_running;
    if (e->slot >= 0 && m->o.rdpmc) {
        pg->index = (uint32_t)e->slot + 1;
        /* offset + sign-extended(counter) == count */
        uint64_t sign = width >= 64 ? 0 : 1ull << (width - 1);
        uint64_t start = e->pmc_start & mask;
        int64_t sext = width >= 64 ? (int64_t)start : (int64_t)((start ^ sign) - sign);
        pg->offset = (int64_t)(uint64_t)e->count_at_in - sext;
    } else {
        pg->index = 0;
        pg->offset = (int64_t)(uint64_t)e->count;
    }
    __atomic_signal_fence(__ATOMIC_SEQ_CST);
    pg->lock++;
}

/* One CPU's PMU (cpu -1: the monitored task's, wherever it runs): its groups onto its counters. */
static void schedule_cpu(smn_perf_model *m, int cpu)
{
    unsigned free_ctr = m->o.hw_counters;
    unsigned char used[64] = {0};
    int order[PM_MAX_EVENTS], no = 0;
    for (int i = 0; i < m->nev; i++)
        if (m->ev[i].cpu == cpu && leader_live(m, i) && hw_in_group(m, i))
            order[no++] = i;
    /* pinned first, in creation order; then flexible from the rotation point */
    unsigned char *placed = m->placed;
    memset(placed, 0, sizeof m->placed);
    for (int pass = 0; pass < 2; pass++) {
        for (int k = 0; k < no; k++) {
            int li = pass == 0 ? order[k] : order[(size_t)((uint64_t)k + m->rot) % (size_t)no];
            pm_event *l = &m->ev[li];
            if ((pass == 0) != (l->attr.pinned != 0) || placed[li])
                continue;
            unsigned need = hw_in_group(m, li);
            if (need > free_ctr) {
                if (pass == 0)
                    l->error = 1; /* a pinned group that cannot go on: error state */
                if (pass == 1)
                    break;       /* flexible: stop at the first that does not fit */
                continue;
            }
            free_ctr -= need;
            placed[li] = 1;
            for (int i = 0; i < m->nev; i++) {
                pm_event *e = &m->ev[i];
                if (e->closed || e->leader != li || !e->hw)
                    continue;
                unsigned s = 0;
                while (s < 64 && used[s])
                    s++;
                used[s] = 1;
                e->slot = (int)s;
                e->count_at_in = e->count;
                /* start high so that reads cross the counter's wrap */
                uint64_t width = m->o.pmc_width ? m->o.pmc_width : 48;
                e->pmc_start = (width >= 64 ? ~0ull : (1ull << width) - 1) - 1000;
            }
        }
    }
}

void smn_pm_schedule(smn_perf_model *m)
{
    for (int i = 0; i < m->nev; i++)
        m->ev[i].slot = -1;
    unsigned ncpus = m->o.ncpus ? m->o.ncpus : 2;
    for (int cpu = -1; cpu < (int)ncpus; cpu++)
        schedule_cpu(m, cpu);
    for (int i = 0; i < m->nev; i++)
        smn_pm_update_page(m, &m->ev[i]);
}

static double rate_of(const smn_perf_model *m, const struct perf_event_attr *a)
{
    if (a->type == PERF_TYPE_SOFTWARE && (a->config == PERF_COUNT_SW_TASK_CLOCK || a->config == PERF_COUNT_SW_CPU_CLOCK))
        return 1.0;
    if (a->type < 8 && a->config < 32)
        return m->rate[a->type][a->config];
    return 0;
}

static void pass_time(smn_perf_model *m, uint64_t dt)
{
    for (int i = 0; i < m->nev; i++) {
        pm_event *e = &m->ev[i];
        if (e->closed || !leader_live(m, e->leader))
            continue;
        int running = e->hw ? e->slot >= 0 : 1;
        double r = rate_of(m, &e->attr) * (double)dt;
        e->time_enabled += dt;
        e->frac_truth += r;
        if (running) {
            e->time_running += dt;
            e->count += r;
        }
    }
}

socmon_status smn_perf_model_advance(smn_perf_model *m, uint64_t ns)
{
    if (!m)
        return SOCMON_EINVAL;
    uint64_t tick = m->o.tick_ns ? m->o.tick_ns : 1000000;
    while (ns) {
        if (m->tick_left == 0) {
            m->rot++;
            smn_pm_schedule(m);
            m->tick_left = tick;
        }
        uint64_t dt = ns < m->tick_left ? ns : m->tick_left;
        pass_time(m, dt);
        ns -= dt;
        m->tick_left -= dt;
    }
    for (int i = 0; i < m->nev; i++)
        smn_pm_update_page(m, &m->ev[i]);
    return SOCMON_OK;
}
