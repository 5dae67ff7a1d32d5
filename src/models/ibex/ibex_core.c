/* The Ibex model's lifecycle and accessors: create/reset, RAM loading,
 * SimCtrl output, counter and CSR peeks. */
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "models/ibex/ibex_internal.h"

socmon_status smn_ibex_create(const ibex_config *cfg, ibex_core **out)
{
    ibex_core *c;
    if (!cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL config or output pointer");
    *out = NULL;
    if (cfg->mhpm_num > IBEX_MHPM_NUM_MAX)
        return socmon_fail(SOCMON_ERANGE, "ibex: mhpm_num %u out of range 0..%u", cfg->mhpm_num,
                           IBEX_MHPM_NUM_MAX);
    if (cfg->mhpm_width < 1 || cfg->mhpm_width > IBEX_MHPM_WIDTH_MAX)
        return socmon_fail(SOCMON_ERANGE, "ibex: mhpm_width %u out of range 1..%u",
                           cfg->mhpm_width, IBEX_MHPM_WIDTH_MAX);
    if ((unsigned)cfg->rv32m > IBEX_RV32M_SINGLE)
        return socmon_fail(SOCMON_EINVAL, "ibex: rv32m %d unknown", (int)cfg->rv32m);
    c = calloc(1, sizeof *c);
    if (!c)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory");
    c->ram = calloc(1, IBEX_SS_RAM_SIZE);
    /* one slot per halfword; calloc leaves them all H_DECODE */
    c->ops = calloc(IBEX_SS_RAM_SIZE / 2, sizeof *c->ops);
    if (!c->ram || !c->ops) {
        smn_ibex_destroy(c);
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for %u KiB of RAM",
                           IBEX_SS_RAM_SIZE / 1024);
    }
    c->untouched = 1;
    c->cfg = *cfg;
    c->cfg.wb_stage = cfg->wb_stage != 0;
    c->cfg.bt_alu = cfg->bt_alu != 0;
    smn_ibex_timing_init(&c->cfg, &c->t);
    smn_ibex_reset(c);
    *out = c;
    return SOCMON_OK;
}

void smn_ibex_destroy(ibex_core *c)
{
    if (!c)
        return;
    smn_ibex_prof_free(c);
    free(c->ram);
    free(c->ops);
    free(c->out_buf);
    free(c);
}

void smn_ibex_reset(ibex_core *c)
{
    memset(c->x, 0, sizeof c->x);
    c->pc = IBEX_SS_RESET_PC;
    c->priv = 3;
    c->mstatus = IBEX_MSTATUS_RESET;
    c->mie = c->mscratch = c->mepc = c->mcause = c->mtval = c->cpuctrlsts = 0;
    c->mtvec = (IBEX_SS_BOOT_ADDR & IBEX_MTVEC_BASE_MASK) | IBEX_MTVEC_MODE;
    c->misa = IBEX_MISA_BASE | (c->cfg.rv32m != IBEX_RV32M_NONE ? IBEX_MISA_M : 0);
    smn_ibex_counters_reset(c);
    /* Counters run from reset (mcountinhibit resets to 0): the controller's
     * RESET, BOOT_SET and FIRST_FETCH cycles before the first instruction
     * reaches ID count as cycles and as NumCyclesIF (fixtures: whole). */
    c->boot_pending = 1;   /* charged by the first smn_ibex_run: at reset every counter reads 0 */
    c->attr_pc = IBEX_SS_RESET_PC;
    memset(c->attr_prev, 0, sizeof c->attr_prev);
    c->seq = 0;
    c->bubble_at = 0;
    c->wb_op = NULL;
    c->ld_rd = 0;
    c->mtimecmp = 0;
    c->timer_irq = 0;
    c->mtime_adj = 0;
    c->irq_not_before = 0;
    c->req_ago = 0;
    c->id_empty = 0;
    c->halted = 0;
    c->halt_time = 0;
    c->finishing = 0;
    c->raw_ev = NULL;
    c->out_len = 0;
    memset(&c->stats, 0, sizeof c->stats);
    if (c->prof)
        smn_ibex_prof_reset(c);
    /* the predecoded slots stay valid: RAM is kept */
}

const ibex_config *smn_ibex_get_config(const ibex_core *c)
{
    return &c->cfg;
}

socmon_status smn_ibex_load(ibex_core *c, uint32_t addr, const void *data, size_t n)
{
    uint32_t off = addr - IBEX_SS_RAM_BASE;
    if (!c || (!data && n))
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL core or data");
    if (n == 0)
        return SOCMON_OK;
    if (off >= IBEX_SS_RAM_SIZE || n > IBEX_SS_RAM_SIZE - off)
        return socmon_fail(SOCMON_ERANGE,
                           "ibex: %zu bytes at 0x%08x not inside RAM 0x%08x..0x%08x", n, addr,
                           IBEX_SS_RAM_BASE, IBEX_SS_RAM_BASE + IBEX_SS_RAM_SIZE - 1);
    c->untouched = 0;
    memcpy(c->ram + off, data, n);
    for (uint32_t i = off; i < off + n; i += 2)
        ibex_invalidate(c, i, 2);
    return SOCMON_OK;
}

void smn_ibex_set_output(ibex_core *c, ibex_output_fn fn, void *ctx)
{
    c->out_fn = fn;
    c->out_ctx = ctx;
}

void smn_ibex_output_byte(ibex_core *c, uint8_t b)
{
    if (c->out_fn) {
        c->out_fn(c->out_ctx, b);
        return;
    }
    if (c->out_len + 2 > c->out_cap) {
        size_t cap = c->out_cap ? c->out_cap * 2 : 256;
        char *p = realloc(c->out_buf, cap);
        if (!p)
            return;   /* output dropped; the run itself goes on */
        c->out_buf = p;
        c->out_cap = cap;
    }
    c->out_buf[c->out_len++] = (char)b;
    c->out_buf[c->out_len] = '\0';
}

const char *smn_ibex_output(const ibex_core *c, size_t *len)
{
    if (len)
        *len = c->out_len;
    return c->out_buf && c->out_len ? c->out_buf : "";
}

void smn_ibex_set_attribution(ibex_core *c, ibex_attr_fn fn, ibex_attr_range_fn range, void *ctx)
{
    smn_ibex_sync(c);
    c->attr_fn = fn;
    c->attr_range = range;
    c->attr_ctx = ctx;
    c->attr_pc = c->pc;
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
        c->attr_prev[i] = c->cnt[i];
}

void smn_ibex_attr_flush(ibex_core *c)
{
    uint64_t d[IBEX_ATTR_COUNTERS];
    int any = 0;
    /* without a callback the deltas wait for the next one (the halt's steps report each step
     * themselves), unless the exact profile steps and takes them */
    if (!c->attr_fn && (!c->prof || c->prof->stepping))
        return;
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++) {
        d[i] = (c->cnt[i] - c->attr_prev[i]) & (i < 3 ? UINT64_MAX : c->hpm_mask);
        any |= d[i] != 0;
        c->attr_prev[i] = c->cnt[i];
    }
    if (any && c->prof && !c->prof->fast)   /* stepping: the profile's per-PC counts come from here */
        smn_ibex_prof_step_add(c, c->attr_pc, d);
    if (any && c->attr_fn)
        c->attr_fn(c->attr_ctx, c->attr_pc, d);
}

void smn_ibex_attr_flush_frame(ibex_core *c, uint64_t *restrict v, uint64_t *restrict prev)
{
    uint64_t d[IBEX_ATTR_COUNTERS], any = 0;
    uint64_t *restrict aprev = c->attr_prev;
    /* the widths from an array: no test of the index in the loop (it runs at each of a CoreMark
     * run's 277,000 calls and returns) */
    const uint64_t *restrict cnt = c->cnt, *restrict ev = c->ev, *restrict mask = c->prof->mask,
                   *restrict evmask = c->prof->evmask;
    _Static_assert(IBEX_ATTR_COUNTERS == IBEX_CNT_EVENTS, "a pending event per counter flushed");
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++) {
        uint64_t m = mask[i], x = (cnt[i] + (ev[i] & evmask[i])) & m;   /* as smn_ibex_sync makes it */
        v[i] = (v[i] + x - prev[i]) & m;   /* m is 2^w - 1: masking the sum is masking each part */
        prev[i] = x;
        d[i] = (x - aprev[i]) & m;
        any |= d[i];
        aprev[i] = x;
    }
    if (any && c->attr_fn)   /* (counting fast: no step to add to) */
        c->attr_fn(c->attr_ctx, c->attr_pc, d);
}

void smn_ibex_attr_enter(ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *span)
{
    uint32_t l = pc, h = pc + 1;
    c->attr_pc = pc;
    if (c->prof) {
        /* the profile's frames follow functions; with counters inhibited it steps, but with every
         * counter inhibited nothing counts and every step's deltas are zero: the attribution then
         * goes with the top frame, the loop's check coming where a step's would follow the frames
         * (a CSR instruction, which may write a counter or the inhibit, is attributed at its own
         * PC: ibex_exec.c). CoreMark runs some 35,000 instructions so, its start and its end. */
        if (c->prof->fast)
            smn_ibex_prof_range(c, pc, &l, &h);
        else if (!c->prof->stepping && c->inhibit == c->inhibit_mask)
            smn_ibex_prof_frame_range(c, pc, &l, &h);
        if (pc < l || (h != 0 && pc >= h)) {
            l = pc;
            h = pc + 1;
        }
        *lo = l;
        *span = h - l;
        return;
    }
    if (!c->attr_fn) {   /* never leave the range: no extra checks */
        *lo = 0;
        *span = UINT32_MAX;
        return;
    }
    if (c->attr_range)
        c->attr_range(c->attr_ctx, pc, &l, &h);
    if (pc < l || (h != 0 && pc >= h)) {   /* a range not holding pc: this instruction alone */
        l = pc;
        h = pc + 1;
    }
    *lo = l;
    *span = h - l;   /* h == 0: up to the end of the address space */
}

uint64_t smn_ibex_counter(ibex_core *c, unsigned i)
{
    smn_ibex_sync(c);
    if (i >= IBEX_CNT_MAX || i == IBEX_CNT_TIME || (i >= 3 && i >= 3 + c->cfg.mhpm_num))
        return 0;
    return c->cnt[i];
}

uint64_t smn_ibex_core_cycles(ibex_core *c)
{
    smn_ibex_sync(c);
    return c->core_cycles;
}

uint64_t smn_ibex_inhibited_cycles(ibex_core *c, unsigned i)
{
    smn_ibex_sync(c);
    return i < IBEX_CNT_EVENTS ? c->inhibited[i] : 0;
}

uint64_t smn_ibex_time(ibex_core *c)
{
    return ibex_now(c);
}

uint32_t smn_ibex_pc(const ibex_core *c)
{
    return c->pc;
}

uint32_t smn_ibex_reg(const ibex_core *c, unsigned r)
{
    return r < 32 ? c->x[r] : 0;
}

void smn_ibex_set_reg(ibex_core *c, unsigned r, uint32_t v)
{
    if (r > 0 && r < 32)
        c->x[r] = v;
}

socmon_status smn_ibex_csr_peek(ibex_core *c, uint32_t csr, uint32_t *val)
{
    uint32_t v;
    smn_ibex_sync(c);
    if (csr > 0xFFF || smn_ibex_csr_read_m(c, csr, &v, c->seq + 1) != 0)
        return socmon_fail(SOCMON_ENOENT, "ibex: CSR 0x%03x is not readable in M-mode", csr);
    *val = v;
    return SOCMON_OK;
}

void smn_ibex_get_stats(const ibex_core *c, ibex_stats *st)
{
    *st = c->stats;
    st->instructions = c->seq;
}
