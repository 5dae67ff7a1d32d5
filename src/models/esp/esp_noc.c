/* The NoC: six planes of 2D-mesh routers with XY routing, as in ESP.
 *
 * Each router has five input queues (Local, East, West, South, North) of
 * ESP_QDEPTH flits. Every cycle each input may forward its head flit and each
 * output may accept one flit: towards a neighbour if its input queue has
 * room, or to the local tile, which always accepts one flit per cycle. A
 * queue that is full at the end of a cycle counts one backpressure cycle on
 * its monitor (29 + plane*5 + direction). A flit that arrived this cycle does
 * not move on in the same cycle. Flits of different packets may interleave
 * (no wormhole locking): the model counts flits and packets, not payloads.
 * Only routers holding flits are visited, so an idle NoC costs nothing. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

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
static inline void noc_count(socmon_esp_soc *soc, unsigned t, unsigned mon)
{
    soc->tiles[t].count[mon]++;
}

static unsigned route(const esp_noc *noc, unsigned t, unsigned dst)
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

static void q_push(esp_queue *q, esp_chain *ch)
{
    if (q->nseg > 0) {
        esp_seg *tail = &q->seg[(q->head + q->nseg - 1) % ESP_QDEPTH];
        if (tail->ch == ch) {
            tail->n++;
            goto done;
        }
    }
    q->seg[(q->head + q->nseg) % ESP_QDEPTH] = (esp_seg){ch, ch->hops[ch->cur].dst, 1};
    q->nseg++;
done:
    q->occ++;
    q->fresh++;
}

static esp_chain *q_pop(esp_queue *q)
{
    esp_seg *s = &q->seg[q->head];
    esp_chain *ch = s->ch;
    if (--s->n == 0) {
        q->head = (uint8_t)((q->head + 1) % ESP_QDEPTH);
        q->nseg--;
    }
    q->occ--;
    return ch;
}

static void activate(esp_noc *noc, unsigned p, unsigned t)
{
    esp_router *r = &noc->r[p][t];
    if (!r->active) {
        r->active = 1;
        noc->act_list[p][noc->nact[p]++] = (uint16_t)t;
    }
}

static void route_plane(socmon_esp_soc *soc, unsigned p)
{
    esp_noc *noc = &soc->eng->noc;
    unsigned nact = noc->nact[p]; /* routers activated during this pass wait a cycle */
    for (unsigned i = 0; i < nact; i++) {
        unsigned t = noc->act_list[p][i];
        esp_router *R = &noc->r[p][t];
        unsigned used = 0;
        for (unsigned k = 0; k < ESP_NDIRS; k++) {
            unsigned d = (R->rr + k) % ESP_NDIRS;
            esp_queue *q = &R->q[d];
            if (q->occ == q->fresh)
                continue;
            unsigned o = route(noc, t, q->seg[q->head].dst);
            if (used & (1u << o))
                continue;
            esp_chain *ch;
            if (o == ESP_DIR_LOCAL) {
                ch = q_pop(q);
                R->occ--;
                noc->flits_in_net--;
                soc->eng->st.flits_ejected[p]++;
                if (++ch->flits_in == ch->hops[ch->cur].flits)
                    esp_chain_arrived(soc, ch);
            } else {
                unsigned nb = o == ESP_DIR_EAST ? t + 1 : o == ESP_DIR_WEST ? t - 1
                            : o == ESP_DIR_SOUTH ? t + noc->cols : t - noc->cols;
                unsigned in = o == ESP_DIR_EAST ? ESP_DIR_WEST : o == ESP_DIR_WEST ? ESP_DIR_EAST
                            : o == ESP_DIR_SOUTH ? ESP_DIR_NORTH : ESP_DIR_SOUTH;
                esp_router *N = &noc->r[p][nb];
                if (N->q[in].occ >= ESP_QDEPTH)
                    continue;
                ch = q_pop(q);
                R->occ--;
                q_push(&N->q[in], ch);
                N->occ++;
                activate(noc, p, nb);
            }
            used |= 1u << o;
        }
        R->rr = (uint8_t)((R->rr + 1) % ESP_NDIRS);
    }
}

static void inject_plane(socmon_esp_soc *soc, unsigned p)
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
                noc_count(soc, t, ESP_MON_NOC_INJ + p); /* a packet enters the NoC */
                soc->eng->st.packets[p]++;
            }
            q_push(q, ch);
            R->occ++;
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

static void settle_plane(socmon_esp_soc *soc, unsigned p)
{
    esp_noc *noc = &soc->eng->noc;
    unsigned keep = 0;
    for (unsigned i = 0; i < noc->nact[p]; i++) {
        unsigned t = noc->act_list[p][i];
        esp_router *R = &noc->r[p][t];
        for (unsigned d = 0; d < ESP_NDIRS; d++) {
            R->q[d].fresh = 0;
            if (R->q[d].occ == ESP_QDEPTH)
                noc_count(soc, t, ESP_MON_NOC_QFULL + p * ESP_NDIRS + d);
        }
        if (R->occ)
            noc->act_list[p][keep++] = (uint16_t)t;
        else
            R->active = 0;
    }
    noc->nact[p] = keep;
}

void esp_noc_cycle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    if (esp_noc_idle(noc))
        return;
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        if (noc->nact[p])
            route_plane(soc, p);
        if (noc->ninj[p])
            inject_plane(soc, p);
        if (noc->nact[p])
            settle_plane(soc, p);
    }
}
