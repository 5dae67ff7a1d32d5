/* The core's last clock edges after the halting SimCtrl write.
 *
 * simulator_ctrl.sv (shared/rtl/sim, 0a13971f) samples the halting write's
 * request at the edge that ends cycle w (sim_finish <= 1); the next edge
 * makes sim_finish 2 and the one after calls $finish. So the core runs
 * cycles w + 1 and w + 2 like any others and the counters take their
 * increments: the rest of the halting store and whatever issues after it
 * (RTL fixtures: tests/ibex/programs/halt_*.S, docs/ibex.md).
 *
 * The model runs the instructions that start before the end one at a time
 * (smn_ibex_run with a limit of one cycle, so nothing of the interpreter is
 * repeated here) and takes back what the last one would only do after the
 * last edge. An instruction's cycles are, in order: load-use stall cycles
 * (WB stage), cycles up to the one in which it completes (retires, or with
 * the WB stage enters WB; its waits are the first of them), then its
 * trailing NumCyclesIF cycles (the fetch after a PC change, a flush, a trap
 * entry). It issues (NumLoads/Stores/Jumps/Branches, its bus request) in its
 * first cycle after the stall. A CSR write, mret and WFI complete in their
 * first cycle; the flush or sleep comes after.
 *
 * With the WB stage the counters are read as the DPI (mhpmcounter_get) and
 * csrr read them: minstret and mhpmcounter10 add the last instruction that
 * entered WB (issue #2252). When none entered at the last edge that one is
 * counted twice; the model freezes that into the counters at the halt. */
#include "models/ibex/ibex_internal.h"

static int counter_exists(const ibex_core *c, unsigned i)
{
    return i == IBEX_CNT_CYCLE || i == IBEX_CNT_INSTRET || (i >= 3 && i < 3 + c->cfg.mhpm_num);
}

/* Takes n from counter i (the part of a step after the last edge), unless
 * the counter stopped counting during the step: then it never got it. */
static void take_back(ibex_core *c, unsigned i, uint64_t n)
{
    uint64_t mask = i < 3 ? UINT64_MAX : c->hpm_mask;
    if (n && counter_exists(c, i) && !(c->inhibit >> i & 1))
        c->cnt[i] = (c->cnt[i] - n) & mask;
}

/* The n core cycles past the last edge never ran: neither counted nor missed by a counter. */
static void untick(ibex_core *c, uint64_t n)
{
    c->core_cycles -= n;
    for (unsigned i = 0; i < IBEX_CNT_EVENTS; i++)
        if (counter_exists(c, i) && (c->inhibit >> i & 1))
            c->inhibited[i] -= n;
}

/* Gives the counter changes since the last report to the instruction at pc. */
static void attribute(ibex_core *c, ibex_attr_fn fn, uint32_t pc)
{
    c->attr_fn = fn;
    c->attr_pc = pc;
    smn_ibex_attr_flush(c);
    c->attr_fn = NULL;
}

/* The slot of the instruction at pc, decoded; NULL if fetching it faults. */
static const ibex_op *op_at(ibex_core *c, uint32_t pc)
{
    uint32_t off = pc - IBEX_SS_RAM_BASE;
    ibex_op *op;
    if (off >= IBEX_SS_RAM_SIZE)
        return NULL;
    op = &c->ops[off >> 1];
    if (op->h == H_DECODE) {
        uint16_t lo = (uint16_t)(c->ram[off] | c->ram[off + 1] << 8), hi = 0;
        if ((lo & 3) == 3) {
            if (off + 2 >= IBEX_SS_RAM_SIZE)
                return NULL;
            hi = (uint16_t)(c->ram[off + 2] | c->ram[off + 3] << 8);
        }
        if (c->prof)   /* the run finds it decoded: its slot may count from now on */
            ibex_prof_mark(c->prof, off >> 1);
        smn_ibex_predecode(c, lo, hi, op);
    }
    return op;
}

void smn_ibex_halt_edges(ibex_core *c)
{
    const uint64_t end = c->halt_time + 3;   /* cycles w + 1 and w + 2 run */
    const ibex_attr_fn fn = c->attr_fn;
    const int wb = c->cfg.wb_stage != 0;
    int bubble = 0;   /* WB stage: no instruction entered WB at the last edge */
    size_t wb_depth = 0;   /* the profile's frame of c->wb_op (0: the one on top) */

    if (c->finishing)
        return;   /* ran already */
    c->finishing = 1;
    c->halted = 0;   /* lets smn_ibex_run step; SimCtrl ignores further halt writes */
    smn_ibex_sync(c);
    smn_ibex_attr_flush(c);
    c->attr_fn = NULL;   /* each step is reported below, after its trim */
    if (c->prof) {
        /* the exact profile takes each step's counts, trimmed, from the attribution's flush */
        c->prof->stepping = 1;
        c->prof->fast = 0;
    }
    while (c->now < end) {
        uint64_t raw[IBEX_CNT_EVENTS] = {0}, t = c->now, r = end - t, n;
        uint64_t irqs = c->stats.interrupts, excs = c->stats.exceptions;
        size_t depth = smn_ibex_prof_depth(c);   /* the frame this step's counts go to */
        uint32_t pc = c->pc;
        const ibex_op *op = op_at(c, pc), *prev_wb = c->wb_op;
        unsigned stall = wb && op && c->ld_rd && (op->rs1 == c->ld_rd || op->rs2 == c->ld_rd);
        int partial, done;

        if (stall >= r) {
            /* still waiting for the load's data at the end: it never issues */
            c->ev[IBEX_CNT_CYCLE] += r;
            c->ev[IBEX_CNT_LSU_WAIT] += r;
            smn_ibex_sync(c);
            attribute(c, fn, pc);
            bubble = 1;
            break;
        }
        c->raw_ev = raw;
        if (smn_ibex_run(c, t + 1, NULL) != SOCMON_OK) {   /* one step (a spin or sleep ends it too) */
            c->raw_ev = NULL;
            socmon_clear_error();   /* a fetch fault at the trap vector: nothing runs any more */
            c->now = end;
            attribute(c, fn, pc);
            break;
        }
        c->raw_ev = NULL;
        n = raw[IBEX_CNT_CYCLE];
        if (n == 0)
            break;   /* not reached: every step takes a cycle */
        c->now = t + n;   /* a WFI may have moved time to its wake-up */
        if (c->stats.interrupts != irqs)
            pc = c->pc;   /* an interrupt entry goes to the handler's first instruction */
        partial = n > r;
        if (partial) {
            /* the cycle it completes in, counted from its first */
            uint64_t d = UINT64_MAX;
            if (c->stats.interrupts == irqs && c->stats.exceptions == excs && op)
                d = op->h == H_CSR || op->h == H_MRET || op->h == H_WFI ? stall + 1u
                                                                        : n - raw[IBEX_CNT_IF_WAIT];
            done = r >= d;
            take_back(c, IBEX_CNT_CYCLE, n - r);
            untick(c, n - r);
            take_back(c, IBEX_CNT_IF_WAIT, raw[IBEX_CNT_IF_WAIT] < n - r ? raw[IBEX_CNT_IF_WAIT] : n - r);
            take_back(c, IBEX_CNT_LSU_WAIT, raw[IBEX_CNT_LSU_WAIT] > r ? raw[IBEX_CNT_LSU_WAIT] - r : 0);
            for (unsigned i = IBEX_CNT_MUL_WAIT; i <= IBEX_CNT_DIV_WAIT; i++)
                take_back(c, i, raw[i] > r - stall ? raw[i] - (r - stall) : 0);
            if (!done) {
                take_back(c, IBEX_CNT_INSTRET, raw[IBEX_CNT_INSTRET]);
                take_back(c, IBEX_CNT_COMPRESSED, raw[IBEX_CNT_COMPRESSED]);
                take_back(c, IBEX_CNT_TAKEN, raw[IBEX_CNT_TAKEN]);
            }
            c->wb_op = done ? op : prev_wb;   /* (a WFI that sleeps leaves the loop without it) */
            if (c->prof)
                smn_ibex_prof_flush_to(c, depth);
            wb_depth = depth;   /* the instruction in WB ran in the frame on top at the step's start */
            bubble = !done || r > d;
            c->now = end;
        } else {
            bubble = c->bubble_at == c->seq + 1;
            wb_depth = 0;
        }
        attribute(c, fn, pc);
        if (partial)
            break;
    }
    c->now = end;
    if (wb && bubble && c->wb_op) {
        /* the speculative read counts the instruction in WB once more */
        const ibex_op *w = c->wb_op;
        int any = 0;
        for (unsigned i = IBEX_CNT_INSTRET; i <= IBEX_CNT_COMPRESSED; i += IBEX_CNT_COMPRESSED - IBEX_CNT_INSTRET)
            if (counter_exists(c, i) && !(c->inhibit >> i & 1) && (i == IBEX_CNT_INSTRET || w->compressed)) {
                c->cnt[i] = (c->cnt[i] + 1) & (i < 3 ? UINT64_MAX : c->hpm_mask);
                any = 1;
            }
        if (any)
            attribute(c, fn, IBEX_SS_RAM_BASE + (uint32_t)(w - c->ops) * 2u);
        if (any && c->prof && wb_depth)
            smn_ibex_prof_flush_to(c, wb_depth);
    }
    c->wb_op = NULL;   /* frozen: a later read adds nothing */
    c->attr_fn = fn;
    c->halted = 1;
    if (c->prof)
        c->prof->stepping = 0;
}
