/* Memory transactions: what a cache miss, a DMA line or a write-back does to
 * the caches, which monitors it moves, and which packets it sends.
 *
 * Cache state changes at once when a transaction is issued (the model has no
 * races to resolve); the monitors at the far end move when the packets
 * arrive, so snapshots taken mid-flight see requests that are still on the
 * NoC as not yet received. A transaction is a chain of hops (esp_internal.h):
 *
 *   L2 miss     X->H Get [H->Y fwd, Y->H rsp]* H->X data      (planes 0, 1, 2)
 *   L2 evict    X->H Put, H->X ack                              (planes 0, 2)
 *   DMA read    A->H req [H->Y fwd, Y->H rsp]* H->A data        (planes 5, 1, 2, 3;
 *                                                                coherent DMA: 3, 1, 2, 5)
 *   DMA write   A->H req+data [H->Y fwd, Y->H rsp]*             (planes 5 or 3, 1, 2)
 *   uncached    C->H req [H->C data]                            (planes 0, 2)
 *
 * [..]* are recalls: of the LLC's victim from the L2 holding it (the LLC is
 * inclusive), and for a Get or coherent DMA of the requested line from the
 * L2 holding it. The model keeps at most one private copy of a line.
 *
 * Between hops the tiles' caches and DDR take time (esp_mem.c): each chain says, with work(),
 * what the tile a hop leaves from does first (the L2's lookup, the LLC's pass with its DDR
 * accesses, a recalled L2's answer, the LLC resuming after the recall's response), and what the
 * requester does after the last hop (the L2's fill). */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

#define CHAIN_BLOCK 256

esp_chain *smn_esp_chain_alloc(socmon_esp_soc *soc, esp_act *act)
{
    esp_engine *e = soc->eng;
    if (!e->free_chains) {
        esp_chain *blk = calloc(CHAIN_BLOCK, sizeof *blk);
        void **nb = blk ? realloc(e->blocks, (e->nblocks + 1) * sizeof *nb) : NULL;
        if (!nb) {
            free(blk);
            e->oom = 1; /* reported by the next advance or primitive */
            return NULL;
        }
        e->blocks = nb;
        e->blocks[e->nblocks++] = blk;
        for (unsigned i = 0; i < CHAIN_BLOCK; i++) {
            blk[i].next = e->free_chains;
            e->free_chains = &blk[i];
        }
    }
    esp_chain *ch = e->free_chains;
    e->free_chains = ch->next;
    memset(ch, 0, sizeof *ch);
    ch->act = act;
    if (act)
        act->outstanding++;
    return ch;
}

void smn_esp_chain_free(socmon_esp_soc *soc, esp_chain *ch)
{
    ch->next = soc->eng->free_chains;
    soc->eng->free_chains = ch;
}

void smn_esp_chain_arrived(socmon_esp_soc *soc, esp_chain *ch)
{
    const esp_hop *h = &ch->hops[ch->cur];
    for (unsigned i = 0; i < h->nrecv; i++)
        smn_esp_count(soc, h->recv[i].tile, h->recv[i].mon, h->recv[i].n);
    ch->cur++;
    smn_esp_chain_go(soc, ch);
}

void smn_esp_chain_done(socmon_esp_soc *soc, esp_chain *ch)
{
    if (ch->act) {
        if (ch->act->kind == ACT_TRAFFIC)
            smn_esp_traffic_arrived(soc, ch);
        ch->act->outstanding--;
        /* A finished activity whose last transaction this was leaves in this cycle, whatever
         * the step the engine was asked to run (its tile's DVFS point changes then). */
        if (ch->act->finished && ch->act->outstanding == 0)
            soc->eng->reap_due = 1;
        /* Arrivals come in the NoC's part of the cycle: the activity steps in the next. */
        if (ch->act->asleep && ch->act->wake_at == ESP_NO_CYCLE)
            smn_esp_act_wake(soc, ch->act, soc->cycles + 1);
    }
    smn_esp_chain_free(soc, ch);
}

static esp_hop *hop(esp_chain *ch, unsigned src, unsigned dst, unsigned plane, unsigned flits)
{
    /* Chains are at most Get + two recalls + data (6 hops): no overflow. */
    esp_hop *h = &ch->hops[ch->nhops++];
    h->src = (uint16_t)src;
    h->dst = (uint16_t)dst;
    h->plane = (uint8_t)plane;
    h->flits = (uint16_t)flits;
    return h;
}

/* Tile t does work w before the chain's next hop leaves (or, after the last, before the
 * requester is told): esp_mem.c gives it its time. */
static void work(esp_chain *ch, unsigned k, unsigned t, unsigned w)
{
    ch->work[k] = (uint8_t)w;
    ch->wtile[k] = (uint16_t)t;
}

/* How much monitor mon moves for hop h: a memory-tile queue monitor one per flit (the FIFO's
 * strobe), DDR one per AHB beat of the line, the rest once. */
static uint16_t amount(const esp_hop *h, unsigned mon)
{
    if (mon >= ESP_MON_COH_REQ && mon <= ESP_MON_COH_DMA_RSP)
        return h->flits;
    return mon == ESP_MON_DDR ? ESP_DDR_BEATS : 1;
}

static void on_send(esp_hop *h, unsigned tile, unsigned mon)
{
    h->send[h->nsend++] = (esp_effect){(uint16_t)tile, (uint8_t)mon, amount(h, mon)};
}

/* n of them (an uncached word is one DDR beat, not a line's two) */
static void on_recv_n(esp_hop *h, unsigned tile, unsigned mon, unsigned n)
{
    h->recv[h->nrecv++] = (esp_effect){(uint16_t)tile, (uint8_t)mon, (uint16_t)n};
}

static void on_recv(esp_hop *h, unsigned tile, unsigned mon)
{
    on_recv_n(h, tile, mon, amount(h, mon));
}

unsigned smn_esp_home(const socmon_esp_soc *soc, uint64_t line)
{
    /* Memory is interleaved over the memory tiles page by page. */
    const esp_engine *e = soc->eng;
    return e->mem[(line * ESP_LINE / ESP_PAGE) % e->nmem];
}

static int slot_of(const esp_cache *c, uint64_t line)
{
    unsigned base = (unsigned)(line % c->sets) * c->ways;
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[base + w] == line + 1)
            return (int)(base + w);
    return -1;
}

/* The LLC at H takes line back from the L2 of tile y: a forward and a
 * response. Returns whether the L2's copy was dirty. */
static int recall(socmon_esp_soc *soc, esp_chain *ch, unsigned H, unsigned y, uint64_t line)
{
    esp_cache *l2 = &soc->eng->c.l2[y];
    int s = l2->sets ? slot_of(l2, line) : -1;
    if (s < 0)
        return 0;
    int dirty = l2->dirty[s];
    l2->tag[s] = 0;
    l2->dirty[s] = 0;
    on_send(hop(ch, H, y, ESP_P_COH_FWD, ESP_FLITS_CTRL), H, ESP_MON_COH_FWD);
    work(ch, ch->nhops, y, ESP_W_L2_FWD);
    on_recv(hop(ch, y, H, ESP_P_COH_RSP, dirty ? ESP_FLITS_DATA : ESP_FLITS_CTRL), H,
            ESP_MON_COH_RSP_RCV);
    work(ch, ch->nhops, H, ESP_W_LLC_RSP);
    return dirty;
}

/* Looks line up in H's LLC for the request in hop 0, filling it on a miss.
 * Returns its slot. */
static unsigned llc_get(socmon_esp_soc *soc, esp_chain *ch, unsigned H, uint64_t line)
{
    esp_cache *llc = &soc->eng->c.llc[H];
    esp_hop *h0 = &ch->hops[0];
    int w = smn_esp_cache_find(llc, line);
    work(ch, 1, H, ESP_W_LLC); /* hop 1 leaves H (data, or a recall's forward), or the chain ends there */
    if (w >= 0) {
        on_recv(h0, H, ESP_MON_LLC_HIT);
        return esp_cache_slot(llc, line, w);
    }
    on_recv(h0, H, ESP_MON_LLC_MISS);
    on_recv(h0, H, ESP_MON_DDR); /* the fill */
    unsigned wk = ESP_W_LLC | ESP_W_FILL;
    unsigned s = esp_cache_slot(llc, line, smn_esp_cache_victim(llc, line));
    if (llc->tag[s]) {
        int dirty = llc->dirty[s];
        if (llc->holder[s])
            dirty |= recall(soc, ch, H, llc->holder[s] - 1u, llc->tag[s] - 1);
        if (dirty) {
            on_recv(h0, H, ESP_MON_DDR); /* the write-back */
            soc->eng->st.llc_writebacks++;
            wk |= ESP_W_WB;
        }
    }
    work(ch, 1, H, wk);
    smn_esp_cache_fill(llc, s, line, 0);
    return s;
}

int smn_esp_txn_l2_evict(socmon_esp_soc *soc, esp_act *act, unsigned tile, unsigned slot)
{
    esp_cache *l2 = &soc->eng->c.l2[tile];
    if (!l2->tag[slot])
        return 0;
    uint64_t line = l2->tag[slot] - 1;
    int dirty = l2->dirty[slot];
    unsigned H = smn_esp_home(soc, line);
    esp_cache *llc = &soc->eng->c.llc[H];
    int s = slot_of(llc, line);
    if (s >= 0) {
        llc->holder[s] = 0;
        llc->dirty[s] |= (uint8_t)dirty;
    }
    l2->tag[slot] = 0;
    l2->dirty[slot] = 0;
    esp_chain *ch = smn_esp_chain_alloc(soc, act);
    if (!ch)
        return 0;
    on_recv(hop(ch, tile, H, ESP_P_COH_REQ, dirty ? ESP_FLITS_DATA : ESP_FLITS_CTRL), H,
            ESP_MON_COH_REQ);
    work(ch, 1, H, ESP_W_LLC); /* PutS/PutM: one pass of the LLC's controller */
    on_send(hop(ch, H, tile, ESP_P_COH_RSP, ESP_FLITS_CTRL), H, ESP_MON_COH_RSP_SND);
    smn_esp_chain_go(soc, ch);
    return 1;
}

/* timed_hit: the requester waits for the L2's lookup on a hit too (an accelerator, whose DMA
 * engine talks to its L2 directly); a CPU's hits take one cycle (its L1, which the model does
 * not have, serves most of them). */
static int l2_access(socmon_esp_soc *soc, esp_act *act, unsigned X, uint64_t line, int store,
                     int timed_hit)
{
    esp_engine *e = soc->eng;
    esp_cache *l2 = &e->c.l2[X];
    e->st.l2_accesses++;
    int w = smn_esp_cache_find(l2, line);
    if (w >= 0) {
        smn_esp_count(soc, X, ESP_MON_L2_HIT, 1);
        if (store)
            l2->dirty[esp_cache_slot(l2, line, w)] = 1;
        if (!timed_hit)
            return 0;
        esp_chain *ch = smn_esp_chain_alloc(soc, act);
        if (!ch)
            return 0;
        work(ch, 0, X, ESP_W_L2_LOOKUP); /* no hop: the requester is told when it is done */
        smn_esp_chain_go(soc, ch);
        return 1;
    }
    smn_esp_count(soc, X, ESP_MON_L2_MISS, 1);
    unsigned vs = esp_cache_slot(l2, line, smn_esp_cache_victim(l2, line));
    smn_esp_txn_l2_evict(soc, NULL, X, vs);
    esp_chain *ch = smn_esp_chain_alloc(soc, act);
    if (!ch)
        return 0;
    unsigned H = smn_esp_home(soc, line);
    esp_cache *llc = &e->c.llc[H];
    work(ch, 0, X, ESP_W_L2_LOOKUP); /* the miss is found, then the Get leaves */
    on_recv(hop(ch, X, H, ESP_P_COH_REQ, ESP_FLITS_CTRL), H, ESP_MON_COH_REQ);
    unsigned s = llc_get(soc, ch, H, line);
    if (llc->holder[s] && llc->holder[s] - 1u != X)
        llc->dirty[s] |= (uint8_t)recall(soc, ch, H, llc->holder[s] - 1u, line);
    on_send(hop(ch, H, X, ESP_P_COH_RSP, ESP_FLITS_DATA), H, ESP_MON_COH_RSP_SND);
    work(ch, ch->nhops, X, ESP_W_L2_FILL);
    llc->holder[s] = (uint16_t)(X + 1);
    smn_esp_cache_fill(l2, vs, line, store);
    smn_esp_chain_go(soc, ch);
    return 1;
}

int smn_esp_txn_l2_access(socmon_esp_soc *soc, esp_act *act, unsigned X, uint64_t line, int store)
{
    return l2_access(soc, act, X, line, store, 0);
}

int smn_esp_txn_dma(socmon_esp_soc *soc, esp_act *act, unsigned A, uint64_t line, int write,
                socmon_esp_coherence mode)
{
    esp_engine *e = soc->eng;
    e->st.dma_lines[mode]++;
    if (mode == SOCMON_ESP_COH_FULL)
        return l2_access(soc, act, A, line, write, 1);
    esp_chain *ch = smn_esp_chain_alloc(soc, act);
    if (!ch)
        return 0;
    unsigned H = smn_esp_home(soc, line);
    /* LLC-coherent and coherent DMA are one path in the RTL: the accelerator's DMA engine sends
     * REQ_DMA_READ/WRITE on the LLC-coherent DMA queues for both (esp_acc_dma.vhd), which the
     * memory tile's LLC wrapper reads (tile_mem.vhd: its DMA port is the coherent_dma queue,
     * monitors 7/8), and the LLC recalls a line an L2 holds in either mode; the modes differ in
     * the flush ESP's driver does first. Only non-coherent DMA takes the DMA queues (5/6) to
     * noc2ahbmst and DDR. */
    int coh = mode != SOCMON_ESP_COH_NONE;
    unsigned req_plane = coh ? ESP_P_NOC4 : ESP_P_NOC6, rsp_plane = coh ? ESP_P_NOC6 : ESP_P_NOC4;
    on_recv(hop(ch, A, H, req_plane, write ? ESP_FLITS_DMA_WRITE : ESP_FLITS_CTRL), H,
            coh ? ESP_MON_COH_DMA_REQ : ESP_MON_DMA_REQ);
    if (mode == SOCMON_ESP_COH_NONE) {
        /* Straight to DDR: the LLC is bypassed (software flushed it first). */
        on_recv(&ch->hops[0], H, ESP_MON_DDR);
        work(ch, 1, H, write ? ESP_W_DDR_WR : ESP_W_DDR_RD);
    } else {
        esp_cache *llc = &e->c.llc[H];
        unsigned s = llc_get(soc, ch, H, line);
        if (llc->holder[s]) {
            llc->dirty[s] |= (uint8_t)recall(soc, ch, H, llc->holder[s] - 1u, line);
            llc->holder[s] = 0;
        }
        if (write)
            llc->dirty[s] = 1;
    }
    if (!write)
        on_send(hop(ch, H, A, rsp_plane, ESP_FLITS_DATA), H,
                coh ? ESP_MON_COH_DMA_RSP : ESP_MON_DMA_RSP);
    smn_esp_chain_go(soc, ch);
    return 1;
}

int smn_esp_txn_uncached(socmon_esp_soc *soc, esp_act *act, unsigned C, uint64_t line, int store)
{
    esp_chain *ch = smn_esp_chain_alloc(soc, act);
    if (!ch)
        return 0;
    soc->eng->st.uncached++;
    unsigned H = smn_esp_home(soc, line);
    /* Without an L2 the CPU tile's bridge (ahbslv2noc/axislv2noc in tile_cpu.vhd) sends its
     * accesses on the coherence request plane and gets the data back on the response plane; the
     * memory tile's noc2ahbmst takes them from and answers into the coherence queues, whose
     * monitors (1 and 4) count them. A store is posted: no answer. An access is one 64-bit
     * word: a request of 2 flits (3 with the stored word), an answer of 2, one AHB beat. */
    esp_hop *req = hop(ch, C, H, ESP_P_COH_REQ, store ? ESP_FLITS_DATA : ESP_FLITS_CTRL);
    on_recv(req, H, ESP_MON_COH_REQ);
    on_recv_n(req, H, ESP_MON_DDR, 1);
    work(ch, 1, H, store ? ESP_W_DDR_WR : ESP_W_DDR_RD);
    if (!store)
        on_send(hop(ch, H, C, ESP_P_COH_RSP, ESP_FLITS_CTRL), H, ESP_MON_COH_RSP_SND);
    smn_esp_chain_go(soc, ch);
    return 1;
}
