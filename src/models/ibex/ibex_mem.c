/* The data bus outside the interpreter's RAM fast path: SimCtrl, the timer,
 * accesses that leave RAM, and bus errors, as examples/simple_system wires
 * them (rtl/ibex_simple_system.sv, shared/rtl/timer.sv,
 * shared/rtl/sim/simulator_ctrl.sv).
 *
 * Devices see word transactions with byte enables, as Ibex's LSU issues
 * them: a misaligned access that crosses a word becomes two transactions.
 * - SimCtrl (1 KiB at 0x20000): a write to word 0 with byte lane 0 enabled
 *   prints wdata[7:0]; a write to word 2 with lane 0 enabled and bit 0 set
 *   halts; reads return 0; no address in the block errors.
 * - Timer (1 KiB at 0x30000): mtime (+0, +4) counts every clock, including
 *   the cycles the core sleeps; mtimecmp (+8, +0xC); other words error. Its
 *   interrupt is sticky (interrupt_q) until mtimecmp is written, so it is
 *   pending from reset (mtimecmp resets to 0) until the first write.
 * - Anything else (outside RAM and these two): bus error -> access fault. */
#include <string.h>
#include "models/ibex/ibex_internal.h"

/* The cycle of the current bus request (loads and stores charge their
 * cycles before the bus is reached). */
static uint64_t req_cycle(const ibex_core *c)
{
    return ibex_now(c) - c->req_ago;
}

/* interrupt_q(t+1) = (mtime_q(t) >= mtimecmp | interrupt_q(t)) & ~mtimecmp write(t),
 * with mtime_q(t) = t + mtime_adj. */
uint64_t smn_ibex_timer_irq_cycle(const ibex_core *c)
{
    uint64_t t, p;
    if (c->timer_irq)
        return 0;
    t = c->mtimecmp - c->mtime_adj;   /* first cycle with mtime_q >= mtimecmp */
    if (c->mtimecmp < c->mtime_adj)
        t = 0;
    if (t == UINT64_MAX)
        return UINT64_MAX;
    p = t + 1;
    return p > c->irq_not_before ? p : c->irq_not_before;
}

int smn_ibex_timer_pending(const ibex_core *c)
{
    return ibex_now(c) >= smn_ibex_timer_irq_cycle(c);
}

static uint32_t merge(uint32_t old, uint32_t val, unsigned be)
{
    for (unsigned b = 0; b < 4; b++)
        if (be >> b & 1)
            old = (old & ~(0xFFu << (8 * b))) | (val & (0xFFu << (8 * b)));
    return old;
}

/* One word transaction; returns 1 on a bus error. */
static int word_access(ibex_core *c, uint32_t waddr, unsigned be, int we, uint32_t wdata,
                       uint32_t *rdata)
{
    *rdata = 0;
    if (waddr - IBEX_SS_RAM_BASE < IBEX_SS_RAM_SIZE) {
        uint8_t *p = c->ram + (waddr - IBEX_SS_RAM_BASE);
        uint32_t v = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
                     (uint32_t)p[3] << 24;
        if (we) {
            v = merge(v, wdata, be);
            p[0] = (uint8_t)v;
            p[1] = (uint8_t)(v >> 8);
            p[2] = (uint8_t)(v >> 16);
            p[3] = (uint8_t)(v >> 24);
            ibex_invalidate(c, waddr - IBEX_SS_RAM_BASE, 4);
        }
        *rdata = v;
        return 0;
    }
    if (waddr - IBEX_SS_SIMCTRL_BASE < IBEX_SS_SIMCTRL_SIZE) {
        uint32_t off = waddr - IBEX_SS_SIMCTRL_BASE;
        if (we && (be & 1)) {
            if (off == IBEX_SS_SIMCTRL_OUT)
                smn_ibex_output_byte(c, (uint8_t)wdata);
            else if (off == IBEX_SS_SIMCTRL_CTRL && (wdata & 1) && !c->halted && !c->finishing) {
                c->halted = 1;
                c->halt_time = req_cycle(c);
            }
        }
        return 0;
    }
    if (waddr - IBEX_SS_TIMER_BASE < IBEX_SS_TIMER_SIZE) {
        uint32_t off = waddr - IBEX_SS_TIMER_BASE;
        uint64_t w = req_cycle(c), t = w + c->mtime_adj;   /* rdata_q latches mtime_q(w) */
        switch (off) {
        case IBEX_SS_TIMER_MTIME:
        case IBEX_SS_TIMER_MTIME + 4: {
            int hi = off != IBEX_SS_TIMER_MTIME;
            *rdata = (uint32_t)(t >> (hi ? 32 : 0));
            if (we) {
                uint32_t half = merge(*rdata, wdata, be);
                uint64_t nt = hi ? ((uint64_t)half << 32 | (t & 0xFFFFFFFFu))
                                 : ((t & ~UINT64_C(0xFFFFFFFF)) | half);
                if (smn_ibex_timer_irq_cycle(c) <= w)
                    c->timer_irq = 1;   /* interrupt_q was already set */
                c->mtime_adj = nt - (w + 1);
            }
            return 0;
        }
        case IBEX_SS_TIMER_MTIMECMP:
        case IBEX_SS_TIMER_MTIMECMP + 4: {
            int hi = off != IBEX_SS_TIMER_MTIMECMP;
            *rdata = (uint32_t)(c->mtimecmp >> (hi ? 32 : 0));
            if (we) {
                uint32_t half = merge(*rdata, wdata, be);
                c->mtimecmp = hi ? ((uint64_t)half << 32 | (c->mtimecmp & 0xFFFFFFFFu))
                                 : ((c->mtimecmp & ~UINT64_C(0xFFFFFFFF)) | half);
                c->timer_irq = 0;   /* a mtimecmp write clears interrupt_q */
                c->irq_not_before = w + 2;
            }
            return 0;
        }
        default:
            return 1;
        }
    }
    return 1;
}

/* Splits [addr, addr+size) into word transactions with byte enables. */
static int access(ibex_core *c, uint32_t addr, unsigned size, int we, uint32_t val, uint32_t *out)
{
    uint32_t result = 0;
    unsigned done = 0;
    int err = 0;
    while (done < size) {
        uint32_t a = addr + done, waddr = a & ~3u;
        unsigned lane = a & 3, n = 4 - lane, be = 0, rdata;
        if (n > size - done)
            n = size - done;
        for (unsigned b = 0; b < n; b++)
            be |= 1u << (lane + b);
        if (word_access(c, waddr, be, we, (val >> (8 * done)) << (8 * lane), &rdata) && !err) {
            err = 1;
            c->fault_addr = a;   /* lsu_addr_last: this transaction's address */
        }
        result |= ((rdata >> (8 * lane)) & (n == 4 ? 0xFFFFFFFFu : ((1u << (8 * n)) - 1))) << (8 * done);
        done += n;
    }
    *out = result;
    return err;
}

int smn_ibex_bus_load(ibex_core *c, uint32_t addr, unsigned size, uint32_t *val)
{
    return access(c, addr, size, 0, 0, val);
}

int smn_ibex_bus_store(ibex_core *c, uint32_t addr, unsigned size, uint32_t val)
{
    uint32_t unused;
    return access(c, addr, size, 1, val, &unused);
}
