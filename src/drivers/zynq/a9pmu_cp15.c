/* Cortex-A9 PMU driver through CP15 (a socmon_cp15 per core) instead of the
 * memory-mapped window: the same events and the same device counters as
 * a9pmu_drv.c, programmed the way code on the core does it (Linux's ARMv7
 * PMU driver, the standalone BSP): no CoreSight lock; PMSELR selects the
 * counter PMXEVTYPER/PMXEVCNTR reach. Encodings: src/hw/a9_pmu.h. */
#include <stdlib.h>

#include "core/error.h"
#include "drivers/zynq/a9pmu_internal.h"

typedef struct za9_cp15_drv {
    za9_drv d;
    socmon_cp15 cp[SOCMON_ZA9_MAX_CORES];
} za9_cp15_drv;

static socmon_status cpr(const socmon_cp15 *cp, unsigned reg, uint32_t *v)
{
    return cp->read(cp->ctx, ZA9_CP15_OPC1, ZA9_CP15_CRN, ZA9_CP15[reg].crm, ZA9_CP15[reg].opc2, v);
}

static socmon_status cpw(const socmon_cp15 *cp, unsigned reg, uint32_t v)
{
    return cp->write(cp->ctx, ZA9_CP15_OPC1, ZA9_CP15_CRN, ZA9_CP15[reg].crm, ZA9_CP15[reg].opc2,
                     v);
}

static socmon_status cp15_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    za9_cp15_drv *d = p;
    for (size_t i = 0; i < n; i++) {
        unsigned total = d->d.ncores * d->d.per_core;
        if (idx[i] >= total)
            return socmon_fail(SOCMON_ERANGE, "a9 pmu: counter %u out of range 0..%u", idx[i],
                               total - 1);
        const socmon_cp15 *cp = &d->cp[idx[i] / d->d.per_core];
        unsigned k = idx[i] % d->d.per_core;   /* 0: CCNT; k: event counter k - 1 */
        uint32_t v = 0;
        socmon_status st = k == 0 ? cpr(cp, ZA9_CP_PMCCNTR, &v) : cpw(cp, ZA9_CP_PMSELR, k - 1);
        if (!st && k)
            st = cpr(cp, ZA9_CP_PMXEVCNTR, &v);
        if (st)
            return socmon_fail_prefix(st, "a9 pmu (cp15): ");
        out[i] = v;
    }
    return SOCMON_OK;
}

static void cp15_destroy(void *p)
{
    free(p);
}

static socmon_status core_init(const socmon_cp15 *cp, const smn_za9_config *cfg)
{
    uint32_t v;
    socmon_status st = cpr(cp, ZA9_CP_PMCR, &v);
    if (st)
        return st;
    unsigned ncnt = SM_FIELD_EX32(v, ZA9_PMCR, N);
    if (ncnt < cfg->nevents)
        return socmon_fail(SOCMON_ENOTSUP, "PMU has %u counters (PMCR 0x%08x), %u requested", ncnt,
                           v, cfg->nevents);
    st = cpw(cp, ZA9_CP_PMCNTENCLR, ZA9_CNT_MASK);
    if (!st)
        st = cpw(cp, ZA9_CP_PMINTENCLR, ZA9_CNT_MASK);
    if (!st)
        st = cpw(cp, ZA9_CP_PMOVSR, ZA9_CNT_MASK);
    for (unsigned n = 0; n < cfg->nevents && !st; n++) {
        st = cpw(cp, ZA9_CP_PMSELR, n);
        if (!st)
            st = cpw(cp, ZA9_CP_PMXEVTYPER, cfg->events[n]);
    }
    uint32_t pmcr = R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_P_MASK | R_ZA9_PMCR_C_MASK |
                    (cfg->ccnt_div64 ? R_ZA9_PMCR_D_MASK : 0);
    if (!st)
        st = cpw(cp, ZA9_CP_PMCR, pmcr);
    if (!st)
        st = cpw(cp, ZA9_CP_PMCNTENSET, ZA9_CCNT_BIT | ((1u << cfg->nevents) - 1));
    return st;
}

socmon_status smn_za9_cp15_part_new(const socmon_cp15 *cps, const smn_za9_config *cfg,
                                       smn_zynq_part *out)
{
    if (!cps || !cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "a9 pmu (cp15): NULL argument");
    socmon_status st = smn_za9_check_config(cfg);
    if (st)
        return st;
    for (unsigned k = 0; k < cfg->ncores; k++)
        if (!cps[k].read || !cps[k].write)
            return socmon_fail(SOCMON_EINVAL, "a9 pmu (cp15): core %u's interface has a NULL "
                                              "function", k);
    za9_cp15_drv *d = calloc(1, sizeof *d);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "a9 pmu (cp15): out of memory");
    smn_za9_fill_counters(&d->d, cfg, 0);
    for (unsigned i = 0; i < d->d.ncores * d->d.per_core; i++)
        d->d.c[i].width = 32;   /* the registers' width, as the window path */
    for (unsigned k = 0; k < cfg->ncores; k++) {
        d->cp[k] = cps[k];
        if ((st = core_init(&cps[k], cfg)) != SOCMON_OK) {
            free(d);
            return socmon_fail_prefix(st, "a9 pmu (cp15) cpu%u: ", k);
        }
    }
    out->drv = d;
    out->ncounters = d->d.ncores * d->d.per_core;
    out->counters = d->d.c;
    out->read = cp15_read;
    out->destroy = cp15_destroy;
    return SOCMON_OK;
}
