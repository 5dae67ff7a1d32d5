/* The memory system's time: how long the private L2s, the LLC and DDR of a memory tile take
 * for a transaction, between the NoC hops that carry it (esp_txn.c builds the chains and
 * says, per hop, what work the tile at its source does first).
 *
 * Each unit serves one request at a time, as ESP's are built (docs/esp-model.md §3 "Latency"):
 * the LLC's controller is one state machine that takes a request from DECODE to UPDATE before
 * the next, and waits in it for DDR on a miss; DDR sits behind the memory tile's AHB bus,
 * which carries one transfer at a time, for the LLC and the non-coherent DMA proxy alike; a
 * private L2's controller likewise. So a unit is a "free from" cycle: work that arrives while
 * it is busy starts when it is free, and the next hop leaves when the work is done. A chain
 * whose work ends later than now waits in a min-heap until that cycle; the engine releases it
 * before the NoC's part of that cycle (esp_engine.c). Work 0 sends at once, exactly as
 * before: chosen NoC traffic has none. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

socmon_status smn_esp_mem_init(esp_memsys *m, unsigned ntiles)
{
    memset(m, 0, sizeof *m);
    m->llc_free = calloc(ntiles, sizeof *m->llc_free);
    m->ddr_free = calloc(ntiles, sizeof *m->ddr_free);
    m->l2_free = calloc(ntiles, sizeof *m->l2_free);
    m->waiting = calloc((size_t)ntiles * ESP_NPLANES, sizeof *m->waiting);
    if (!m->llc_free || !m->ddr_free || !m->l2_free || !m->waiting) {
        smn_esp_mem_destroy(m);
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory");
    }
    return SOCMON_OK;
}

void smn_esp_mem_destroy(esp_memsys *m)
{
    free(m->llc_free);
    free(m->ddr_free);
    free(m->l2_free);
    free(m->waiting);
    free(m->heap);
    memset(m, 0, sizeof *m);
}

void smn_esp_mem_clear(esp_memsys *m, unsigned ntiles)
{
    memset(m->llc_free, 0, ntiles * sizeof *m->llc_free);
    memset(m->ddr_free, 0, ntiles * sizeof *m->ddr_free);
    memset(m->l2_free, 0, ntiles * sizeof *m->l2_free);
    memset(m->waiting, 0, (size_t)ntiles * ESP_NPLANES * sizeof *m->waiting);
    m->nheap = 0;
    m->seq = 0;
}

/* The unit is busy from max(from, *free_at) for cycles: returns when it is done. */
static uint64_t use(uint64_t *free_at, uint64_t from, unsigned cycles)
{
    uint64_t s = from > *free_at ? from : *free_at;
    *free_at = s + cycles;
    return *free_at;
}

/* Books work w at tile t from cycle now; the cycle it is done. */
static uint64_t book(esp_memsys *m, unsigned t, unsigned w, uint64_t now)
{
    switch (w & ESP_W_KIND) {
    case ESP_W_LLC: {
        /* The controller holds the request through its DDR accesses: write-back first
         * (EVICT), then the fill (MEM_REQ, then MEM_RSP waits for the data). */
        uint64_t s = now > m->llc_free[t] ? now : m->llc_free[t];
        uint64_t done = s + ESP_LLC_PIPE;
        if (w & ESP_W_WB)
            done = use(&m->ddr_free[t], done, ESP_DDR_WR);
        if (w & ESP_W_FILL)
            done = use(&m->ddr_free[t], done + ESP_LLC_MEM_REQ, ESP_DDR_RD);
        m->llc_free[t] = done;
        return done;
    }
    case ESP_W_LLC_RSP: return use(&m->llc_free[t], now, 2 * ESP_LLC_PIPE);
    case ESP_W_DDR_RD: return use(&m->ddr_free[t], now, ESP_DDR_RD);
    case ESP_W_DDR_WR: return use(&m->ddr_free[t], now, ESP_DDR_WR);
    case ESP_W_L2_LOOKUP: return use(&m->l2_free[t], now, ESP_L2_LOOKUP);
    case ESP_W_L2_FWD: return use(&m->l2_free[t], now, ESP_L2_FWD);
    case ESP_W_L2_FILL: return use(&m->l2_free[t], now, ESP_L2_FILL);
    default: return now;
    }
}

static int before(const esp_chain *a, const esp_chain *b)
{
    return a->due < b->due || (a->due == b->due && a->seq < b->seq);
}

static int heap_push(socmon_esp_soc *soc, esp_chain *ch)
{
    esp_memsys *m = &soc->eng->ms;
    if (m->nheap == m->capheap) {
        size_t cap = m->capheap ? m->capheap * 2 : 256;
        esp_chain **nh = realloc(m->heap, cap * sizeof *nh);
        if (!nh)
            return -1;
        m->heap = nh;
        m->capheap = cap;
    }
    ch->seq = m->seq++;
    size_t i = m->nheap++;
    while (i > 0 && before(ch, m->heap[(i - 1) / 2])) {
        m->heap[i] = m->heap[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    m->heap[i] = ch;
    return 0;
}

static esp_chain *heap_pop(esp_memsys *m)
{
    esp_chain *top = m->heap[0], *last = m->heap[--m->nheap];
    size_t i = 0, n = m->nheap;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && before(m->heap[c + 1], m->heap[c]))
            c++;
        if (!before(m->heap[c], last))
            break;
        m->heap[i] = m->heap[c];
        i = c;
    }
    if (n)
        m->heap[i] = last;
    return top;
}

/* A packet that waits for a unit holds its place in the tile's input queue: once
 * ESP_MEM_QDEPTH wait there, the tile takes no more flits from that plane (esp_noc.c's sink
 * stop) and the NoC backs up behind it, as ESP's tile queues make it. */
static void hold(socmon_esp_soc *soc, esp_chain *ch)
{
    if (ch->cur == 0)
        return; /* work before the first hop: the requester's own */
    const esp_hop *h = &ch->hops[ch->cur - 1];
    uint16_t *w = &soc->eng->ms.waiting[(size_t)h->dst * ESP_NPLANES + h->plane];
    ch->wplane = (uint8_t)(h->plane + 1);
    if (++*w == ESP_MEM_QDEPTH)
        smn_esp_noc_sink_stop(&soc->eng->noc, h->plane, h->dst, 1);
}

static void unhold(socmon_esp_soc *soc, esp_chain *ch)
{
    if (!ch->wplane)
        return;
    const esp_hop *h = &ch->hops[ch->cur - 1];
    unsigned p = ch->wplane - 1u;
    uint16_t *w = &soc->eng->ms.waiting[(size_t)h->dst * ESP_NPLANES + p];
    ch->wplane = 0;
    if ((*w)-- == ESP_MEM_QDEPTH)
        smn_esp_noc_sink_stop(&soc->eng->noc, p, h->dst, 0);
}

static void proceed(socmon_esp_soc *soc, esp_chain *ch)
{
    if (ch->cur < ch->nhops)
        smn_esp_noc_send(soc, ch);
    else
        smn_esp_chain_done(soc, ch);
}

void smn_esp_chain_go(socmon_esp_soc *soc, esp_chain *ch)
{
    unsigned w = ch->work[ch->cur];
    uint64_t now = soc->cycles;
    if (w == ESP_W_NONE) {
        proceed(soc, ch);
        return;
    }
    uint64_t done = book(&soc->eng->ms, ch->wtile[ch->cur], w, now);
    if (done <= now) {
        proceed(soc, ch);
        return;
    }
    ch->due = done;
    hold(soc, ch);
    if (heap_push(soc, ch) != 0) {
        unhold(soc, ch);
        soc->eng->oom = 1; /* reported by the next advance or primitive; the chain goes on now */
        proceed(soc, ch);
    }
}

void smn_esp_mem_release(socmon_esp_soc *soc)
{
    esp_memsys *m = &soc->eng->ms;
    while (m->nheap && m->heap[0]->due <= soc->cycles) {
        esp_chain *ch = heap_pop(m);
        unhold(soc, ch);
        proceed(soc, ch);
    }
}

uint64_t smn_esp_mem_next(const esp_memsys *m)
{
    return m->nheap ? m->heap[0]->due : ESP_NO_CYCLE;
}
