/* The "zynq" target: a Zynq-7000 with an AXI Performance Monitor on the PL
 * ports and the two Cortex-A9 PMUs, modelled (default) or on a board (hw=1),
 * read by the same drivers either way. PL and PS counters sit on one device,
 * so one set, one sample and one timeline hold both, as the SPA monitor
 * framework shows them. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/error.h"
#include "drivers/zynq/a9_events.h"
#include "drivers/zynq/zynq_drv.h"
#include "models/zynq/zynq_model.h"
#include "socmon/target.h"

typedef struct zynq_target {
    socmon_zynq_soc *soc;   /* NULL on a board (hw=1) */
    socmon_bus *bus;
    uint64_t t0_ns;         /* board: CLOCK_MONOTONIC at open */
    socmon_bus_trace *trace;
    socmon_device *dev;
    uint64_t duration_ns;
} zynq_target;

static const char *const keys[] = {"wr_mbps", "rd_mbps", "lat_ns", "jitter_ns", "burst",
                                   "slots", "ccnt_div", "duration_ms", "seed", "trace_bus",
                                   "hw", "apm_dev", "mem_dev", "apm_mhz", "cpu_mhz", "pmu_events",
                                   NULL};

typedef struct board_opts {
    int hw;
    const char *apm_dev, *mem_dev;
    int duration_given;
    unsigned nevents;                      /* 0: the SPA set */
    uint8_t events[SOCMON_ZA9_NCOUNTERS];
} board_opts;

/* "inst_rename+0x06+mem_write": '+' because ',' separates target options */
static socmon_status parse_events(const char *list, board_opts *b)
{
    char buf[256];
    if (strlen(list) >= sizeof buf)
        return socmon_fail(SOCMON_EINVAL, "zynq: pmu_events list longer than %zu characters",
                           sizeof buf - 1);
    strcpy(buf, list);
    b->nevents = 0;
    for (char *save = NULL, *p = strtok_r(buf, "+", &save); p; p = strtok_r(NULL, "+", &save)) {
        if (b->nevents == SOCMON_ZA9_NCOUNTERS)
            return socmon_fail(SOCMON_ERANGE, "zynq: pmu_events=%s: more than %u events (the A9 has %u counters)",
                               list, SOCMON_ZA9_NCOUNTERS, SOCMON_ZA9_NCOUNTERS);
        socmon_status st = socmon_za9_event_parse(p, &b->events[b->nevents]);
        if (st)
            return socmon_fail_prefix(st, "zynq: pmu_events: ");
        b->nevents++;
    }
    if (!b->nevents)
        return socmon_fail(SOCMON_EINVAL, "zynq: pmu_events is empty (e.g. pmu_events=inst_rename+mem_read)");
    return SOCMON_OK;
}

static socmon_status num(const socmon_kv *kv, double lo, double hi, double *out)
{
    char *end = NULL;
    errno = 0;
    double v = strtod(kv->value, &end);
    if (!*kv->value || *end || errno || !isfinite(v))
        return socmon_fail(SOCMON_EINVAL, "zynq: %s=%s is not a number", kv->key, kv->value);
    if (v < lo || v > hi)
        return socmon_fail(SOCMON_ERANGE, "zynq: %s=%s out of range %g..%g", kv->key, kv->value,
                           lo, hi);
    *out = v;
    return SOCMON_OK;
}

static socmon_status parse(const socmon_kv *o, size_t n, socmon_zynq_desc *d, int *div64,
                           uint64_t *duration_ns, board_opts *b)
{
    for (size_t i = 0; i < n; i++) {
        const char *k = o[i].key;
        double v = 0;
        socmon_status st = SOCMON_OK;
        if (!strcmp(k, "wr_mbps"))
            st = num(&o[i], 0, 1e6, &d->traffic.wr_mbps);
        else if (!strcmp(k, "rd_mbps"))
            st = num(&o[i], 0, 1e6, &d->traffic.rd_mbps);
        else if (!strcmp(k, "lat_ns"))
            st = num(&o[i], 1, 1e6, &d->traffic.lat_ns);
        else if (!strcmp(k, "jitter_ns"))
            st = num(&o[i], 0, 1e6, &d->traffic.lat_jitter_ns);
        else if (!strcmp(k, "burst")) {
            if (!(st = num(&o[i], 1, 1 << 16, &v)))
                d->traffic.burst_bytes = (uint32_t)v;
            if (!st && v != floor(v))
                st = socmon_fail(SOCMON_EINVAL, "zynq: burst=%s must be a whole number of bytes",
                                 o[i].value);
        } else if (!strcmp(k, "slots")) {
            if (!(st = num(&o[i], 1, SOCMON_ZAPM_MAX_SLOTS, &v)))
                d->nslots = (unsigned)v;
        } else if (!strcmp(k, "ccnt_div")) {
            if (!(st = num(&o[i], 1, 64, &v)) && v != 1 && v != 64)
                st = socmon_fail(SOCMON_EINVAL, "zynq: ccnt_div=%s must be 1 or 64 (PMCR.D)",
                                 o[i].value);
            *div64 = v == 64;
        } else if (!strcmp(k, "duration_ms")) {
            if (!(st = num(&o[i], 0, 1e9, &v)))
                *duration_ns = (uint64_t)(v * 1e6);
            b->duration_given = 1;
        } else if (!strcmp(k, "seed")) {
            if (!(st = num(&o[i], 0, 9007199254740992.0, &v)))
                d->seed = (uint64_t)v;
        } else if (!strcmp(k, "hw")) {
            if (!(st = num(&o[i], 0, 1, &v)))
                b->hw = v != 0;
        } else if (!strcmp(k, "pmu_events")) {
            st = parse_events(o[i].value, b);
        } else if (!strcmp(k, "apm_dev")) {
            b->apm_dev = o[i].value;
        } else if (!strcmp(k, "mem_dev")) {
            b->mem_dev = o[i].value;
        } else if (!strcmp(k, "apm_mhz")) {
            if (!(st = num(&o[i], 1, 1000, &v)))
                d->apm_hz = v * 1e6;
        } else if (!strcmp(k, "cpu_mhz")) {
            if (!(st = num(&o[i], 1, 4000, &v)))
                d->cpu_hz = v * 1e6;
        } else if (strcmp(k, "trace_bus") != 0) {
            st = socmon_fail(SOCMON_EINVAL, "zynq: unknown option '%s'", k);
        }
        if (st)
            return st;
    }
    return socmon_zynq_desc_check(d);
}

/* ---- on a board: the APM through UIO map 0, the PMUs through /dev/mem,
 * presented as one bus at the same addresses the model uses ---- */

typedef struct board_bus {
    socmon_bus *apm, *pmu;
    uint64_t apm_base;
} board_bus;

#define PMU_SPAN (SOCMON_ZA9_CPU1_BASE + SOCMON_ZA9_WINDOW - SOCMON_ZA9_CPU0_BASE)

static socmon_status board_route(board_bus *b, uint64_t addr, socmon_bus **bus, uint64_t *off)
{
    if (addr >= b->apm_base && addr - b->apm_base < SOCMON_ZAPM_WINDOW) {
        *bus = b->apm;
        *off = addr - b->apm_base;
        return SOCMON_OK;
    }
    if (addr >= SOCMON_ZA9_CPU0_BASE && addr - SOCMON_ZA9_CPU0_BASE < PMU_SPAN) {
        *bus = b->pmu;
        *off = addr - SOCMON_ZA9_CPU0_BASE;
        return SOCMON_OK;
    }
    return socmon_fail(SOCMON_EIO, "zynq board: address 0x%llx is in neither the APM nor a PMU window",
                       (unsigned long long)addr);
}

static socmon_status board_read(void *priv, uint64_t addr, uint32_t *val)
{
    socmon_bus *bus = NULL;
    uint64_t off = 0;
    socmon_status st = board_route(priv, addr, &bus, &off);
    return st ? st : socmon_bus_read32(bus, off, val);
}

static socmon_status board_write(void *priv, uint64_t addr, uint32_t val)
{
    socmon_bus *bus = NULL;
    uint64_t off = 0;
    socmon_status st = board_route(priv, addr, &bus, &off);
    return st ? st : socmon_bus_write32(bus, off, val);
}

static void board_fence(void *priv)
{
    board_bus *b = priv;
    socmon_bus_fence(b->apm);
    socmon_bus_fence(b->pmu);
}

static void board_destroy(void *priv)
{
    board_bus *b = priv;
    socmon_bus_free(b->apm);
    socmon_bus_free(b->pmu);
    free(b);
}

static const socmon_bus_ops board_ops = {
    .read32 = board_read, .write32 = board_write, .fence = board_fence, .destroy = board_destroy};

static socmon_status board_bus_open(const board_opts *o, uint64_t apm_base, socmon_bus **out)
{
    board_bus *b = calloc(1, sizeof *b);
    if (!b)
        return socmon_fail(SOCMON_ENOMEM, "zynq: out of memory");
    b->apm_base = apm_base;
    socmon_status st = socmon_zapm_bus_uio(o->apm_dev, &b->apm);
    if (!st)
        st = socmon_bus_mmio_open(o->mem_dev, SOCMON_ZA9_CPU0_BASE,
                                  PMU_SPAN, &b->pmu);
    if (!st)
        st = socmon_bus_new("zynq-board", &board_ops, b, out);
    if (st) {
        socmon_bus_free(b->apm);
        socmon_bus_free(b->pmu);
        free(b);
        return socmon_fail_prefix(st, "zynq hw=1: ");
    }
    return SOCMON_OK;
}

static void zynq_close(void *priv)
{
    zynq_target *z = priv;
    if (!z)
        return;
    socmon_device_free(z->dev);   /* before the buses its drivers use */
    socmon_bus_trace_close(z->trace);
    socmon_bus_free(z->bus);
    socmon_zynq_soc_free(z->soc);
    free(z);
}

static socmon_status zynq_open(const socmon_kv *opts, size_t nopts, void **priv,
                               socmon_device **dev)
{
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    int div64 = 0;
    uint64_t duration_ns = 2000000000ull;
    board_opts bo = {0, NULL, NULL, 0, 0, {0}};
    socmon_status st = parse(opts, nopts, &d, &div64, &duration_ns, &bo);
    if (st)
        return st;
    if ((bo.apm_dev || bo.mem_dev) && !bo.hw)
        return socmon_fail(SOCMON_EINVAL, "zynq: apm_dev/mem_dev need hw=1 (the model has no devices)");
    /* no default device paths: writing APM and PMU registers into whatever
     * /dev/uio0 or /dev/mem happens to be on this host must be asked for */
    if (bo.hw && (!bo.apm_dev || !bo.mem_dev))
        return socmon_fail(SOCMON_EINVAL, "zynq hw=1 needs apm_dev=/dev/uioN (the APM's UIO device) and "
                                          "mem_dev=/dev/mem (for the PMU windows)");
    if (bo.hw && !bo.duration_given)
        duration_ns = 0;   /* a board runs until stopped */
    zynq_target *z = calloc(1, sizeof *z);
    if (!z)
        return socmon_fail(SOCMON_ENOMEM, "zynq: out of memory");
    z->duration_ns = duration_ns;
    if (bo.hw) {
        if ((st = board_bus_open(&bo, d.apm_base, &z->bus)))
            goto fail;
        z->t0_ns = socmon_mono_ns();
    } else if ((st = socmon_zynq_soc_new(&d, &z->soc)) || (st = socmon_bus_model_new(&z->bus)) ||
               (st = socmon_zynq_soc_map(z->soc, z->bus))) {
        goto fail;
    }
    socmon_bus *use = NULL;
    if ((st = socmon_bus_trace_open(opts, nopts, z->bus, &use, &z->trace)))
        goto fail;
    socmon_zynq_part parts[2];
    socmon_zapm_config ac = {d.nslots, d.apm_hz, d.bus_width_bytes};
    if ((st = socmon_zapm_part_new(use, d.apm_base, &ac, &parts[0])))
        goto fail;
    socmon_za9_config pc;
    socmon_za9_config_spa(&pc, d.cpu_hz);
    pc.ccnt_div64 = div64;
    if (bo.nevents) {
        pc.nevents = bo.nevents;
        memcpy(pc.events, bo.events, bo.nevents);
    }
    if ((st = socmon_za9_part_new(use, &pc, &parts[1]))) {
        parts[0].destroy(parts[0].drv);
        goto fail;
    }
    if ((st = socmon_zynq_device_new("zynq", parts, 2, &z->dev)))
        goto fail;
    /* what the metric file needs besides counters */
    const struct {
        const char *name;
        double v;
    } params[] = {
        {"apm_clock_hz", d.apm_hz},
        {"cpu_clock_hz", d.cpu_hz},
        {"ref_clock_hz", d.cpu_hz / 2},   /* the A9 global timer: SPA's reference clock */
        {"pmu_ccnt_div", div64 ? 64 : 1},
        {"bus_width_bytes", d.bus_width_bytes},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0] && !st; i++)
        st = socmon_device_set_param(z->dev, params[i].name, params[i].v);
    /* a target nobody starts still runs (and finishes) the default workload */
    if (!st && z->soc)
        st = socmon_zynq_soc_start(z->soc, NULL, z->duration_ns);
    if (st)
        goto fail;
    *priv = z;
    *dev = z->dev;
    return SOCMON_OK;
fail:
    zynq_close(z);
    return st;
}

static socmon_status zynq_start(void *priv, const char *workload)
{
    zynq_target *z = priv;
    if (!z->soc)
        return workload ? socmon_fail(SOCMON_ENOTSUP,
                                      "zynq hw=1: the board runs its own software, not workload '%s'",
                                      workload)
                        : SOCMON_OK;
    return socmon_zynq_soc_start(z->soc, workload, z->duration_ns);
}

static socmon_status zynq_advance(void *priv, uint64_t ns, int *done)
{
    zynq_target *z = priv;
    if (z->soc)
        return socmon_zynq_soc_advance(z->soc, ns, done);
    /* on a board time passes by itself: socmon_target_advance or the
     * sampler does the waiting */
    if (done)
        *done = z->duration_ns && socmon_mono_ns() - z->t0_ns >= z->duration_ns;
    return SOCMON_OK;
}

static uint64_t zynq_now(void *priv)
{
    zynq_target *z = priv;
    return z->soc ? socmon_zynq_soc_now_ns(z->soc) : socmon_mono_ns() - z->t0_ns;
}

static const char *const zynq_workloads[] = {"mixed", "steady", "idle", NULL};

static int zynq_hardware(void *priv)
{
    return ((zynq_target *)priv)->soc == NULL;
}

const socmon_target_ops socmon_target_zynq_ops = {
    .name = "zynq",
    .desc = "Zynq-7000 model: AXI Performance Monitor (PL) and two Cortex-A9 PMUs (PS)",
    .options_help = "wr_mbps=N     write traffic per slot, MB/s (400)\n"
                    "rd_mbps=N     read traffic per slot, MB/s (800)\n"
                    "lat_ns=N      address-accept to last-data latency, ns (250)\n"
                    "jitter_ns=N   latency drawn uniformly in lat_ns +- jitter_ns (0)\n"
                    "burst=N       bytes per transaction, multiple of 8, <= 2048 (128)\n"
                    "slots=N       monitored AXI slots 1..8 (5: HP0-3 + ACP)\n"
                    "ccnt_div=N    1 or 64: PMCR.D cycle counter divider (1)\n"
                    "duration_ms=N workload length in simulated ms, 0 = endless (2000)\n"
                    "seed=N        latency draws (fixed default: runs repeat exactly)\n"
                    "trace_bus=F   log every register access to F ('-' = stderr)\n"
                    "hw=1          a real Zynq instead of the model (sampled in real time)\n"
                    "apm_dev=F     hw: the APM's UIO device, map 0 (e.g. /dev/uio0; required)\n"
                    "mem_dev=F     hw: memory device for the PMU windows (/dev/mem; required)\n"
                    "apm_mhz=N     APM core clock in MHz (200)\n"
                    "cpu_mhz=N     Cortex-A9 clock in MHz (666.67)\n"
                    "pmu_events=L  up to 6 A9 events joined by '+', names or numbers\n"
                    "              (default inst_rename+l1d_refill+l1d_access+dcache_dep_stall+\n"
                    "              mem_write_stall+br_mis_pred, the SPA set)\n",
    .option_keys = keys,
    .workloads = zynq_workloads,
    .metrics = "zynq",
    .simulated = 1,
    .hotspots = NULL,
    .open = zynq_open,
    .start = zynq_start,
    .advance = zynq_advance,
    .now_ns = zynq_now,
    .close = zynq_close,
    .hardware = zynq_hardware,
    .default_interval_ns = 50000000, /* the monitor framework's default */
};
