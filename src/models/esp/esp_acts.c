/* Activities: what a CPU stream, an accelerator invocation, a cache flush and
 * idle time do in one cycle, and when they next need a cycle.
 *
 * Timing (docs/esp-model.md): a CPU issues one load or store per cycle and
 * stalls on an L2 miss until the data arrives. An accelerator invocation
 * loads its TLB (16 cycles + 1 per 4 KiB page), reads its input by DMA (one
 * line per cycle, up to 8 lines in flight), computes (2 cycles per line read),
 * writes its output, and waits for the last write to arrive. How long a line takes is the
 * memory system's (esp_mem.c); a flush's walks are timed here. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

#define MAX_ACCESSES (UINT64_C(1) << 31) /* keeps (i+1)*stores in 64 bits */

static uint64_t tlb_cycles(uint64_t bytes)
{
    return 16 + (bytes + ESP_PAGE - 1) / ESP_PAGE;
}

static socmon_status check_spec(const socmon_esp_soc *soc, const esp_spec *s, unsigned *tile)
{
    const esp_engine *e = soc->eng;
    *tile = ESP_NO_TILE;
    switch (s->kind) {
    case ACT_CPU:
    case ACT_ACC:
        if (e->nmem == 0)
            return socmon_fail(SOCMON_ENOTSUP, "esp %s: this SoC has no memory tile",
                               s->kind == ACT_CPU ? "cpu_access" : "acc_invoke");
        break;
    default:
        break;
    }
    switch (s->kind) {
    case ACT_CPU:
        if (e->ncpu == 0)
            return socmon_fail(SOCMON_ERANGE, "esp cpu_access: cpu_ordinal %u: this SoC has no "
                               "cpu tiles", s->ord);
        if (s->ord >= e->ncpu)
            return socmon_fail(SOCMON_ERANGE, "esp cpu_access: cpu_ordinal %u out of range 0..%u",
                               s->ord, e->ncpu - 1);
        if (s->a > MAX_ACCESSES || s->b > MAX_ACCESSES - s->a)
            return socmon_fail(SOCMON_ERANGE, "esp cpu_access: loads+stores %llu+%llu above the "
                               "limit of 2^31 per call", (unsigned long long)s->a,
                               (unsigned long long)s->b);
        if ((s->a || s->b) && (s->c < 1 || s->c > ESP_BUF_MAX))
            return socmon_fail(SOCMON_ERANGE,
                               "esp cpu_access: footprint_bytes %llu out of range 1..%llu",
                               (unsigned long long)s->c, (unsigned long long)ESP_BUF_MAX);
        *tile = e->cpu[s->ord];
        break;
    case ACT_ACC: {
        if (s->ord >= e->nacc)
            return e->nacc ? socmon_fail(SOCMON_ERANGE, "esp acc_invoke: acc_ordinal %u out of "
                                         "range 0..%u", s->ord, e->nacc - 1)
                           : socmon_fail(SOCMON_ERANGE, "esp acc_invoke: acc_ordinal %u: this "
                                         "SoC has no accelerator tiles", s->ord);
        if (s->a < 1 || s->a > ESP_BUF_MAX)
            return socmon_fail(SOCMON_ERANGE, "esp acc_invoke: bytes %llu out of range 1..%llu",
                               (unsigned long long)s->a, (unsigned long long)ESP_BUF_MAX);
        if ((unsigned)s->mode > SOCMON_ESP_COH_FULL)
            return socmon_fail(SOCMON_EINVAL, "esp acc_invoke: coherence mode %d out of range "
                               "0..3 (none, llc, dma, full)", (int)s->mode);
        unsigned t = e->acc[s->ord];
        if (s->mode != SOCMON_ESP_COH_NONE && !soc->desc.cache_hierarchy)
            return socmon_fail(SOCMON_ENOTSUP, "esp acc_invoke: coherence mode %d needs "
                               "cache_hierarchy on; this SoC only has non-coherent DMA (0)",
                               (int)s->mode);
        if (s->mode == SOCMON_ESP_COH_FULL && !soc->desc.tiles[t].has_l2)
            return socmon_fail(SOCMON_ENOTSUP, "esp acc_invoke: acc %u (tile %u) has no L2: "
                               "fully coherent mode (3) needs one", s->ord, t);
        *tile = t;
        break;
    }
    case ACT_FLUSH:
    case ACT_IDLE:
    case ACT_TRAFFIC:
        break;
    }
    return SOCMON_OK;
}

socmon_status smn_esp_act_start(socmon_esp_soc *soc, const esp_spec *s)
{
    esp_engine *e = soc->eng;
    unsigned tile;
    socmon_status st = check_spec(soc, s, &tile);
    if (st != SOCMON_OK)
        return st;
    if (e->nacts == e->capacts) {
        unsigned cap = e->capacts ? e->capacts * 2 : 64;
        esp_act **na = realloc(e->acts, cap * sizeof *na);
        if (!na)
            return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
        e->acts = na;
        uint64_t *aw = realloc(e->awake, cap / 64 * sizeof *aw);
        if (!aw)
            return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
        memset(aw + e->capacts / 64, 0, (cap - e->capacts) / 64 * sizeof *aw);
        e->awake = aw;
        e->capacts = cap;
    }
    esp_act *a = calloc(1, sizeof *a);
    if (!a)
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
    a->kind = s->kind;
    a->tile = tile;
    a->base = ESP_BUF_ADDR(s->buf);
    switch (s->kind) {
    case ACT_CPU:
        a->total = s->a + s->b;
        a->stores = s->b;
        a->footprint_lines = (s->c + ESP_LINE - 1) / ESP_LINE;
        break;
    case ACT_ACC: {
        uint64_t lines = (s->a + ESP_LINE - 1) / ESP_LINE;
        a->mode = s->mode;
        a->reads = (lines + 1) / 2;
        a->writes = lines - a->reads;
        a->phase = PH_TLB;
        a->phase_end = soc->cycles + tlb_cycles(s->a);
        smn_esp_count(soc, tile, ESP_MON_ACC_INVOC, 1);
        e->st.invocations++;
        break;
    }
    case ACT_FLUSH:
        a->flush_llc = s->flag;
        a->phase = PH_READ; /* walking the L2s */
        break;
    case ACT_IDLE:
        a->until = soc->cycles + s->a;
        break;
    case ACT_TRAFFIC:
        break;
    }
    smn_esp_set_op(soc, tile, 0);
    a->idx = e->nacts;
    a->wake_at = ESP_NO_CYCLE;
    e->awake[a->idx / 64] |= UINT64_C(1) << (a->idx % 64);
    e->acts[e->nacts++] = a;
    return SOCMON_OK;
}

static void cpu_step(socmon_esp_soc *soc, esp_act *a)
{
    if (a->outstanding)
        return; /* stalled on a miss */
    if (a->done_n == a->total) {
        a->finished = 1;
        return;
    }
    uint64_t i = a->done_n++;
    uint64_t line = a->base / ESP_LINE + (i / 2) % a->footprint_lines; /* 8-byte words */
    /* Stores spread evenly among the loads. */
    int store = (i + 1) * a->stores / a->total > i * a->stores / a->total;
    if (soc->desc.cache_hierarchy)
        smn_esp_txn_l2_access(soc, a, a->tile, line, store);
    else
        smn_esp_txn_uncached(soc, a, a->tile, line, store);
}

static void acc_dma_phase(socmon_esp_soc *soc, esp_act *a, uint64_t n, int write)
{
    int busy = a->outstanding > 0;
    if (a->issued < n && a->outstanding < ESP_ACC_MAX_OUT) {
        smn_esp_txn_dma(soc, a, a->tile, a->base / ESP_LINE + a->issued, write, a->mode);
        a->issued++;
        busy = 1;
    }
    if (busy)
        a->pend_mem++;
}

static void acc_step(socmon_esp_soc *soc, esp_act *a)
{
    uint64_t now = soc->cycles;
    switch (a->phase) {
    case PH_TLB:
        if (now < a->phase_end) {
            a->pend_tlb++;
            break;
        }
        a->phase = PH_READ;
        a->issued = 0;
        /* fall through */
    case PH_READ:
        acc_dma_phase(soc, a, a->reads, 0);
        if (a->issued == a->reads && a->outstanding == 0) {
            a->phase = PH_COMPUTE;
            a->phase_end = now + 1 + 2 * a->reads;
        }
        break;
    case PH_COMPUTE:
        if (now < a->phase_end)
            break;
        a->phase = PH_WRITE;
        a->issued = 0;
        /* fall through */
    case PH_WRITE:
        acc_dma_phase(soc, a, a->writes, 1);
        if (a->issued == a->writes && a->outstanding == 0) {
            a->phase = PH_DONE;
            a->finished = 1;
            return; /* done: this cycle is not counted */
        }
        break;
    case PH_DONE:
        return;
    }
    a->pend_tot++;
}

/* 1 if an L2 holds a line in slot s. */
static int any_valid(const socmon_esp_soc *soc, unsigned s)
{
    const esp_cache *l2 = soc->eng->c.l2;
    for (unsigned t = 0; t < soc->ntiles; t++)
        if (l2[t].sets && l2[t].tag[s])
            return 1;
    return 0;
}

/* ESP's driver starts every L2's flush, then waits for them all (esp_private_cache_flush), and
 * then flushes each LLC in turn (esp_cache_flush). An L2 flush walks every way of every set,
 * ESP_L2_FLUSH_SLOT cycles each, plus ESP_L2_FLUSH_PUT for a valid line, whose Put it sends:
 * the model walks all L2s together, slot by slot (phase READ), waits for the last Put's answer
 * (WRITE), then walks the LLCs: ESP_LLC_FLUSH_SET cycles a set, plus a DDR write per dirty
 * line (COMPUTE, until phase_end). */
static void flush_step(socmon_esp_soc *soc, esp_act *a)
{
    esp_engine *e = soc->eng;
    uint64_t now = soc->cycles;
    if (now < a->phase_end)
        return;
    if (a->phase == PH_READ) {
        unsigned n = 0;
        for (unsigned t = 0; t < soc->ntiles && !n; t++)
            n = e->c.l2[t].sets * e->c.l2[t].ways;
        unsigned s = a->fslot;
        while (s < n && !any_valid(soc, s))
            s++;
        if (s > a->fslot) {                       /* a stretch of empty slots */
            a->phase_end = now + (uint64_t)ESP_L2_FLUSH_SLOT * (s - a->fslot);
            a->fslot = s;
            if (s == n)
                a->phase = PH_WRITE;
            return;
        }
        if (s == n) {
            a->phase = PH_WRITE;
        } else {
            for (unsigned t = 0; t < soc->ntiles; t++)
                if (e->c.l2[t].sets && e->c.l2[t].tag[s])
                    smn_esp_txn_l2_evict(soc, a, t, s);
            a->fslot = s + 1;
            a->phase_end = now + ESP_L2_FLUSH_SLOT + ESP_L2_FLUSH_PUT;
            return;
        }
    }
    if (a->phase == PH_WRITE) {
        if (a->outstanding)
            return;
        /* Then the LLCs (non-coherent DMA needs memory itself up to date):
         * every dirty line is written to DDR. */
        uint64_t wb = 0, cycles = 0;
        for (unsigned t = 0; a->flush_llc && t < soc->ntiles; t++) {
            esp_cache *llc = &e->c.llc[t];
            if (!llc->sets)
                continue;
            uint64_t dirty = 0;
            for (unsigned s = 0; s < llc->sets * llc->ways; s++)
                if (llc->tag[s] && llc->dirty[s]) {
                    smn_esp_count(soc, t, ESP_MON_DDR, ESP_DDR_BEATS); /* the line's AHB beats */
                    dirty++;
                }
            smn_esp_cache_clear(llc);
            wb += dirty;
            cycles += (uint64_t)llc->sets * ESP_LLC_FLUSH_SET + dirty * ESP_DDR_WR;
        }
        e->st.llc_flush_writebacks += wb;
        a->phase = PH_COMPUTE;
        a->phase_end = now + cycles;
        if (cycles)
            return;
    }
    if (now >= a->phase_end && a->outstanding == 0)
        a->finished = 1;
}

void smn_esp_act_step(socmon_esp_soc *soc, esp_act *a)
{
    switch (a->kind) {
    case ACT_CPU: cpu_step(soc, a); break;
    case ACT_ACC: acc_step(soc, a); break;
    case ACT_FLUSH: flush_step(soc, a); break;
    /* Over at the end of the cycle before until: reaped as cycle until begins, as when an advance
     * ends at until (esp_engine.c). */
    case ACT_IDLE: a->finished = soc->cycles + 1 >= a->until; break;
    case ACT_TRAFFIC: smn_esp_traffic_step(soc, a); break;
    }
}

static void doze(esp_act *a, uint64_t from, uint64_t wake_at, int tlb, int mem, int tot)
{
    a->asleep = 1;
    a->sleep_from = from;
    a->wake_at = wake_at;
    a->inc_tlb = (uint8_t)tlb;
    a->inc_mem = (uint8_t)mem;
    a->inc_tot = (uint8_t)tot;
}

/* Each case is a step of the kind above that, until the event, does nothing but count:
 * a CPU stalled on a miss; an accelerator loading its TLB or computing until phase_end, or
 * in a DMA phase with nothing left to issue now (all issued, or 8 lines in flight) and
 * something in flight; idle time. The counts stand still between events, so a sleeping
 * activity costs the run loop nothing (issue 29: 55 accelerators mostly wait on the NoC). */
int smn_esp_act_doze(socmon_esp_soc *soc, esp_act *a)
{
    uint64_t next = soc->cycles + 1;
    if (a->finished)
        return 0;
    switch (a->kind) {
    case ACT_CPU:
        if (!a->outstanding)
            return 0;
        doze(a, next, ESP_NO_CYCLE, 0, 0, 0);
        return 1;
    case ACT_ACC:
        if (a->phase == PH_TLB || a->phase == PH_COMPUTE) {
            if (a->phase_end <= next)
                return 0;
            doze(a, next, a->phase_end, a->phase == PH_TLB, 0, 1);
            return 1;
        }
        if (a->phase == PH_READ || a->phase == PH_WRITE) {
            uint64_t n = a->phase == PH_READ ? a->reads : a->writes;
            if (!a->outstanding || (a->issued < n && a->outstanding < ESP_ACC_MAX_OUT))
                return 0;
            doze(a, next, ESP_NO_CYCLE, 0, 1, 1);
            return 1;
        }
        return 0;
    case ACT_IDLE: /* wakes for its last step, in the cycle before until (smn_esp_act_step) */
        if (a->until <= next + 1)
            return 0;
        doze(a, next, a->until - 1, 0, 0, 0);
        return 1;
    case ACT_FLUSH:
        return 0;
    case ACT_TRAFFIC: {
        /* A sparse trace: nothing to offer until its next packet or stall. */
        uint64_t at = smn_esp_traffic_next(soc);
        if (at == ESP_NO_CYCLE || at <= next)
            return 0;
        doze(a, next, at, 0, 0, 0);
        return 1;
    }
    }
    return 0;
}

void smn_esp_act_catch_up(esp_act *a, uint64_t upto)
{
    uint64_t n = upto - a->sleep_from;
    a->pend_tlb += n * a->inc_tlb;
    a->pend_mem += n * a->inc_mem;
    a->pend_tot += n * a->inc_tot;
    a->sleep_from = upto;
}

/* The first cycle at which a needs a step; soc->cycles if it is busy now. */
uint64_t smn_esp_act_next(const socmon_esp_soc *soc, const esp_act *a)
{
    if (a->asleep)
        return a->wake_at == ESP_NO_CYCLE ? soc->cycles : a->wake_at;
    if (a->kind == ACT_IDLE) /* its last step is in the cycle before until (smn_esp_act_step) */
        return a->until > soc->cycles ? a->until - 1 : soc->cycles;
    if (a->kind == ACT_ACC && (a->phase == PH_TLB || a->phase == PH_COMPUTE))
        return a->phase_end;
    if (a->kind == ACT_FLUSH && a->phase_end > soc->cycles)
        return a->phase_end;
    return soc->cycles;
}

/* Fast-forward of n cycles in which every activity only waits. */
void smn_esp_act_skip(socmon_esp_soc *soc, esp_act *a, uint64_t n)
{
    (void)soc;
    if (a->kind != ACT_ACC || a->asleep)
        return; /* a sleeping one counts these cycles when it wakes */
    if (a->phase == PH_TLB)
        a->pend_tlb += n;
    a->pend_tot += n;
}

void smn_esp_act_settle(socmon_esp_soc *soc, esp_act *a)
{
    /* Sums commute: adding them late gives the monitors the same values. */
    if (a->kind != ACT_ACC)
        return; /* only accelerators count cycles; the others may have no tile */
    smn_esp_count(soc, a->tile, ESP_MON_ACC_TLB, a->pend_tlb);
    smn_esp_count(soc, a->tile, ESP_MON_ACC_MEM_LO, a->pend_mem);
    smn_esp_count(soc, a->tile, ESP_MON_ACC_TOT_LO, a->pend_tot);
    a->pend_tlb = a->pend_mem = a->pend_tot = 0;
}
