/* The NoC: six planes of 2D-mesh routers, each cycle as ESP's router RTL does it
 * (rtl/noc/router/lookahead_router.sv, router_fifo.sv, router_arbiter.sv at ESP 009a3f5b, with
 * ACK/NACK flow control and QUEUE_SIZE 4, as rtl/noc/sync_noc_xy.vhd instantiates it;
 * docs/esp-model.md, "The NoC", and ../shared/specs/esp_noc_rtl.md). What a router holds:
 *
 * - per input, a FIFO of ESP_QDEPTH flits with bypass: when it is empty, the flit arriving on
 *   the link is at its head in the same cycle and may be forwarded in that cycle; a full FIFO
 *   takes no flit, even in a cycle it is read (`full` is a register);
 * - per output, a one-flit register: a flit forwarded in cycle c is on the link in c + 1. It
 *   keeps its flit while the next router's input is full (stop), and else takes the flit
 *   forwarded in this cycle or none;
 * - per output, a worm lock from head to tail, and a matrix arbiter over the other four inputs:
 *   least recently granted first, initial order N, S, W, E, L, moved when a head is forwarded;
 * - XY routing (the RTL computes it a hop ahead; the output taken is the same).
 *
 * Every router's next state depends only on registers (its own and its neighbours' output
 * registers and full flags), never on what another router does in the same cycle. So a cycle
 * has two halves over the routers that hold or receive a flit: decide() reads the registers and
 * writes only the router's own scratch fields; commit() writes the router's own state, its
 * output registers, which are its neighbours' links, and the stop masks of the routers feeding
 * its inputs (its full flags, as they read them). The order routers are visited in does not
 * matter to any router's state. Two kinds of visit, most of them under load, commit without the
 * general loops ("Passes", below): a pass (one flit from a link through an empty FIFO into the
 * only output that moves) and a drain (no flit at any input). They keep their places on the
 * lists, whose order is the order of a cycle's ejections (their chains book memory units and
 * send packets).
 *
 * The monitors count what sync_noc_xy.vhd routes to mon_noc, every cycle: tile_inject (23 + P)
 * the cycles a flit is offered on the local input; queue_full(Q) (29 + 5P + Q) the cycles output
 * register Q holds a flit, Q = 0..3 (N, S, W, E), and for Q = 4 the cycles a flit is on the local
 * input or the local output. Two model-only counters (no ESP monitor sees them) count the cycles
 * each input FIFO is full (stop_out) and the packets injected.
 *
 * Sleeping routers. A router whose cycle changes nothing but its monitors (it forwards no flit,
 * every output register holding one is stopped, every arriving flit meets a full FIFO: a router
 * behind a stalled sink, or holding a worm whose next flit has not come) would do the same in
 * every later cycle until something it decides from changes: a flit arriving on a link (its
 * upstream's commit lists it, as ever), a downstream FIFO's full flag, its sink's stop, an offer.
 * So it falls asleep, off the lists; its monitors need no visit (below). A downstream router whose
 * full flag changes wakes the upstream router feeding that input; smn_esp_noc_sink_stop wakes the
 * sink's router for the next cycle its plane decides in (this one if the plane has not run yet: as the live flag it reads).
 *
 * Monitors per span. queue_full(Q) is added when output register Q stops holding a flit (the
 * cycles since it began: so[Q]), a stop counter when its FIFO stops being full (sf), and both up
 * to the current cycle when the engine settles the monitors before anyone can read them
 * (smn_esp_noc_settle, at the end of every run); the offers on the local input count queue_full(L)
 * as they are made, in the cycles the local output holds no flit. Stamps are 32-bit: the
 * counters wrap modulo 2^32, so a span's length modulo 2^32 is what they add. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

enum { N = ESP_DIR_NORTH, S = ESP_DIR_SOUTH, W = ESP_DIR_WEST, E = ESP_DIR_EAST, L = ESP_DIR_LOCAL };
/* The cycle's code is inlined into one function (cycle_plane): on x86-64 GCC compiles it twice,
 * for the baseline the build targets and for CPUs with BMI1/2 and AVX2 (x86-64-v3: shifts by a
 * register without moves to CL, one-instruction bit clears), chosen when the library loads
 * (target_clones, an ifunc): the same C, the same numbers. A clone inlines only what is marked
 * always_inline. Not under the sanitizers, whose runtimes need not expect an ifunc: they check
 * the same C. */
#define ALWAYS_INLINE __attribute__((always_inline))
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__linux__) && \
    !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
#define HOT_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define HOT_CLONES
#endif
#define HEAD 1u
#define TAIL 2u
#define FLIT_IDS_PER_TILE (ESP_NDIRS * ESP_QDEPTH + ESP_NDIRS + 1) /* FIFOs, registers, an offer */

/* Bits set in a 5-bit mask (no popcnt instruction in the baseline x86-64 the build targets). */
static const uint8_t POPCOUNT5[32] = {0, 1, 1, 2, 1, 2, 2, 3, 1, 2, 2, 3, 2, 3, 3, 4,
                                      1, 2, 2, 3, 2, 3, 3, 4, 2, 3, 3, 4, 3, 4, 4, 5};

/* By output port: the input port it feeds at the neighbour. */
static const uint8_t OPPOSITE[ESP_NDIRS] = {[N] = S, [S] = N, [W] = E, [E] = W, [L] = L};

/* XY routing: along the row first, then the column (lookahead_routing.sv). */
static unsigned xy_route(unsigned cols, unsigned t, unsigned dst)
{
    unsigned r = t / cols, c = t % cols, dr = dst / cols, dc = dst % cols;
    if (dc > c)
        return E;
    if (dc < c)
        return W;
    if (dr > r)
        return S;
    if (dr < r)
        return N;
    return L;
}

static esp_route route_of(unsigned cols, unsigned t, unsigned dst)
{
    static const int dr[ESP_NDIRS] = {[N] = -1, [S] = 1}, dc[ESP_NDIRS] = {[W] = -1, [E] = 1};
    unsigned o = xy_route(cols, t, dst);
    if (o == L)
        return ESP_ROUTE(L, 0, 0);
    unsigned nt = (unsigned)((int)(t / cols) + dr[o]) * cols + (unsigned)((int)(t % cols) + dc[o]);
    return ESP_ROUTE(o, OPPOSITE[o], nt);
}

/* The neighbour's tile that output o of tile t feeds (o != L, inside the mesh). */
static inline ALWAYS_INLINE unsigned nb_tile(const esp_noc *noc, unsigned t, unsigned o)
{
    return (unsigned)((int)t + noc->delta[o]);
}

/* The matrix arbiter's orders (router_arbiter.sv): for output o, each order of its four inputs
 * as 3-bit fields, most preferred first; order 0 is the initial one (InitialPriority: by port
 * number, the lowest first). A head from input i forwarded moves i to the end. The tables give
 * the grant and the next order by index. */
static void arb_tables(esp_noc *noc)
{
    for (unsigned o = 0; o < ESP_NDIRS; o++) {
        unsigned in[4], n = 0, ord[24], k = 0;
        for (unsigned i = 0; i < ESP_NDIRS; i++)
            if (i != o)
                in[n++] = i;
        for (unsigned a = 0; a < 4; a++) /* lexicographic: a, b, c, d = 0, 1, 2, 3 first */
            for (unsigned b = 0; b < 4; b++)
                for (unsigned c = 0; c < 4; c++)
                    for (unsigned d = 0; d < 4; d++)
                        if (a != b && a != c && a != d && b != c && b != d && c != d)
                            ord[k++] = in[a] | in[b] << 3 | in[c] << 6 | in[d] << 9;
        for (k = 0; k < 24; k++) {
            for (unsigned req = 0; req < 32; req++) {
                unsigned g = ESP_NDIRS; /* none */
                for (unsigned j = 0, v = ord[k]; j < 4; j++, v >>= 3)
                    if (req >> (v & 7u) & 1u) {
                        g = v & 7u;
                        break;
                    }
                noc->arb_grant[o][k][req] = (uint8_t)g;
            }
            for (unsigned i = 0; i < ESP_NDIRS; i++) {
                unsigned keep = 0, sh = 0;
                for (unsigned j = 0, v = ord[k]; j < 4; j++, v >>= 3)
                    if ((v & 7u) != i) {
                        keep |= (v & 7u) << sh;
                        sh += 3;
                    }
                keep |= i << 9;
                unsigned nk = 0;
                while (nk < 24 && ord[nk] != keep)
                    nk++;
                noc->arb_demote[o][k][i] = (uint8_t)(nk < 24 ? nk : k); /* i == o: never granted */
            }
        }
    }
}

socmon_status smn_esp_noc_init(esp_noc *noc, unsigned rows, unsigned cols)
{
    memset(noc, 0, sizeof *noc);
    noc->rows = rows;
    noc->cols = cols;
    noc->n = rows * cols;
    size_t nf = (size_t)noc->n * FLIT_IDS_PER_TILE + 1; /* id 0 unused: a void register */
    if (nf > 65536 || noc->n > 1023)
        return socmon_fail(SOCMON_ERANGE, "esp model: a %ux%u NoC is larger than the model's flit ids hold", rows,
                           cols);
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        pl->r = calloc(noc->n, sizeof *pl->r);
        pl->fch = calloc(nf, sizeof *pl->fch);
        pl->fdst = calloc(nf, sizeof *pl->fdst);
        pl->fkind = calloc(nf, sizeof *pl->fkind);
        pl->ffree = calloc(nf, sizeof *pl->ffree);
        pl->list = calloc(noc->n + 1, sizeof *pl->list); /* + 1: commit stores past the end, unlisted */
        pl->next = calloc(noc->n + 1, sizeof *pl->next);
        pl->inj_list = calloc(noc->n, sizeof *pl->inj_list);
        pl->sink_stop = calloc(noc->n, sizeof *pl->sink_stop);
        pl->p = p;
        if (!pl->r || !pl->fch || !pl->fdst || !pl->fkind || !pl->ffree || !pl->list || !pl->next ||
            !pl->inj_list || !pl->sink_stop)
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
    noc->delta[N] = -(int)cols;
    noc->delta[S] = (int)cols;
    noc->delta[W] = -1;
    noc->delta[E] = 1;
    arb_tables(noc);
    smn_esp_noc_clear(noc);
    return SOCMON_OK;
oom:
    smn_esp_noc_destroy(noc);
    return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for a %ux%u NoC", rows, cols);
}

void smn_esp_noc_destroy(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        free(pl->r);
        free(pl->fch);
        free(pl->fdst);
        free(pl->fkind);
        free(pl->ffree);
        free(pl->list);
        free(pl->next);
        free(pl->inj_list);
        free(pl->sink_stop);
    }
    free(noc->route);
    free(noc->pend_head);
    free(noc->pend_tail);
    memset(noc, 0, sizeof *noc);
}

void smn_esp_noc_clear(esp_noc *noc)
{
    for (unsigned p = 0; p < ESP_NPLANES; p++) {
        esp_plane *pl = &noc->pl[p];
        memset(pl->r, 0, noc->n * sizeof *pl->r); /* every arbiter in order 0, the initial one */
        unsigned nf = noc->n * FLIT_IDS_PER_TILE;
        for (unsigned i = 0; i < nf; i++)
            pl->ffree[i] = (uint16_t)(nf - i); /* ids 1..nf, 1 on top */
        pl->nfree = nf;
        pl->nlist = pl->nnext = 0;
        pl->list_cycle = 0;
        pl->ninj = pl->nready = 0;
        memset(pl->sink_stop, 0, noc->n);
    }
    memset(noc->pend_head, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_head);
    memset(noc->pend_tail, 0, (size_t)noc->n * ESP_NPLANES * sizeof *noc->pend_tail);
    noc->flits_in_net = noc->pending = 0;
    noc->busy = 0;
    noc->now = 0;
    noc->in_cycle = 0;
}

/* Router t of plane pl is to be visited in cycle at (now + 1 from a commit): wakes it if it
 * sleeps, and lists it once on list (the list of cycle at). */
static inline ALWAYS_INLINE void wake_onto(esp_plane *pl, unsigned t, uint64_t at, uint16_t *list,
                                           unsigned *nlist)
{
    esp_router *R = &pl->r[t];
    R->asleep = 0;
    if (R->listed != at + 1) {
        R->listed = at + 1;
        list[(*nlist)++] = (uint16_t)t;
    }
}

void smn_esp_noc_sink_stop(esp_noc *noc, unsigned plane, unsigned tile, int stopped)
{
    esp_plane *pl = &noc->pl[plane];
    pl->sink_stop[tile] = (uint8_t)(stopped != 0);
    esp_router *R = &pl->r[tile];
    R->stopin = (uint16_t)(stopped ? R->stopin | 1u << L : R->stopin & ~(1u << L));
    if (!R->asleep)
        return;
    /* Called from a commit of plane noc->cur (an ejection's chain moving on) or between cycles
     * (noc->now is then the next cycle): the router decides next in this cycle if its plane has
     * not run yet, else in the next. */
    if (noc->in_cycle && plane <= noc->cur) {
        if (plane == noc->cur) {
            wake_onto(pl, tile, noc->now + 1, pl->next, &pl->nnext);
            return;
        }
        /* plane < cur: its list is the next cycle's already, or stale if it did not run */
        if (pl->list_cycle != noc->now + 1) {
            pl->nlist = 0;
            pl->list_cycle = noc->now + 1;
        }
        wake_onto(pl, tile, noc->now + 1, pl->list, &pl->nlist);
        noc->busy |= 1u << plane;
        return;
    }
    if (pl->list_cycle != noc->now) {
        pl->nlist = 0; /* a stale list (smn_esp_noc_cycle) */
        pl->list_cycle = noc->now;
    }
    wake_onto(pl, tile, noc->now, pl->list, &pl->nlist);
    noc->busy |= 1u << plane;
}

void smn_esp_noc_settle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    uint32_t upto = (uint32_t)soc->cycles;
    for (unsigned p = 0; p < ESP_NPLANES; p++)
        for (unsigned t = 0; t < noc->n; t++) {
            esp_router *R = &noc->pl[p].r[t];
            uint32_t *cnt = soc->tiles[t].count + ESP_MON_NOC_QFULL + p * ESP_NDIRS;
            uint32_t *xcnt = soc->tiles[t].xcount + ESP_XMON_STOP + p * ESP_NDIRS;
            for (unsigned m = R->outmask; m; m &= m - 1) {
                unsigned o = (unsigned)__builtin_ctz(m);
                cnt[o] += upto - R->so[o];
                R->so[o] = upto;
            }
            for (unsigned m = R->full; m; m &= m - 1) {
                unsigned i = (unsigned)__builtin_ctz(m);
                xcnt[i] += upto - R->sf[i];
                R->sf[i] = upto;
            }
        }
}

int smn_esp_noc_idle(const esp_noc *noc)
{
    return noc->flits_in_net == 0 && noc->pending == 0;
}

void smn_esp_noc_send(socmon_esp_soc *soc, esp_chain *ch)
{
    esp_noc *noc = &soc->eng->noc;
    const esp_hop *h = &ch->hops[ch->cur];
    for (unsigned i = 0; i < h->nsend; i++)
        smn_esp_count(soc, h->send[i].tile, h->send[i].mon, h->send[i].n);
    ch->flits_out = ch->flits_in = 0;
    if (h->src == h->dst) {
        /* A hop from a tile to itself never touches the NoC (the RTL routes no input to its
         * own output). */
        ch->flits_in = h->flits;
        smn_esp_chain_arrived(soc, ch);
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
        if (!(pl->r[h->src].full & 1u << L)) {
            pl->nready++;
            noc->busy |= 1u << h->plane;
        }
    }
    noc->pend_tail[k] = ch;
    noc->pending++;
}

/* Puts router t on the plane's list for the next cycle (once), waking it if it sleeps. */
static inline ALWAYS_INLINE void list_next(esp_plane *pl, unsigned t, uint64_t now)
{
    wake_onto(pl, t, now + 1, pl->next, &pl->nnext);
}

/* The tiles whose local input is not full offer their queue's next flit (the testbench and
 * ESP's tile queues offer only while stop_out(4) is 0, so the router always takes it). */
static inline ALWAYS_INLINE void offer(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_plane *pl = &noc->pl[p];
    unsigned keep = 0, i = 0, ninj = pl->ninj;
    /* Under load most waiting tiles' local inputs are full (multifft: 94% of them): the walk
     * stops after the last tile that can offer, the rest keep their places. */
    for (unsigned left = pl->nready; i < ninj && left; i++) {
        unsigned t = pl->inj_list[i];
        esp_router *R = &pl->r[t];
        if (R->full & (1u << L)) {
            pl->inj_list[keep++] = (uint16_t)t;
            continue;
        }
        left--;
        size_t k = (size_t)t * ESP_NPLANES + p;
        esp_chain *ch = noc->pend_head[k];
        unsigned nfl = ch->hops[ch->cur].flits;
        unsigned kind = ch->flits_out == 0 ? HEAD : 0;
        if (kind) {
            soc->tiles[t].xcount[ESP_XMON_PKTS + p]++;
            soc->eng->st.packets[p]++;
            ch->t_head = now;
        }
        if (ch->flits_out + 1u == nfl)
            kind |= TAIL;
        unsigned id = pl->ffree[--pl->nfree];
        pl->fch[id] = ch;
        pl->fdst[id] = ch->hops[ch->cur].dst;
        pl->fkind[id] = (uint16_t)(kind | (noc->route[(size_t)t * noc->n + pl->fdst[id]] & 7u) << 2);
        soc->tiles[t].count[ESP_MON_NOC_INJ + p]++;
        if (!(R->outmask & 1u << L)) /* queue_full(L) counts this cycle: the offer, or the output */
            soc->tiles[t].count[ESP_MON_NOC_QFULL + p * ESP_NDIRS + L]++;
        noc->flits_in_net++;
        soc->eng->st.flits_injected[p]++;
        R->asleep = 0;
        R->link[L] = (uint16_t)id;
        R->linkmask = (uint16_t)(R->linkmask | 1u << L);
        if (R->listed != now + 1) { /* on this cycle's list */
            R->listed = now + 1;
            pl->list[pl->nlist++] = (uint16_t)t;
        }
        if (++ch->flits_out == nfl) {
            noc->pend_head[k] = ch->next;
            if (!ch->next)
                noc->pend_tail[k] = NULL;
            ch->next = NULL;
            noc->pending--;
        }
        if (noc->pend_head[k])
            pl->inj_list[keep++] = (uint16_t)t;
        else
            pl->nready--;
    }
    if (keep != i)
        memmove(pl->inj_list + keep, pl->inj_list + i, (ninj - i) * sizeof *pl->inj_list);
    pl->ninj = keep + (ninj - i);
}

/* The first half of router t's cycle: decides from the registers what each output does: R->fwdm,
 * the outputs forwarded into, from the input R->sel gives (3 bits per output); R->mov, the outputs
 * that change (forwarded into, or their flit leaves: not stopped); R->rd, the inputs read. The
 * monitors are counted per span, in commit. The loops take only the ports with something to do,
 * their bodies select without branches (a branch on a port's state is as good as random under
 * load: callgrind counted 12 mispredictions a visit on the uniform run before). */
static inline ALWAYS_INLINE void decide(const esp_noc *noc, const esp_plane *pl, unsigned t)
{
    esp_router *R = &pl->r[t];
    const uint16_t *fk = pl->fkind;
    unsigned outm = R->outmask, linkm = R->linkmask, ne = R->nonempty, avail = ne | linkm;
    if (!(ne | (linkm & (linkm - 1)))) { /* no FIFO holds a flit, at most one link does */
        unsigned stopin = R->stopin;
        if (linkm) {
            /* One flit, on a link, at an empty FIFO: a pass if its output takes it (a head: the
             * output is free; a worm's flit: its input holds the output) and is not stopped, and
             * no other output's flit leaves (see "Passes"). */
            unsigned i = (unsigned)__builtin_ctz(linkm), id = R->link[i], k = fk[id], o = k >> 2;
            unsigned lk = R->locked >> o & 1u;
            unsigned ok = k & HEAD ? !lk : lk && R->cfg[o] == i;
            if (ok && i != o && !(outm & ~stopin & ~(1u << o)) && !(stopin >> o & 1u)) {
                R->capid[i] = (uint16_t)id;
                R->pass = (uint16_t)(1u | i << 2 | o << 5);
                return;
            }
        } else {
            /* No flit at any input: only the output registers whose flits leave change */
            unsigned mov = outm & ~stopin;
            R->mov = (uint16_t)mov;
            R->pass = 2;
            if (!mov && (outm | R->locked))
                R->asleep = 1;
            return;
        }
    }
    R->pass = 0;
    /* The flit at each input's head (the FIFO's, or the arriving one through the bypass; 0 and
     * fkind[0] = 0: none), and the outputs the heads among them request: bit 5 * o + i. */
    uint32_t reqm = 0;
    unsigned want = 0;
    R->caplink = (uint16_t)linkm;
    for (unsigned m = avail; m; m &= m - 1) {
        unsigned i = (unsigned)__builtin_ctz(m);
        unsigned h = (uint16_t)R->q[i], l = R->link[i];
        R->capid[i] = (uint16_t)l;
        h = h ? h : l;
        unsigned k = fk[h], hd = k & HEAD;
        reqm |= (uint32_t)hd << ((k >> 2) * 5 + i);
        want |= hd << (k >> 2);
    }
    /* Per output: a locked one requests its worm's input, if a flit is there; a stopped one
     * takes nothing. */
    unsigned locked = R->locked, stopin = R->stopin, rd = 0, fwdm = 0, sel = 0x7fff & 055555u;
    for (unsigned m = (want | locked) & ~stopin; m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctz(m);
        unsigned r = reqm >> (5 * o) & 31u, lk = 0u - (locked >> o & 1u);
        r = (r & ~lk) | (avail & 1u << R->cfg[o] & lk);
        unsigned g = noc->arb_grant[o][R->lrg[o]][r]; /* ESP_NDIRS: none */
        sel = (sel & ~(7u << (3 * o))) | g << (3 * o);
        fwdm |= (unsigned)(r != 0) << o;
        rd |= 1u << g;
    }
    unsigned mov = (outm & ~stopin) | fwdm;
    R->rd = (uint16_t)(rd & 31u);
    R->fwdm = (uint16_t)fwdm;
    R->mov = (uint16_t)mov;
    R->sel = (uint16_t)sel;
    if (!mov && !(linkm & ~R->full) && (ne | outm | locked))
        R->asleep = 1; /* this cycle's commit changes nothing: nor will the next cycles' */
}

/* A flit left its destination's local output: its id goes back to the pool, its chain's hop
 * may be complete. */
static inline ALWAYS_INLINE void eject(socmon_esp_soc *soc, esp_plane *pl, unsigned p, unsigned id)
{
    esp_chain *ch = pl->fch[id];
    pl->ffree[pl->nfree++] = (uint16_t)id;
    soc->eng->noc.flits_in_net--;
    soc->eng->st.flits_ejected[p]++;
    if (++ch->flits_in == ch->hops[ch->cur].flits)
        smn_esp_chain_arrived(soc, ch); /* a send goes to a tile's injection queue, no router */
}

/* Output o of router R takes flit id (0: void) from input from in this cycle's
 * commit: its span, its worm lock, its arbiter. outm: the outputs that held a flit. */
static inline ALWAYS_INLINE void load_output(const esp_noc *noc, const esp_plane *pl, esp_router *R, unsigned o,
                                             unsigned id, unsigned from, unsigned outm, uint32_t *cnt,
                                             uint32_t since)
{
    R->out[o] = (uint16_t)id;
    if (!id) {
        if (outm >> o & 1u) { /* the register goes void: its span ends */
            R->outmask = (uint16_t)(R->outmask & ~(1u << o));
            cnt[o] += since - R->so[o];
        }
        return;
    }
    if (!(outm >> o & 1u)) {
        R->outmask = (uint16_t)(R->outmask | 1u << o);
        R->so[o] = since;
    }
    unsigned kind = pl->fkind[id];
    if (R->locked >> o & 1u) {
        if (kind & TAIL)
            R->locked = (uint16_t)(R->locked & ~(1u << o));
    } else {
        R->lrg[o] = noc->arb_demote[o][R->lrg[o]][from];
        if (!(kind & TAIL)) {
            R->locked = (uint16_t)(R->locked | 1u << o);
            R->cfg[o] = (uint16_t)from;
        }
    }
}

/* Passes. Most visits (multifft: 19 M of 36 M) take one flit from a link into an empty FIFO
 * and forward it at once (the bypass) into its output, the only output whose register changes:
 * a worm's flit through a router it holds, or a head to a free output. decide() marks such a
 * visit (R->pass: bit 0, the input in bits 2-4, the output in 5-7) and its commit is the general
 * one's work for it, in the same order, without the loops: the FIFO is unchanged (written and
 * read in one cycle), no full flag changes, no other register moves. */
static inline ALWAYS_INLINE unsigned commit_pass(socmon_esp_soc *soc, esp_plane *pl, unsigned p, unsigned t,
                                                 uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_router *R = &pl->r[t];
    unsigned i = R->pass >> 2 & 7u, o = R->pass >> 5, id = R->capid[i];
    unsigned kind = pl->fkind[id], outm = R->outmask, locked = R->locked;
    R->linkmask = (uint16_t)(R->linkmask & ~(1u << L)); /* an offer is always taken */
    R->link[L] = 0;
    if (o != L) {
        unsigned nt = nb_tile(noc, t, o), in = OPPOSITE[o];
        esp_router *NB = &pl->r[nt];
        NB->link[in] = (uint16_t)id;
        NB->linkmask = (uint16_t)(NB->linkmask | 1u << in);
        list_next(pl, nt, now);
        pl->fkind[id] = (uint16_t)((kind & (HEAD | TAIL)) |
                                   (noc->route[(size_t)nt * noc->n + pl->fdst[id]] & 7u) << 2);
    } else if (outm >> L & 1u) {
        eject(soc, pl, p, R->out[L]);
    }
    /* load_output's work for a flit (never void here) */
    R->out[o] = (uint16_t)id;
    if (!(outm >> o & 1u)) {
        R->outmask = (uint16_t)(outm | 1u << o);
        R->so[o] = (uint32_t)(now + 1);
    }
    if (locked >> o & 1u) {
        if (kind & TAIL)
            R->locked = (uint16_t)(locked & ~(1u << o));
    } else {
        R->lrg[o] = noc->arb_demote[o][R->lrg[o]][i];
        if (!(kind & TAIL)) {
            R->locked = (uint16_t)(locked | 1u << o);
            R->cfg[o] = (uint16_t)i;
        }
    }
    list_next(pl, t, now); /* its register holds the flit */
    return 1;
}

/* A visit with no flit at any input (multifft: 7.8 M of 36 M): the registers whose flits leave go
 * void, the local one's flit is ejected, as the general commit does them. */
static inline ALWAYS_INLINE unsigned commit_drain(socmon_esp_soc *soc, esp_plane *pl, unsigned p, unsigned t,
                                                  uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_router *R = &pl->r[t];
    uint32_t *cnt = soc->tiles[t].count + ESP_MON_NOC_QFULL + p * ESP_NDIRS;
    uint32_t since = (uint32_t)(now + 1);
    unsigned mov = R->mov;
    for (unsigned m = mov & ~(1u << L); m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctz(m), in = OPPOSITE[o];
        esp_router *NB = &pl->r[nb_tile(noc, t, o)];
        NB->link[in] = 0;
        NB->linkmask = (uint16_t)(NB->linkmask & ~(1u << in));
        R->out[o] = 0;
        cnt[o] += since - R->so[o];
    }
    if (mov >> L & 1u) {
        eject(soc, pl, p, R->out[L]);
        R->out[L] = 0;
        cnt[L] += since - R->so[L];
    }
    R->outmask = (uint16_t)(R->outmask & ~mov);
    if (R->outmask | R->locked)
        list_next(pl, t, now);
    return 0;
}

/* The second half of router t's cycle: FIFOs read and written, output registers loaded (the
 * neighbours' links), worms locked and released, arbiters moved, flits ejected. */
static inline ALWAYS_INLINE unsigned commit(socmon_esp_soc *soc, esp_plane *pl, unsigned p, unsigned t,
                                            uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_router *R = &pl->r[t];
    if (R->asleep | R->pass) { /* one test on the general visit's way */
        if (R->asleep)
            return 0;
        return R->pass & 1u ? commit_pass(soc, pl, p, t, now) : commit_drain(soc, pl, p, t, now);
    }
    unsigned rd = R->rd, full = R->full, lv = R->caplink & ~full;
    uint16_t sent[ESP_NDIRS + 1]; /* by input: the flit it gave an output; [ESP_NDIRS]: none */
    uint32_t *cnt = soc->tiles[t].count + ESP_MON_NOC_QFULL + p * ESP_NDIRS;
    uint32_t since = (uint32_t)(now + 1); /* what commit writes holds from the next cycle */
    /* Each FIFO: the arriving flit written if it is not full (at the head if it is empty: the
     * bypass), the head read if an output took it. */
    unsigned ne = R->nonempty, nf = full;
    for (unsigned m = rd | lv; m; m &= m - 1) { /* the inputs that change */
        unsigned i = (unsigned)__builtin_ctz(m);
        unsigned c = R->qn[i], r = rd >> i & 1u, v = lv >> i & 1u;
        uint64_t q = R->q[i] | (uint64_t)(R->capid[i] & (0u - v)) << (16 * (c & 3u));
        sent[i] = (uint16_t)q;
        R->q[i] = q >> (16 * r);
        c = c + v - r;
        R->qn[i] = (uint16_t)c;
        ne = (ne & ~(1u << i)) | (unsigned)(c != 0) << i;
        nf = (nf & ~(1u << i)) | (unsigned)(c == ESP_QDEPTH) << i;
    }
    sent[ESP_NDIRS] = 0;
    R->nonempty = (uint16_t)ne;
    for (unsigned m = nf ^ full; m; m &= m - 1) { /* the full flags that change */
        unsigned i = (unsigned)__builtin_ctz(m);
        R->full = (uint16_t)(R->full ^ 1u << i);
        if (nf >> i & 1u)
            R->sf[i] = since;
        else
            soc->tiles[t].xcount[ESP_XMON_STOP + p * ESP_NDIRS + i] += since - R->sf[i];
        if (i != L) { /* the router feeding input i: its stop, and it may sleep on it */
            unsigned ut = nb_tile(noc, t, i);
            esp_router *U = &pl->r[ut];
            U->stopin = (uint16_t)(U->stopin ^ 1u << OPPOSITE[i]);
            if (U->asleep)
                list_next(pl, ut, now);
        } else if (noc->pend_head[(size_t)t * ESP_NPLANES + p]) {
            pl->nready += nf >> L & 1u ? -1u : 1u; /* its tile waits to offer */
        }
    }
    R->linkmask = (uint16_t)(R->linkmask & ~(1u << L)); /* an offer is always taken */
    R->link[L] = 0;
    unsigned outm = R->outmask, mov = R->mov, sel = R->sel;
    uint64_t nx = now + 2; /* listed for cycle now + 1 (wake_onto) */
    uint16_t *next = pl->next;
    unsigned nnext = pl->nnext;
    for (unsigned m = mov & ~(1u << L); m; m &= m - 1) {
        unsigned o = (unsigned)__builtin_ctz(m);
        unsigned from = sel >> (3 * o) & 7u, id = sent[from], has = id != 0;
        unsigned nt = nb_tile(noc, t, o), in = OPPOSITE[o];
        esp_router *NB = &pl->r[nt];
        NB->link[in] = (uint16_t)id;
        NB->linkmask = (uint16_t)((NB->linkmask & ~(1u << in)) | has << in);
        if (has) {
            /* it is on the next cycle's list, awake */
            NB->asleep = 0;
            next[nnext] = (uint16_t)nt;
            nnext += NB->listed != nx;
            NB->listed = nx;
            /* the output it takes there, computed once (the RTL's lookahead); a body flit's is
             * its worm's, which a pass reads */
            pl->fkind[id] = (uint16_t)((pl->fkind[id] & (HEAD | TAIL)) |
                                       (noc->route[(size_t)nt * noc->n + pl->fdst[id]] & 7u) << 2);
        }
        load_output(noc, pl, R, o, id, from, outm, cnt, since);
    }
    pl->nnext = nnext;
    if (mov >> L & 1u) {
        unsigned from = sel >> (3 * L) & 7u, id = sent[from];
        if (outm >> L & 1u)
            eject(soc, pl, p, R->out[L]);
        load_output(noc, pl, R, L, id, from, outm, cnt, since);
    }
    if (R->nonempty | R->outmask | R->locked)
        list_next(pl, t, now);
    return POPCOUNT5[R->fwdm];
}

HOT_CLONES static void cycle_plane(socmon_esp_soc *soc, unsigned p, uint64_t now)
{
    esp_noc *noc = &soc->eng->noc;
    esp_plane *pl = &noc->pl[p];
    if (pl->list_cycle != now)
        pl->nlist = 0; /* made for a cycle the engine skipped, the NoC idle: none of them holds a flit */
    if (pl->nready)
        offer(soc, p, now);
    for (unsigned k = 0; k < pl->nlist; k++)
        decide(&soc->eng->noc, pl, pl->list[k]);
    pl->nnext = 0;
    unsigned hops = 0;
    for (unsigned k = 0; k < pl->nlist; k++)
        hops += commit(soc, pl, p, pl->list[k], now);
    soc->eng->st.flit_hops += hops;
    uint16_t *tmp = pl->list;
    pl->list = pl->next;
    pl->next = tmp;
    pl->nlist = pl->nnext;
    pl->nnext = 0;
    pl->list_cycle = now + 1;
    noc->busy = (noc->busy & ~(1u << p)) | (unsigned)((pl->nlist | pl->nready) != 0) << p;
}

void smn_esp_noc_cycle(socmon_esp_soc *soc)
{
    esp_noc *noc = &soc->eng->noc;
    if (smn_esp_noc_idle(noc))
        return;
    uint64_t now = soc->cycles;
    noc->soc = soc;
    noc->now = now;
    noc->in_cycle = 1;
    /* The planes with a router listed or a tile that can offer (most cycles move flits on one
     * or two of the six); a plane's pass may give a later plane work in this cycle (an ejection's
     * chain sends a packet or stops a sink). */
    for (unsigned p = 0, todo; (todo = noc->busy >> p) != 0; p++) {
        p += (unsigned)__builtin_ctz(todo);
        esp_plane *pl = &noc->pl[p];
        noc->cur = p;
        if (pl->nlist || pl->nready)
            cycle_plane(soc, p, now);
        else
            noc->busy &= ~(1u << p);
    }
    noc->in_cycle = 0;
    noc->now = now + 1;
}
