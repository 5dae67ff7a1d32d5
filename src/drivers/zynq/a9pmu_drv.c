/* Cortex-A9 PMU driver over the memory-mapped (debug APB) PMU windows.
 *
 * The bring-up follows what Linux's ARMv7 PMU driver and the standalone BSP
 * do through CP15, done through the window instead: unlock (CoreSight LAR),
 * disable all counters and interrupts, clear overflow flags, select events,
 * reset the counters (PMCR.P|C) and enable. */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "drivers/zynq/a9_events.h"
#include "drivers/zynq/zynq_drv.h"

#include "drivers/zynq/a9pmu_internal.h"

void smn_za9_config_spa(smn_za9_config *cfg, double cpu_hz)
{
    static const uint8_t spa[SOCMON_ZA9_NCOUNTERS] = {
        ZA9_EV_INST_RENAME, ZA9_EV_L1D_REFILL, ZA9_EV_L1D_ACCESS,
        ZA9_EV_DCACHE_STALL, ZA9_EV_MEM_WRITE_STALL, ZA9_EV_BR_MIS_PRED};
    *cfg = (smn_za9_config){0};
    cfg->ncores = 2;
    cfg->bases[0] = SOCMON_ZA9_CPU0_BASE;
    cfg->bases[1] = SOCMON_ZA9_CPU1_BASE;
    cfg->nevents = SOCMON_ZA9_NCOUNTERS;
    for (unsigned i = 0; i < SOCMON_ZA9_NCOUNTERS; i++)
        cfg->events[i] = spa[i];
    cfg->cpu_hz = cpu_hz;
}

socmon_status smn_za9_check_config(const smn_za9_config *cfg)
{
    if (cfg->ncores < 1 || cfg->ncores > SOCMON_ZA9_MAX_CORES)
        return socmon_fail(SOCMON_ERANGE, "a9 pmu: cores %u out of range 1..%u", cfg->ncores,
                           SOCMON_ZA9_MAX_CORES);
    if (cfg->nevents > SOCMON_ZA9_NCOUNTERS)
        return socmon_fail(SOCMON_ERANGE, "a9 pmu: %u events, the A9 has %u counters",
                           cfg->nevents, SOCMON_ZA9_NCOUNTERS);
    if (!(cfg->cpu_hz > 0))
        return socmon_fail(SOCMON_ERANGE, "a9 pmu: cpu_hz %g must be > 0", cfg->cpu_hz);
    for (unsigned i = 0; i < cfg->nevents; i++) {
        if (!smn_za9_event_by_code(cfg->events[i]))
            return socmon_fail(SOCMON_ENOENT, "a9 pmu: event 0x%02x is not a Cortex-A9 event",
                               cfg->events[i]);
        for (unsigned j = 0; j < i; j++)
            if (cfg->events[j] == cfg->events[i])
                return socmon_fail(SOCMON_EINVAL, "a9 pmu: event 0x%02x selected twice",
                                   cfg->events[i]);
    }
    return SOCMON_OK;
}

/* Fills the counter list shared by the bus and perf paths; reg is the
 * register address on the bus path and 0 on the perf path. */
void smn_za9_fill_counters(za9_drv *d, const smn_za9_config *cfg, int bus_path)
{
    d->ncores = cfg->ncores;
    d->per_core = 1 + cfg->nevents;
    for (unsigned k = 0; k < d->ncores; k++) {
        snprintf(d->inst[k], sizeof d->inst[k], "cpu%u", k);
        socmon_counter *c = &d->c[k * d->per_core];
        c->name = "ccnt";
        c->instance = d->inst[k];
        c->desc = cfg->ccnt_div64 ? "non-idle cycles / 64 (PMCR.D)" : "non-idle cycles";
        c->unit = "cycles";
        c->width = bus_path ? 32 : 64;
        c->reg = bus_path ? cfg->bases[k] + A_ZA9_PMCCNTR : 0;
        c->max_rate_hz = cfg->ccnt_div64 ? cfg->cpu_hz / 64 : cfg->cpu_hz;
        for (unsigned n = 0; n < cfg->nevents; n++) {
            const smn_za9_event *e = smn_za9_event_by_code(cfg->events[n]);
            c = &d->c[k * d->per_core + 1 + n];
            c->name = e->name;
            c->instance = d->inst[k];
            c->desc = e->desc;
            c->unit = "events";
            c->width = bus_path ? 32 : 64;
            c->reg = bus_path ? cfg->bases[k] + za9_pmxevcntr(n) : 0;
            c->max_rate_hz = 2 * cfg->cpu_hz;   /* dual-issue: at most two per cycle */
        }
    }
}

static socmon_status pmu_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    za9_drv *d = p;
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= d->ncores * d->per_core)
            return socmon_fail(SOCMON_ERANGE, "a9 pmu: counter %u out of range 0..%u", idx[i],
                               d->ncores * d->per_core - 1);
        uint32_t v;
        socmon_status st = socmon_bus_read32(d->bus, d->c[idx[i]].reg, &v);
        if (st)
            return socmon_fail_prefix(st, "a9 pmu: ");
        out[i] = v;
    }
    return SOCMON_OK;
}

static void pmu_destroy(void *p)
{
    free(p);
}

static socmon_status core_init(socmon_bus *bus, uint64_t b, const smn_za9_config *cfg)
{
    uint32_t v;
    socmon_status st = socmon_bus_write32(bus, b + A_ZA9_PMLAR, ZA9_LAR_KEY);
    if (!st)
        st = socmon_bus_read32(bus, b + A_ZA9_PMLSR, &v);
    if (st)
        return st;
    if (v & R_ZA9_PMLSR_SLK_MASK)
        return socmon_fail(SOCMON_EIO, "PMU at 0x%llx stays locked after the LAR key (PMLSR 0x%x)",
                           (unsigned long long)b, v);
    if ((st = socmon_bus_read32(bus, b + A_ZA9_PMCR, &v)) != SOCMON_OK)
        return st;
    unsigned ncnt = SM_FIELD_EX32(v, ZA9_PMCR, N);
    if (ncnt < cfg->nevents)
        return socmon_fail(SOCMON_ENOTSUP, "PMU at 0x%llx has %u counters (PMCR 0x%08x), %u requested",
                           (unsigned long long)b, ncnt, v, cfg->nevents);
    st = socmon_bus_write32(bus, b + A_ZA9_PMCNTENCLR, ZA9_CNT_MASK);
    if (!st)
        st = socmon_bus_write32(bus, b + A_ZA9_PMINTENCLR, ZA9_CNT_MASK);
    if (!st)
        st = socmon_bus_write32(bus, b + A_ZA9_PMOVSR, ZA9_CNT_MASK);
    for (unsigned n = 0; n < cfg->nevents && !st; n++)
        st = socmon_bus_write32(bus, b + za9_pmxevtyper(n), cfg->events[n]);
    uint32_t pmcr = R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_P_MASK | R_ZA9_PMCR_C_MASK |
                    (cfg->ccnt_div64 ? R_ZA9_PMCR_D_MASK : 0);
    if (!st)
        st = socmon_bus_write32(bus, b + A_ZA9_PMCR, pmcr);
    if (!st)
        st = socmon_bus_write32(bus, b + A_ZA9_PMCNTENSET,
                                ZA9_CCNT_BIT | ((1u << cfg->nevents) - 1));
    return st;
}

socmon_status smn_za9_part_new(socmon_bus *bus, const smn_za9_config *cfg,
                                  smn_zynq_part *out)
{
    if (!bus || !cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "a9 pmu: NULL argument");
    socmon_status st = smn_za9_check_config(cfg);
    if (st)
        return st;
    za9_drv *d = calloc(1, sizeof *d);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "a9 pmu: out of memory");
    d->bus = bus;
    smn_za9_fill_counters(d, cfg, 1);
    for (unsigned k = 0; k < cfg->ncores; k++)
        if ((st = core_init(bus, cfg->bases[k], cfg)) != SOCMON_OK) {
            free(d);
            return socmon_fail_prefix(st, "a9 pmu cpu%u: ", k);
        }
    out->drv = d;
    out->ncounters = d->ncores * d->per_core;
    out->counters = d->c;
    out->read = pmu_read;
    out->destroy = pmu_destroy;
    return SOCMON_OK;
}
