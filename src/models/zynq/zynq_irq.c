/* The Zynq model's interrupt lines: their levels, rising edges, the user's
 * handler and waiting for a line.
 *
 * A line is a level computed from the registers (APM: GIE & |(IS & IE), HDL
 * *_interrupt_module.v via spec §1.6; PMU: |(PMOVSR & PMINTEN), spec §5.1).
 * An edge is a change of that level from low to high, noticed wherever the
 * level can change: after time runs (zynq_time.c finds the nanosecond) and
 * after every register access (a write to GIE or IE over a pending flag
 * raises the line at once). Edges are queued and handed to the handlers
 * only by the outermost caller, never from inside a register access or a
 * running handler, so a handler that accesses registers (and so lets time
 * pass and maybe raises another edge) is never re-entered: the new edge is
 * delivered after it returns, by the next delivery: the next turn of the
 * time loop, or the end of the next access. In an interrupt storm (each
 * handler slower than its interrupt) an advance therefore still ends when
 * its time is up; what is queued then goes to the next call. */
#include "core/error.h"
#include "models/zynq/zynq_soc.h"

static const char *const line_names[ZYNQ_NLINES] = {"apm", "pmu0", "pmu1"};

unsigned smn_zynq_irq_lines(const socmon_zynq_soc *soc)
{
    unsigned v = smn_zapm_irq(&soc->apm) ? 1u << SOCMON_ZYNQ_IRQ_APM : 0;
    for (unsigned c = 0; c < SOCMON_ZYNQ_NCORES; c++)
        if (smn_za9_irq(&soc->pmu[c]))
            v |= 1u << (SOCMON_ZYNQ_IRQ_PMU0 + c);
    return v;
}

unsigned smn_zynq_irq_armed(const socmon_zynq_soc *soc)
{
    /* a status bit can only raise the line through an enable that is set */
    unsigned v = (soc->apm.reg[ZAPM_REG_GIE] & R_ZAPM_GIE_EN_MASK) && soc->apm.reg[ZAPM_REG_IE]
                     ? 1u << SOCMON_ZYNQ_IRQ_APM
                     : 0;
    for (unsigned c = 0; c < SOCMON_ZYNQ_NCORES; c++)
        if (soc->pmu[c].inten & ZA9_CNT_MASK)
            v |= 1u << (SOCMON_ZYNQ_IRQ_PMU0 + c);
    return v;
}

unsigned smn_zynq_irq_listened(const socmon_zynq_soc *soc)
{
    const zynq_irq_state *q = &soc->irq;
    return (q->fn ? (1u << ZYNQ_NLINES) - 1 : 0) | (q->uio ? 1u << SOCMON_ZYNQ_IRQ_APM : 0);
}

unsigned smn_zynq_irq_note(socmon_zynq_soc *soc)
{
    zynq_irq_state *q = &soc->irq;
    unsigned lines = smn_zynq_irq_lines(soc);
    unsigned rose = lines & ~q->level;
    q->level = lines;
    /* only handlers consume the queue; waiters look at `rose` directly */
    unsigned handled = smn_zynq_irq_listened(soc);
    for (unsigned l = 0; l < ZYNQ_NLINES; l++)
        if ((rose & handled & (1u << l)) && !(q->pending & (1u << l))) {
            q->pending |= 1u << l;
            q->edge_ns[l] = soc->now_ns;
        }
    return rose;
}

void smn_zynq_irq_deliver(socmon_zynq_soc *soc)
{
    zynq_irq_state *q = &soc->irq;
    if (q->depth || q->in_handler)
        return;
    q->in_handler = 1;
    /* each line once: edges that come while these handlers run are left for
     * the next call (the caller's loop, the next access), so a handler
     * slower than its interrupt cannot keep a call from returning */
    unsigned todo = q->pending;
    while (todo) {
        unsigned l = 0;
        while (!(todo & (1u << l)))
            l++;
        todo &= ~(1u << l);
        q->pending &= ~(1u << l);
        /* on a board with uio_xilinx_apm the kernel owns the APM's
         * interrupt and runs first; a user handler (a bare-metal driver's
         * ISR) sees what it left */
        if (l == SOCMON_ZYNQ_IRQ_APM && q->uio)
            smn_zynq_uio_kernel_irq(q->uio);
        if (q->fn)
            q->fn(q->ctx, soc, (socmon_zynq_irq)l, q->edge_ns[l]);
        smn_zynq_irq_note(soc);
        /* the UIO driver's line is level sensitive (zynq_uio.c): still
         * high after its handler (a lapse between its read and its write
         * of IS), it is taken again */
        if (l == SOCMON_ZYNQ_IRQ_APM && q->uio && (q->level & (1u << l)) && !(q->pending & (1u << l))) {
            q->pending |= 1u << l;
            q->edge_ns[l] = soc->now_ns;
        }
    }
    q->in_handler = 0;
}

void smn_zynq_irq_sync(socmon_zynq_soc *soc)
{
    smn_zynq_irq_note(soc);
    smn_zynq_irq_deliver(soc);
}

socmon_status socmon_zynq_soc_set_irq_handler(socmon_zynq_soc *soc, socmon_zynq_irq_fn fn, void *ctx)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL model");
    /* take the levels as they are now: a line already high is no new edge */
    smn_zynq_irq_note(soc);
    soc->irq.fn = fn;
    soc->irq.ctx = ctx;
    if (!fn && !soc->irq.uio)
        soc->irq.pending = 0;
    return SOCMON_OK;
}

/* What gates the line, for the message of a wait that timed out. */
socmon_status smn_zynq_irq_wait_failed(const socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t max_ns)
{
    const char *name = line_names[line];
    if (line == SOCMON_ZYNQ_IRQ_APM) {
        const uint32_t *r = soc->apm.reg;
        return socmon_fail(SOCMON_EAGAIN,
                           "zynq: IRQ line %s not asserted within %llu ns (GIE=0x%x IE=0x%x IS=0x%x; "
                           "SICR=0x%x SI=%u CR=0x%x)",
                           name, (unsigned long long)max_ns, r[ZAPM_REG_GIE], r[ZAPM_REG_IE],
                           r[ZAPM_REG_IS], r[ZAPM_REG_SICR], r[ZAPM_REG_SI_LOW], r[ZAPM_REG_CTL]);
    }
    const za9_model *p = &soc->pmu[line - SOCMON_ZYNQ_IRQ_PMU0];
    return socmon_fail(SOCMON_EAGAIN,
                       "zynq: IRQ line %s not asserted within %llu ns (PMCR.E=%u PMINTEN=0x%x "
                       "PMOVSR=0x%x PMCNTEN=0x%x)",
                       name, (unsigned long long)max_ns, p->reg[ZA9_REG_CR] & R_ZA9_PMCR_E_MASK,
                       p->inten, p->reg[ZA9_REG_OVSR], p->cnten);
}

static socmon_status wait_locked(socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t max_ns,
                                 uint64_t *waited_ns)
{
    if ((unsigned)line >= ZYNQ_NLINES)
        return socmon_fail(SOCMON_ERANGE, "zynq: IRQ line %u out of range 0..%u (apm, pmu0, pmu1)",
                           (unsigned)line, ZYNQ_NLINES - 1);
    if (max_ns > ZYNQ_TIME_MAX - soc->now_ns)
        return socmon_fail(SOCMON_ERANGE, "zynq: wait of %llu ns runs past the model's 1e17 ns",
                           (unsigned long long)max_ns);
    if (waited_ns)
        *waited_ns = 0;
    unsigned bit = 1u << line;
    smn_zynq_irq_sync(soc);
    if (smn_zynq_irq_lines(soc) & bit)
        return SOCMON_OK;
    uint64_t t0 = soc->now_ns;
    unsigned rose = smn_zynq_time_to(soc, t0 + max_ns, bit);
    if (waited_ns)
        *waited_ns = (rose ? soc->irq.stop_ns : soc->now_ns) - t0;
    return rose ? SOCMON_OK : smn_zynq_irq_wait_failed(soc, line, max_ns);
}

socmon_status socmon_zynq_soc_wait_irq(socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t max_ns,
                                       uint64_t *waited_ns)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "zynq: NULL model");
    zynq_lock(soc);
    socmon_status st = wait_locked(soc, line, max_ns, waited_ns);
    zynq_unlock(soc);
    return st;
}
