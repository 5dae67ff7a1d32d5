/* The workload model's engine: activities (CPU access streams, accelerator
 * invocations, cache flushes, idle time) stepped cycle by cycle together with
 * the NoC, skipping ahead whenever nothing but timers is running.
 *
 * Timing (docs/esp-model.md): a CPU issues one load or store per cycle and
 * stalls on an L2 miss until the data arrives. An accelerator invocation
 * loads its TLB (16 cycles + 1 per 4 KiB page), reads its input by DMA (one
 * line per cycle, up to 8 lines in flight), computes (2 cycles per line read),
 * writes its output, and waits for the last write to arrive. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

#define MAX_ACCESSES (UINT64_C(1) << 32)
#define NO_TILE UINT32_MAX
#define RUN_LIMIT (UINT64_C(1) << 40) /* cycles; a primitive never gets near it */

static void free_caches(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    for (unsigned t = 0; e->c.l2 && t < soc->ntiles; t++)
        esp_cache_destroy(&e->c.l2[t]);
    for (unsigned t = 0; e->c.llc && t < soc->ntiles; t++)
        esp_cache_destroy(&e->c.llc[t]);
    free(e->c.l2);
    free(e->c.llc);
}

static void free_acts(esp_engine *e)
{
    for (unsigned i = 0; i < e->nacts; i++)
        free(e->acts[i]);
    e->nacts = 0;
}

void esp_engine_free(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    if (!e)
        return;
    free_caches(soc);
    esp_noc_destroy(&e->noc);
    for (unsigned i = 0; i < e->nblocks; i++)
        free(e->blocks[i]);
    free(e->blocks);
    free_acts(e);
    free(e->acts);
    free(e->script);
    free(e->op_since);
    free(e->cpu);
    free(e->acc);
    free(e->mem);
    free(e);
    soc->eng = NULL;
}

socmon_status esp_engine_new(socmon_esp_soc *soc)
{
    const socmon_esp_soc_desc *d = &soc->desc;
    esp_engine *e = calloc(1, sizeof *e);
    if (!e)
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
    soc->eng = e;
    unsigned n = soc->ntiles;
    e->cpu = calloc(n, sizeof *e->cpu);
    e->acc = calloc(n, sizeof *e->acc);
    e->mem = calloc(n, sizeof *e->mem);
    e->op_since = calloc(n, sizeof *e->op_since);
    e->c.l2 = calloc(n, sizeof *e->c.l2);
    e->c.llc = calloc(n, sizeof *e->c.llc);
    if (!e->cpu || !e->acc || !e->mem || !e->op_since || !e->c.l2 || !e->c.llc) {
        esp_engine_free(soc);
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
    }
    e->ncpu = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_CPU, e->cpu, n);
    e->nacc = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, e->acc, n);
    e->nmem = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, e->mem, n);
    socmon_status st = esp_noc_init(&e->noc, d->rows, d->cols);
    for (unsigned t = 0; st == SOCMON_OK && t < n && d->cache_hierarchy; t++) {
        const socmon_esp_tile_desc *td = &d->tiles[t];
        if (td->type == SOCMON_ESP_TILE_CPU || (td->type == SOCMON_ESP_TILE_ACC && td->has_l2))
            st = esp_cache_init(&e->c.l2[t], ESP_L2_SETS, ESP_L2_WAYS, 0);
        else if (td->type == SOCMON_ESP_TILE_MEM)
            st = esp_cache_init(&e->c.llc[t], ESP_LLC_SETS, ESP_LLC_WAYS, 1);
    }
    if (st != SOCMON_OK) {
        esp_engine_free(soc);
        return st;
    }
    return SOCMON_OK;
}

/* ---- DVFS op points: counted lazily, settled whenever a tile changes point
 * and before anyone can read the monitors ---- */

static void dvfs_settle(socmon_esp_soc *soc, unsigned t)
{
    esp_tile *tl = &soc->tiles[t];
    esp_count(soc, t, SOCMON_ESP_MON_DVFS + tl->op_point, soc->cycles - soc->eng->op_since[t]);
    soc->eng->op_since[t] = soc->cycles;
}

static void dvfs_settle_all(socmon_esp_soc *soc)
{
    for (unsigned t = 0; t < soc->ntiles; t++)
        dvfs_settle(soc, t);
}

static void set_op(socmon_esp_soc *soc, unsigned t, unsigned op)
{
    if (t == NO_TILE || soc->tiles[t].op_point == op)
        return;
    dvfs_settle(soc, t);
    soc->tiles[t].op_point = op;
}

void esp_engine_reset(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    /* Chains still on the NoC go back to the pool with their blocks. */
    for (unsigned i = 0; i < e->nblocks; i++)
        free(e->blocks[i]);
    free(e->blocks);
    e->blocks = NULL;
    e->nblocks = 0;
    e->free_chains = NULL;
    esp_noc_clear(&e->noc);
    for (unsigned t = 0; t < soc->ntiles; t++) {
        if (e->c.l2[t].sets)
            esp_cache_clear(&e->c.l2[t]);
        if (e->c.llc[t].sets)
            esp_cache_clear(&e->c.llc[t]);
        e->op_since[t] = 0;
    }
    free_acts(e);
    e->nscript = e->next_spec = 0;
    e->script_running = 0;
    e->oom = 0;
    memset(&e->st, 0, sizeof e->st);
}

/* ---- activities ---- */

static uint64_t tlb_cycles(uint64_t bytes)
{
    return 16 + (bytes + ESP_PAGE - 1) / ESP_PAGE;
}

static socmon_status check_spec(const socmon_esp_soc *soc, const esp_spec *s, unsigned *tile)
{
    const esp_engine *e = soc->eng;
    *tile = NO_TILE;
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
                               "limit of 2^32 per call", (unsigned long long)s->a,
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
        break;
    }
    return SOCMON_OK;
}

static socmon_status act_start(socmon_esp_soc *soc, const esp_spec *s)
{
    esp_engine *e = soc->eng;
    unsigned tile;
    socmon_status st = check_spec(soc, s, &tile);
    if (st != SOCMON_OK)
        return st;
    if (e->nacts == e->capacts) {
        unsigned cap = e->capacts ? e->capacts * 2 : 16;
        esp_act **na = realloc(e->acts, cap * sizeof *na);
        if (!na)
            return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
        e->acts = na;
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
        esp_count(soc, tile, SOCMON_ESP_MON_ACC_INVOC, 1);
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
    }
    set_op(soc, tile, 0);
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
        esp_txn_l2_access(soc, a, a->tile, line, store);
    else
        esp_txn_uncached(soc, a, a->tile, line, store);
}

static void acc_dma_phase(socmon_esp_soc *soc, esp_act *a, uint64_t n, int write)
{
    int busy = a->outstanding > 0;
    if (a->issued < n && a->outstanding < ESP_ACC_MAX_OUT) {
        esp_txn_dma(soc, a, a->tile, a->base / ESP_LINE + a->issued, write, a->mode);
        a->issued++;
        busy = 1;
    }
    if (busy)
        esp_count(soc, a->tile, SOCMON_ESP_MON_ACC_MEM_LO, 1);
}

static void acc_step(socmon_esp_soc *soc, esp_act *a)
{
    uint64_t now = soc->cycles;
    switch (a->phase) {
    case PH_TLB:
        if (now < a->phase_end) {
            esp_count(soc, a->tile, SOCMON_ESP_MON_ACC_TLB, 1);
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
    esp_count(soc, a->tile, SOCMON_ESP_MON_ACC_TOT_LO, 1);
}

static void flush_step(socmon_esp_soc *soc, esp_act *a)
{
    esp_engine *e = soc->eng;
    if (a->phase == PH_READ) {
        /* One private-cache line written back per cycle, tile by tile. */
        while (a->ft < soc->ntiles) {
            esp_cache *l2 = &e->c.l2[a->ft];
            unsigned n = l2->sets * l2->ways;
            while (a->fslot < n && !l2->tag[a->fslot])
                a->fslot++;
            if (a->fslot < n) {
                esp_txn_l2_evict(soc, a, a->ft, a->fslot++);
                return;
            }
            a->ft++;
            a->fslot = 0;
        }
        /* Then the LLCs (non-coherent DMA needs memory itself up to date):
         * every dirty line is written to DDR, one per cycle. */
        uint64_t wb = 0;
        for (unsigned t = 0; a->flush_llc && t < soc->ntiles; t++) {
            esp_cache *llc = &e->c.llc[t];
            for (unsigned s = 0; s < llc->sets * llc->ways; s++)
                if (llc->tag[s] && llc->dirty[s]) {
                    esp_count(soc, t, SOCMON_ESP_MON_DDR, 1);
                    wb++;
                }
            esp_cache_clear(llc);
        }
        e->st.llc_flush_writebacks += wb;
        a->phase = PH_COMPUTE;
        a->phase_end = soc->cycles + wb;
    }
    if (soc->cycles >= a->phase_end && a->outstanding == 0)
        a->finished = 1;
}

static void act_step(socmon_esp_soc *soc, esp_act *a)
{
    switch (a->kind) {
    case ACT_CPU: cpu_step(soc, a); break;
    case ACT_ACC: acc_step(soc, a); break;
    case ACT_FLUSH: flush_step(soc, a); break;
    case ACT_IDLE: a->finished = soc->cycles >= a->until; break;
    }
}

/* The first cycle at which a needs a step; soc->cycles if it is busy now. */
static uint64_t act_next(const socmon_esp_soc *soc, const esp_act *a)
{
    if (a->kind == ACT_IDLE)
        return a->until;
    if (a->kind == ACT_ACC && (a->phase == PH_TLB || a->phase == PH_COMPUTE))
        return a->phase_end;
    if (a->kind == ACT_FLUSH && a->phase == PH_COMPUTE && a->outstanding == 0)
        return a->phase_end;
    return soc->cycles;
}

/* Fast-forward of n cycles in which every activity only waits. */
static void act_skip(socmon_esp_soc *soc, esp_act *a, uint64_t n)
{
    if (a->kind != ACT_ACC)
        return;
    if (a->phase == PH_TLB)
        esp_count(soc, a->tile, SOCMON_ESP_MON_ACC_TLB, n);
    esp_count(soc, a->tile, SOCMON_ESP_MON_ACC_TOT_LO, n);
}

static int tile_busy(const esp_engine *e, unsigned tile)
{
    for (unsigned i = 0; i < e->nacts; i++)
        if (!e->acts[i]->finished && e->acts[i]->tile == tile)
            return 1;
    return 0;
}

static void reap(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    for (unsigned i = 0; i < e->nacts;) {
        esp_act *a = e->acts[i];
        if (!a->finished || a->outstanding) {
            i++;
            continue;
        }
        unsigned t = a->tile;
        free(a);
        e->acts[i] = e->acts[--e->nacts];
        if (!tile_busy(e, t))
            set_op(soc, t, 3);
    }
}

static socmon_status next_group(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    if (e->next_spec >= e->nscript) {
        e->script_running = 0;
        return SOCMON_OK;
    }
    unsigned g = e->script[e->next_spec].group;
    while (e->next_spec < e->nscript && e->script[e->next_spec].group == g) {
        socmon_status st = act_start(soc, &e->script[e->next_spec++]);
        if (st != SOCMON_OK) {
            e->script_running = 0;
            return st;
        }
    }
    return SOCMON_OK;
}

static int quiet(const socmon_esp_soc *soc)
{
    return soc->eng->nacts == 0 && esp_noc_idle(&soc->eng->noc);
}

/* Runs to cycle target, or until everything is quiet if stop_when_quiet. */
static socmon_status run(socmon_esp_soc *soc, uint64_t target, int stop_when_quiet)
{
    esp_engine *e = soc->eng;
    socmon_status st = SOCMON_OK;
    while (soc->cycles < target && st == SOCMON_OK) {
        if (e->script_running && e->nacts == 0)
            st = next_group(soc);
        if (stop_when_quiet && !e->script_running && quiet(soc))
            break;
        if (esp_noc_idle(&e->noc)) {
            uint64_t next = target;
            for (unsigned i = 0; i < e->nacts && next > soc->cycles; i++) {
                uint64_t t = act_next(soc, e->acts[i]);
                next = t < next ? t : next;
            }
            if (next > soc->cycles) {
                for (unsigned i = 0; i < e->nacts; i++)
                    act_skip(soc, e->acts[i], next - soc->cycles);
                soc->cycles = next;
                continue;
            }
        }
        for (unsigned i = 0; i < e->nacts; i++)
            act_step(soc, e->acts[i]);
        esp_noc_cycle(soc);
        soc->cycles++;
        reap(soc);
    }
    /* Idle time that ends exactly at target is over now, not one step later. */
    for (unsigned i = 0; i < e->nacts; i++)
        if (e->acts[i]->kind == ACT_IDLE && soc->cycles >= e->acts[i]->until)
            e->acts[i]->finished = 1;
    reap(soc);
    if (e->script_running && e->nacts == 0 && e->next_spec >= e->nscript)
        e->script_running = 0;
    dvfs_settle_all(soc);
    if (st == SOCMON_OK && e->oom)
        st = socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for NoC transactions");
    return st;
}

static void sync_ns(socmon_esp_soc *soc)
{
    uint64_t ns = (uint64_t)ceill((long double)soc->cycles * 1e9L / soc->desc.clock_hz);
    if (ns > soc->ns)
        soc->ns = ns;
}

/* A primitive: start one activity and run until the SoC is quiet. */
static socmon_status run_one(socmon_esp_soc *soc, const esp_spec *s, const char *who)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "esp %s: soc is NULL", who);
    if (soc->eng->script_running)
        return socmon_fail(SOCMON_ESTATE, "esp %s: a workload is running; let it finish "
                           "(advance until done) first", who);
    socmon_status st = act_start(soc, s);
    if (st != SOCMON_OK)
        return st;
    uint64_t limit = soc->cycles + RUN_LIMIT;
    st = run(soc, limit, 1);
    sync_ns(soc);
    if (st == SOCMON_OK && !quiet(soc))
        st = socmon_fail(SOCMON_EIO, "esp %s: model did not finish within 2^40 cycles", who);
    return st;
}

socmon_status socmon_esp_soc_cpu_access(socmon_esp_soc *soc, unsigned cpu_ordinal,
                                        uint64_t loads, uint64_t stores, uint64_t footprint_bytes)
{
    esp_spec s = {.kind = ACT_CPU, .ord = cpu_ordinal, .buf = 0x100 + cpu_ordinal,
                  .a = loads, .b = stores, .c = footprint_bytes};
    return run_one(soc, &s, "cpu_access");
}

socmon_status socmon_esp_soc_acc_invoke(socmon_esp_soc *soc, unsigned acc_ordinal,
                                        uint64_t bytes, socmon_esp_coherence mode)
{
    esp_spec s = {.kind = ACT_ACC, .ord = acc_ordinal, .buf = 0x200 + acc_ordinal,
                  .a = bytes, .mode = mode};
    return run_one(soc, &s, "acc_invoke");
}

socmon_status socmon_esp_soc_flush(socmon_esp_soc *soc, int llc_too)
{
    esp_spec s = {.kind = ACT_FLUSH, .flag = llc_too != 0};
    return run_one(soc, &s, "flush");
}

socmon_status socmon_esp_soc_start(socmon_esp_soc *soc, const char *workload)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "esp start: soc is NULL");
    esp_engine *e = soc->eng;
    if (e->script_running || !quiet(soc))
        return socmon_fail(SOCMON_ESTATE, "esp start: a workload is still running");
    socmon_status st = esp_script_build(soc, workload ? workload : socmon_esp_workloads()[0]);
    if (st != SOCMON_OK)
        return st;
    e->next_spec = 0;
    e->script_running = 1;
    return SOCMON_OK;
}

socmon_status socmon_esp_soc_advance(socmon_esp_soc *soc, uint64_t ns, int *done)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "esp advance: soc is NULL");
    if (ns > UINT64_MAX - soc->ns)
        return socmon_fail(SOCMON_ERANGE, "esp advance: ns %llu would overflow the clock",
                           (unsigned long long)ns);
    long double cyc = (long double)(soc->ns + ns) * soc->desc.clock_hz / 1e9L;
    if (cyc >= 0x1p63L)
        return socmon_fail(SOCMON_ERANGE, "esp advance: ns %llu takes the model past 2^63 cycles",
                           (unsigned long long)ns);
    soc->ns += ns;
    uint64_t target = (uint64_t)cyc;
    socmon_status st = run(soc, target, 0);
    if (done)
        *done = !soc->eng->script_running && quiet(soc);
    return st;
}

void socmon_esp_soc_stats(const socmon_esp_soc *soc, socmon_esp_model_stats *out)
{
    if (!out)
        return;
    memset(out, 0, sizeof *out);
    if (!soc)
        return;
    const esp_engine *e = soc->eng;
    out->cycles = soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        out->packets[p] = e->st.packets[p];
        out->flits_injected[p] = e->st.flits_injected[p];
        out->flits_ejected[p] = e->st.flits_ejected[p];
    }
    out->flits_in_network = e->noc.flits_in_net;
    out->packets_waiting = e->noc.pending;
    for (unsigned m = 0; m < 4; m++)
        out->dma_lines[m] = e->st.dma_lines[m];
    out->l2_accesses = e->st.l2_accesses;
    out->llc_writebacks = e->st.llc_writebacks;
    out->llc_flush_writebacks = e->st.llc_flush_writebacks;
    out->uncached_accesses = e->st.uncached;
    out->invocations = e->st.invocations;
}
