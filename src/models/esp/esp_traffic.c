/* Traffic you choose: the workloads noc-trace:FILE (a packet trace replayed) and
 * noc:pattern=... (a synthetic pattern), with the run results they give (docs/esp-model.md).
 *
 * Only the given packets flow: the CPUs and accelerators are idle. One activity offers them:
 * each packet goes to its source tile's queue for the plane (unbounded, in trace order) in
 * its cycle, and the NoC injects from there one flit per cycle while the local input has room.
 * The run ends when the last packet's tail has left its destination. The NoC tells two
 * things (esp_internal.h): the cycle a packet's head entered its source router (t_head) and,
 * by calling smn_esp_chain_arrived, the cycle its tail left the destination; nothing here
 * depends on how the NoC moves flits in between. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/grow.h"
#include "models/esp/esp_internal.h"
#include "models/esp/esp_trace.h"

/* Packets offered and not yet delivered, at most: far above saturation the source queues would
 * grow without bound (a packet waiting costs a transaction, about 200 bytes). */
#define MAX_WAITING (1u << 20)

typedef struct stall_ev {
    uint64_t cycle;
    unsigned tile;
    int delta;                   /* +1: a stall begins, -1: one ends */
} stall_ev;

typedef struct esp_traffic {
    int is_trace;
    esp_trace tr;
    size_t next_pkt;
    esp_pattern pat;
    uint64_t gen;                /* the next cycle (from base) the pattern generates */
    unsigned plane;
    stall_ev *ev;
    size_t nev, next_ev;
    unsigned *stops;             /* [tile]: stalls in force */
    int started;
    uint64_t base;               /* the model's cycle that is the traffic's cycle 0 */
    uint64_t *lat;               /* latency of every packet delivered */
    size_t nlat, caplat;
    uint64_t flits, end;         /* flits delivered; the traffic's cycle after the last arrival */
    int overflow;                /* MAX_WAITING reached: nothing more is offered, the run fails */
} esp_traffic;

void smn_esp_traffic_free(esp_engine *e)
{
    esp_traffic *t = e->traffic;
    if (!t)
        return;
    for (unsigned p = 0; p < ESP_NPLANES; p++)
        for (unsigned i = 0; i < e->noc.n; i++)
            smn_esp_noc_sink_stop(&e->noc, p, i, 0);
    smn_esp_trace_free(&t->tr);
    free(t->ev);
    free(t->stops);
    free(t->lat);
    free(t);
    e->traffic = NULL;
}

static int ev_cmp(const void *a, const void *b)
{
    const stall_ev *x = a, *y = b;
    if (x->cycle != y->cycle)
        return x->cycle < y->cycle ? -1 : 1;
    return x->delta - y->delta;  /* an end before a begin in the same cycle: no 2 in force */
}

static socmon_status load_trace(socmon_esp_soc *soc, esp_traffic *t, const char *path)
{
    if (!*path)
        return socmon_fail(SOCMON_EPARSE, "noc-trace: no file given (noc-trace:FILE)");
    socmon_status st = smn_esp_trace_load(path, &t->tr);
    if (st != SOCMON_OK)
        return st;
    if (t->tr.rows != soc->desc.rows || t->tr.cols != soc->desc.cols)
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field 'mesh': %ux%u differs from the SoC's %ux%u (give the "
                           "SoC with -t esp:soc=...)", path, t->tr.mesh_line, t->tr.rows, t->tr.cols,
                           soc->desc.rows, soc->desc.cols);
    t->is_trace = 1;
    t->plane = t->tr.plane;
    if (t->tr.nstall) {
        t->ev = calloc(2 * t->tr.nstall, sizeof *t->ev);
        if (!t->ev)
            return socmon_fail(SOCMON_ENOMEM, "noc-trace '%s': out of memory for its stalls", path);
        for (size_t i = 0; i < t->tr.nstall; i++) {
            const esp_trace_stall *s = &t->tr.stall[i];
            t->ev[t->nev++] = (stall_ev){s->from, s->tile, +1};
            t->ev[t->nev++] = (stall_ev){s->to, s->tile, -1};
        }
        qsort(t->ev, t->nev, sizeof *t->ev, ev_cmp);
    }
    return SOCMON_OK;
}

socmon_status smn_esp_traffic_build(socmon_esp_soc *soc, const char *name, int *handled)
{
    esp_engine *e = soc->eng;
    smn_esp_traffic_free(e);
    int trace = strncmp(name, "noc-trace:", 10) == 0, pattern = strncmp(name, "noc:", 4) == 0;
    *handled = trace || pattern;
    if (!*handled)
        return SOCMON_OK;
    esp_traffic *t = calloc(1, sizeof *t);
    if (!t || !(t->stops = calloc(soc->ntiles, sizeof *t->stops))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "esp: out of memory for workload '%.64s'", name);
    }
    e->traffic = t;
    socmon_status st = trace ? load_trace(soc, t, name + 10)
                             : smn_esp_pattern_parse(name + 4, soc->desc.rows, soc->desc.cols, &t->pat);
    if (pattern)
        t->plane = t->pat.plane;
    e->nscript = 0;
    if (st == SOCMON_OK)
        st = smn_esp_script_add(e, &(esp_spec){.kind = ACT_TRAFFIC});
    if (st != SOCMON_OK)
        smn_esp_traffic_free(e);
    return st;
}

static void offer(socmon_esp_soc *soc, esp_act *a, unsigned src, unsigned dst, unsigned flits, unsigned plane)
{
    if (a->outstanding >= MAX_WAITING) {
        soc->eng->traffic->overflow = 1;
        return;
    }
    esp_chain *ch = smn_esp_chain_alloc(soc, a);
    if (!ch)
        return; /* the engine reports it */
    ch->nhops = 1;
    ch->hops[0] = (esp_hop){.src = (uint16_t)src, .dst = (uint16_t)dst, .flits = (uint16_t)flits,
                            .plane = (uint8_t)plane};
    smn_esp_noc_send(soc, ch);
}

static void clear_stops(socmon_esp_soc *soc, esp_traffic *t)
{
    for (unsigned i = 0; i < soc->ntiles; i++) {
        t->stops[i] = 0;
        smn_esp_noc_sink_stop(&soc->eng->noc, t->plane, i, 0);
    }
    t->next_ev = t->nev;
}

static int exhausted(const esp_traffic *t)
{
    return t->overflow || t->is_trace ? t->next_pkt == t->tr.npkt : t->gen >= t->pat.cycles;
}

void smn_esp_traffic_step(socmon_esp_soc *soc, esp_act *a)
{
    esp_traffic *t = soc->eng->traffic;
    if (!t->started) {
        t->started = 1;
        t->base = soc->cycles;
    }
    uint64_t now = soc->cycles - t->base;
    for (; t->next_ev < t->nev && t->ev[t->next_ev].cycle <= now; t->next_ev++) {
        const stall_ev *v = &t->ev[t->next_ev];
        t->stops[v->tile] = (unsigned)((int)t->stops[v->tile] + v->delta);
        smn_esp_noc_sink_stop(&soc->eng->noc, t->plane, v->tile, t->stops[v->tile] != 0);
    }
    if (t->is_trace) {
        for (; t->next_pkt < t->tr.npkt && t->tr.pkt[t->next_pkt].cycle <= now; t->next_pkt++) {
            const esp_trace_pkt *p = &t->tr.pkt[t->next_pkt];
            offer(soc, a, p->src, p->dst, p->flits, t->plane);
        }
    } else if (t->gen <= now && t->gen < t->pat.cycles) {
        for (unsigned src = 0; src < soc->ntiles; src++) {
            unsigned flits = smn_esp_pattern_draw(&t->pat);
            if (!flits)
                continue;
            unsigned dst = smn_esp_pattern_dest(&t->pat, src);
            if (dst != src)
                offer(soc, a, src, dst, flits, t->plane);
        }
        t->gen = now + 1;
    }
    a->finished = exhausted(t);
    if (a->finished && a->outstanding == 0)
        clear_stops(soc, t);   /* nothing left to hold: a stall in force must not outlive the run */
}

int smn_esp_traffic_overflow(const socmon_esp_soc *soc)
{
    return soc->eng->traffic && soc->eng->traffic->overflow;
}

uint64_t smn_esp_traffic_next(const socmon_esp_soc *soc)
{
    const esp_traffic *t = soc->eng->traffic;
    if (!t->started)
        return soc->cycles;
    uint64_t next = ESP_NO_CYCLE;
    if (t->next_ev < t->nev)
        next = t->base + t->ev[t->next_ev].cycle;
    if (t->is_trace && t->next_pkt < t->tr.npkt && t->base + t->tr.pkt[t->next_pkt].cycle < next)
        next = t->base + t->tr.pkt[t->next_pkt].cycle;
    if (!t->is_trace && t->gen < t->pat.cycles && t->base + t->gen < next)
        next = t->base + t->gen;
    return next;
}

void smn_esp_traffic_arrived(socmon_esp_soc *soc, const esp_chain *ch)
{
    esp_engine *e = soc->eng;
    esp_traffic *t = e->traffic;
    if (!t)
        return;
    if (SOCMON_GROW(t->lat, t->caplat, t->nlat, 1024)) {
        e->oom = 1;
        return;
    }
    t->lat[t->nlat++] = soc->cycles - ch->t_head;
    t->flits += ch->hops[ch->cur - 1].flits;   /* smn_esp_chain_arrived has moved cur past it */
    t->end = soc->cycles + 1 - t->base;
    /* The last packet out: stalls still in force hold nothing, and must not outlive the run. */
    if (ch->act && ch->act->outstanding == 1 && exhausted(t))
        clear_stops(soc, t);
}

static int u64_cmp(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

static void put(socmon_result *out, size_t max, size_t *n, const char *name, double v, const char *unit,
                const char *desc)
{
    if (*n < max) {
        socmon_result *r = &out[*n];
        memset(r, 0, sizeof *r);
        strncpy(r->name, name, sizeof r->name - 1);
        r->value = v;
        r->unit = unit;
        r->desc = desc;
    }
    (*n)++;
}

size_t smn_esp_soc_results(const socmon_esp_soc *soc, socmon_result *out, size_t max)
{
    esp_traffic *t = soc && soc->eng ? soc->eng->traffic : NULL;
    if (!t)
        return 0;
    size_t n = 0;
    put(out, max, &n, "cycles", (double)t->end, "cycles", "from cycle 0 of the traffic to the drain (the last tail out)");
    put(out, max, &n, "packets", (double)t->nlat, "packets", "packets delivered");
    put(out, max, &n, "flits", (double)t->flits, "flits", "flits delivered");
    if (!t->nlat)
        return n;
    qsort(t->lat, t->nlat, sizeof *t->lat, u64_cmp);   /* sorted in place: the order is not needed */
    long double sum = 0;
    for (size_t i = 0; i < t->nlat; i++)
        sum += t->lat[i];
    size_t p99 = (t->nlat * 99 + 99) / 100;   /* nearest rank: ceil(0.99 n) */
    const char *d = "head entering the source router to tail leaving the destination";
    put(out, max, &n, "latency_min", (double)t->lat[0], "cycles", d);
    put(out, max, &n, "latency_mean", (double)(sum / t->nlat), "cycles", d);
    put(out, max, &n, "latency_p99", (double)t->lat[p99 - 1], "cycles", d);
    put(out, max, &n, "latency_max", (double)t->lat[t->nlat - 1], "cycles", d);
    return n;
}
