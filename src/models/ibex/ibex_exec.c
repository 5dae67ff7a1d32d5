/* The interpreter loop: fetch the predecoded op of the PC's RAM halfword
 * (decoding it on first use), charge its static cycles, run its handler.
 *
 * Timing model. Ibex (no writeback stage) has two stages, IF and ID/EX;
 * with 1-cycle memory and its prefetch buffer, sequential code never waits
 * for fetch, so an instruction's cost is its ID/EX cycles plus the bubble
 * after a PC change. Costs are those of ibex_timing.c; the dynamic parts
 * are here:
 * - taken branches, jumps and every other PC change pay one more cycle and
 *   one NumCyclesIF when the target is a 32-bit instruction straddling a
 *   word (two fetches; measured for jumps, spec §7);
 * - misaligned accesses split over two words cost one more cycle;
 * - with the writeback stage, an instruction reading the rd of the load just
 *   before it stalls one cycle (stall_ld_hz, counted as NumCyclesLSU);
 * - the slow multiplier and the divider depend on the operands.
 * Events are summed in locals (cycles, retired, compressed) and in c->ev;
 * smn_ibex_sync() applies them to the counters at the points that need them.
 *
 * The bubble/WB bookkeeping (bubble_at, wb_op) exists only for the
 * speculative minstret read of the writeback configuration (ibex_csr.c). */
#include <string.h>
#include "models/ibex/ibex_internal.h"

#define LIKELY(x) __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)

/* Trap entry: the handler's first instruction enters ID 3 cycles after the
 * trapping one did; mret: 3 cycles. Each includes one NumCyclesIF. (Spec §7
 * says "retires 4 cycles after"; the RTL fixtures of tests/ibex/programs
 * (traps) pin the entry at 3 in both configurations.) */
#define TRAP_CYCLES 3u
#define MRET_CYCLES 3u
/* An interrupt taken between two instructions: 3 cycles, 2 of them
 * NumCyclesIF (fixtures: wfi, "timer interrupt during a busy loop"). */
#define IRQ_CYCLES 3u
#define IRQ_IF_CYCLES 2u
/* WFI: DECODE, FLUSH, WAIT_SLEEP, SLEEP/FIRST_FETCH with IF halted: 4
 * counted cycles, no NumCyclesIF; the sleep itself is clock-gated and not
 * counted (fixtures: wfi). */
#define WFI_CYCLES 4u

static inline uint32_t ld32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint16_t ld16(const uint8_t *p)
{
    return (uint16_t)(p[0] | p[1] << 8);
}

/* 1 if the instruction at target is 32 bits wide and straddles a word. */
static inline int straddles(const ibex_core *c, uint32_t target)
{
    uint32_t off = target - IBEX_SS_RAM_BASE;
    return (target & 2) && off < IBEX_SS_RAM_SIZE && (c->ram[off] & 3) == 3;
}

static int irq_enabled(const ibex_core *c)
{
    return (c->mstatus & IBEX_MSTATUS_MIE) && (c->mie & IBEX_MIX_MTI);
}

/* The controller takes an enabled interrupt in the first cycle, at or after
 * the one in which it became pending, in which ID is empty
 * (rtl/ibex_controller.sv, DECODE: !stall && !special_req && !id_wb_pending;
 * in the pending cycle it halts IF, so nothing new enters ID). Between two
 * instructions that is the cycle the next one would have entered, so it is
 * taken before an instruction whose first cycle is >= pending + 1. In the
 * refetch after a PC change ID is empty too: smn_ibex_irq_cut_refetch. Just after
 * a WFI wakes, FIRST_FETCH takes it at once. c->id_empty marks both. */
static uint64_t irq_take_cycle(const ibex_core *c)
{
    uint64_t p = smn_ibex_timer_irq_cycle(c);
    if (p == UINT64_MAX || c->id_empty)
        return p;
    return p + 1;
}

/* The last `refetch` cycles before `end` (the cycle the next instruction
 * would enter ID) are a PC change's refetch, ID empty: a taken branch's or a
 * jump's fetch wait, an mret's, a CSR flush's, and the second fetch of a
 * target straddling a word. An interrupt enabled in them and pending before
 * `end` is taken in the first of them at or after its pending cycle, so the
 * rest are never spent (fixtures: irq_jump, irq_branch, irq_mret, irq_csr).
 * Returns how many are cut; the caller takes them off its cycles and
 * NumCyclesIF, and the next loop top takes the interrupt (c->id_empty). */
unsigned smn_ibex_irq_cut_refetch(ibex_core *c, uint64_t end, unsigned refetch)
{
    uint64_t p;
    if (refetch == 0 || !irq_enabled(c))
        return 0;
    p = smn_ibex_timer_irq_cycle(c);
    if (p >= end)
        return 0;
    c->id_empty = 1;
    return end - p < refetch ? (unsigned)(end - p) : refetch;
}

/* Cycles that may pass before the loop must look at the world again. */
static uint64_t cycles_until_check(const ibex_core *c, uint64_t max_cycles)
{
    uint64_t now = ibex_now(c), lim = UINT64_MAX;
    if (max_cycles)
        lim = max_cycles > now ? max_cycles - now : 0;
    if (irq_enabled(c)) {
        uint64_t at = irq_take_cycle(c);
        if (now >= at)
            return 0;
        if (at - now < lim)
            lim = at - now;
    }
    return lim;
}

void smn_ibex_trap(ibex_core *c, uint32_t cause, uint32_t tval, uint32_t epc)
{
    uint32_t ms = c->mstatus;
    c->mepc = epc;
    c->mcause = cause;
    c->mtval = tval;
    ms &= ~(IBEX_MSTATUS_MPIE | (3u << IBEX_MSTATUS_MPP_SHIFT));
    if (c->mstatus & IBEX_MSTATUS_MIE)
        ms |= IBEX_MSTATUS_MPIE;
    ms |= (uint32_t)c->priv << IBEX_MSTATUS_MPP_SHIFT;
    c->mstatus = ms & ~IBEX_MSTATUS_MIE;
    c->priv = 3;
    if (cause & IBEX_MCAUSE_IRQ) {
        c->stats.interrupts++;
        c->pc = (c->mtvec & IBEX_MTVEC_BASE_MASK) + 4 * (cause & 31);
    } else {
        if (c->cpuctrlsts & IBEX_CPUCTRLSTS_SYNC_EXC_SEEN)
            c->cpuctrlsts |= IBEX_CPUCTRLSTS_DOUBLE_FAULT;
        c->cpuctrlsts |= IBEX_CPUCTRLSTS_SYNC_EXC_SEEN;
        c->stats.exceptions++;
        c->pc = c->mtvec & IBEX_MTVEC_BASE_MASK;
    }
    c->stats.last_cause = cause;
    c->stats.last_epc = epc;
}

static void do_mret(ibex_core *c)
{
    uint32_t ms = c->mstatus;
    unsigned mpp = ms >> IBEX_MSTATUS_MPP_SHIFT & 3;
    c->priv = mpp;
    ms &= ~(IBEX_MSTATUS_MIE | (3u << IBEX_MSTATUS_MPP_SHIFT));
    if (c->mstatus & IBEX_MSTATUS_MPIE)
        ms |= IBEX_MSTATUS_MIE;
    ms |= IBEX_MSTATUS_MPIE;   /* MPIE = 1, MPP = U */
    if (mpp != 3)
        ms &= ~IBEX_MSTATUS_MPRV;
    c->mstatus = ms;
    c->cpuctrlsts &= ~IBEX_CPUCTRLSTS_SYNC_EXC_SEEN;
    c->pc = c->mepc;
}

static uint32_t mulh(uint32_t a, uint32_t b, int sa, int sb)
{
    int64_t x = sa ? (int64_t)(int32_t)a : (int64_t)a;
    int64_t y = sb ? (int64_t)(int32_t)b : (int64_t)b;
    if (!sa && !sb)
        return (uint32_t)(((uint64_t)a * b) >> 32);
    return (uint32_t)((uint64_t)(x * y) >> 32);
}

/* The loop, compiled twice: PROF (a constant) adds the exact profile's counting (ibex_prof.c),
 * so a run without it pays nothing for it. */
static inline __attribute__((always_inline)) socmon_status run_loop(ibex_core *c, uint64_t max_cycles,
                                                                    ibex_stop *why, const int PROF)
{
    uint32_t *const x = c->x;
    uint8_t *const ram = c->ram;
    ibex_op *const ops = c->ops;
    const ibex_timing t = c->t;
    const int wb = c->cfg.wb_stage != 0;
    const int slow_mul = c->cfg.rv32m == IBEX_RV32M_SLOW;
    uint32_t pc = c->pc;
    uint64_t seq = c->seq, bubble_at = c->bubble_at;
    const ibex_op *wbop = c->wb_op;
    unsigned ldrd = c->ld_rd;
    uint64_t cyc = 0, ret = 0, comp = 0, limit = 0;
    const ibex_op *op;
    ibex_stop stop = IBEX_STOP_LIMIT;
    uint32_t alo, aspan;   /* PCs [alo, alo + aspan) go with c->attr_pc (smn_ibex_set_attribution) */
    /* PROF: nbase[i], pbase[i]: the executions and the slot of RAM halfword i; stepping with
     * counters inhibited, the bases are the junk arrays. The running instruction's slot is
     * pbase[op - ops] (PSLOT), its halfword not kept in a register of its own: the loop runs
     * short of them, and the slot is wanted at an event only; a fetch fault's op is its
     * halfword's, ops + IBEX_PROF_OUTSIDE outside RAM. */
    int pfast = PROF && c->prof->fast;
    ibex_pslot *pbase = !PROF ? NULL : pfast ? c->prof->slots : c->prof->junk;
    uint64_t *nbase = !PROF ? NULL : pfast ? c->prof->n : c->prof->junk_n;

    if (c->boot_pending) {
        /* The controller's RESET, BOOT_SET and FIRST_FETCH cycles before the
         * first instruction reaches ID count as cycles and as NumCyclesIF
         * (fixtures: whole). */
        c->ev[IBEX_CNT_CYCLE] += IBEX_BOOT_CYCLES;
        c->ev[IBEX_CNT_IF_WAIT] += IBEX_BOOT_CYCLES;
        if (PROF && pfast && pc - IBEX_SS_RAM_BASE < IBEX_SS_RAM_SIZE) {   /* to the first instruction */
            ibex_pslot *const pslots = c->prof->slots;
            ibex_prof_mark(c->prof, (pc - IBEX_SS_RAM_BASE) >> 1);
            pslots[(pc - IBEX_SS_RAM_BASE) >> 1].d[IBEX_CNT_CYCLE] += IBEX_BOOT_CYCLES;
            pslots[(pc - IBEX_SS_RAM_BASE) >> 1].d[IBEX_CNT_IF_WAIT] += IBEX_BOOT_CYCLES;
        }
        c->boot_pending = 0;
    }
    smn_ibex_attr_enter(c, c->attr_fn ? c->attr_pc : pc, &alo, &aspan);

#define PSLOT (pbase[op - ops])
/* Hands the locals to the core (before anything out of line) and back. */
#define SAVE()                                                                \
    do {                                                                      \
        c->ev[IBEX_CNT_CYCLE] += cyc;                                         \
        c->ev[IBEX_CNT_INSTRET] += ret;                                       \
        c->ev[IBEX_CNT_COMPRESSED] += comp;                                   \
        cyc = ret = comp = 0;                                                 \
        c->pc = pc;                                                           \
        c->seq = seq;                                                         \
        c->bubble_at = bubble_at;                                             \
        c->wb_op = wbop;                                                      \
        c->ld_rd = ldrd;                                                      \
    } while (0)
#define LOAD()                                                                \
    do {                                                                      \
        pc = c->pc;                                                           \
        bubble_at = c->bubble_at;                                             \
        wbop = c->wb_op;                                                      \
        ldrd = c->ld_rd;                                                      \
    } while (0)
/* An event of the instruction running, and a dynamic part of its cycles (the static op->cyc,
 * its instret and compressed are n times the slot's). */
#define EV(k, v)                                                              \
    do {                                                                      \
        uint64_t ev_ = (v);                                                   \
        c->ev[k] += ev_;                                                      \
        if (PROF)                                                             \
            PSLOT.d[k] += ev_;                                                \
    } while (0)
/* An event every execution of the instruction has (a load's count and its NumCyclesLSU, a
 * branch, a jump's count and fetch wait, a fast multiply's wait): the slot's n counts it, so the
 * loop leaves the slot alone (smn_ibex_prof_fold adds n times them, by the handler the slot ran). */
#define EVS(k, v) (c->ev[k] += (v))
#define CYC(v)                                                                \
    do {                                                                      \
        uint64_t cy_ = (v);                                                   \
        cyc += cy_;                                                           \
        if (PROF)                                                             \
            PSLOT.d[IBEX_CNT_CYCLE] += cy_;                                   \
    } while (0)
#define RET(v)                                                                \
    do {                                                                      \
        ret += (uint64_t)(v);                                                 \
        if (PROF)                                                             \
            PSLOT.d[IBEX_CNT_INSTRET] += (uint64_t)(v);                       \
    } while (0)
/* The instruction did not complete: it is neither retired nor compressed-retired. */
#define UNRETIRE()                                                            \
    do {                                                                      \
        RET(-1);                                                              \
        comp -= op->compressed;                                               \
        if (PROF)                                                             \
            PSLOT.d[IBEX_CNT_COMPRESSED] -= op->compressed;                   \
    } while (0)
#define EXCEPTION(cause, tval)                                                \
    do {                                                                      \
        UNRETIRE();                                                           \
        CYC(TRAP_CYCLES);                                                     \
        EV(IBEX_CNT_IF_WAIT, 1);                                              \
        bubble_at = seq + 1;                                                  \
        ldrd = 0;                                                             \
        SAVE();                                                               \
        smn_ibex_trap(c, (cause), (tval), pc);                                    \
        if (PROF)                                                             \
            smn_ibex_prof_trap(c);                                                \
        LOAD();                                                               \
        limit = 0;                                                            \
        goto next;                                                            \
    } while (0)
/* PC change to target (the cycles of the change are already charged, the
 * last `refetch` of them its fetch wait); an interrupt due in the refetch
 * cuts it short (smn_ibex_irq_cut_refetch). The check costs a compare: an
 * interrupt can be due only once the limit is reached. */
#define REDIRECT(target, refetch)                                             \
    do {                                                                      \
        unsigned rf_ = (refetch);                                             \
        pc = (target);                                                        \
        if (UNLIKELY(straddles(c, pc))) {                                     \
            CYC(1);                                                           \
            EV(IBEX_CNT_IF_WAIT, 1);                                          \
            bubble_at = seq + 1;                                              \
            rf_++;                                                            \
        }                                                                     \
        if (UNLIKELY(cyc >= limit)) {                                         \
            unsigned cut_ = smn_ibex_irq_cut_refetch(c, ibex_now(c) + cyc, rf_);  \
            if (cut_) {                                                       \
                CYC(-(uint64_t)cut_);                                         \
                EV(IBEX_CNT_IF_WAIT, -(uint64_t)cut_);                        \
                limit = 0;                                                    \
            }                                                                 \
        }                                                                     \
    } while (0)
#define TAKEN(cond)                                                           \
    do {                                                                      \
        EVS(IBEX_CNT_BRANCHES, 1);                                            \
        if (cond) {                                                           \
            CYC(t.br_taken - 1u);                                             \
            EV(IBEX_CNT_TAKEN, 1);                                            \
            EV(IBEX_CNT_IF_WAIT, 1);                                          \
            bubble_at = seq + 1;                                              \
            REDIRECT(pc + (uint32_t)op->imm, 1);                              \
        } else {                                                              \
            pc += op->len;                                                    \
        }                                                                     \
    } while (0)
#define JUMPED()                                                              \
    do {                                                                      \
        EVS(IBEX_CNT_JUMPS, 1);                                               \
        if (t.jump_if) {                                                      \
            EVS(IBEX_CNT_IF_WAIT, t.jump_if);                                 \
            bubble_at = seq + 1;                                              \
        }                                                                     \
    } while (0)
#define RD(v) (x[op->rd] = (v))
/* The limit after a call or a return (SAVE restarted the cycle count it is checked against): 0,
 * the loop's check at the next instruction, unless that check would find nothing to do; then
 * what it would set (the profile's part done by smn_ibex_prof_settle; a halt, an inhibit change or
 * a woken WFI come with a check of their own, and the stop or interrupt it looks for is there
 * when cycles_until_check says 0). */
#define PROF_LIMIT() (smn_ibex_prof_settle(c, &alo, &aspan) ? cycles_until_check(c, max_cycles) : 0)

    for (;;) {
        uint32_t off;
        if (UNLIKELY(cyc >= limit) || UNLIKELY((uint32_t)(pc - alo) >= aspan)) {
            SAVE();
            smn_ibex_sync(c);
            smn_ibex_attr_flush(c);
            if (c->halted) {
                stop = IBEX_STOP_HALT;   /* the halt's cycles still go to the halting store */
                break;
            }
            if (PROF) {
                smn_ibex_prof_resync(c);
                pfast = c->prof->fast = c->inhibit == 0 && !c->prof->stepping;
                pbase = pfast ? c->prof->slots : c->prof->junk;
                nbase = pfast ? c->prof->n : c->prof->junk_n;
            }
            smn_ibex_attr_enter(c, c->pc, &alo, &aspan);
            if (max_cycles && ibex_now(c) >= max_cycles) {
                stop = IBEX_STOP_LIMIT;
                break;
            }
            if (irq_enabled(c) && ibex_now(c) >= irq_take_cycle(c)) {
                c->id_empty = 0;
                c->bubble_at = c->seq + 1;
                c->ld_rd = 0;
                smn_ibex_trap(c, IBEX_MCAUSE_IRQ | IBEX_CAUSE_IRQ_TIMER, 0, c->pc);
                if (PROF)
                    smn_ibex_prof_trap(c);   /* the entry's cycles below go to the handler's frame */
                /* the entry's cycles go to the handler's first instruction */
                c->ev[IBEX_CNT_CYCLE] += IRQ_CYCLES;
                c->ev[IBEX_CNT_IF_WAIT] += IRQ_IF_CYCLES;
                if (PROF && pfast && c->pc - IBEX_SS_RAM_BASE < IBEX_SS_RAM_SIZE) {
                    ibex_pslot *const pslots = c->prof->slots;
                    ibex_prof_mark(c->prof, (c->pc - IBEX_SS_RAM_BASE) >> 1);
                    pslots[(c->pc - IBEX_SS_RAM_BASE) >> 1].d[IBEX_CNT_CYCLE] += IRQ_CYCLES;
                    pslots[(c->pc - IBEX_SS_RAM_BASE) >> 1].d[IBEX_CNT_IF_WAIT] += IRQ_IF_CYCLES;
                }
                smn_ibex_attr_enter(c, c->pc, &alo, &aspan);
                LOAD();
                continue;
            }
            c->id_empty = 0;
            limit = cycles_until_check(c, max_cycles);
            if (limit == 0)
                limit = 1;
        }
        off = pc - IBEX_SS_RAM_BASE;
        if (UNLIKELY(off >= IBEX_SS_RAM_SIZE))
            goto fetch_fault;
        op = &ops[off >> 1];
        if (UNLIKELY(op->h == H_DECODE)) {
            uint16_t lo = ld16(ram + off);
            if ((lo & 3) == 3 && off + 2 >= IBEX_SS_RAM_SIZE)
                goto fetch_fault;
            if (PROF) {
                ibex_prof_mark(c->prof, off >> 1);   /* its slot counts from now on */
                smn_ibex_prof_fold(c, off >> 1);         /* the slot's counts of the instruction it held */
            }
            smn_ibex_predecode(c, lo, (lo & 3) == 3 ? ld16(ram + off + 2) : 0, &ops[off >> 1]);
            if (PROF)
                c->prof->h[off >> 1] = ops[off >> 1].h;   /* what its n counts from now on */
        }
        if (PROF) {
            nbase[off >> 1]++;
        }
        seq++;
        cyc += op->cyc;
        ret++;
        comp += op->compressed;
        if (UNLIKELY(ldrd)) {
            if (op->rs1 == ldrd || op->rs2 == ldrd) {
                CYC(1);
                EV(IBEX_CNT_LSU_WAIT, 1);
                bubble_at = seq;   /* the load has left WB when this one executes */
            }
            ldrd = 0;
        }

        switch (op->h) {
        case H_LUI: RD((uint32_t)op->imm); pc += op->len; break;
        case H_AUIPC: RD(pc + (uint32_t)op->imm); pc += 4; break;
        case H_JAL: {
            uint32_t link = pc + op->len;
            JUMPED();
            REDIRECT(pc + (uint32_t)op->imm, t.jump_if);
            RD(link);
            if (UNLIKELY(op->imm == 0) && !irq_enabled(c)) {
                /* `j .` with interrupts off: nothing can ever end this loop */
                wbop = op;
                SAVE();
                stop = IBEX_STOP_SPIN;
                goto out;
            }
            if (PROF && (op->rd == 1 || op->rd == 5)) {   /* a call: ra or t0 links */
                SAVE();
                smn_ibex_prof_call(c);
                LOAD();
                limit = PROF_LIMIT();
            }
            break;
        }
        case H_JALR: {
            uint32_t link = pc + op->len, target = (x[op->rs1] + (uint32_t)op->imm) & ~1u;
            JUMPED();
            REDIRECT(target, t.jump_if);
            RD(link);
            if (PROF && (op->rd == 1 || op->rd == 5)) {
                SAVE();
                smn_ibex_prof_call(c);
                LOAD();
                limit = PROF_LIMIT();
            } else if (PROF && op->rd == IBEX_RD_DISCARD && (op->rs1 == 1 || op->rs1 == 5) && op->imm == 0) {
                SAVE();   /* a return: jalr x0, 0(ra|t0) */
                smn_ibex_prof_ret(c);
                LOAD();
                limit = PROF_LIMIT();
            }
            break;
        }
        case H_BEQ: TAKEN(x[op->rs1] == x[op->rs2]); break;
        case H_BNE: TAKEN(x[op->rs1] != x[op->rs2]); break;
        case H_BLT: TAKEN((int32_t)x[op->rs1] < (int32_t)x[op->rs2]); break;
        case H_BGE: TAKEN((int32_t)x[op->rs1] >= (int32_t)x[op->rs2]); break;
        case H_BLTU: TAKEN(x[op->rs1] < x[op->rs2]); break;
        case H_BGEU: TAKEN(x[op->rs1] >= x[op->rs2]); break;

        case H_LB: case H_LH: case H_LW: case H_LBU: case H_LHU: {
            static const uint8_t size_of[] = {[H_LB] = 1, [H_LH] = 2, [H_LW] = 4, [H_LBU] = 1,
                                              [H_LHU] = 2};
            uint32_t a = x[op->rs1] + (uint32_t)op->imm, v, aoff = a - IBEX_SS_RAM_BASE;
            unsigned size = size_of[op->h];
            EVS(IBEX_CNT_LOADS, 1);
            EVS(IBEX_CNT_LSU_WAIT, t.mem_lsu);
            if (UNLIKELY((a & 3) + size > 4)) {   /* split into two bus transactions */
                CYC(1);
                EV(IBEX_CNT_LSU_WAIT, t.split_lsu);
            }
            if (LIKELY(aoff <= IBEX_SS_RAM_SIZE - size)) {
                const uint8_t *p = ram + aoff;
                v = size == 4 ? ld32(p) : size == 2 ? ld16(p) : p[0];
            } else {
                int err;
                c->req_ago = op->cyc + ((a & 3) + size > 4);
                SAVE();
                smn_ibex_sync(c);
                err = smn_ibex_bus_load(c, a, size, &v);
                LOAD();
                if (err) {
                    /* request (+ second request) then trap entry, in both
                     * configurations (fixtures: faults) */
                    CYC(1 - (uint64_t)op->cyc);
                    EXCEPTION(IBEX_CAUSE_LOAD_ACCESS, c->fault_addr);
                }
            }
            if (op->h == H_LB)
                v = (uint32_t)(int32_t)(int8_t)v;
            else if (op->h == H_LH)
                v = (uint32_t)(int32_t)(int16_t)v;
            RD(v);
            if (wb && op->rd != IBEX_RD_DISCARD)
                ldrd = op->rd;
            pc += op->len;
            break;
        }
        case H_SB: case H_SH: case H_SW: {
            unsigned size = op->h == H_SB ? 1 : op->h == H_SH ? 2 : 4;
            uint32_t a = x[op->rs1] + (uint32_t)op->imm, v = x[op->rs2], aoff = a - IBEX_SS_RAM_BASE;
            EVS(IBEX_CNT_STORES, 1);
            EVS(IBEX_CNT_LSU_WAIT, t.mem_lsu);
            if (UNLIKELY((a & 3) + size > 4)) {
                CYC(1);
                EV(IBEX_CNT_LSU_WAIT, t.split_lsu);
            }
            if (LIKELY(aoff <= IBEX_SS_RAM_SIZE - size)) {
                uint8_t *p = ram + aoff;
                p[0] = (uint8_t)v;
                if (size > 1)
                    p[1] = (uint8_t)(v >> 8);
                if (size == 4) {
                    p[2] = (uint8_t)(v >> 16);
                    p[3] = (uint8_t)(v >> 24);
                }
                ibex_invalidate(c, aoff, size);
            } else {
                int err;
                c->req_ago = op->cyc + ((a & 3) + size > 4);
                SAVE();
                smn_ibex_sync(c);
                err = smn_ibex_bus_store(c, a, size, v);
                LOAD();
                limit = 0;   /* a halt, or a timer write that moves the interrupt */
                if (err) {
                    CYC(1 - (uint64_t)op->cyc);
                    EXCEPTION(IBEX_CAUSE_STORE_ACCESS, c->fault_addr);
                }
            }
            pc += op->len;
            break;
        }

        case H_ADDI: RD(x[op->rs1] + (uint32_t)op->imm); pc += op->len; break;
        case H_SLTI: RD((int32_t)x[op->rs1] < op->imm); pc += op->len; break;
        case H_SLTIU: RD(x[op->rs1] < (uint32_t)op->imm); pc += op->len; break;
        case H_XORI: RD(x[op->rs1] ^ (uint32_t)op->imm); pc += op->len; break;
        case H_ORI: RD(x[op->rs1] | (uint32_t)op->imm); pc += op->len; break;
        case H_ANDI: RD(x[op->rs1] & (uint32_t)op->imm); pc += op->len; break;
        case H_SLLI: RD(x[op->rs1] << op->imm); pc += op->len; break;
        case H_SRLI: RD(x[op->rs1] >> op->imm); pc += op->len; break;
        case H_SRAI: RD((uint32_t)((int32_t)x[op->rs1] >> op->imm)); pc += op->len; break;
        case H_ADD: RD(x[op->rs1] + x[op->rs2]); pc += op->len; break;
        case H_SUB: RD(x[op->rs1] - x[op->rs2]); pc += op->len; break;
        case H_SLL: RD(x[op->rs1] << (x[op->rs2] & 31)); pc += op->len; break;
        case H_SLT: RD((int32_t)x[op->rs1] < (int32_t)x[op->rs2]); pc += op->len; break;
        case H_SLTU: RD(x[op->rs1] < x[op->rs2]); pc += op->len; break;
        case H_XOR: RD(x[op->rs1] ^ x[op->rs2]); pc += op->len; break;
        case H_SRL: RD(x[op->rs1] >> (x[op->rs2] & 31)); pc += op->len; break;
        case H_SRA: RD((uint32_t)((int32_t)x[op->rs1] >> (x[op->rs2] & 31))); pc += op->len; break;
        case H_OR: RD(x[op->rs1] | x[op->rs2]); pc += op->len; break;
        case H_AND: RD(x[op->rs1] & x[op->rs2]); pc += op->len; break;

        case H_MUL:
            if (slow_mul) {
                unsigned n = smn_ibex_slow_mul_cycles(x[op->rs2]);
                CYC(n);
                EV(IBEX_CNT_MUL_WAIT, n - 1);
            } else {
                EVS(IBEX_CNT_MUL_WAIT, t.mul - 1u);
            }
            RD(x[op->rs1] * x[op->rs2]);
            pc += 4;
            break;
        case H_MULH: case H_MULHSU: case H_MULHU:
            EVS(IBEX_CNT_MUL_WAIT, t.mulh - 1u);
            RD(mulh(x[op->rs1], x[op->rs2], op->h != H_MULHU, op->h == H_MULH));
            pc += 4;
            break;
        case H_DIV: case H_DIVU: case H_REM: case H_REMU: {
            uint32_t a = x[op->rs1], b = x[op->rs2], r;
            /* rtl/ibex_multdiv_*.sv: divide by zero finishes after MD_IDLE;
             * everything else (INT_MIN / -1 too) runs the full 37 cycles. */
            unsigned n = b == 0 ? 2 : 37;
            CYC(n);
            EV(IBEX_CNT_DIV_WAIT, n - 1);
            if (b == 0)
                r = (op->h == H_DIV || op->h == H_DIVU) ? 0xFFFFFFFFu : a;
            else if (op->h == H_DIV)
                r = (a == 0x80000000u && b == 0xFFFFFFFFu) ? a
                                                            : (uint32_t)((int32_t)a / (int32_t)b);
            else if (op->h == H_REM)
                r = (a == 0x80000000u && b == 0xFFFFFFFFu) ? 0
                                                            : (uint32_t)((int32_t)a % (int32_t)b);
            else
                r = op->h == H_DIVU ? a / b : a % b;
            RD(r);
            pc += 4;
            break;
        }

        case H_FENCE: pc += 4; break;
        case H_FENCEI:
            /* Decoded as a jump to PC+4 (rtl/ibex_decoder.sv); predecoded
             * slots are invalidated by every store already, so there is
             * nothing else to drop. */
            JUMPED();
            REDIRECT(pc + 4, t.jump_if);
            break;

        case H_CSR: {
            int bad;
            uint64_t before[IBEX_ATTR_COUNTERS];
            RET(-1);   /* smn_ibex_csr_exec counts the CSR instruction itself */
            SAVE();
            smn_ibex_sync(c);
            /* with every counter inhibited the attribution's range may be a frame's
             * (smn_ibex_attr_enter): what this instruction does to the counters is its own, as a
             * step's would be (nothing counted since the last flush: no delta moves with it) */
            if (PROF && !pfast)
                c->attr_pc = pc;
            if (PROF)
                memcpy(before, c->cnt, sizeof before);
            bad = smn_ibex_csr_exec(c, op, seq);
            if (PROF) {
                /* what it did to the counters, as counted (under the inhibit it may have set) */
                smn_ibex_sync(c);
                for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++)
                    PSLOT.d[k] += c->cnt[k] - before[k];
            }
            LOAD();
            if (bad) {
                RET(1);   /* EXCEPTION takes it back */
                EXCEPTION(IBEX_CAUSE_ILLEGAL, (uint32_t)op->imm);
            }
            limit = 0;   /* mcountinhibit, mstatus or mie may have changed */
            pc += 4;
            break;
        }
        case H_ECALL:
            EXCEPTION(c->priv == 3 ? IBEX_CAUSE_ECALL_M : IBEX_CAUSE_ECALL_U, 0);
        case H_EBREAK:
            EXCEPTION(IBEX_CAUSE_BREAKPOINT, 0);
        case H_ILLEGAL:
            EXCEPTION(IBEX_CAUSE_ILLEGAL, op->aux);
        case H_MRET:
            if (c->priv != 3)
                EXCEPTION(IBEX_CAUSE_ILLEGAL, 0x30200073u);
            CYC(MRET_CYCLES);
            EV(IBEX_CNT_IF_WAIT, 1);
            bubble_at = seq + 1;
            SAVE();
            do_mret(c);
            LOAD();
            limit = 0;   /* MIE may be on now, from the refetch cycle (FLUSH restores it) */
            REDIRECT(pc, 1);
            if (PROF) {
                SAVE();
                smn_ibex_prof_mret(c);
                LOAD();
                limit = 0;   /* SAVE restarted the cycle count the limit is checked against */
            }
            limit = 0;
            break;
        case H_WFI:
            if (c->priv != 3 && (c->mstatus & IBEX_MSTATUS_TW))
                EXCEPTION(IBEX_CAUSE_ILLEGAL, 0x10500073u);
            CYC(WFI_CYCLES);
            bubble_at = seq + 1;
            pc += 4;
            SAVE();
            smn_ibex_sync(c);
            if (!((c->mie & IBEX_MIX_MTI) && smn_ibex_timer_pending(c))) {
                /* Asleep with the core clock gated: mtime runs, mcycle does not. */
                uint64_t p = smn_ibex_timer_irq_cycle(c);
                if (!(c->mie & IBEX_MIX_MTI) || p == UINT64_MAX) {
                    stop = IBEX_STOP_SLEEP;
                    goto out;
                }
                if (max_cycles && p > max_cycles) {
                    c->now = max_cycles;
                    stop = IBEX_STOP_LIMIT;
                    goto out;
                }
                c->now = p;
            }
            c->id_empty = 1;
            LOAD();
            if (!irq_enabled(c)) {
                /* no interrupt to take: FIRST_FETCH goes to DECODE, which waits
                 * for the next instruction's fetch (fixtures: irq_wfi) */
                CYC(1);
                EV(IBEX_CNT_IF_WAIT, 1);
            }
            limit = 0;
            break;
        default:
            /* not reached: every handler index is a case */
            pc += op->len;
            break;
        }
        wbop = op;
    next:
        continue;
    fetch_fault:
        /* No instruction: nothing to retire. A fault at the vector itself
         * would repeat forever. */
        if (PROF) {
            op = ops + (off < IBEX_SS_RAM_SIZE ? off >> 1 : IBEX_PROF_OUTSIDE);   /* (PSLOT's) */
            if (off < IBEX_SS_RAM_SIZE)
                ibex_prof_mark(c->prof, off >> 1);
        }
        seq++;
        CYC(TRAP_CYCLES);
        EV(IBEX_CNT_IF_WAIT, 1);
        bubble_at = seq + 1;
        ldrd = 0;
        SAVE();
        if ((c->mtvec & IBEX_MTVEC_BASE_MASK) == pc && c->stats.last_cause == IBEX_CAUSE_INSN_ACCESS &&
            c->stats.exceptions > 0) {
            smn_ibex_sync(c);
            c->stats.instructions = c->seq;
            if (why)
                *why = IBEX_STOP_LIMIT;
            return socmon_fail(SOCMON_ESTATE,
                               "ibex: instruction fetch fault at the trap vector 0x%08x: the core "
                               "cannot make progress", pc);
        }
        smn_ibex_trap(c, IBEX_CAUSE_INSN_ACCESS, pc, pc);
        if (PROF)
            smn_ibex_prof_trap(c);
        LOAD();
        limit = 0;
    }
    SAVE();
out:
    smn_ibex_sync(c);
    if (stop == IBEX_STOP_HALT)
        smn_ibex_halt_edges(c);   /* the simulation ends two edges after the halting request */
    smn_ibex_attr_flush(c);
    if (PROF)
        smn_ibex_prof_resync(c);   /* and the frames' counts up to date */
    c->stats.instructions = c->seq;
    if (why)
        *why = stop;
    return SOCMON_OK;
#undef SAVE
#undef LOAD
#undef UNRETIRE
#undef EV
#undef EVS
#undef CYC
#undef RET
#undef EXCEPTION
#undef REDIRECT
#undef TAKEN
#undef JUMPED
#undef RD
#undef PROF_LIMIT
#undef PSLOT
}

static __attribute__((noinline)) socmon_status run_plain(ibex_core *c, uint64_t max_cycles, ibex_stop *why)
{
    return run_loop(c, max_cycles, why, 0);
}

static __attribute__((noinline)) socmon_status run_prof(ibex_core *c, uint64_t max_cycles, ibex_stop *why)
{
    return run_loop(c, max_cycles, why, 1);
}

socmon_status smn_ibex_run(ibex_core *c, uint64_t max_cycles, ibex_stop *why)
{
    c->untouched = 0;   /* stores and decoding write ram and ops */
    c->ran = 1;
    return c->prof ? run_prof(c, max_cycles, why) : run_plain(c, max_cycles, why);
}
