/* The Zynq model: one APM (PL side) and two Cortex-A9 PMUs (PS side) on one
 * simulated clock, plus the workloads that drive them. The state is in
 * zynq_soc.h; time on register access and the interrupt lines are in
 * zynq_time.c and zynq_irq.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/zynq/zynq_soc.h"

#define PHASE_NS 250000000ull   /* "mixed" changes phase every 250 ms */

enum { WL_MIXED, WL_STEADY, WL_IDLE };

static const char *const workloads[] = {"mixed", "steady", "idle", NULL};

void socmon_zynq_desc_default(socmon_zynq_desc *d)
{
    memset(d, 0, sizeof *d);
    d->nslots = 5;
    d->apm_hz = 200e6;
    d->bus_width_bytes = 8;
    d->gcc_width = 64;
    d->cpu_hz = 666666667.0;
    d->apm_base = SOCMON_ZYNQ_APM_DEFAULT_BASE;
    d->pmu_base[0] = SOCMON_ZA9_CPU0_BASE;
    d->pmu_base[1] = SOCMON_ZA9_CPU1_BASE;
    d->seed = 0x5EED2016u;
    d->traffic.wr_mbps = 400;
    d->traffic.rd_mbps = 800;
    d->traffic.burst_bytes = 128;
    d->traffic.lat_ns = 250;
    d->traffic.lat_jitter_ns = 0;
    d->apm.mode = SOCMON_ZAPM_PROFILE;
    d->apm.ncounters = SOCMON_ZAPM_ADV_COUNTERS;
    d->apm.event_count = 1;
    d->apm.sampled = 1;
    d->apm.scale = 1;
}

static socmon_status check_traffic(const socmon_zynq_traffic *t, unsigned width, double apm_hz)
{
    /* 0 is off; below 0.001 MB/s the issue period would not fit the clock */
    if (!(t->wr_mbps == 0 || (t->wr_mbps >= 1e-3 && t->wr_mbps <= 1e6)))
        return socmon_fail(SOCMON_ERANGE, "wr_mbps %g out of range: 0 or 0.001..1000000", t->wr_mbps);
    if (!(t->rd_mbps == 0 || (t->rd_mbps >= 1e-3 && t->rd_mbps <= 1e6)))
        return socmon_fail(SOCMON_ERANGE, "rd_mbps %g out of range: 0 or 0.001..1000000", t->rd_mbps);
    if (t->burst_bytes == 0 || t->burst_bytes % width || t->burst_bytes / width > 256)
        return socmon_fail(SOCMON_ERANGE,
                           "burst %u bytes invalid: must be 1..256 beats of the %u-byte bus",
                           t->burst_bytes, width);
    if (!(t->lat_ns > 0 && t->lat_ns <= 1e6))
        return socmon_fail(SOCMON_ERANGE, "lat_ns %g out of range (0, 1000000]", t->lat_ns);
    if (!(t->lat_jitter_ns >= 0 && t->lat_jitter_ns <= t->lat_ns))
        return socmon_fail(SOCMON_ERANGE, "lat_jitter_ns %g out of range 0..lat_ns (%g)",
                           t->lat_jitter_ns, t->lat_ns);
    if (t->id_count > 256)
        return socmon_fail(SOCMON_ERANGE, "id_count %u out of range 0..256", t->id_count);
    (void)apm_hz;
    return SOCMON_OK;
}

static socmon_status check_apm_hw(const socmon_zapm_hw *h)
{
    if (h->mode != SOCMON_ZAPM_PROFILE && h->mode != SOCMON_ZAPM_ADVANCED)
        return socmon_fail(SOCMON_ERANGE, "apm mode %d invalid (0 profile, 1 advanced)", h->mode);
    if (h->mode == SOCMON_ZAPM_PROFILE)
        return SOCMON_OK;
    if (h->ncounters < 1 || h->ncounters > SOCMON_ZAPM_ADV_COUNTERS)
        return socmon_fail(SOCMON_ERANGE, "apm ncounters %u out of range 1..%u", h->ncounters,
                           SOCMON_ZAPM_ADV_COUNTERS);
    if (h->scale != 1 && h->scale != 2 && h->scale != 4 && h->scale != 8)
        return socmon_fail(SOCMON_ERANGE, "apm scale %u invalid (1, 2, 4 or 8)", h->scale);
    return SOCMON_OK;
}

socmon_status socmon_zynq_desc_check(const socmon_zynq_desc *d)
{
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL description");
    if (d->nslots < 1 || d->nslots > SOCMON_ZAPM_MAX_SLOTS)
        return socmon_fail(SOCMON_ERANGE, "slots %u out of range 1..%u", d->nslots,
                           SOCMON_ZAPM_MAX_SLOTS);
    if (!(d->apm_hz >= 1e6 && d->apm_hz <= 1e9))
        return socmon_fail(SOCMON_ERANGE, "apm_hz %g out of range 1e6..1e9", d->apm_hz);
    if (!(d->cpu_hz >= 1e6 && d->cpu_hz <= 4e9))
        return socmon_fail(SOCMON_ERANGE, "cpu_hz %g out of range 1e6..4e9", d->cpu_hz);
    unsigned w = d->bus_width_bytes;
    if (w != 4 && w != 8 && w != 16 && w != 32 && w != 64 && w != 128)
        return socmon_fail(SOCMON_ERANGE, "bus width %u bytes invalid (4, 8, 16, 32, 64, 128)", w);
    if (d->gcc_width != 0 && d->gcc_width != 32 && d->gcc_width != 64)
        return socmon_fail(SOCMON_ERANGE, "gcc_width %d invalid (0, 32 or 64)", d->gcc_width);
    socmon_status st = check_apm_hw(&d->apm);
    return st ? st : check_traffic(&d->traffic, w, d->apm_hz);
}

socmon_status smn_zynq_soc_new(const socmon_zynq_desc *d, socmon_zynq_soc **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL output");
    socmon_status st = socmon_zynq_desc_check(d);
    if (st)
        return st;
    socmon_zynq_soc *soc = calloc(1, sizeof *soc);
    if (!soc)
        return socmon_fail(SOCMON_ENOMEM, "zynq: out of memory");
    soc->d = *d;
    soc->apm_hz = (uint64_t)(d->apm_hz + 0.5);
    soc->cpu_hz = (uint64_t)(d->cpu_hz + 0.5);
    zapm_cfg cfg = {d->apm.mode == SOCMON_ZAPM_ADVANCED, d->apm.ncounters, d->apm.event_count != 0,
                    d->apm.sampled != 0, 0, d->apm.id32 != 0, d->gcc_width};
    while ((1u << cfg.scale_log2) < d->apm.scale)
        cfg.scale_log2++;
    smn_zapm_init(&soc->apm, d->nslots, d->bus_width_bytes, &cfg, d->seed);
    for (unsigned s = 0; s < d->nslots; s++)
        for (int r = 0; r < 2; r++)
            smn_zapm_set_ids(&soc->apm, s, r, d->traffic.id_base, d->traffic.id_count);
    for (unsigned c = 0; c < SOCMON_ZYNQ_NCORES; c++)
        smn_za9_init(&soc->pmu[c]);
    if ((st = smn_zynq_time_init(soc))) {
        free(soc);
        return st;
    }
    *out = soc;
    return SOCMON_OK;
}

void smn_zynq_soc_free(socmon_zynq_soc *soc)
{
    if (!soc)
        return;
    smn_zynq_time_free(soc);
    free(soc);
}

const socmon_zynq_desc *socmon_zynq_soc_desc(const socmon_zynq_soc *soc)
{
    return &soc->d;
}

socmon_status smn_zynq_soc_map(socmon_zynq_soc *soc, socmon_bus *bus)
{
    /* through the windows of zynq_time.c: each access costs access_ns */
    socmon_status st = socmon_bus_model_map(bus, soc->d.apm_base, SOCMON_ZAPM_WINDOW,
                                            &smn_zynq_window_ops, &soc->irq.win[0]);
    for (unsigned c = 0; !st && c < SOCMON_ZYNQ_NCORES; c++)
        st = socmon_bus_model_map(bus, soc->d.pmu_base[c], SOCMON_ZA9_WINDOW, &smn_zynq_window_ops,
                                  &soc->irq.win[1 + c]);
    return st ? socmon_fail_prefix(st, "zynq: ") : SOCMON_OK;
}

const char *const *socmon_zynq_workloads(void)
{
    return workloads;
}

/* cycles of a clock of hz elapsed at t_ns, exact in integers */
static uint64_t cycles_at(uint64_t t_ns, uint64_t hz)
{
    return (t_ns / 1000000000ull) * hz + (t_ns % 1000000000ull) * hz / 1000000000ull;
}

/* 250 ns at 200 MHz is 50 cycles, not 50.000000000000007: whole cycle counts
 * stay whole so steady traffic can be counted in bulk */
static double snap(double cycles)
{
    double r = floor(cycles + 0.5);
    return fabs(cycles - r) < 1e-9 ? r : cycles;
}

static void apply_traffic(socmon_zynq_soc *soc, unsigned slot, const socmon_zynq_traffic *t,
                          double scale)
{
    double hz = (double)soc->apm_hz;
    double lat = snap(t->lat_ns * hz / 1e9), jit = snap(t->lat_jitter_ns * hz / 1e9);
    double wr = t->wr_mbps * scale, rd = t->rd_mbps * scale;
    smn_zapm_set_chan(&soc->apm, slot, 0, wr > 0 ? t->burst_bytes * hz / (wr * 1e6) : 0,
                  t->burst_bytes, lat, jit);
    smn_zapm_set_chan(&soc->apm, slot, 1, rd > 0 ? t->burst_bytes * hz / (rd * 1e6) : 0,
                  t->burst_bytes, lat, jit);
    if (slot < SOCMON_ZAPM_MAX_SLOTS) {
        soc->asked_bps[slot][0] = wr * 1e6;
        soc->asked_bps[slot][1] = rd * 1e6;
    }
    smn_zapm_set_ids(&soc->apm, slot, 0, t->id_base, t->id_count);
    smn_zapm_set_ids(&soc->apm, slot, 1, t->id_base, t->id_count);
}

static const socmon_zynq_cpu_profile prof_compute = {.util = 0.95, .ipc = 1.1,
    .ldst_per_inst = 0.30, .store_frac = 0.30, .l1d_miss = 0.01, .stall_per_miss = 12,
    .wstall_per_store = 0.05, .br_per_inst = 0.12, .br_miss = 0.04};
static const socmon_zynq_cpu_profile prof_memory = {.util = 0.90, .ipc = 0.35,
    .ldst_per_inst = 0.45, .store_frac = 0.40, .l1d_miss = 0.12, .stall_per_miss = 20,
    .wstall_per_store = 0.8, .br_per_inst = 0.08, .br_miss = 0.02};
static const socmon_zynq_cpu_profile prof_idle = {.util = 0.03, .ipc = 0.5, .ldst_per_inst = 0.25,
    .store_frac = 0.30, .l1d_miss = 0.05, .stall_per_miss = 10, .wstall_per_store = 0.1,
    .br_per_inst = 0.15, .br_miss = 0.05};
static const socmon_zynq_cpu_profile prof_steady0 = {.util = 0.80, .ipc = 0.7,
    .ldst_per_inst = 0.35, .store_frac = 0.35, .l1d_miss = 0.05, .stall_per_miss = 15,
    .wstall_per_store = 0.3, .br_per_inst = 0.10, .br_miss = 0.03};
static const socmon_zynq_cpu_profile prof_steady1 = {.util = 0.40, .ipc = 0.9,
    .ldst_per_inst = 0.30, .store_frac = 0.30, .l1d_miss = 0.02, .stall_per_miss = 15,
    .wstall_per_store = 0.2, .br_per_inst = 0.10, .br_miss = 0.03};

static void apply_phase(socmon_zynq_soc *soc)
{
    const socmon_zynq_traffic *t = &soc->d.traffic;
    if (soc->workload == WL_STEADY) {
        for (unsigned s = 0; s < soc->d.nslots; s++)
            apply_traffic(soc, s, t, 1.0);
        soc->pmu[0].prof = prof_steady0;
        soc->pmu[1].prof = prof_steady1;
        return;
    }
    if (soc->workload == WL_IDLE) {
        for (unsigned s = 0; s < soc->d.nslots; s++)
            apply_traffic(soc, s, t, 0.0);
        soc->pmu[0].prof = soc->pmu[1].prof = prof_idle;
        return;
    }
    static const double scale[3] = {0.25, 1.0, 0.0};
    const socmon_zynq_cpu_profile *p[3] = {&prof_compute, &prof_memory, &prof_idle};
    int ph = soc->phase % 3;
    for (unsigned s = 0; s < soc->d.nslots; s++)
        apply_traffic(soc, s, t, scale[ph] * (1.0 - 0.15 * s));
    soc->pmu[0].prof = *p[ph];
    soc->pmu[1].prof = *p[ph];
    soc->pmu[1].prof.util *= 0.6;   /* the second core is less busy */
}

socmon_status socmon_zynq_soc_start(socmon_zynq_soc *soc, const char *workload,
                                    uint64_t duration_ns)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "socmon_zynq_soc_start: soc (the model) is NULL");
    return smn_zynq_soc_start_at(soc, workload, duration_ns, soc->now_ns);
}

socmon_status smn_zynq_soc_start_at(socmon_zynq_soc *soc, const char *workload,
                                       uint64_t duration_ns, uint64_t start_ns)
{
    if (start_ns > soc->now_ns)
        return socmon_fail(SOCMON_ERANGE, "zynq: workload start %llu ns is after now (%llu ns)",
                           (unsigned long long)start_ns, (unsigned long long)soc->now_ns);
    int w = -1;
    if (!workload)
        workload = workloads[0];
    for (int i = 0; workloads[i]; i++)
        if (strcmp(workloads[i], workload) == 0)
            w = i;
    if (w < 0)
        return socmon_fail(SOCMON_ENOENT, "zynq workload '%s' unknown (mixed, steady, idle)",
                           workload);
    soc->workload = w;
    soc->phase = 0;
    soc->started = 1;
    soc->start_ns = start_ns;
    soc->duration_ns = duration_ns;
    apply_phase(soc);
    return SOCMON_OK;
}

static void run_to(socmon_zynq_soc *soc, uint64_t t)
{
    for (unsigned c = 0; c < SOCMON_ZYNQ_NCORES; c++)
        smn_za9_advance(&soc->pmu[c], cycles_at(t, soc->cpu_hz) - cycles_at(soc->now_ns, soc->cpu_hz));
    smn_zapm_advance_to(&soc->apm, cycles_at(t, soc->apm_hz));
    for (unsigned s = 0; s < soc->d.nslots && s < SOCMON_ZAPM_MAX_SLOTS; s++)
        for (int k = 0; k < 2; k++)
            soc->asked_bytes[s][k] += soc->asked_bps[s][k] * (double)(t - soc->now_ns) / 1e9;
    soc->now_ns = t;
}

void smn_zynq_soc_run_plain(socmon_zynq_soc *soc, uint64_t end)
{
    while (soc->now_ns < end) {
        if (soc->started && soc->workload == WL_MIXED) {
            uint64_t next = soc->start_ns + (uint64_t)(soc->phase + 1) * PHASE_NS;
            if (next <= end) {
                run_to(soc, next);
                soc->phase++;
                apply_phase(soc);
                continue;
            }
        }
        run_to(soc, end);
    }
}

static socmon_status advance_locked(socmon_zynq_soc *soc, uint64_t ns, int *done)
{
    /* 1e17 ns (three years) keeps every clock's cycle count inside 64 bits */
    if (ns > ZYNQ_TIME_MAX - soc->now_ns)
        return socmon_fail(SOCMON_ERANGE, "zynq: advance of %llu ns runs past the model's 1e17 ns",
                           (unsigned long long)ns);
    uint64_t end = soc->now_ns + ns;
    /* A workload of a set length that ends inside this step stops the clock
     * at its end: the run lasts exactly duration_ns whatever the step. */
    uint64_t wl_end = soc->start_ns + soc->duration_ns;
    if (soc->started && soc->duration_ns && soc->now_ns < wl_end && end > wl_end)
        end = wl_end;
    smn_zynq_time_to(soc, end, 0);
    if (done)
        *done = soc->started && soc->duration_ns &&
                soc->now_ns - soc->start_ns >= soc->duration_ns;
    return SOCMON_OK;
}

void smn_zynq_soc_asked(const socmon_zynq_soc *soc, unsigned slot, double *wr_bytes, double *rd_bytes)
{
    int in = soc && slot < soc->d.nslots && slot < SOCMON_ZAPM_MAX_SLOTS;
    *wr_bytes = in ? soc->asked_bytes[slot][0] : 0;
    *rd_bytes = in ? soc->asked_bytes[slot][1] : 0;
}

socmon_status socmon_zynq_soc_advance(socmon_zynq_soc *soc, uint64_t ns, int *done)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL model");
    zynq_lock(soc);
    socmon_status st = advance_locked(soc, ns, done);
    zynq_unlock(soc);
    return st;
}

uint64_t socmon_zynq_soc_now_ns(const socmon_zynq_soc *soc)
{
    return soc->now_ns;
}

socmon_status socmon_zynq_soc_set_traffic(socmon_zynq_soc *soc, unsigned slot,
                                          const socmon_zynq_traffic *tr)
{
    if (!soc || !tr)
        return socmon_fail(SOCMON_EINVAL, "socmon_zynq_soc_set_traffic: %s is NULL",
                           !soc ? "soc (the model)" : "tr (the traffic)");
    if (slot >= soc->d.nslots)
        return socmon_fail(SOCMON_ERANGE, "slot %u out of range 0..%u", slot, soc->d.nslots - 1);
    socmon_status st = check_traffic(tr, soc->d.bus_width_bytes, soc->d.apm_hz);
    if (st)
        return st;
    apply_traffic(soc, slot, tr, 1.0);
    return SOCMON_OK;
}

socmon_status socmon_zynq_soc_set_cpu(socmon_zynq_soc *soc, unsigned core,
                                      const socmon_zynq_cpu_profile *p)
{
    if (!soc || !p)
        return socmon_fail(SOCMON_EINVAL, "socmon_zynq_soc_set_cpu: %s is NULL",
                           !soc ? "soc (the model)" : "p (the profile)");
    if (core >= SOCMON_ZYNQ_NCORES)
        return socmon_fail(SOCMON_ERANGE, "core %u out of range 0..%u", core,
                           SOCMON_ZYNQ_NCORES - 1);
    if (!(p->util >= 0 && p->util <= 1))
        return socmon_fail(SOCMON_ERANGE, "util %g out of range 0..1", p->util);
    if (!(p->ipc >= 0 && p->ipc <= 4))
        return socmon_fail(SOCMON_ERANGE, "ipc %g out of range 0..4", p->ipc);
    const struct {
        const char *name;
        double v, max;
    } f[] = {{"ldst_per_inst", p->ldst_per_inst, 2},   {"store_frac", p->store_frac, 1},
             {"l1d_miss", p->l1d_miss, 1},             {"stall_per_miss", p->stall_per_miss, 1000},
             {"wstall_per_store", p->wstall_per_store, 1000}, {"br_per_inst", p->br_per_inst, 1},
             {"br_miss", p->br_miss, 1}};
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!(f[i].v >= 0 && f[i].v <= f[i].max))   /* also rejects NaN */
            return socmon_fail(SOCMON_ERANGE, "%s %g out of range 0..%g", f[i].name, f[i].v,
                               f[i].max);
    soc->pmu[core].prof = *p;
    return SOCMON_OK;
}

int socmon_zynq_apm_irq(const socmon_zynq_soc *soc)
{
    return smn_zapm_irq(&soc->apm);
}

int socmon_zynq_pmu_irq(const socmon_zynq_soc *soc, unsigned core)
{
    return core < SOCMON_ZYNQ_NCORES && smn_za9_irq(&soc->pmu[core]);
}

uint32_t smn_zynq_apm_peek(const socmon_zynq_soc *soc, unsigned k)
{
    const zapm_model *m = &soc->apm;
    if (m->advanced)
        return k < m->cfg.ncounters ? (uint32_t)(m->ctr[k].acc >> m->cfg.scale_log2) : 0;
    if (k >= SOCMON_ZAPM_PER_SLOT * soc->d.nslots)
        return 0;
    return soc->apm.slot[k / SOCMON_ZAPM_PER_SLOT].mc[k % SOCMON_ZAPM_PER_SLOT];
}

socmon_status smn_zynq_apm_poke(socmon_zynq_soc *soc, unsigned k, uint32_t v)
{
    zapm_model *m = &soc->apm;
    if (m->advanced) {
        if (k >= m->cfg.ncounters)
            return socmon_fail(SOCMON_ERANGE, "apm counter %u out of range 0..%u", k,
                               m->cfg.ncounters - 1);
        m->ctr[k].acc = (uint64_t)v << m->cfg.scale_log2;   /* the register shows v */
        return SOCMON_OK;
    }
    unsigned n = SOCMON_ZAPM_PER_SLOT * soc->d.nslots;
    if (k >= n)
        return socmon_fail(SOCMON_ERANGE, "apm counter %u out of range 0..%u", k, n - 1);
    soc->apm.slot[k / SOCMON_ZAPM_PER_SLOT].mc[k % SOCMON_ZAPM_PER_SLOT] = v;
    return SOCMON_OK;
}

socmon_status smn_zynq_pmu_poke(socmon_zynq_soc *soc, unsigned core, unsigned n, uint32_t v)
{
    if (core >= SOCMON_ZYNQ_NCORES)
        return socmon_fail(SOCMON_ERANGE, "core %u out of range 0..%u", core,
                           SOCMON_ZYNQ_NCORES - 1);
    if (n == 31)
        soc->pmu[core].reg[ZA9_REG_CCNTR] = v;
    else if (n < SOCMON_ZA9_NCOUNTERS)
        soc->pmu[core].reg[ZA9_REG_EVCNTR0 + n] = v;
    else
        return socmon_fail(SOCMON_ERANGE, "pmu counter %u invalid (0..5, or 31 for CCNT)", n);
    return SOCMON_OK;
}

uint64_t smn_zynq_apm_stalls(const socmon_zynq_soc *soc, unsigned slot)
{
    if (slot >= soc->d.nslots)
        return 0;
    return soc->apm.slot[slot].wr.stalls + soc->apm.slot[slot].rd.stalls;
}

/* For the CP15 accessor (a9_cp15.c): the same PMU state the window shows. */
za9_model *smn_zynq_soc_pmu(socmon_zynq_soc *soc, unsigned core)
{
    return soc && core < SOCMON_ZYNQ_NCORES ? &soc->pmu[core] : NULL;
}
