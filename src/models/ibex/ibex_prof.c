/* The exact profile: counts per PC and a call tree followed by the calling convention
 * (ibex_model.h: smn_ibex_profile_start says the rules).
 *
 * Per PC, the loop itself counts (ibex_exec.c, fast mode): a slot's executions n and the events
 * that are not n times its static ones; the static part is folded in when the slot is decoded
 * anew (self-modifying code) and when the profile is read. Per frame, the counters are read at
 * each change of the stack: the frame on top gets what they moved since the last change (the
 * same counted deltas as smn_ibex_set_attribution's, so nothing is counted twice or lost). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "models/ibex/ibex_internal.h"

static uint64_t mask_of(const ibex_core *c, unsigned k)
{
    return k < 3 ? UINT64_MAX : c->hpm_mask;
}

/* How many symbols start at or below pc, by binary search. */
static size_t upto_search(const ibex_prof *p, uint32_t pc)
{
    size_t lo = 0, hi = p->nsyms;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->addr[mid] <= pc)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* upto_search's answer, from a direct-mapped table of its answers by PC: the PCs the frames are
 * pushed at and left for are some hundreds, searched at each of a CoreMark run's calls. */
static size_t upto(ibex_prof *p, uint32_t pc)
{
    size_t h = (pc >> 1) & (sizeof p->upto / sizeof p->upto[0] - 1);
    if (!p->upto[h].k1 || p->upto[h].pc != pc) {
        p->upto[h].pc = pc;
        p->upto[h].k1 = (uint32_t)upto_search(p, pc) + 1;
    }
    return p->upto[h].k1 - 1;
}

/* 1 + the index of pc's symbol, 0 outside every symbol. */
static uint32_t func_of(ibex_prof *p, uint32_t pc)
{
    size_t k = upto(p, pc);
    return k && pc < p->end[k - 1] ? (uint32_t)k : 0;
}

/* pc's function (as func_of) and its range (as smn_ibex_prof_range), from one search. */
static uint32_t func_range(ibex_prof *p, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    size_t k = upto(p, pc);
    if (k && pc < p->end[k - 1]) {   /* its function */
        *lo = p->addr[k - 1];
        *hi = p->end[k - 1];
        return (uint32_t)k;
    }
    *lo = k ? p->end[k - 1] : 0;   /* the gap between two symbols */
    *hi = k < p->nsyms ? p->addr[k] : 0;
    return 0;
}

void smn_ibex_prof_range(const ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    func_range(c->prof, pc, lo, hi);
}

uint32_t smn_ibex_prof_func(const ibex_core *c, uint32_t pc)
{
    return func_of(c->prof, pc);
}

static int in_frame(const ibex_frame *f, uint32_t pc)
{
    return pc >= f->lo && (f->hi == 0 || pc < f->hi);
}

int smn_ibex_prof_frame_range(const ibex_core *c, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    const ibex_prof *p = c->prof;
    if (!p->depth || !in_frame(&p->stack[p->depth - 1], pc))
        return 0;
    *lo = p->stack[p->depth - 1].lo;
    *hi = p->stack[p->depth - 1].hi;
    return 1;
}

/* The counters' change since the last flush to the node whose counts are v (flush: the frame on
 * top; smn_ibex_prof_flush_to: one below it). Synced counters. (The mask in a local: the stores
 * through v and prev could otherwise alias it, and it was read again at each counter of each of
 * some 600,000 flushes of a CoreMark run.) */
static inline void flush_into(ibex_core *c, uint64_t *restrict v)
{
    ibex_prof *p = c->prof;
    uint64_t *restrict prev = p->prev;
    const uint64_t *restrict cnt = c->cnt;
    const uint64_t hm = c->hpm_mask;
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++) {
        uint64_t m = k < 3 ? UINT64_MAX : hm;
        v[k] = (v[k] + cnt[k] - prev[k]) & m;   /* m is 2^w - 1: masking the sum is masking each part */
        prev[k] = cnt[k];
    }
}

static void flush(ibex_core *c)
{
    ibex_prof *p = c->prof;
    flush_into(c, p->nodes[p->stack[p->depth - 1].node].v);
}

static size_t hash_slot(const ibex_prof *p, uint32_t parent, uint32_t func, uint32_t trap)
{
    uint64_t h = ((uint64_t)parent << 32 | func) * 0x9E3779B97F4A7C15ull ^ trap;
    return (size_t)(h >> 20) & (p->hcap - 1);
}

static int grow_hash(ibex_prof *p)
{
    size_t cap = p->hcap ? p->hcap * 2 : 1024;
    uint32_t *h = calloc(cap, sizeof *h);
    if (!h)
        return -1;
    free(p->hash);
    p->hash = h;
    p->hcap = cap;
    for (size_t i = 1; i < p->nnodes; i++) {
        const ibex_prof_node *n = &p->nodes[i];
        size_t s = hash_slot(p, n->parent, n->func, n->trap);
        while (h[s])
            s = (s + 1) & (cap - 1);
        h[s] = (uint32_t)i + 1;
    }
    return 0;
}

/* The child of parent for func (made if new); parent itself when the tree is full. */
static uint32_t child(ibex_prof *p, uint32_t parent, uint32_t func, uint32_t trap)
{
    size_t s = hash_slot(p, parent, func, trap);
    while (p->hash[s]) {
        const ibex_prof_node *n = &p->nodes[p->hash[s] - 1];
        if (n->parent == parent && n->func == func && n->trap == trap)
            return p->hash[s] - 1;
        s = (s + 1) & (p->hcap - 1);
    }
    if (p->nnodes >= IBEX_PROF_MAX_NODES)
        return parent;
    if (p->nnodes == p->ncap) {
        size_t cap = p->ncap * 2;
        ibex_prof_node *v = realloc(p->nodes, cap * sizeof *v);
        if (!v)
            return parent;
        p->nodes = v;
        p->ncap = cap;
    }
    if ((p->nnodes + 1) * 2 > p->hcap) {
        if (grow_hash(p) != 0)
            return parent;
        return child(p, parent, func, trap);
    }
    uint32_t i = (uint32_t)p->nnodes++;
    memset(&p->nodes[i], 0, sizeof p->nodes[i]);
    p->nodes[i].parent = parent;
    p->nodes[i].func = func;
    p->nodes[i].trap = trap;
    p->hash[s] = i + 1;
    return i;
}

/* A frame of c->pc's function on top. */
static void push(ibex_core *c, uint32_t trap)
{
    ibex_prof *p = c->prof;
    if (p->depth == IBEX_PROF_MAX_DEPTH) {
        p->dropped++;   /* deeper than the stack: counted to the frame on top */
        return;
    }
    uint32_t parent = p->depth ? p->stack[p->depth - 1].node : 0;
    ibex_frame *f = &p->stack[p->depth++];
    uint32_t func = func_range(p, c->pc, &f->lo, &f->hi);
    f->func = func;
    f->trap = trap;
    f->node = child(p, parent, func, trap);
    p->nodes[f->node].calls++;
    if (!in_frame(f, c->pc)) {   /* a PC outside the range it was pushed for */
        f->lo = c->pc;
        f->hi = c->pc + 1;
    }
    f->slice = 0;
    if (p->nslices < p->max_slices) {
        p->slices[p->nslices] = (ibex_prof_slice){ibex_now(c), ibex_now(c), func, (uint32_t)(p->depth - 1)};
        f->slice = (uint32_t)++p->nslices;
    } else if (p->max_slices) {
        p->dropped++;
    }
}

static void pop(ibex_core *c)
{
    ibex_prof *p = c->prof;
    ibex_frame *f = &p->stack[--p->depth];
    if (f->slice)   /* (the halt's last edges may take back a cycle past the end) */
        p->slices[f->slice - 1].t1 = ibex_now(c) > p->slices[f->slice - 1].t0 ? ibex_now(c)
                                                                               : p->slices[f->slice - 1].t0;
}

/* The frames follow c->pc: the innermost one whose function holds it, else a new top frame.
 * Flushed already. */
static void follow(ibex_core *c)
{
    ibex_prof *p = c->prof;
    uint32_t pc = c->pc;
    if (in_frame(&p->stack[p->depth - 1], pc))
        return;
    uint32_t func = func_of(p, pc);
    for (size_t i = p->depth - 1; i-- > 0;) {
        if (p->stack[i].func == func && (func || in_frame(&p->stack[i], pc))) {
            while (p->depth > i + 1)
                pop(c);
            return;
        }
    }
    uint32_t trap = p->stack[p->depth - 1].trap;   /* a handler that jumps on is still the handler */
    pop(c);
    push(c, trap);
}

static void sync_flush(ibex_core *c)
{
    smn_ibex_sync(c);
    flush(c);
}

/* sync_flush, and counting fast the attribution's flush with it (the loop's check at the next
 * instruction would flush it at the same counters: smn_ibex_prof_settle). Counting fast nothing is
 * inhibited, so the counters smn_ibex_sync would make are each the counter plus its pending events
 * (of the counters that exist), cut to its width: the flush takes them so and leaves the events
 * pending, the next sync applying them as it would have (sums modulo the width). */
static void sync_flush_both(ibex_core *c)
{
    ibex_prof *p = c->prof;
    if (p->fast && !c->inhibit && !c->raw_ev) {
        smn_ibex_attr_flush_frame(c, p->nodes[p->stack[p->depth - 1].node].v, p->prev);
        return;
    }
    smn_ibex_sync(c);
    flush(c);
}

void smn_ibex_prof_call(ibex_core *c)
{
    sync_flush_both(c);
    push(c, 0);
}

void smn_ibex_prof_ret(ibex_core *c)
{
    ibex_prof *p = c->prof;
    sync_flush_both(c);
    if (p->depth > 1 && !p->stack[p->depth - 1].trap)
        pop(c);
    follow(c);
}

void smn_ibex_prof_trap(ibex_core *c)
{
    sync_flush(c);
    push(c, 1);
}

size_t smn_ibex_prof_depth(const ibex_core *c)
{
    return c->prof ? c->prof->depth : 0;
}

void smn_ibex_prof_flush_to(ibex_core *c, size_t depth)
{
    ibex_prof *p = c->prof;
    if (!p || depth == 0 || depth > p->depth)
        return;
    flush_into(c, p->nodes[p->stack[depth - 1].node].v);
}

void smn_ibex_prof_mret(ibex_core *c)
{
    ibex_prof *p = c->prof;
    sync_flush(c);
    size_t i = p->depth;
    while (i > 0 && !p->stack[i - 1].trap)
        i--;
    if (i > 1)   /* the trap frame and what it called; the outermost frame stays */
        while (p->depth >= i)
            pop(c);
    follow(c);
}

void smn_ibex_prof_resync(ibex_core *c)
{
    ibex_prof *p = c->prof;
    if (in_frame(&p->stack[p->depth - 1], c->pc))
        return;
    sync_flush(c);
    follow(c);
}

int smn_ibex_prof_settle(ibex_core *c, uint32_t *lo, uint32_t *span)
{
    ibex_prof *p = c->prof;
    const ibex_frame *f = &p->stack[p->depth - 1];
    if (!p->fast || !in_frame(f, c->pc))
        return 0;   /* the loop's check follows the frames */
    /* smn_ibex_attr_enter's range for c->pc: the frame's, which holds it (a function's range, or the
     * gap between two symbols, holds every PC of it; a one-PC frame only its own) */
    c->attr_pc = c->pc;
    *lo = f->lo;
    *span = f->hi - f->lo;   /* hi == 0: up to the end of the address space */
    return 1;
}

void smn_ibex_prof_fold(ibex_core *c, uint32_t slot)
{
    ibex_pslot *s = &c->prof->slots[slot];
    const ibex_op *op = &c->ops[slot];
    uint64_t n = c->prof->n[slot];
    if (!n)
        return;
    s->d[IBEX_CNT_CYCLE] += n * op->cyc;
    s->d[IBEX_CNT_INSTRET] += n;
    s->d[IBEX_CNT_COMPRESSED] += n * op->compressed;
    /* the events the loop counted through n (ibex_exec.c, EVS) */
    const ibex_timing *t = &c->t;
    uint8_t h = c->prof->h[slot];
    if (h >= H_LB && h <= H_LHU) {
        s->d[IBEX_CNT_LOADS] += n;
        s->d[IBEX_CNT_LSU_WAIT] += n * t->mem_lsu;
    } else if (h >= H_SB && h <= H_SW) {
        s->d[IBEX_CNT_STORES] += n;
        s->d[IBEX_CNT_LSU_WAIT] += n * t->mem_lsu;
    } else if (h >= H_BEQ && h <= H_BGEU) {
        s->d[IBEX_CNT_BRANCHES] += n;
    } else if (h == H_JAL || h == H_JALR || h == H_FENCEI) {
        s->d[IBEX_CNT_JUMPS] += n;
        s->d[IBEX_CNT_IF_WAIT] += n * t->jump_if;
    } else if (h == H_MUL && c->cfg.rv32m != IBEX_RV32M_SLOW) {
        s->d[IBEX_CNT_MUL_WAIT] += n * (t->mul - 1u);
    } else if (h == H_MULH || h == H_MULHSU || h == H_MULHU) {
        s->d[IBEX_CNT_MUL_WAIT] += n * (t->mulh - 1u);
    }
    c->prof->n[slot] = 0;
}

static uint32_t slot_of(uint32_t pc)
{
    uint32_t off = pc - IBEX_SS_RAM_BASE;
    return off < IBEX_SS_RAM_SIZE ? off >> 1 : IBEX_PROF_OUTSIDE;
}

void smn_ibex_prof_step_add(ibex_core *c, uint32_t pc, const uint64_t *d)
{
    uint32_t slot = slot_of(pc);
    ibex_pslot *s = &c->prof->slots[slot];
    ibex_prof_mark(c->prof, slot);
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++)
        s->d[k] += d[k];
}

void smn_ibex_prof_free(ibex_core *c)
{
    ibex_prof *p = c->prof;
    if (!p)
        return;
    free(p->slots);
    free(p->n);
    free(p->junk);
    free(p->h);
    free(p->addr);
    free(p->end);
    free(p->nodes);
    free(p->hash);
    free(p->slices);
    free(p);
    c->prof = NULL;
}

/* Empty tree and counts from the counters as they are now, the frame of the PC on top. */
void smn_ibex_prof_reset(ibex_core *c)
{
    ibex_prof *p = c->prof;
    smn_ibex_sync(c);
    for (uint32_t ch = 0; ch < IBEX_PROF_CHUNKS; ch++)   /* only chunks that may have counted */
        if (p->chunk[ch]) {
            memset(&p->slots[ch << IBEX_PROF_CHUNK_SHIFT], 0, sizeof *p->slots << IBEX_PROF_CHUNK_SHIFT);
            memset(&p->n[ch << IBEX_PROF_CHUNK_SHIFT], 0, sizeof *p->n << IBEX_PROF_CHUNK_SHIFT);
        }
    memset(&p->slots[IBEX_PROF_OUTSIDE], 0, sizeof *p->slots);
    p->n[IBEX_PROF_OUTSIDE] = 0;
    memset(p->hash, 0, p->hcap * sizeof *p->hash);
    memset(&p->nodes[0], 0, sizeof p->nodes[0]);
    p->nnodes = 1;
    p->depth = 0;
    p->nslices = 0;
    p->dropped = 0;
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++)
        p->prev[k] = c->cnt[k];
    p->fast = c->inhibit == 0;
    push(c, 0);
}

socmon_status smn_ibex_profile_start(ibex_core *c, const ibex_symbol *syms, size_t nsyms, size_t max_slices)
{
    if (!c || (!syms && nsyms))
        return socmon_fail(SOCMON_EINVAL, "ibex: profile: NULL core or symbols");
    smn_ibex_prof_free(c);
    smn_ibex_attr_flush(c);
    ibex_prof *p = calloc(1, sizeof *p);
    if (!p)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for the profile");
    c->prof = p;
    /* calloc'd: the pages of code never run stay untouched */
    p->slots = calloc(IBEX_PROF_OUTSIDE + 1, sizeof *p->slots);
    p->n = calloc(IBEX_PROF_OUTSIDE + 1, sizeof *p->n);
    p->h = calloc(IBEX_PROF_OUTSIDE + 1, sizeof *p->h);
    p->junk = calloc(IBEX_PROF_OUTSIDE + 1, sizeof *p->junk);
    p->junk_n = p->junk ? p->junk->d : NULL;   /* as many words and more; both only written */
    if (c->ran && p->h) {   /* ops decoded before the profile: any slot may count without a decode */
        memset(p->chunk, 1, sizeof p->chunk);
        for (uint32_t i = 0; i < IBEX_PROF_OUTSIDE; i++)
            p->h[i] = c->ops[i].h;
    }
    p->addr = malloc((nsyms + 1) * sizeof *p->addr);
    p->end = malloc((nsyms + 1) * sizeof *p->end);
    p->ncap = 1024;
    p->nodes = malloc(p->ncap * sizeof *p->nodes);
    p->max_slices = max_slices;
    p->slices = max_slices ? malloc(max_slices * sizeof *p->slices) : NULL;
    if (!p->slots || !p->n || !p->h || !p->junk || !p->addr || !p->end || !p->nodes || grow_hash(p) != 0 || (max_slices && !p->slices)) {
        smn_ibex_prof_free(c);
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for the profile");
    }
    for (size_t i = 0; i < nsyms; i++) {
        p->addr[i] = syms[i].addr;
        p->end[i] = syms[i].end;
    }
    p->nsyms = nsyms;
    unsigned top = 3 + c->cfg.mhpm_num;   /* smn_ibex_sync's: the counters that take their events */
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++) {
        p->mask[k] = mask_of(c, k);
        p->evmask[k] = k < top ? UINT64_MAX : 0;
    }
    smn_ibex_prof_reset(c);
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++)
        c->attr_prev[k] = c->cnt[k];
    return SOCMON_OK;
}

/* The slot's counts as the counters counted them: static part folded in, widths applied, and a
 * counter that does not exist counting nothing whatever the events were. Returns 1 if any. */
static int slot_values(ibex_core *c, uint32_t i, uint64_t *val)
{
    ibex_pslot *s = &c->prof->slots[i];
    unsigned top = 3 + c->cfg.mhpm_num;
    int any = 0;
    if (i < IBEX_PROF_OUTSIDE)
        smn_ibex_prof_fold(c, i);
    for (unsigned k = 0; k < IBEX_ATTR_COUNTERS; k++) {
        val[k] = k == IBEX_CNT_TIME || k >= top ? 0 : s->d[k] & mask_of(c, k);
        any |= val[k] != 0;
    }
    return any;
}

static uint32_t insn_len(const ibex_core *c, uint32_t off)
{
    return (c->ram[off] & 3) == 3 ? 4 : 2;
}

/* Marks the instruction starts of every function (smn_ibex_profile_pcs with all), widening
 * [*first, *last] to the slots marked. */
static void mark_functions(ibex_core *c, uint64_t *want, uint32_t *first, uint32_t *last)
{
    const ibex_prof *p = c->prof;
    for (size_t f = 0; f < p->nsyms; f++) {
        uint32_t lo = p->addr[f] - IBEX_SS_RAM_BASE, hi = p->end[f] - IBEX_SS_RAM_BASE;
        if (lo >= IBEX_SS_RAM_SIZE)
            continue;
        if (hi > IBEX_SS_RAM_SIZE || hi < lo)
            hi = IBEX_SS_RAM_SIZE;
        if (hi - lo > (64u << 10)) {   /* an open-ended label: up to its last PC that counted */
            uint32_t end = lo;
            for (uint32_t o = lo; o < hi; o += 2)
                if (want[o >> 7] >> (o >> 1 & 63) & 1u)
                    end = o + 2;
            hi = end;
        }
        for (uint32_t o = lo; o + 1 < hi; o += insn_len(c, o)) {
            want[o >> 7] |= UINT64_C(1) << (o >> 1 & 63);
            if (o >> 1 < *first)
                *first = o >> 1;
            if (o >> 1 > *last)
                *last = o >> 1;
        }
    }
}

socmon_status smn_ibex_profile_pcs_each(ibex_core *c, int all, ibex_prof_pc_fn fn, void *ctx)
{
    ibex_prof *p = c ? c->prof : NULL;
    if (!p)
        return socmon_fail(SOCMON_ESTATE, "ibex: no profile (smn_ibex_profile_start)");
    /* a bit a slot (64 KiB, not a byte a slot's 512 KiB: its pages are touched where marked) */
    uint64_t *want = calloc(IBEX_PROF_OUTSIDE / 64 + 1, sizeof *want);
    if (!want)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for the profile");
#define WANTED(i) ((unsigned)(want[(i) >> 6] >> ((i) & 63) & 1u))
    uint64_t val[IBEX_ATTR_COUNTERS];
    size_t n = 0;
    uint32_t first = IBEX_PROF_OUTSIDE, last = 0;   /* the RAM slots want marks are in [first, last] */
    for (uint32_t i = 0; i <= IBEX_PROF_OUTSIDE; i++) {
        if (i < IBEX_PROF_OUTSIDE && !p->chunk[i >> IBEX_PROF_CHUNK_SHIFT]) {   /* never counted */
            i |= (1u << IBEX_PROF_CHUNK_SHIFT) - 1;
            continue;
        }
        if (slot_values(c, i, val)) {
            want[i >> 6] |= UINT64_C(1) << (i & 63);
            n++;
            if (i < IBEX_PROF_OUTSIDE) {
                if (i < first)
                    first = i;
                last = i;
            }
        }
    }
    if (all)
        mark_functions(c, want, &first, &last);
    /* nothing below first is marked, nor between last and the outside slot */
    n = WANTED(IBEX_PROF_OUTSIDE);
    for (uint32_t i = first; i < IBEX_PROF_OUTSIDE && i <= last; i++)
        n += WANTED(i);
    socmon_status st = fn(ctx, NULL, n);
    size_t k = 0;
    for (uint32_t i = first; st == SOCMON_OK && i <= IBEX_PROF_OUTSIDE; i++) {
        if (i > last && i < IBEX_PROF_OUTSIDE)
            i = IBEX_PROF_OUTSIDE;
        if (!WANTED(i))
            continue;
        ibex_prof_pc row;
        ibex_prof_pc *r = &row;
        memset(r, 0, sizeof *r);
        if (i == IBEX_PROF_OUTSIDE || p->chunk[i >> IBEX_PROF_CHUNK_SHIFT])
            slot_values(c, i, r->v);   /* (else an instruction that never counted: zeros) */
        if (i == IBEX_PROF_OUTSIDE) {
            r->pc = 0xffffffffu;
            snprintf(r->text, sizeof r->text, "(fetch outside RAM)");
        } else {
            uint32_t off = 2 * i;
            uint16_t lo = (uint16_t)(c->ram[off] | c->ram[off + 1] << 8), hi = 0;
            if ((lo & 3) == 3 && off + 3 < IBEX_SS_RAM_SIZE)
                hi = (uint16_t)(c->ram[off + 2] | c->ram[off + 3] << 8);
            r->pc = IBEX_SS_RAM_BASE + off;
            r->word = (lo & 3) == 3 ? (uint32_t)lo | (uint32_t)hi << 16 : lo;
            r->func = func_of(p, r->pc);
            smn_ibex_disasm(&c->cfg, r->pc, lo, hi, r->text, sizeof r->text);
        }
        st = fn(ctx, r, k++);
    }
    free(want);
    return st;
}
#undef WANTED

/* smn_ibex_profile_pcs's rows, gathered into one array. */
typedef struct pcs_array {
    ibex_prof_pc *v;
    size_t n;
} pcs_array;

static socmon_status gather(void *ctx, const ibex_prof_pc *row, size_t i)
{
    pcs_array *a = ctx;
    if (!row) {
        a->v = calloc(i ? i : 1, sizeof *a->v);
        return a->v ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for the profile");
    }
    a->v[i] = *row;
    a->n = i + 1;
    return SOCMON_OK;
}

socmon_status smn_ibex_profile_pcs(ibex_core *c, int all, ibex_prof_pc **out, size_t *nout)
{
    pcs_array a = {NULL, 0};
    *out = NULL;
    *nout = 0;
    socmon_status st = smn_ibex_profile_pcs_each(c, all, gather, &a);
    if (st != SOCMON_OK) {
        free(a.v);
        return st;
    }
    *out = a.v;
    *nout = a.n;
    return SOCMON_OK;
}

const ibex_prof_node *smn_ibex_profile_nodes(ibex_core *c, size_t *n)
{
    ibex_prof *p = c ? c->prof : NULL;
    *n = 0;
    if (!p)
        return NULL;
    sync_flush(c);
    unsigned top = 3 + c->cfg.mhpm_num;
    for (size_t i = 0; i < p->nnodes; i++)
        for (unsigned k = top < IBEX_ATTR_COUNTERS ? top : IBEX_ATTR_COUNTERS; k < IBEX_ATTR_COUNTERS; k++)
            p->nodes[i].v[k] = 0;
    *n = p->nnodes;
    return p->nodes;
}

const ibex_prof_slice *smn_ibex_profile_slices(ibex_core *c, size_t *n, uint64_t *dropped)
{
    ibex_prof *p = c ? c->prof : NULL;
    *n = 0;
    if (dropped)
        *dropped = 0;
    if (!p)
        return NULL;
    smn_ibex_sync(c);
    for (size_t i = 0; i < p->depth; i++) {
        ibex_prof_slice *sl = p->stack[i].slice ? &p->slices[p->stack[i].slice - 1] : NULL;
        if (sl)
            sl->t1 = ibex_now(c) > sl->t0 ? ibex_now(c) : sl->t0;
    }
    *n = p->nslices;
    if (dropped)
        *dropped = p->dropped;
    return p->slices;
}

ibex_prof_slice *smn_ibex_profile_slices_take(ibex_core *c, size_t *n, uint64_t *dropped)
{
    smn_ibex_profile_slices(c, n, dropped);   /* (open frames' slices end now) */
    ibex_prof *p = c ? c->prof : NULL;
    if (!p)
        return NULL;
    ibex_prof_slice *out = p->slices;
    for (size_t i = 0; i < p->depth; i++)
        p->stack[i].slice = 0;   /* a later return has no slice to end */
    p->slices = NULL;
    p->nslices = p->max_slices = 0;
    return out;
}
