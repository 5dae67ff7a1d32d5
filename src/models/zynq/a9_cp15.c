/* The Cortex-A9 PMU model through CP15 (MRC/MCR p15, ...): the coprocessor
 * side of the same per-core state the memory-mapped window shows.
 *
 * Encodings come from src/hw/a9_pmu.h's ZA9_CP15 table (spec §5.1). Most map
 * to a window offset and go through smn_za9_read/smn_za9_write, so the two
 * interfaces cannot drift apart; PMSELR is CP15's own and redirects
 * PMXEVTYPER/PMXEVCNTR to the selected counter's window register. The
 * CoreSight lock is not consulted: it guards the memory-mapped interface
 * only (Arm DDI 0595, PMLAR: "enabling write accesses to this component's
 * registers through a memory-mapped interface"; PMLSR: "a lock to prevent
 * memory-mapped writes"). ISB is not needed here: a PMSELR write takes
 * effect at once, which is what the ISB guarantees on silicon. */
#include "core/error.h"
#include "models/zynq/zynq_internal.h"
#include "models/zynq/zynq_soc.h"

/* The register the encoding names, or a failure naming the encoding. For
 * PMXEVTYPER/PMXEVCNTR *off is the selected counter's window offset. */
static socmon_status resolve(const za9_model *p, const char *op, unsigned opc1, unsigned crn,
                             unsigned crm, unsigned opc2, const za9_cp15_enc **enc, uint64_t *off)
{
    if (opc1 > 7 || opc2 > 7 || crn > 15 || crm > 15)
        return socmon_fail(SOCMON_EINVAL,
                           "%s p15, %u, <Rt>, c%u, c%u, %u: no such encoding "
                           "(opc1 and opc2 0..7, CRn and CRm c0..c15)",
                           op, opc1, crn, crm, opc2);
    const za9_cp15_enc *e = za9_cp15_find(opc1, crn, crm, opc2);
    if (!e)
        return socmon_fail(SOCMON_ENOTSUP,
                           "%s p15, %u, <Rt>, c%u, c%u, %u: not a register of the Cortex-A9 PMU "
                           "(an Undefined Instruction on the A9, or CP15 outside the PMU, "
                           "which is not modelled)",
                           op, opc1, crn, crm, opc2);
    *enc = e;
    *off = e->off;
    if (e->kind == ZA9_CP15_SEL_TYPER || e->kind == ZA9_CP15_SEL_CNTR) {
        /* SEL 31 would reach the cycle counter's filter in PMUv2 only; on
         * the A9 (PMUv1) it, like 6..30, is UNPREDICTABLE: refused */
        if (p->selr >= SOCMON_ZA9_NCOUNTERS)
            return socmon_fail(SOCMON_EUNDEF,
                               "%s %s with PMSELR.SEL = %u: selects no event counter "
                               "(0..%u on the Cortex-A9); UNPREDICTABLE on silicon",
                               op, e->name, p->selr, SOCMON_ZA9_NCOUNTERS - 1);
        *off = e->kind == ZA9_CP15_SEL_TYPER ? za9_pmxevtyper(p->selr) : za9_pmxevcntr(p->selr);
    }
    return SOCMON_OK;
}

static socmon_status pmu_of(socmon_zynq_soc *soc, unsigned core, za9_model **p)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "cp15: NULL model");
    *p = smn_zynq_soc_pmu(soc, core);
    if (!*p)
        return socmon_fail(SOCMON_ERANGE, "cp15: core %u out of range 0..%u", core,
                           SOCMON_ZYNQ_NCORES - 1);
    return SOCMON_OK;
}

static socmon_status cp15_read(za9_model *p, unsigned opc1, unsigned crn, unsigned crm,
                               unsigned opc2, uint32_t *val)
{
    const za9_cp15_enc *e;
    uint64_t off;
    if (!val)
        return socmon_fail(SOCMON_EINVAL, "cp15: NULL value pointer");
    *val = 0;
    socmon_status st = resolve(p, "MRC", opc1, crn, crm, opc2, &e, &off);
    if (st)
        return st;
    *val = e->kind == ZA9_CP15_SELR ? p->selr : smn_za9_read(p, off);
    return SOCMON_OK;
}

static socmon_status cp15_write(za9_model *p, unsigned opc1, unsigned crn, unsigned crm,
                                unsigned opc2, uint32_t val)
{
    const za9_cp15_enc *e;
    uint64_t off;
    socmon_status st = resolve(p, "MCR", opc1, crn, crm, opc2, &e, &off);
    if (st)
        return st;
    if (e->kind == ZA9_CP15_SELR)
        p->selr = val & ZA9_SELR_MASK;   /* bits 31:5 are reserved: ignored */
    else
        smn_za9_write(p, off, val);
    return SOCMON_OK;
}

socmon_status socmon_zynq_cp15_read(socmon_zynq_soc *soc, unsigned core, unsigned opc1,
                                    unsigned crn, unsigned crm, unsigned opc2, uint32_t *val)
{
    za9_model *p;
    socmon_status st = pmu_of(soc, core, &p);
    if (st) {
        if (val)
            *val = 0;
        return st;
    }
    zynq_lock(soc);
    st = cp15_read(p, opc1, crn, crm, opc2, val);
    zynq_unlock(soc);
    return st;
}

socmon_status socmon_zynq_cp15_write(socmon_zynq_soc *soc, unsigned core, unsigned opc1,
                                     unsigned crn, unsigned crm, unsigned opc2, uint32_t val)
{
    za9_model *p;
    socmon_status st = pmu_of(soc, core, &p);
    if (st)
        return st;
    zynq_lock(soc);
    if (!(st = cp15_write(p, opc1, crn, crm, opc2, val)))
        smn_zynq_irq_sync(soc);   /* PMINTENSET, PMOVSR W1C...: the PMU line may have moved */
    zynq_unlock(soc);
    return st;
}

static socmon_status if_read(void *ctx, unsigned opc1, unsigned crn, unsigned crm, unsigned opc2,
                             uint32_t *val)
{
    const struct zynq_cp15_port *port = ctx;
    return socmon_zynq_cp15_read(port->soc, port->core, opc1, crn, crm, opc2, val);
}

static socmon_status if_write(void *ctx, unsigned opc1, unsigned crn, unsigned crm, unsigned opc2,
                              uint32_t val)
{
    const struct zynq_cp15_port *port = ctx;
    return socmon_zynq_cp15_write(port->soc, port->core, opc1, crn, crm, opc2, val);
}

socmon_status socmon_zynq_cp15_of(socmon_zynq_soc *soc, unsigned core, socmon_cp15 *out)
{
    za9_model *p;
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "cp15: NULL output");
    socmon_status st = pmu_of(soc, core, &p);
    if (st)
        return st;
    struct zynq_cp15_port *port = &soc->irq.cp15[core];
    port->soc = soc;
    port->core = core;
    out->read = if_read;
    out->write = if_write;
    out->ctx = port;
    return SOCMON_OK;
}
