/* The workload model's engine: activities (CPU access streams, accelerator
 * invocations, cache flushes, idle time) stepped cycle by cycle together with
 * the NoC, skipping ahead whenever nothing but timers is running.
 *
 * The activities themselves are in esp_acts.c. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

#define RUN_LIMIT (UINT64_C(1) << 40) /* cycles; a primitive never gets near it */

static void free_caches(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    for (unsigned t = 0; e->c.l2 && t < soc->ntiles; t++)
        smn_esp_cache_destroy(&e->c.l2[t]);
    for (unsigned t = 0; e->c.llc && t < soc->ntiles; t++)
        smn_esp_cache_destroy(&e->c.llc[t]);
    free(e->c.l2);
    free(e->c.llc);
}

static void free_acts(esp_engine *e)
{
    for (unsigned i = 0; i < e->nacts; i++)
        free(e->acts[i]);
    e->nacts = 0;
    if (e->awake)
        memset(e->awake, 0, e->capacts / 64 * sizeof *e->awake);
    e->wake_next = ESP_NO_CYCLE;
}

void smn_esp_engine_free(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    if (!e)
        return;
    free_caches(soc);
    smn_esp_traffic_free(e);
    smn_esp_noc_destroy(&e->noc);
    smn_esp_mem_destroy(&e->ms);
    for (unsigned i = 0; i < e->nblocks; i++)
        free(e->blocks[i]);
    free(e->blocks);
    free_acts(e);
    free(e->acts);
    free(e->awake);
    free(e->script);
    free(e->op_since);
    free(e->cpu);
    free(e->acc);
    free(e->mem);
    free(e);
    soc->eng = NULL;
}

socmon_status smn_esp_engine_new(socmon_esp_soc *soc)
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
    e->wake_next = ESP_NO_CYCLE;
    if (!e->cpu || !e->acc || !e->mem || !e->op_since || !e->c.l2 || !e->c.llc) {
        smn_esp_engine_free(soc);
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
    }
    e->ncpu = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_CPU, e->cpu, n);
    e->nacc = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, e->acc, n);
    e->nmem = socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, e->mem, n);
    socmon_status st = smn_esp_noc_init(&e->noc, d->rows, d->cols);
    if (st == SOCMON_OK)
        st = smn_esp_mem_init(&e->ms, n);
    for (unsigned t = 0; st == SOCMON_OK && t < n && d->cache_hierarchy; t++) {
        const socmon_esp_tile_desc *td = &d->tiles[t];
        if (td->type == SOCMON_ESP_TILE_CPU || (td->type == SOCMON_ESP_TILE_ACC && td->has_l2))
            st = smn_esp_cache_init(&e->c.l2[t], ESP_L2_SETS, ESP_L2_WAYS, 0);
        else if (td->type == SOCMON_ESP_TILE_MEM)
            st = smn_esp_cache_init(&e->c.llc[t], ESP_LLC_SETS, ESP_LLC_WAYS, 1);
    }
    if (st != SOCMON_OK) {
        smn_esp_engine_free(soc);
        return st;
    }
    return SOCMON_OK;
}

/* ---- DVFS op points: counted lazily, settled whenever a tile changes point
 * and before anyone can read the monitors ---- */

/* What ESP's RTL counts: every tile's vf is hard-wired to op point 3 (src/hw/esp_monitor.h), so
 * monitor 22 counts every cycle; the op point the model's activities set (op_point, the guide's
 * residency) moves no monitor. */
static void dvfs_settle(socmon_esp_soc *soc, unsigned t)
{
    smn_esp_count(soc, t, ESP_MON_DVFS + ESP_DVFS_OPS - 1, soc->cycles - soc->eng->op_since[t]);
    soc->eng->op_since[t] = soc->cycles;
}

static void dvfs_settle_all(socmon_esp_soc *soc)
{
    for (unsigned t = 0; t < soc->ntiles; t++)
        dvfs_settle(soc, t);
}

/* The op point an activity puts its tile at (the guide's residency); it moves no monitor, so
 * nothing needs settling here. */
void smn_esp_set_op(socmon_esp_soc *soc, unsigned t, unsigned op)
{
    if (t != ESP_NO_TILE)
        soc->tiles[t].op_point = op;
}

void smn_esp_engine_reset(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    /* Chains still on the NoC go back to the pool with their blocks. */
    for (unsigned i = 0; i < e->nblocks; i++)
        free(e->blocks[i]);
    free(e->blocks);
    e->blocks = NULL;
    e->nblocks = 0;
    e->free_chains = NULL;
    smn_esp_traffic_free(e);
    smn_esp_noc_clear(&e->noc);
    smn_esp_mem_clear(&e->ms, soc->ntiles);
    for (unsigned t = 0; t < soc->ntiles; t++) {
        if (e->c.l2[t].sets)
            smn_esp_cache_clear(&e->c.l2[t]);
        if (e->c.llc[t].sets)
            smn_esp_cache_clear(&e->c.llc[t]);
        e->op_since[t] = 0;
    }
    free_acts(e);
    e->nscript = e->next_spec = 0;
    e->script_running = 0;
    e->nphases = 0;
    e->phase_open = 0;
    e->oom = 0;
    memset(&e->st, 0, sizeof e->st);
}

static int tile_busy(const esp_engine *e, unsigned tile)
{
    for (unsigned i = 0; i < e->nacts; i++)
        if (!e->acts[i]->finished && e->acts[i]->tile == tile)
            return 1;
    return 0;
}

static void set_awake(esp_engine *e, unsigned i, int on)
{
    uint64_t bit = UINT64_C(1) << (i % 64);
    e->awake[i / 64] = on ? e->awake[i / 64] | bit : e->awake[i / 64] & ~bit;
}

void smn_esp_act_wake(socmon_esp_soc *soc, esp_act *a, uint64_t at)
{
    smn_esp_act_catch_up(a, at);
    a->asleep = 0;
    a->wake_at = ESP_NO_CYCLE;
    set_awake(soc->eng, a->idx, 1);
}

/* Wakes the activities whose time has come (soc->cycles), and finds the next such time. */
static void wake_timers(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    e->wake_next = ESP_NO_CYCLE;
    for (unsigned i = 0; i < e->nacts; i++) {
        esp_act *a = e->acts[i];
        if (!a->asleep || a->wake_at == ESP_NO_CYCLE)
            continue;
        if (a->wake_at <= soc->cycles)
            smn_esp_act_wake(soc, a, soc->cycles);
        else if (a->wake_at < e->wake_next)
            e->wake_next = a->wake_at;
    }
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
        if (a->asleep)
            smn_esp_act_catch_up(a, soc->cycles);
        smn_esp_act_settle(soc, a);
        free(a);
        esp_act *last = e->acts[--e->nacts];
        set_awake(e, e->nacts, 0);
        if (i < e->nacts) {
            e->acts[i] = last;
            last->idx = i;
            set_awake(e, i, !last->asleep);
        }
        if (!tile_busy(e, t))
            smn_esp_set_op(soc, t, 3);
    }
}

static socmon_status next_group(socmon_esp_soc *soc)
{
    esp_engine *e = soc->eng;
    if (e->next_spec >= e->nscript) {
        e->script_running = 0;
        smn_esp_phase_end(soc);
        return SOCMON_OK;
    }
    unsigned g = e->script[e->next_spec].group;
    while (e->next_spec < e->nscript && e->script[e->next_spec].group == g) {
        if (e->script[e->next_spec].phase)
            smn_esp_phase_begin(soc, e->script[e->next_spec].phase);
        socmon_status st = smn_esp_act_start(soc, &e->script[e->next_spec++]);
        if (st != SOCMON_OK) {
            e->script_running = 0;
            return st;
        }
    }
    return SOCMON_OK;
}

static int quiet(const socmon_esp_soc *soc)
{
    return soc->eng->nacts == 0 && smn_esp_noc_idle(&soc->eng->noc) && soc->eng->ms.nheap == 0;
}

/* Runs to cycle target, or until everything is quiet if stop_when_quiet. */
static socmon_status run(socmon_esp_soc *soc, uint64_t target, int stop_when_quiet)
{
    esp_engine *e = soc->eng;
    socmon_status st = SOCMON_OK;
    while (soc->cycles < target && st == SOCMON_OK) {
        if (soc->cycles >= e->wake_next)
            wake_timers(soc);
        if (e->reap_due) {
            e->reap_due = 0;
            reap(soc);
        }
        if (e->script_running && e->nacts == 0) {
            st = next_group(soc);
        }
        if (stop_when_quiet && !e->script_running && quiet(soc))
            break;
        if (smn_esp_noc_idle(&e->noc)) {
            /* With the NoC empty, a transaction in flight waits on a cache or DDR (esp_mem.c):
             * nothing happens before the first of them is done, so an activity asleep until
             * one of its transactions arrives does not hold the clock back. */
            uint64_t mem_next = smn_esp_mem_next(&e->ms);
            uint64_t next = target < mem_next ? target : mem_next;
            for (unsigned i = 0; i < e->nacts && next > soc->cycles; i++) {
                const esp_act *a = e->acts[i];
                if (mem_next != ESP_NO_CYCLE && a->asleep && a->wake_at == ESP_NO_CYCLE)
                    continue;
                uint64_t t = smn_esp_act_next(soc, a);
                next = t < next ? t : next;
            }
            if (next > soc->cycles) {
                for (unsigned i = 0; i < e->nacts; i++)
                    smn_esp_act_skip(soc, e->acts[i], next - soc->cycles);
                soc->cycles = next;
                continue;
            }
        }
        /* The activities that are awake, in order; one that falls asleep leaves the loop
         * until its event (smn_esp_act_doze). */
        int finished = 0; /* reap has work only once an activity has finished */
        for (unsigned w = 0; w * 64 < e->nacts; w++)
            for (uint64_t bits = e->awake[w]; bits; bits &= bits - 1) {
                esp_act *a = e->acts[w * 64 + (unsigned)__builtin_ctzll(bits)];
                esp_act_cycle(soc, a);
                finished |= a->finished;
                if (smn_esp_act_doze(soc, a)) {
                    set_awake(e, a->idx, 0);
                    if (a->wake_at < e->wake_next)
                        e->wake_next = a->wake_at;
                }
            }
        if (e->ms.nheap)
            smn_esp_mem_release(soc);
        smn_esp_noc_cycle(soc);
        soc->cycles++;
        if (finished || e->reap_due) {
            e->reap_due = 0;
            reap(soc);
        }
    }
    /* Idle time that ends exactly at target is over now, not one step later. */
    for (unsigned i = 0; i < e->nacts; i++)
        if (e->acts[i]->kind == ACT_IDLE && soc->cycles >= e->acts[i]->until) {
            e->acts[i]->finished = 1;
        }
    reap(soc);
    if (e->script_running && e->nacts == 0 && e->next_spec >= e->nscript)
        e->script_running = 0;
    dvfs_settle_all(soc);
    smn_esp_noc_settle(soc);
    for (unsigned i = 0; i < e->nacts; i++) {
        if (e->acts[i]->asleep)
            smn_esp_act_catch_up(e->acts[i], soc->cycles);
        smn_esp_act_settle(soc, e->acts[i]);
    }
    if (st == SOCMON_OK && e->oom)
        st = socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for NoC transactions");
    if (st == SOCMON_OK && smn_esp_traffic_overflow(soc))
        st = socmon_fail(SOCMON_ERANGE, "esp noc traffic: 1048576 packets wait at their sources, far above what "
                         "the NoC drains: give a lower rate= or fewer cycles= (or a shorter trace)");
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
    socmon_status st = smn_esp_act_start(soc, s);
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
    socmon_status st = smn_esp_script_build(soc, workload ? workload : socmon_esp_workloads()[0]);
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
    /* A workload that ends inside this step stops the clock where it ended
     * (the first whole ns at or after its last cycle), so the run's length and
     * every rate over it are the workload's own, whatever the step. With
     * nothing running, time simply passes. */
    int running = soc->eng->script_running || !quiet(soc);
    uint64_t start_ns = soc->ns;
    soc->ns += ns;
    uint64_t target = (uint64_t)cyc;
    socmon_status st = run(soc, target, running);
    if (running && soc->cycles < target) {
        soc->ns = start_ns;
        sync_ns(soc);
    }
    if (done)
        *done = !soc->eng->script_running && quiet(soc);
    return st;
}

void smn_esp_soc_stats(const socmon_esp_soc *soc, smn_esp_model_stats *out)
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
    out->flit_hops = e->st.flit_hops;
    out->packets_waiting = e->noc.pending;
    for (unsigned m = 0; m < 4; m++)
        out->dma_lines[m] = e->st.dma_lines[m];
    out->l2_accesses = e->st.l2_accesses;
    out->llc_writebacks = e->st.llc_writebacks;
    out->llc_flush_writebacks = e->st.llc_flush_writebacks;
    out->uncached_accesses = e->st.uncached;
    out->invocations = e->st.invocations;
}
