/* The "zynq" target: a Zynq-7000 with an AXI Performance Monitor on the PL
 * ports and the two Cortex-A9 PMUs, modelled (default) or on a board (hw=1),
 * read by the same drivers either way. PL and PS counters sit on one device,
 * so one set, one sample and one timeline hold both, as the SPA monitor
 * framework shows them. The generic model target (model_target.h) does the
 * rest. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/window_bus.h"
#include "core/error.h"
#include "drivers/zynq/a9_events.h"
#include "drivers/zynq/zynq_drv.h"
#include "models/zynq/zynq_model.h"
#include "socmon/zynq.h"
#include "targets/model_target.h"

typedef struct zynq_opts {
    double wr_mbps, rd_mbps, lat_ns, jitter_ns, duration_ms, apm_mhz, cpu_mhz;
    uint64_t burst, slots, seed, access_ns;
    unsigned ccnt_div;   /* index into ccnt_divs */
    int hw;
    const char *apm_dev, *mem_dev, *pmu_events, *trace_bus;
    unsigned apm_mode, apm_scale;   /* APM Advanced mode: indices into apm_modes, apm_scales */
    uint64_t apm_counters;
    const char *apm_sel;
    unsigned driver;
} zynq_opts;

static const char *const apm_modes[] = {"profile", "advanced", NULL};
static const char *const apm_scales[] = {"1", "2", "4", "8", NULL};

static const char *const ccnt_divs[] = {"1", "64", NULL};   /* PMCR.D clear or set */

/* Defaults equal socmon_zynq_desc_default() (a test checks); the model's
 * seed and CPU clock stay the model's unless given. */
static const socmon_option zynq_options[] = {
    {.name = "wr_mbps", .type = SOCMON_OPT_DOUBLE, .help = "write traffic per slot, MB/s", .def = "400",
     .lo = 0, .hi = 1e6, .offset = offsetof(zynq_opts, wr_mbps)},
    {.name = "rd_mbps", .type = SOCMON_OPT_DOUBLE, .help = "read traffic per slot, MB/s", .def = "800",
     .lo = 0, .hi = 1e6, .offset = offsetof(zynq_opts, rd_mbps)},
    {.name = "lat_ns", .type = SOCMON_OPT_DOUBLE, .help = "address-accept to last-data latency, ns",
     .def = "250", .lo = 1, .hi = 1e6, .offset = offsetof(zynq_opts, lat_ns)},
    {.name = "jitter_ns", .type = SOCMON_OPT_DOUBLE, .help = "latency drawn uniformly in lat_ns +- jitter_ns",
     .def = "0", .lo = 0, .hi = 1e6, .offset = offsetof(zynq_opts, jitter_ns)},
    {.name = "burst", .type = SOCMON_OPT_UINT, .help = "bytes per transaction, multiple of 8, <= 2048",
     .def = "128", .lo = 8, .hi = 2048, .offset = offsetof(zynq_opts, burst)},
    {.name = "slots", .type = SOCMON_OPT_UINT, .help = "monitored AXI slots; 5 = HP0-3 + ACP", .def = "5",
     .lo = 1, .hi = SOCMON_ZAPM_MAX_SLOTS, .offset = offsetof(zynq_opts, slots)},
    {.name = "ccnt_div", .type = SOCMON_OPT_CHOICE, .arg = "N", .help = "PMCR.D cycle counter divider",
     .def = "1", .choices = ccnt_divs, .offset = offsetof(zynq_opts, ccnt_div)},
    {.name = "duration_ms", .type = SOCMON_OPT_DOUBLE,
     .help = "workload length in simulated ms, 0 = endless (with hw=1: 0 unless given)", .def = "2000", .lo = 0, .hi = 1e9,
     .offset = offsetof(zynq_opts, duration_ms)},
    {.name = "seed", .type = SOCMON_OPT_UINT, .help = "latency draws; fixed unless given, so runs repeat exactly",
     .lo = 0, .hi = 9007199254740992.0, .offset = offsetof(zynq_opts, seed)},
    SOCMON_OPTION_TRACE_BUS(zynq_opts),
    SOCMON_OPTION_DRIVER(zynq_opts),
    {.name = "hw", .type = SOCMON_OPT_BOOL, .help = "1: a real Zynq instead of the model (sampled in real time)",
     .def = "0", .offset = offsetof(zynq_opts, hw)},
    {.name = "apm_dev", .type = SOCMON_OPT_PATH, .help = "hw: the APM's UIO device, map 0 (e.g. /dev/uio0; required)",
     .offset = offsetof(zynq_opts, apm_dev)},
    {.name = "mem_dev", .type = SOCMON_OPT_PATH, .help = "hw: memory device for the PMU windows (/dev/mem; required)",
     .offset = offsetof(zynq_opts, mem_dev)},
    {.name = "apm_mhz", .type = SOCMON_OPT_DOUBLE, .help = "APM core clock in MHz", .def = "200", .lo = 1,
     .hi = 1000, .offset = offsetof(zynq_opts, apm_mhz)},
    {.name = "cpu_mhz", .type = SOCMON_OPT_DOUBLE, .help = "Cortex-A9 clock in MHz; 666.67 unless given", .lo = 1,
     .hi = 4000, .offset = offsetof(zynq_opts, cpu_mhz)},
    {.name = "access_ns", .type = SOCMON_OPT_UINT,
     .help = "simulated ns each register access takes (0: none; default: an AXI4-Lite read over GP0)",
     .def = "200", .lo = 0, .hi = SOCMON_ZYNQ_ACCESS_NS_MAX, .offset = offsetof(zynq_opts, access_ns)},
    {.name = "pmu_events", .type = SOCMON_OPT_LIST, .arg = "E+E",
     .help = "A9 events, names or numbers (default: the SPA set inst_rename+l1d_refill+l1d_access+"
             "dcache_dep_stall+mem_write_stall+br_mis_pred)",
     .hi = SOCMON_ZA9_NCOUNTERS, .offset = offsetof(zynq_opts, pmu_events)},
    /* APM Advanced mode (docs/zynq.md) */
    {.name = "apm_mode", .type = SOCMON_OPT_CHOICE, .arg = "MODE",
     .help = "APM mode the IP is built in: profile (6 counters per slot) or advanced (selected metrics)",
     .def = "profile", .choices = apm_modes, .offset = offsetof(zynq_opts, apm_mode)},
    {.name = "apm_counters", .type = SOCMON_OPT_UINT, .help = "advanced: metric counters the APM has",
     .def = "10", .lo = 1, .hi = SOCMON_ZAPM_MAX_SEL, .offset = offsetof(zynq_opts, apm_counters)},
    {.name = "apm_sel", .type = SOCMON_OPT_STRING, .arg = "S:M+S:M",
     .help = "advanced: slot:metric per counter, metric a name or number (default: slot 0's SPA six, "
             "then bytes and transactions of slots 1..)",
     .offset = offsetof(zynq_opts, apm_sel)},
    {.name = "apm_scale", .type = SOCMON_OPT_CHOICE, .arg = "N", .help = "advanced: metric count scale",
     .def = "1", .choices = apm_scales, .offset = offsetof(zynq_opts, apm_scale)},
    {0},
};

static const char *const zynq_workloads[] = {"mixed", "steady", "idle", NULL};

typedef struct zynq_state {
    socmon_zynq_desc desc;
    int div64;
    uint64_t duration_ns;
    uint64_t access_ns;
    /* The target's clock: where the last advance ended. The driver's reads
     * after it move the model on by their access time, and the next
     * advance ends an interval after it, so samples stay on the interval
     * grid and every counter is read at the same offset into each interval
     * (docs/zynq.md, "Time on the bus"). The target's time starts at 0 when
     * the driver has programmed the block: model time t0_ns. */
    uint64_t grid_ns, t0_ns;
    unsigned nevents;                      /* 0: the SPA set */
    uint8_t events[SOCMON_ZA9_NCOUNTERS];
    unsigned apm_nsel;                     /* 0: the default selection */
    smn_zapm_sel apm_sel[SOCMON_ZAPM_MAX_SEL];
    socmon_device *dev;                    /* the model's: its asked_* parameters follow the run */
    double asked0[SOCMON_ZAPM_MAX_SLOTS][2];      /* bytes asked of each slot before t0 (write, read) */
} zynq_state;

/* Each slot's slotN.asked_wr_mbps and slotN.asked_rd_mbps: the traffic the workload asked of it
 * over the run so far, phase by phase ("mixed" asks a quarter, all, then nothing, and less of
 * each later slot), so a port's throughput is weighed against what was asked of it in the same
 * time (metrics/zynq.findings.json). Before any time has passed: what is asked now. */
static socmon_status zynq_asked_params(smn_model_target *mt)
{
    zynq_state *z = mt->priv;
    const socmon_zynq_soc *soc = mt->model;
    double s = (double)(socmon_zynq_soc_now_ns(soc) - z->t0_ns) / 1e9;
    socmon_status st = SOCMON_OK;
    for (unsigned i = 0; i < z->desc.nslots && i < SOCMON_ZAPM_MAX_SLOTS && st == SOCMON_OK; i++) {
        double b[2];
        smn_zynq_soc_asked(soc, i, &b[0], &b[1]);
        for (int k = 0; k < 2 && st == SOCMON_OK; k++) {
            char name[40];
            snprintf(name, sizeof name, "slot%u.asked_%s_mbps", i, k ? "rd" : "wr");
            double now = k ? z->desc.traffic.rd_mbps : z->desc.traffic.wr_mbps;
            st = socmon_device_set_param(z->dev, name, s > 0 ? (b[k] - z->asked0[i][k]) / s / 1e6 : now);
        }
    }
    return st;
}

/* "inst_rename+0x06+mem_write": '+' because ',' separates target options;
 * the table already checked there are 1..6 of them */
static socmon_status parse_events(const char *list, zynq_state *z)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        return socmon_fail(SOCMON_EINVAL, "zynq: pmu_events list longer than %zu characters",
                           sizeof buf - 1);
    strcpy(buf, list);
    z->nevents = 0;
    for (char *save = NULL, *p = strtok_r(buf, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
        socmon_status st = smn_za9_event_parse(p, &z->events[z->nevents]);
        if (st)
            return socmon_fail_prefix(st, "zynq: pmu_events: ");
        z->nevents++;
    }
    return SOCMON_OK;
}

static socmon_status zynq_prepare(smn_model_target *mt)
{
    const zynq_opts *o = mt->opts;
    zynq_state *z = mt->priv;
    socmon_zynq_desc *d = &z->desc;
    socmon_zynq_desc_default(d);
    d->traffic.wr_mbps = o->wr_mbps;
    d->traffic.rd_mbps = o->rd_mbps;
    d->traffic.lat_ns = o->lat_ns;
    d->traffic.lat_jitter_ns = o->jitter_ns;
    /* The table holds the range; a burst is also whole beats of the 64-bit
     * bus (the model's limit: 1..256 beats of 8 bytes, socmon_zynq_desc_check). */
    if (o->burst % 8)   /* the table checked 8..2048, so a multiple lies on each side */
        return socmon_fail(SOCMON_ERANGE,
                           "zynq: burst=%llu is not a multiple of 8 (whole beats of the 8-byte AXI bus; "
                           "e.g. %llu or %llu)",
                           (unsigned long long)o->burst, (unsigned long long)(o->burst / 8 * 8),
                           (unsigned long long)(o->burst / 8 * 8 + 8));
    d->traffic.burst_bytes = (uint32_t)o->burst;
    d->nslots = (unsigned)o->slots;
    d->apm_hz = o->apm_mhz * 1e6;
    if (smn_model_target_given(mt, "cpu_mhz"))
        d->cpu_hz = o->cpu_mhz * 1e6;
    if (smn_model_target_given(mt, "seed"))
        d->seed = o->seed;
    z->div64 = o->ccnt_div == 1;
    z->access_ns = o->access_ns;
    z->duration_ns = (uint64_t)(o->duration_ms * 1e6);
    socmon_status st = SOCMON_OK;
    if (o->pmu_events && (st = parse_events(o->pmu_events, z)))
        return st;
    d->apm.mode = o->apm_mode == 1 ? SOCMON_ZAPM_ADVANCED : SOCMON_ZAPM_PROFILE;
    d->apm.ncounters = (unsigned)o->apm_counters;
    d->apm.scale = 1u << o->apm_scale;
    z->apm_nsel = 0;
    if (o->apm_sel && (st = smn_zapm_sel_parse(o->apm_sel, z->apm_sel, &z->apm_nsel)))
        return socmon_fail_prefix(st, "zynq: ");
    if (o->apm_sel && z->apm_nsel > d->apm.ncounters)
        return socmon_fail(SOCMON_ERANGE, "zynq: apm_sel has %u selections for apm_counters=%u",
                           z->apm_nsel, d->apm.ncounters);
    if (o->apm_sel && d->apm.mode != SOCMON_ZAPM_ADVANCED)
        return socmon_fail(SOCMON_EINVAL, "zynq: apm_sel needs apm_mode=advanced");
    if ((st = socmon_zynq_desc_check(d)))
        return st;
    if ((o->apm_dev || o->mem_dev) && !o->hw)
        return socmon_fail(SOCMON_EINVAL, "zynq: apm_dev/mem_dev need hw=1 (the model has no devices)");
    /* no default device paths: writing APM and PMU registers into whatever
     * /dev/uio0 or /dev/mem happens to be on this host must be asked for */
    if (o->hw && (!o->apm_dev || !o->mem_dev))
        return socmon_fail(SOCMON_EINVAL, "zynq hw=1 needs apm_dev=/dev/uioN (the APM's UIO device) and "
                                          "mem_dev=/dev/mem (for the PMU windows)");
    if (o->hw && !smn_model_target_given(mt, "duration_ms"))
        z->duration_ns = 0;   /* a board runs until stopped */
    return SOCMON_OK;
}

/* ---- on a board: the APM through UIO map 0, the PMUs through /dev/mem,
 * presented as one bus (a window bus of two windows) at the same addresses
 * the model uses ---- */

#define PMU_SPAN (SOCMON_ZA9_CPU1_BASE + SOCMON_ZA9_WINDOW - SOCMON_ZA9_CPU0_BASE)

static socmon_status board_bus_open(const char *apm_dev, const char *mem_dev, uint64_t apm_base,
                                    socmon_bus **out)
{
    smn_bus_window w[2] = {{.base = apm_base, .size = SOCMON_ZAPM_WINDOW},
                           {.base = SOCMON_ZA9_CPU0_BASE, .size = PMU_SPAN}};
    socmon_status st = smn_zapm_bus_uio(apm_dev, &w[0].inner);
    if (!st)
        st = socmon_bus_mmio_open(mem_dev, SOCMON_ZA9_CPU0_BASE, PMU_SPAN, &w[1].inner);
    if (!st)
        st = smn_bus_windows_new("zynq-board", w, 2, out);
    if (st) {
        socmon_bus_free(w[0].inner);
        socmon_bus_free(w[1].inner);
        return socmon_fail_prefix(st, "zynq hw=1: ");
    }
    return SOCMON_OK;
}

static socmon_status zynq_hw_bus(smn_model_target *mt, socmon_bus **bus)
{
    const zynq_opts *o = mt->opts;
    if (!o->hw)
        return SOCMON_OK;
    return board_bus_open(o->apm_dev, o->mem_dev, ((zynq_state *)mt->priv)->desc.apm_base, bus);
}

static socmon_status zynq_model_new(smn_model_target *mt, void **model)
{
    zynq_state *z = mt->priv;
    socmon_status st = smn_zynq_soc_new(&z->desc, (socmon_zynq_soc **)model);
    if (!st && (st = socmon_zynq_soc_set_access_ns(*model, z->access_ns)))
        smn_zynq_soc_free(*model);
    return st;
}

static socmon_status zynq_map(smn_model_target *mt, socmon_bus *bus)
{
    return smn_zynq_soc_map(mt->model, bus);
}

/* The APM part and the PMU part on one device; the driver adds what the
 * metric file needs besides counters (clocks, bus width, CCNT divider).
 * Programming the blocks takes model time (access_ns per access): the
 * target's clock starts where it ends. */
static socmon_status zynq_device_new(smn_model_target *mt, socmon_bus *bus, socmon_device **dev)
{
    zynq_state *z = mt->priv;
    const socmon_zynq_desc *d = &z->desc;
    smn_zapm_config ac = {.nslots = d->nslots, .clock_hz = d->apm_hz,
                             .bus_width_bytes = d->bus_width_bytes, .mode = d->apm.mode,
                             .ncounters = d->apm.ncounters, .nsel = z->apm_nsel,
                             .scale = d->apm.scale,
                             .gcc_width = d->apm.mode == SOCMON_ZAPM_ADVANCED ? d->gcc_width : 0};
    memcpy(ac.sel, z->apm_sel, sizeof ac.sel);
    smn_za9_config pc;
    smn_za9_config_spa(&pc, d->cpu_hz);
    pc.ccnt_div64 = z->div64;
    if (z->nevents) {
        pc.nevents = z->nevents;
        memcpy(pc.events, z->events, z->nevents);
    }
    socmon_status st = smn_zynq_device_new(bus, d->apm_base, &ac, &pc, dev);
    /* the traffic the model's workload asks of each slot: the findings weigh what the ports
     * carried against it (metrics/zynq.findings.json); silicon cannot know it */
    if (!st && mt->model) {
        z->grid_ns = z->t0_ns = socmon_zynq_soc_now_ns(mt->model);
        z->dev = *dev;
        for (unsigned i = 0; i < d->nslots && i < SOCMON_ZAPM_MAX_SLOTS; i++)
            smn_zynq_soc_asked(mt->model, i, &z->asked0[i][0], &z->asked0[i][1]);
        st = zynq_asked_params(mt);
    }
    return st;
}

/* On the grid: a workload of duration_ms then ends on it too. */
static socmon_status zynq_start(smn_model_target *mt, const char *workload)
{
    zynq_state *z = mt->priv;
    return smn_zynq_soc_start_at(mt->model, workload, z->duration_ns, z->grid_ns);
}

static socmon_status zynq_advance(smn_model_target *mt, uint64_t ns, int *done)
{
    zynq_state *z = mt->priv;
    uint64_t now = socmon_zynq_soc_now_ns(mt->model);
    if (ns > UINT64_MAX - z->grid_ns)
        ns = UINT64_MAX - z->grid_ns;   /* the model refuses it, naming the step */
    uint64_t goal = z->grid_ns + ns;
    socmon_status st = socmon_zynq_soc_advance(mt->model, goal > now ? goal - now : 0, done);
    if (st)
        return st;
    /* normally the model is at the goal now; before it if the workload
     * ended inside the step, past it if reads took longer than the step
     * (or a program advanced the model itself): the clock follows it */
    z->grid_ns = socmon_zynq_soc_now_ns(mt->model);
    return z->dev ? zynq_asked_params(mt) : SOCMON_OK;
}

static uint64_t zynq_now(smn_model_target *mt)
{
    const zynq_state *z = mt->priv;
    return z->grid_ns - z->t0_ns;
}

static int zynq_hw_done(smn_model_target *mt, uint64_t elapsed_ns)
{
    uint64_t duration = ((zynq_state *)mt->priv)->duration_ns;
    return duration && elapsed_ns >= duration;
}

static void zynq_model_free(void *model)
{
    smn_zynq_soc_free(model);
}

static const smn_model_target_decl zynq_decl = {
    .opts_size = sizeof(zynq_opts),
    .priv_size = sizeof(zynq_state),
    .hw_option = "hw=1",
    .prepare = zynq_prepare,
    .hw_bus = zynq_hw_bus,
    .model_new = zynq_model_new,
    .map = zynq_map,
    .device_new = zynq_device_new,
    .start = zynq_start,
    .advance = zynq_advance,
    .now_ns = zynq_now,
    .hw_done = zynq_hw_done,
    .model_free = zynq_model_free,
};

const socmon_target_ops smn_target_zynq_ops = {
    .name = "zynq",
    .desc = "Zynq-7000 model: AXI Performance Monitor (PL) and two Cortex-A9 PMUs (PS)",
    .options = zynq_options,
    .workloads = zynq_workloads,
    .metrics = "zynq",
    .simulated = 1,
    .hotspots = NULL,
    .default_interval_ns = 50000000, /* the monitor framework's default */
    SOCMON_MODEL_TARGET_OPS(zynq_decl),
    .min_interval_ns = 1000, /* one sample reads every APM slot's counters and the A9 PMU */
};

socmon_zynq_soc *socmon_zynq_soc_of_target(const socmon_target *t)
{
    return socmon_target_model(t, "zynq");
}
