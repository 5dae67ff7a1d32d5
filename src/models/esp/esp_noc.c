/* The NoC: six planes of 2D-mesh routers with XY routing, as in ESP.
 *
 * Each router has five input queues (Local, East, West, South, North) of
 * ESP_QDEPTH flits. Every cycle each input may forward its head flit and each
 * output may accept one flit: towards a neighbour if its input queue has
 * room, or to the local tile, which always accepts one flit per cycle. A
 * queue that is full at the end of a cycle counts one backpressure cycle on
 * its monitor (29 + plane*5 + direction); the model adds them up when the
 * queue stops being full and when the engine settles the monitors, which
 * gives the same counts as counting every cycle for a fraction of the work.
 * A flit that arrived this cycle does not move on in the same cycle. Flits of
 * different packets may interleave (no wormhole locking): the model counts
 * flits and packets, not payloads.
 *
 * The host's work goes where flits move (issue 29: 24 M flit hops in the 8x8
 * multifft burst). A plane's routers are visited in the order they became
 * active, which decides who wins a queue that frees up in the cycle, so that
 * order is the model's and is kept exactly:
 * - only routers holding flits are on a plane's active list, and a plane with
 *   none is not visited;
 * - a router's inputs are visited in round-robin order from a table
 *   (order[rr][inputs holding a flit that may move]), not by trying all five;
 * - a flit that came into an empty queue this cycle is the queue's head and
 *   may not move: one bit per queue says so (fresh), set only when that
 *   router's turn is still to come in the pass, instead of a cycle stamp per
 *   flit compared at every head;
 * - a flit is a 16-bit id into the plane's flit arrays, and a queue one word
 *   of ids (esp_internal.h): a hop moves an id, not the flit's fields;
 * - a router emptied in a cycle leaves the list at its next visit rather than
 *   by a separate pass over the list: until then it keeps its place only if
 *   it fills again in the same cycle, as it would have; a flit reaching it in
 *   a later cycle puts it at the end of the list, where its old entry is
 *   skipped (pos says which entry is live). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

/* By output port: the input port it feeds at the neighbour. */
static const uint8_t OPPOSITE[ESP_NDIRS] = {ESP_DIR_LOCAL, ESP_DIR_WEST, ESP_DIR_EAST,
                                            ESP_DIR_NORTH, ESP_DIR_SOUTH};

/* XY routing: along the row first, then the column. */
static unsigned xy_route(unsigned cols, unsigned t, unsigned dst)
{
    unsigned r = t / cols, c = t % cols, dr = dst / cols, dc = dst % cols;
    if (dc > c)
        return ESP_DIR_EAST;
    if (dc < c)
        return ESP_DIR_WEST;
    if (dr > r)
        return ESP_DIR_SOUTH;
    if (dr < r)
        return ESP_DIR_NORTH;
    return ESP_DIR_LOCAL;
}

static esp_route route_of(unsigned cols, unsigned t, unsigned dst)
{
    static const int dr[ESP_NDIRS] = {0, 0, 0, 1, -1}, dc[ESP_NDIRS] = {0, 1, -1, 0, 0};
    unsigned o = xy_route(cols, t, dst);
    if (o == ESP_DIR_LOCAL)
        return ESP_ROUTE(ESP_DIR_LOCAL, 0, 0);
    unsigned nt = (unsigned)((int)(t / cols) + dr[o]) * cols + (unsigned)((int)(t % cols) + dc[o]);
    return ESP_ROUTE(o, OPPOSITE[o], nt);
}

socmon_status esp_noc_init(esp_noc *noc, unsigned rows, unsigned cols)
{
    memset(noc, 0, sizeof *noc);
    noc->rows = rows;
    noc->cols = cols;
    noc->n = rows * cols;
    size_t nq = (size_t)noc->n * ESP_NDIRS, nf = nq * ESP_QDEPTH + 1; /* every queue full; id 0 unused */
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        pl->r = calloc(noc->n, sizeof *pl->r);
        pl->fch = calloc(nf, sizeof *pl->fch);
        pl->fdst = calloc(nf, sizeof *pl->fdst);
        pl->froute = calloc(nf, sizeof *pl->froute);
        pl->ffree = calloc(nf, sizeof *pl->ffree);
        pl->full_since = calloc(nq, sizeof *pl->full_since);
        pl->act_list = calloc(2 * (size_t)noc->n, sizeof *pl->act_list); /* old entries + re-entries */
        pl->inj_list = calloc(noc->n, sizeof *pl->inj_list);
        pl->sink_stop = calloc(noc->n, sizeof *pl->sink_stop);
        if (!pl->sink_stop || !pl->r || !pl->fch || !pl->fdst || !pl->froute || !pl->ffree || !pl->full_since || !pl->act_list ||
            !pl->inj_list)
            goto oom;
    }
    noc->route = malloc((size_t)noc->n * noc->n * sizeof *noc->route);
    noc->pend_head = calloc((size_t)noc->n * ESP_NPLANES, sizeof *noc->pend_head);
    noc->pend_tail = calloc((size_t)noc->n * ESP_NPLANES, sizeof *noc->pend_tail);
    if (!noc->route || !noc->pend_head || !noc->pend_tail)
        goto oom;
    for (unsigned t = 0; t < noc->n; t++)
        for (unsigned dst = 0; dst < noc->n; dst++)
            noc->route[(size_t)t * noc->n + dst] = route_of(cols, t, dst);
    /* order[rr][m]: the inputs in m, from rr round-robin, as 3-bit fields d + 1 (0 ends). */
    for (unsigned rr = 0; rr < ESP_NDIRS; rr++)
        for (unsigned m = 0; m < 32; m++) {
            unsigned v = 0, sh = 0;
            for (unsigned j = 0; j < ESP_NDIRS; j++) {
                unsigned d = (rr + j) % ESP_NDIRS;
                if (m & (1u << d)) {
                    v |= (d + 1) << sh;
                    sh += 3;
                }
            }
            noc->order[rr][m] = (uint16_t)v;
        }
    esp_noc_clear(noc);
    return SOCMON_OK;
oom:
    esp_noc_destroy(noc);
    return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for a %ux%u NoC", rows, cols);
}

void esp_noc_destroy(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        free(pl->r);
        free(pl->fch);
        free(pl->fdst);
        free(pl->froute);
        free(pl->ffree);
        free(pl->full_since);
        free(pl->act_list);
        free(pl->inj_list);
        free(pl->sink_stop);
    }
    free(noc->route);
    free(noc->pend_head);
    free(noc->pend_tail);
    memset(noc, 0, sizeof *noc);
}

void esp_noc_clear(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        memset(pl->r, 0, noc->n * sizeof *pl->r);
        unsigned nf = noc->n * ESP_NDIRS * ESP_QDEPTH;
        for (unsigned i = 0; i < nf; i++)
            pl->ffree[i] = (uint16_t)(nf - i); /* ids 1..nf, 1 on top */
        pl->nfree = nf;
        pl->nact = 0;
        pl->ninj = 0;
        memset(pl->sink_stop, 0, noc->n);
    }
    memset(noc->pend_head, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_head);
    memset(noc->pend_tail, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_tail);
    noc->flits_in_net = noc->pending = 0;
}

void esp_noc_sink_stop(esp_noc *noc, unsigned plane, unsigned tile, int stopped)
{
    noc->pl[plane].sink_stop[tile] = (uint8_t)(stopped != 0);
}

int esp_noc_idle(const esp_noc *noc)
{
    return noc->flits_in_net == 0 && noc->pending == 0;
}

static void deliver_local(socmon_esp_soc *soc, esp_chain *ch)
{
    /* A hop from a tile to itself never touches the NoC. */
    ch->flits_in = ch->hops[ch->cur].flits;
    esp_chain_arrived(soc, ch);
}

void esp_noc_send(socmon_esp_soc *soc, esp_chain *ch)
{
    esp_noc *noc = &soc->eng->noc;
    const esp_hop *h = &ch->hops[ch->cur];
    for (unsigned i = 0; i < h->nsend; i++)
        esp_count(soc, h->send[i].tile, h->send[i].mon, 1);
    ch->flits_out = ch->flits_in = 0;
    if (h->src == h->dst) {
        deliver_local(soc, ch);
        return;
    }
    size_t k = (size_t)h->src * ESP_NPLANES + h->plane;
    ch->next = NULL;
    if (noc->pend_tail[k]) {
        noc->pend_tail[k]->next = ch;
    } else {
        noc->pend_head[k] = ch;
        esp_plane *pl = &noc->pl[h->plane];
        pl->inj_list[pl->ninj++] = h->src;
    }
    noc->pend_tail[k] = ch;
    noc->pending++;
}

/* NoC monitors are wired in every tile: no definedness check needed. */
static inline void noc_count(socmon_esp_soc *soc, unsigned t, unsigned mon, uint64_t n)
{
    soc->tiles[t].count[mon] = (uint32_t)(soc->tiles[t].count[mon] + n);
}

/* Flit id enters input d of router R (tile t) of plane pl in cycle now (outside
 * a pass: injection). A router that was not on the list goes to its end; one on
 * the list that is empty was emptied in this cycle and keeps its place. */
static inline void push_flit(esp_plane *pl, esp_router *R, unsigned t, unsigned d, unsigned id, uint64_t now)
{
    unsigned occ = R->qocc[d];
    R->q[d] |= (uint64_t)id << (16 * occ);
    R->qocc[d] = (uint16_t)(occ + 1);
    if (occ == 0)
        R->hold = (uint16_t)(R->hold | 1u << d);
    else if (occ + 1 == ESP_QDEPTH)
        pl->full_since[t * ESP_NDIRS + d] = now;
    if (R->occ++ == 0 && !R->active) {
        R->active = 1;
        R->pos = (uint16_t)pl->nact;
        pl->act_list[pl->nact++] = (uint16_t)t;
    }
}

/* A flit reached its tile: its id goes back to the pool, its chain's hop may be complete. */
static void eject(socmon_esp_soc *soc, esp_plane *pl, unsigned p, unsigned id)
{
    esp_chain *ch = pl->fch[id];
    pl->ffree[pl->nfree++] = (uint16_t)id;
    soc->eng->noc.flits_in_net--;
    soc->eng->st.flits_ejected[p]++;
    if (++ch->flits_in == ch->hops[ch->cur].flits)
        esp_chain_arrived(soc, ch); /* a send goes to a tile's injection queue, no router */
}

/* The backpressure cycles of a queue that stops being full. */
static void unfull(socmon_esp_soc *soc, const esp_plane *pl, unsigned t, unsigned d, unsigned p, uint64_t now)
{
    noc_count(soc, t, ESP_MON_NOC_QFULL + p * ESP_NDIRS + d, now - pl->full_since[t * ESP_NDIRS + d]);
}

/* The plane's routers in list order; routers that joined the list during the
 * pass wait for the next cycle. Entries of routers emptied in an earlier cycle
 * are dropped on the way (a router that got a flit since is re-entered at the
 * end, and its old entry skipped), keeping the others' order; the list is
 * compacted as the pass goes: routers before the cursor are at [0, w), those
 * after it at their old index in [i + 1, n0), the ones entered in this pass at
 * [n0, nact).
 *
 * At each router, its inputs in round-robin order from rr: each head that
 * arrived before this cycle is forwarded if its output is still free this
 * cycle and (towards a neighbour) the neighbour's input has room. A flit that
 * enters an empty queue of a router whose turn is still to come in this pass
 * marks it fresh: that router's turn leaves it. */
static __attribute__((noinline)) void route_plane(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_plane *pl = &noc->pl[p];
    esp_router *const rt = pl->r;
    uint16_t *const list = pl->act_list;
    esp_route *const froute = pl->froute;
    const uint16_t *const fdst = pl->fdst;
    const esp_route *const route = noc->route;
    const unsigned n = noc->n;
    const uint8_t *const sink_stop = pl->sink_stop;
    const unsigned n0 = pl->nact;
    unsigned nact = n0, w = 0;
    for (unsigned i = 0; i < n0; i++) {
        unsigned t = list[i];
        esp_router *R = &rt[t];
        if (R->pos != i)
            continue; /* re-entered at the end of the list */
        if (R->occ == 0) {
            R->active = 0; /* emptied in an earlier cycle */
            continue;
        }
        if (w != i) {
            list[w] = (uint16_t)t;
            R->pos = (uint16_t)w;
        }
        w++;
        unsigned rr = R->rr;
        R->rr = (uint16_t)(rr + 1 == ESP_NDIRS ? 0 : rr + 1);
        unsigned ready = (unsigned)R->hold & ~(unsigned)R->fresh;
        R->fresh = 0;
        unsigned used = (unsigned)sink_stop[t] << ESP_DIR_LOCAL; /* a stalled sink: as if taken */
        for (unsigned ord = noc->order[rr][ready]; ord; ord >>= 3) {
            unsigned d = (ord & 7) - 1;
            uint64_t qw = R->q[d];
            unsigned id = (unsigned)(qw & 0xffff);
            esp_route fr = froute[id];
            unsigned o = fr & 7;
            if (used & (1u << o))
                continue;
            unsigned nt = (unsigned)fr >> 6, in = (fr >> 3) & 7;
            esp_router *N = &rt[nt];
            if (o != ESP_DIR_LOCAL && N->qocc[in] >= ESP_QDEPTH)
                continue;
            used |= 1u << o;
            /* pop */
            unsigned occ = R->qocc[d];
            if (occ == ESP_QDEPTH)
                unfull(soc, pl, t, d, p, now);
            R->q[d] = qw >> 16;
            R->qocc[d] = (uint16_t)(occ - 1);
            if (occ == 1)
                R->hold = (uint16_t)(R->hold & ~(1u << d));
            R->occ--;
            if (o == ESP_DIR_LOCAL) {
                eject(soc, pl, p, id);
                continue;
            }
            /* push into input in of the neighbour */
            froute[id] = route[nt * n + fdst[id]];
            unsigned nocc = N->qocc[in];
            N->q[in] |= (uint64_t)id << (16 * nocc);
            N->qocc[in] = (uint16_t)(nocc + 1);
            if (nocc == 0) {
                N->hold = (uint16_t)(N->hold | 1u << in);
                if (N->occ && N->pos >= w && N->pos < n0)
                    N->fresh = (uint16_t)(N->fresh | 1u << in); /* its turn is still to come */
            } else if (nocc + 1 == ESP_QDEPTH) {
                pl->full_since[nt * ESP_NDIRS + in] = now;
            }
            if (N->occ++ == 0 && (!N->active || (N->pos >= w && N->pos < n0))) {
                /* not on the list, or emptied in an earlier cycle and its entry not reached yet */
                N->active = 1;
                N->pos = (uint16_t)nact;
                list[nact++] = (uint16_t)nt;
            }
        }
    }
    for (unsigned i = n0; i < nact; i++) {
        unsigned t = list[i];
        list[w] = (uint16_t)t;
        rt[t].pos = (uint16_t)w++;
    }
    pl->nact = w;
}

static void inject_plane(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_plane *pl = &noc->pl[p];
    unsigned keep = 0;
    for (unsigned i = 0; i < pl->ninj; i++) {
        unsigned t = pl->inj_list[i];
        if (pl->r[t].qocc[ESP_DIR_LOCAL] >= ESP_QDEPTH) {
            pl->inj_list[keep++] = (uint16_t)t; /* the usual case under load: its local queue is full */
            continue;
        }
        size_t k = (size_t)t * ESP_NPLANES + p;
        esp_chain *ch = noc->pend_head[k];
        if (ch->flits_out == 0) {
            noc_count(soc, t, ESP_MON_NOC_INJ + p, 1); /* a packet enters the NoC */
            soc->eng->st.packets[p]++;
            ch->t_head = now;
        }
        unsigned id = pl->ffree[--pl->nfree];   /* a free id: the local queue has room */
        unsigned dst = ch->hops[ch->cur].dst;
        pl->fch[id] = ch;
        pl->fdst[id] = (uint16_t)dst;
        pl->froute[id] = noc->route[t * noc->n + dst];
        push_flit(pl, &pl->r[t], t, ESP_DIR_LOCAL, id, now);
        noc->flits_in_net++;
        soc->eng->st.flits_injected[p]++;
        if (++ch->flits_out == ch->hops[ch->cur].flits) {
            noc->pend_head[k] = ch->next;
            if (!ch->next)
                noc->pend_tail[k] = NULL;
            ch->next = NULL;
            noc->pending--;
        }
        if (noc->pend_head[k])
            pl->inj_list[keep++] = (uint16_t)t;
    }
    pl->ninj = keep;
}

void esp_noc_cycle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    if (esp_noc_idle(noc))
        return;
    uint64_t now = soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        if (pl->nact)
            route_plane(soc, p, now);
        if (pl->ninj)
            inject_plane(soc, p, now);
    }
}

void esp_noc_settle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    uint64_t now = soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        for (unsigned i = 0; i < pl->nact; i++) {
            unsigned t = pl->act_list[i];
            esp_router *R = &pl->r[t];
            for (unsigned d = 0; d < ESP_NDIRS; d++)
                if (R->qocc[d] == ESP_QDEPTH) {
                    unsigned qi = t * ESP_NDIRS + d;
                    noc_count(soc, t, ESP_MON_NOC_QFULL + p * ESP_NDIRS + d, now - pl->full_since[qi]);
                    pl->full_since[qi] = now;
                }
        }
    }
}
