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
 * A flit that arrived this cycle does not move on in the same cycle. Flits of different packets may interleave
 * (no wormhole locking): the model counts flits and packets, not payloads.
 * Only routers holding flits are visited, so an idle NoC costs nothing. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

/* XY routing: along the row first, then the column. */
static unsigned xy_route(const esp_noc *noc, unsigned t, unsigned dst)
{
    unsigned r = noc->row[t], c = noc->col[t], dr = noc->row[dst], dc = noc->col[dst];
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

socmon_status esp_noc_init(esp_noc *noc, unsigned rows, unsigned cols)
{
    memset(noc, 0, sizeof *noc);
    noc->rows = rows;
    noc->cols = cols;
    noc->n = rows * cols;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        noc->r[p] = calloc(noc->n, sizeof *noc->r[p]);
        noc->act_list[p] = calloc(noc->n, sizeof *noc->act_list[p]);
        noc->inj_list[p] = calloc(noc->n, sizeof *noc->inj_list[p]);
        if (!noc->r[p] || !noc->act_list[p] || !noc->inj_list[p])
            goto oom;
    }
    noc->row = calloc(noc->n, 1);
    noc->col = calloc(noc->n, 1);
    if (!noc->row || !noc->col)
        goto oom;
    for (unsigned t = 0; t < noc->n; t++) {
        noc->row[t] = (uint8_t)(t / cols);
        noc->col[t] = (uint8_t)(t % cols);
    }
    noc->route = malloc((size_t)noc->n * noc->n);
    if (!noc->route)
        goto oom;
    for (unsigned t = 0; t < noc->n; t++)
        for (unsigned dst = 0; dst < noc->n; dst++)
            noc->route[(size_t)t * noc->n + dst] = (uint8_t)xy_route(noc, t, dst);
    noc->pend_head = calloc((size_t)noc->n * ESP_NPLANES, sizeof *noc->pend_head);
    noc->pend_tail = calloc((size_t)noc->n * ESP_NPLANES, sizeof *noc->pend_tail);
    if (!noc->pend_head || !noc->pend_tail)
        goto oom;
    return SOCMON_OK;
oom:
    esp_noc_destroy(noc);
    return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for a %ux%u NoC", rows, cols);
}

void esp_noc_destroy(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        free(noc->r[p]);
        free(noc->act_list[p]);
        free(noc->inj_list[p]);
    }
    free(noc->row);
    free(noc->col);
    free(noc->route);
    free(noc->pend_head);
    free(noc->pend_tail);
    memset(noc, 0, sizeof *noc);
}

void esp_noc_clear(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        memset(noc->r[p], 0, noc->n * sizeof *noc->r[p]);
        noc->nact[p] = 0;
        noc->ninj[p] = 0;
        noc->emptied[p] = 0;
    }
    memset(noc->pend_head, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_head);
    memset(noc->pend_tail, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_tail);
    noc->flits_in_net = noc->pending = 0;
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
        noc->inj_list[h->plane][noc->ninj[h->plane]++] = h->src;
    }
    noc->pend_tail[k] = ch;
    noc->pending++;
}

/* NoC monitors are wired in every tile: no definedness check needed. */
static inline void noc_count(socmon_esp_soc *soc, unsigned t, unsigned mon, uint64_t n)
{
    soc->tiles[t].count[mon] = (uint32_t)(soc->tiles[t].count[mon] + n);
}


/* A flit of ch for dst enters input d of the router R at tile t in cycle now. */
static inline void q_push(const esp_noc *noc, esp_router *R, unsigned d, esp_chain *ch,
                          unsigned dst, unsigned t, uint64_t now)
{
    esp_queue *q = &R->q[d];
    unsigned at = (q->head + q->occ) % ESP_QDEPTH;
    q->ch[at] = ch;
    q->arrived[at] = now;
    q->dst[at] = (uint16_t)dst;
    q->out[at] = noc->route[(size_t)t * noc->n + dst];
    if (++q->occ == ESP_QDEPTH)
        q->full_since = now;
    R->occ++;
    R->holding |= (uint8_t)(1u << d);
}

/* Drops the head flit of input d of plane p's router R at tile t in cycle
 * now; a queue that stops being full gets its backpressure cycles counted. */
static inline void q_pop(socmon_esp_soc *soc, esp_router *R, unsigned d, unsigned t, unsigned p,
                         uint64_t now)
{
    esp_queue *q = &R->q[d];
    if (q->occ == ESP_QDEPTH)
        noc_count(soc, t, ESP_MON_NOC_QFULL + p * ESP_NDIRS + d, now - q->full_since);
    q->head = (uint8_t)((q->head + 1) % ESP_QDEPTH);
    if (--q->occ == 0)
        R->holding &= (uint8_t)~(1u << d);
    if (--R->occ == 0)
        soc->eng->noc.emptied[p]++;
}

static void activate(esp_noc *noc, unsigned p, unsigned t)
{
    esp_router *r = &noc->r[p][t];
    if (!r->active) {
        r->active = 1;
        noc->act_list[p][noc->nact[p]++] = (uint16_t)t;
    }
}

/* By output port: the input port it feeds at the neighbour. */
static const uint8_t OPPOSITE[ESP_NDIRS] = {ESP_DIR_LOCAL, ESP_DIR_WEST, ESP_DIR_EAST,
                                            ESP_DIR_NORTH, ESP_DIR_SOUTH};

static void route_plane(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_router *routers = noc->r[p];
    const int step[ESP_NDIRS] = {0, 1, -1, (int)noc->cols, -(int)noc->cols};
    unsigned nact = noc->nact[p]; /* routers activated during this pass wait a cycle */
    for (unsigned i = 0; i < nact; i++) {
        unsigned t = noc->act_list[p][i];
        esp_router *R = &routers[t];
        unsigned rr = R->rr;
        R->rr = (uint8_t)(rr + 1 == ESP_NDIRS ? 0 : rr + 1);
        /* Inputs in round-robin order from rr, visiting only those holding
         * flits: bit j of scan is input (rr + j) mod 5. Only this router's
         * own pops change its queues during its turn, so a snapshot will do. */
        unsigned scan = ((unsigned)R->holding >> rr | (unsigned)R->holding << (ESP_NDIRS - rr)) &
                        ((1u << ESP_NDIRS) - 1);
        unsigned used = 0;
        while (scan) {
            unsigned d = rr + (unsigned)__builtin_ctz(scan);
            scan &= scan - 1;
            d = d >= ESP_NDIRS ? d - ESP_NDIRS : d;
            esp_queue *q = &R->q[d];
            if (q->arrived[q->head] == now)
                continue; /* every flit here arrived this cycle */
            unsigned o = q->out[q->head];
            if (used & (1u << o))
                continue;
            esp_chain *ch = q->ch[q->head];
            if (o == ESP_DIR_LOCAL) {
                q_pop(soc, R, d, t, p, now);
                noc->flits_in_net--;
                soc->eng->st.flits_ejected[p]++;
                if (++ch->flits_in == ch->hops[ch->cur].flits)
                    esp_chain_arrived(soc, ch);
            } else {
                unsigned nb = (unsigned)((int)t + step[o]);
                esp_router *N = &routers[nb];
                unsigned in = OPPOSITE[o];
                if (N->q[in].occ >= ESP_QDEPTH)
                    continue;
                unsigned dst = q->dst[q->head];
                q_pop(soc, R, d, t, p, now);
                q_push(noc, N, in, ch, dst, nb, now);
                activate(noc, p, nb);
            }
            used |= 1u << o;
        }
    }
}

static void inject_plane(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    unsigned keep = 0;
    for (unsigned i = 0; i < noc->ninj[p]; i++) {
        unsigned t = noc->inj_list[p][i];
        size_t k = (size_t)t * ESP_NPLANES + p;
        esp_chain *ch = noc->pend_head[k];
        esp_router *R = &noc->r[p][t];
        esp_queue *q = &R->q[ESP_DIR_LOCAL];
        if (q->occ < ESP_QDEPTH) {
            if (ch->flits_out == 0) {
                noc_count(soc, t, ESP_MON_NOC_INJ + p, 1); /* a packet enters the NoC */
                soc->eng->st.packets[p]++;
            }
            q_push(noc, R, ESP_DIR_LOCAL, ch, ch->hops[ch->cur].dst, t, now);
            noc->flits_in_net++;
            soc->eng->st.flits_injected[p]++;
            activate(noc, p, t);
            if (++ch->flits_out == ch->hops[ch->cur].flits) {
                noc->pend_head[k] = ch->next;
                if (!ch->next)
                    noc->pend_tail[k] = NULL;
                ch->next = NULL;
                noc->pending--;
            }
        }
        if (noc->pend_head[k])
            noc->inj_list[p][keep++] = (uint16_t)t;
    }
    noc->ninj[p] = keep;
}

/* Drops the routers left empty from the active list, keeping the others'
 * order (the order routers are visited in decides who wins a full queue). */
static void drop_empty(esp_noc *noc, unsigned p)
{
    unsigned keep = 0;
    for (unsigned i = 0; i < noc->nact[p]; i++) {
        unsigned t = noc->act_list[p][i];
        esp_router *R = &noc->r[p][t];
        if (R->occ)
            noc->act_list[p][keep++] = (uint16_t)t;
        else
            R->active = 0;
    }
    noc->nact[p] = keep;
    noc->emptied[p] = 0;
}

void esp_noc_cycle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    if (esp_noc_idle(noc))
        return;
    uint64_t now = soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        if (noc->nact[p])
            route_plane(soc, p, now);
        if (noc->ninj[p])
            inject_plane(soc, p, now);
        if (noc->emptied[p])
            drop_empty(noc, p);
    }
}

void esp_noc_settle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    uint64_t now = soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++)
        for (unsigned i = 0; i < noc->nact[p]; i++) {
            unsigned t = noc->act_list[p][i];
            esp_router *R = &noc->r[p][t];
            for (unsigned d = 0; d < ESP_NDIRS; d++) {
                esp_queue *q = &R->q[d];
                if (q->occ == ESP_QDEPTH) {
                    noc_count(soc, t, ESP_MON_NOC_QFULL + p * ESP_NDIRS + d, now - q->full_since);
                    q->full_since = now;
                }
            }
        }
}
