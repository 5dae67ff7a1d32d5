/* Ibex's CSRs and performance counters as rtl/ibex_cs_registers.sv and
 * rtl/smn_ibex_counter.sv implement them at commit 0a13971f.
 *
 * Counter rules (../shared/specs/riscv_hpm_ibex.md §1.3-§1.6 and §7):
 * - counters update at the clock edge; a CSR write to a counter replaces
 *   that cycle's increment; a low-half write keeps the current (not
 *   incremented) high half and vice versa; the result is cut to the width.
 * - mcountinhibit is registered: the cycle of the writing instruction still
 *   uses the old value (so the writer's own mcycle tick, and its minstret
 *   tick without the writeback stage, follow the old inhibit; with the
 *   writeback stage the writer retires a cycle later, under the new one).
 * - with the writeback stage a read of minstret (and mhpmcounter10) adds 1
 *   when the last instruction that entered WB was counted (wb_count_q): right
 *   for an instruction still in WB, one too many after a bubble (issue
 *   #2252, fixed upstream only in b7d62a24, after this commit).
 * - at this commit the writer of minstret is itself counted with the
 *   writeback stage (fixed upstream in 64184334) and its tick is lost to
 *   the write without it.
 * - every CSR write other than mscratch/mepc flushes the pipeline: 2 more
 *   cycles, one of them NumCyclesIF (the refetch, which an interrupt cuts
 *   short: ibex_exec.c). */
#include "models/ibex/ibex_internal.h"

static int counter_exists(const ibex_core *c, unsigned i)
{
    return i == 0 || i == 2 || (i >= 3 && i < 3 + c->cfg.mhpm_num);
}

static uint64_t counter_mask(const ibex_core *c, unsigned i)
{
    return i < 3 ? UINT64_MAX : c->hpm_mask;
}

void smn_ibex_sync(ibex_core *c)
{
    unsigned top = 3 + c->cfg.mhpm_num;
    if (top > IBEX_CNT_EVENTS)
        top = IBEX_CNT_EVENTS;
    c->now += c->ev[0];
    /* the cycles each counter missed because the program stopped it (stat's and report's note) */
    c->core_cycles += c->ev[0];
    if (c->inhibit && c->ev[0])
        for (unsigned i = 0; i < top; i++)
            if (c->inhibit >> i & 1)
                c->inhibited[i] += c->ev[0];
    if (c->raw_ev)
        for (unsigned i = 0; i < IBEX_CNT_EVENTS; i++)
            c->raw_ev[i] += c->ev[i];
    for (unsigned i = 0; i < top; i++) {
        if (c->ev[i] && !(c->inhibit >> i & 1))
            c->cnt[i] = (c->cnt[i] + c->ev[i]) & counter_mask(c, i);
        c->ev[i] = 0;
    }
    for (unsigned i = top; i < IBEX_CNT_EVENTS; i++)
        c->ev[i] = 0;
}

void smn_ibex_counters_reset(ibex_core *c)
{
    for (unsigned i = 0; i < IBEX_CNT_MAX; i++)
        c->cnt[i] = 0;
    for (unsigned i = 0; i < IBEX_CNT_EVENTS; i++)
        c->ev[i] = 0;
    c->now = 0;
    c->core_cycles = 0;
    for (unsigned i = 0; i < IBEX_CNT_EVENTS; i++)
        c->inhibited[i] = 0;
    c->inhibit = 0;
    c->inhibit_mask = ibex_mcountinhibit_mask(c->cfg.mhpm_num);
    c->hpm_mask = c->cfg.mhpm_width >= 64 ? UINT64_MAX : (UINT64_C(1) << c->cfg.mhpm_width) - 1;
}

/* 1 when the last instruction that entered WB still adds itself to a read
 * of counter i (i = 2 or 10) through the speculative path; see above. */
static unsigned wb_spec(const ibex_core *c, unsigned i)
{
    if (!c->cfg.wb_stage || !c->wb_op || (c->inhibit >> i & 1))
        return 0;
    return i == IBEX_CNT_INSTRET || c->wb_op->compressed;
}

/* 1 when that instruction retires in WB in the current cycle (no bubble
 * since it left ID): its increment is then not in the counter yet. */
static unsigned wb_retiring(const ibex_core *c, unsigned i, uint64_t seq)
{
    return c->bubble_at != seq ? wb_spec(c, i) : 0;
}

/* The counter's register value (counter_val_o) at the current cycle. */
static uint64_t counter_q(const ibex_core *c, unsigned i, uint64_t seq)
{
    if (!counter_exists(c, i))
        return 0;
    if (i == IBEX_CNT_INSTRET || i == IBEX_CNT_COMPRESSED)
        return (c->cnt[i] - wb_retiring(c, i, seq)) & counter_mask(c, i);
    return c->cnt[i];
}

/* What a CSR read of counter i returns (64-bit; the caller picks a half). */
static uint64_t counter_read(const ibex_core *c, unsigned i, uint64_t seq)
{
    if (!counter_exists(c, i))
        return 0;
    if (i == IBEX_CNT_INSTRET || i == IBEX_CNT_COMPRESSED)
        return (counter_q(c, i, seq) + wb_spec(c, i)) & counter_mask(c, i);
    return c->cnt[i];
}

/* What csrr of CSR a returns in M-mode; the caller checks the privilege. */
static int csr_value(ibex_core *c, uint32_t a, uint32_t *val, uint64_t seq)
{
    if (a >= IBEX_CSR_MCYCLE && a <= IBEX_CSR_MHPMCOUNTER31H && (a & 0x60) == 0) {
        unsigned i = a & 31;
        uint64_t v;
        if (i == IBEX_CNT_TIME)
            return -1;   /* 0xB01 / 0xB81 are not decoded */
        v = counter_read(c, i, seq);
        *val = (a & 0x80) ? (uint32_t)(v >> 32) : (uint32_t)v;
        return 0;
    }
    if (a >= IBEX_CSR_MHPMEVENT3 && a <= IBEX_CSR_MHPMEVENT31) {
        *val = ibex_mhpmevent_value(a & 31, c->cfg.mhpm_num);
        return 0;
    }
    switch (a) {
    case IBEX_CSR_MVENDORID: case IBEX_CSR_MIMPID: case IBEX_CSR_MHARTID:
    case IBEX_CSR_MCONFIGPTR: case IBEX_CSR_MSTATUSH: case IBEX_CSR_MENVCFG:
    case IBEX_CSR_MENVCFGH: case IBEX_CSR_MCOUNTEREN: case IBEX_CSR_SECURESEED:
        *val = 0;
        return 0;
    case IBEX_CSR_MARCHID: *val = IBEX_MARCHID; return 0;
    case IBEX_CSR_MISA: *val = c->misa; return 0;
    case IBEX_CSR_MSTATUS: *val = c->mstatus; return 0;
    case IBEX_CSR_MIE: *val = c->mie; return 0;
    case IBEX_CSR_MTVEC: *val = c->mtvec; return 0;
    case IBEX_CSR_MSCRATCH: *val = c->mscratch; return 0;
    case IBEX_CSR_MEPC: *val = c->mepc; return 0;
    case IBEX_CSR_MCAUSE: *val = c->mcause; return 0;
    case IBEX_CSR_MTVAL: *val = c->mtval; return 0;
    case IBEX_CSR_MIP: *val = smn_ibex_timer_pending(c) ? IBEX_MIX_MTI : 0; return 0;
    case IBEX_CSR_MCOUNTINHIBIT: *val = c->inhibit; return 0;
    case IBEX_CSR_CPUCTRLSTS: *val = c->cpuctrlsts; return 0;
    default:
        /* Everything else is illegal in this configuration: PMP CSRs and
         * mseccfg (PMPEnable = 0), trigger CSRs (DbgTriggerEn = 0), debug
         * CSRs outside debug mode, and the 0xC00.. shadows, which this
         * commit does not decode (issue #1973). */
        return -1;
    }
}

int smn_ibex_csr_read(ibex_core *c, uint32_t a, uint32_t *val, uint64_t seq)
{
    /* the program's own access: CSR bits 9:8 are the lowest privilege that may touch it */
    if ((a >> 8 & 3) > c->priv)
        return -1;
    return csr_value(c, a, val, seq);
}

int smn_ibex_csr_read_m(ibex_core *c, uint32_t a, uint32_t *val, uint64_t seq)
{
    return csr_value(c, a, val, seq);
}

/* mcause as the RTL stores it: {irq_ext, irq_int, lower_cause[4:0]}. */
static uint32_t mcause_from(uint32_t w)
{
    unsigned top = w >> 30;
    uint32_t v = w & 31;
    if (top == 2)
        v |= IBEX_MCAUSE_IRQ;
    else if (top == 3)
        v |= 0xFFFFFFE0u;
    return v;
}

/* A counter write: the written half replaces, the other half is the
 * current register value; the cycle's increment of that counter is lost. */
static void counter_write(ibex_core *c, unsigned i, int high, uint32_t w, uint64_t cur)
{
    uint64_t load;
    if (!counter_exists(c, i))
        return;
    load = high ? ((uint64_t)w << 32 | (cur & 0xFFFFFFFFu)) : ((cur & ~UINT64_C(0xFFFFFFFF)) | w);
    c->cnt[i] = load & counter_mask(c, i);
}

static void plain_write(ibex_core *c, uint32_t a, uint32_t w)
{
    switch (a) {
    case IBEX_CSR_MSTATUS: {
        unsigned mpp = w >> IBEX_MSTATUS_MPP_SHIFT & 3;
        if (mpp != 3)
            mpp = 0;   /* MPP holds only M or U; anything else becomes U */
        c->mstatus = (w & (IBEX_MSTATUS_MIE | IBEX_MSTATUS_MPIE | IBEX_MSTATUS_MPRV |
                           IBEX_MSTATUS_TW)) | (uint32_t)mpp << IBEX_MSTATUS_MPP_SHIFT;
        break;
    }
    case IBEX_CSR_MIE: c->mie = w & IBEX_MIE_MASK; break;
    case IBEX_CSR_MTVEC: c->mtvec = (w & IBEX_MTVEC_BASE_MASK) | IBEX_MTVEC_MODE; break;
    case IBEX_CSR_MSCRATCH: c->mscratch = w; break;
    case IBEX_CSR_MEPC: c->mepc = w & ~1u; break;
    case IBEX_CSR_MCAUSE: c->mcause = mcause_from(w); break;
    case IBEX_CSR_MTVAL: c->mtval = w; break;
    case IBEX_CSR_CPUCTRLSTS:
        c->cpuctrlsts = w & (IBEX_CPUCTRLSTS_SYNC_EXC_SEEN | IBEX_CPUCTRLSTS_DOUBLE_FAULT);
        break;
    default:
        break;   /* read-only in effect: misa, mip, mcounteren, mhpmevent, ... */
    }
}

int smn_ibex_csr_exec(ibex_core *c, const ibex_op *op, uint64_t seq)
{
    uint32_t a = op->aux, old, w, nv;
    unsigned kind = op->sub & 3, wb = c->cfg.wb_stage != 0;
    int writes = kind != CSROP_READ;
    int is_counter = a >= IBEX_CSR_MCYCLE && a <= IBEX_CSR_MHPMCOUNTER31H && (a & 0x60) == 0;
    unsigned ci = a & 31;
    uint64_t cur = 0;

    if (smn_ibex_csr_read(c, a, &old, seq) != 0)
        return 1;
    if (writes && (a >> 10) == 3)
        return 1;   /* 0xC00-0xFFF are read-only */
    w = (op->sub & CSROP_IMM) ? ((uint32_t)op->imm >> 15 & 31) : c->x[op->rs1];
    nv = kind == CSROP_WRITE ? w : kind == CSROP_SET ? (w | old) : (~w & old);
    if (writes && is_counter)
        cur = counter_q(c, ci, seq);

    /* The instruction's own cycle, under the old mcountinhibit. */
    c->ev[IBEX_CNT_CYCLE] += 1;
    if (!wb)
        c->ev[IBEX_CNT_INSTRET] += 1;
    smn_ibex_sync(c);

    if (writes) {
        if (is_counter)
            counter_write(c, ci, (a & 0x80) != 0, nv, cur);
        else if (a == IBEX_CSR_MCOUNTINHIBIT)
            c->inhibit = nv & c->inhibit_mask;
        else
            plain_write(c, a, nv);
    }
    c->x[op->rd] = old;
    c->x[0] = 0;

    /* Later cycles, under the new mcountinhibit. */
    if (wb)
        c->ev[IBEX_CNT_INSTRET] += 1;
    if (writes && a != IBEX_CSR_MSCRATCH && a != IBEX_CSR_MEPC) {
        /* FLUSH, then the refetch, in which an interrupt (also one this write
         * enabled) is taken at once */
        unsigned cut;
        c->ev[IBEX_CNT_CYCLE] += 2;
        c->ev[IBEX_CNT_IF_WAIT] += 1;
        c->bubble_at = seq + 1;
        cut = smn_ibex_irq_cut_refetch(c, ibex_now(c), 1);
        c->ev[IBEX_CNT_CYCLE] -= cut;
        c->ev[IBEX_CNT_IF_WAIT] -= cut;
    }
    return 0;
}
