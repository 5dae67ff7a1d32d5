/* The AXI traffic model that drives the APM: per slot and direction a
 * master issuing bursts on a fixed schedule, completing in order without
 * interleaving, with at most 32 transactions outstanding (the limits under
 * which the APM's latency FIFOs pair start and end correctly; a master that
 * wants more waits, its address valid but not accepted, as docs/zynq.md
 * explains). Each AXI event is counted into the Profile-mode counters or
 * handed to Advanced mode's metric counters (apm_advanced.c). */
#include <math.h>
#include <string.h>

#include "models/zynq/zynq_internal.h"

static uint64_t rng_next(uint64_t *s)
{
    /* splitmix64: tiny, and each channel owns its state */
    uint64_t z = (*s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static double rng_unit(uint64_t *s)
{
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

static void minmax_add(uint32_t *mm, uint64_t lat)
{
    uint32_t l = lat > 0xFFFF ? 0xFFFFu : (uint32_t)lat;
    uint32_t mn = *mm & 0xFFFFu, mx = *mm >> 16;
    if (l < mn)
        mn = l;
    if (l > mx)
        mx = l;
    *mm = (mx << 16) | mn;
}

void smn_zapm_set_ids(zapm_model *m, unsigned slot, int is_read, uint32_t base, uint32_t count)
{
    zapm_chan *c = is_read ? &m->slot[slot].rd : &m->slot[slot].wr;
    c->id_base = base;
    c->id_count = count ? count : 1;
}

static uint32_t txn_id(const zapm_chan *c, uint64_t k)
{
    return c->id_base + (uint32_t)(k % c->id_count);
}

/* Advanced mode: what n completed transactions alike add (metric numbers
 * per HDL metric_sel_n_cnt.v). The B response is taken at WLAST: the
 * traffic model has no separate response timing. Slave write idle: the
 * model's master offers write data from the cycle after the address
 * handshake and the slave takes the beats in the burst's last `beats`
 * cycles, so the cycles between are WVALID & !WREADY. Its masters always
 * take read data, so master read idle stays 0. */
static void adv_done(zapm_model *m, zapm_slot *s, int is_read, uint32_t id, uint64_t n,
                     uint64_t lat, uint32_t beats, uint32_t bytes, uint64_t idle,
                     uint32_t rbeats_left)
{
    unsigned si = (unsigned)(s - m->slot);
    if (!smn_zadv_id_match(m, is_read, id))
        return;
    if (is_read) {
        smn_zadv_event(m, si, 1, ZAPM_M_RD_BYTES, id, n * rbeats_left, m->bus_width, 1);
        smn_zadv_event(m, si, 1, ZAPM_M_RD_LAT, id, n, lat, 1);
        smn_zadv_event(m, si, 1, ZAPM_M_RLASTS, id, n, 1, 1);
    } else {
        smn_zadv_event(m, si, 0, ZAPM_M_WR_BYTES, id, n, bytes, beats);
        smn_zadv_event(m, si, 0, ZAPM_M_WR_BEATS, id, n, beats, beats);
        smn_zadv_event(m, si, 0, ZAPM_M_WR_LAT, id, n, lat, 1);
        smn_zadv_event(m, si, 0, ZAPM_M_WR_SLV_IDLE, id, n, idle, idle);
        smn_zadv_event(m, si, 0, ZAPM_M_BVALIDS, id, n, 1, 1);
        smn_zadv_event(m, si, 0, ZAPM_M_WLASTS, id, n, 1, 1);
    }
    uint32_t l = lat > 0xFFFFFFFFu ? 0xFFFFFFFFu : (uint32_t)lat;
    uint32_t *mn = is_read ? &s->rd_min : &s->wr_min, *mx = is_read ? &s->rd_max : &s->wr_max;
    if (l < *mn)
        *mn = l;
    if (l > *mx)
        *mx = l;
}

void smn_zapm_set_chan(zapm_model *m, unsigned slot, int is_read, double period, uint32_t bytes,
                   double lat, double jit)
{
    zapm_chan *c = is_read ? &m->slot[slot].rd : &m->slot[slot].wr;
    c->period = period;
    c->bytes = bytes;
    c->beats = bytes / m->bus_width;
    if (c->beats == 0)
        c->beats = 1;
    c->lat = lat;
    c->jit = jit;
    c->base = m->now + 1;   /* events up to now are already history */
    c->k = 0;
}

static void complete(zapm_model *m, zapm_slot *s, zapm_chan *c, int cnt)
{
    zapm_txn *x = &c->q[c->head];
    uint32_t sbit = c->is_read ? R_ZAPM_CTL_RDLAT_START_MASK : R_ZAPM_CTL_WRLAT_START_MASK;
    uint32_t ebit = c->is_read ? R_ZAPM_CTL_RDLAT_END_MASK : R_ZAPM_CTL_WRLAT_END_MASK;
    uint64_t start = (m->reg[ZAPM_REG_CTL] & sbit) ? x->accept : x->issue;
    uint64_t stop = (m->reg[ZAPM_REG_CTL] & ebit) ? x->end - x->beats + 1 : x->end;
    uint64_t lat = stop - start;
    if (cnt && m->advanced) {
        adv_done(m, s, c->is_read, x->id, 1, lat, x->beats, x->bytes,
                 x->end - x->accept - x->beats, x->beats - x->beats_seen);
    } else if (cnt) {
        if (c->is_read) {
            s->mc[SOCMON_ZAPM_RD_LAT] += (uint32_t)lat;
            s->mc[SOCMON_ZAPM_RD_BYTES] += (x->beats - x->beats_seen) * m->bus_width;
            minmax_add(&s->rd_minmax, lat);
        } else {
            s->mc[SOCMON_ZAPM_WR_LAT] += (uint32_t)lat;
            /* all WSTRB lanes set: the burst's bytes arrive with WLAST */
            s->mc[SOCMON_ZAPM_WR_BYTES] += x->bytes;
            minmax_add(&s->wr_minmax, lat);
        }
    }
    if (c->n == ZAPM_DEPTH && c->period > 0) {
        /* a full window frees now: a master that was waiting is accepted
         * next cycle at the earliest, never back-dated */
        uint64_t t_iss = c->base + (uint64_t)((double)c->k * c->period);
        if (t_iss <= x->end)
            c->stalls++;
        if (c->last_accept < x->end + 1)
            c->last_accept = x->end + 1;
    }
    c->head = (c->head + 1) % ZAPM_DEPTH;
    c->n--;
}

static void accept(zapm_model *m, zapm_slot *s, zapm_chan *c, uint64_t t_iss, uint64_t t_acc,
                   int cnt)
{
    /* dithered draw: floor(x + u) has mean x, so fractional cycle latencies
     * are reproduced on average rather than rounded away */
    double x = c->lat + c->jit * (2.0 * rng_unit(&c->rng) - 1.0) + rng_unit(&c->rng);
    uint64_t lat = x < 1.0 ? 1 : (uint64_t)x;
    if (lat < c->beats)
        lat = c->beats;                       /* the data beats need that long at least */
    uint64_t end = t_acc + lat;
    if (end < c->last_end + c->beats)
        end = c->last_end + c->beats;         /* in order, no interleaving */
    zapm_txn *q = &c->q[(c->head + c->n) % ZAPM_DEPTH];
    q->issue = t_iss;
    q->accept = t_acc;
    q->end = end;
    q->beats = c->beats;
    q->bytes = c->bytes;
    q->beats_seen = 0;
    q->id = txn_id(c, c->k);
    c->n++;
    c->last_end = end;
    c->last_accept = t_acc + 1;               /* one address handshake per cycle */
    c->k++;
    if (cnt && m->advanced) {
        if (smn_zadv_id_match(m, c->is_read, q->id))
            smn_zadv_event(m, (unsigned)(s - m->slot), c->is_read,
                       c->is_read ? ZAPM_M_RD_TXNS : ZAPM_M_WR_TXNS, q->id, 1, 1, 1);
    } else if (cnt) {
        s->mc[c->is_read ? SOCMON_ZAPM_RD_TXNS : SOCMON_ZAPM_WR_TXNS]++;
    }
}

static uint64_t t_of(const zapm_chan *c, uint64_t k)
{
    return c->base + (uint64_t)((double)k * c->period);
}

/* Steady traffic (fixed integer latency, issues spaced wider than a burst's
 * beats, far fewer than 32 in flight) needs no event-by-event play: every
 * transaction issued and finished inside the step adds the same latency and
 * bytes, so they are counted in one go. The result is identical to playing
 * them one by one; the few still in flight at T are left to chan_run. */
static void chan_bulk(zapm_model *m, zapm_slot *s, zapm_chan *c, uint64_t T, int cnt)
{
    if (c->period <= 0 || c->jit != 0 || c->lat != floor(c->lat))
        return;
    uint64_t L = c->lat < 1 ? 1 : (uint64_t)c->lat;
    if (L < c->beats)
        L = c->beats;
    double fp = floor(c->period);
    if (fp < c->beats + 1.0 || (double)L / fp + 2 >= ZAPM_DEPTH || T < L)
        return;
    uint64_t t0 = t_of(c, c->k);
    if (t0 < c->last_accept || t0 + L < c->last_end + c->beats)
        return;   /* earlier traffic still constrains this one: play it */
    while (c->n && c->q[c->head].end <= T)
        complete(m, s, c, cnt);
    uint64_t lim = T - L;   /* issued by lim means finished by T */
    if (c->n || t0 > lim)
        return;
    uint64_t kd = c->k + (uint64_t)((double)(lim - t0) / c->period);
    while (kd > c->k && t_of(c, kd) > lim)
        kd--;
    while (t_of(c, kd + 1) <= lim)
        kd++;
    uint64_t nb = kd - c->k + 1;
    uint32_t ebit = c->is_read ? R_ZAPM_CTL_RDLAT_END_MASK : R_ZAPM_CTL_WRLAT_END_MASK;
    uint64_t lc = (m->reg[ZAPM_REG_CTL] & ebit) ? L - c->beats + 1 : L;
    if (cnt && m->advanced) {
        /* transactions alike but for their IDs: one call per ID in the cycle */
        uint64_t nid = nb < c->id_count ? nb : c->id_count;
        unsigned si = (unsigned)(s - m->slot);
        for (uint64_t i = 0; i < nid; i++) {
            uint32_t id = txn_id(c, c->k + i);
            uint64_t n_i = (nb - i + c->id_count - 1) / c->id_count;
            if (!smn_zadv_id_match(m, c->is_read, id))
                continue;
            smn_zadv_event(m, si, c->is_read, c->is_read ? ZAPM_M_RD_TXNS : ZAPM_M_WR_TXNS, id, n_i,
                       1, 1);
            adv_done(m, s, c->is_read, id, n_i, lc, c->beats, c->bytes, L - c->beats, c->beats);
        }
    } else if (cnt) {
        int r = c->is_read;
        s->mc[r ? SOCMON_ZAPM_RD_TXNS : SOCMON_ZAPM_WR_TXNS] += (uint32_t)nb;
        s->mc[r ? SOCMON_ZAPM_RD_LAT : SOCMON_ZAPM_WR_LAT] += (uint32_t)(nb * lc);
        s->mc[r ? SOCMON_ZAPM_RD_BYTES : SOCMON_ZAPM_WR_BYTES] +=
            (uint32_t)(nb * (r ? (uint64_t)c->beats * m->bus_width : c->bytes));
        minmax_add(r ? &s->rd_minmax : &s->wr_minmax, lc);
    }
    uint64_t tl = t_of(c, kd);
    c->k = kd + 1;
    c->last_accept = tl + 1;
    c->last_end = tl + L;
}

/* Plays one channel's events up to and including cycle T. */
static void chan_run(zapm_model *m, zapm_slot *s, zapm_chan *c, uint64_t T)
{
    int cnt = zapm_counting(m);
    chan_bulk(m, s, c, T, cnt);
    for (;;) {
        uint64_t t_done = c->n ? c->q[c->head].end : UINT64_MAX;
        uint64_t t_iss = UINT64_MAX, t_acc = UINT64_MAX;
        if (c->period > 0) {
            t_iss = t_of(c, c->k);
            t_acc = t_iss > c->last_accept ? t_iss : c->last_accept;
            if (c->n == ZAPM_DEPTH && t_acc <= c->q[c->head].end)
                t_acc = c->q[c->head].end + 1;
        }
        if (t_done <= T && t_done <= t_acc) {
            complete(m, s, c, cnt);
        } else if (t_acc <= T) {
            accept(m, s, c, t_iss, t_acc, cnt);
        } else {
            break;
        }
    }
    if (c->is_read) {
        /* read bytes count per beat as the beats arrive */
        for (unsigned i = 0; i < c->n; i++) {
            zapm_txn *x = &c->q[(c->head + i) % ZAPM_DEPTH];
            uint64_t first = x->end - x->beats + 1;
            if (T < first)
                break;   /* later transactions start later still */
            uint64_t seen = T - first + 1;
            if (seen > x->beats)
                seen = x->beats;
            if (cnt && m->advanced) {
                if (seen > x->beats_seen && smn_zadv_id_match(m, 1, x->id))
                    smn_zadv_event(m, (unsigned)(s - m->slot), 1, ZAPM_M_RD_BYTES, x->id,
                               seen - x->beats_seen, m->bus_width, 1);
            } else if (cnt) {
                s->mc[SOCMON_ZAPM_RD_BYTES] += (uint32_t)(seen - x->beats_seen) * m->bus_width;
            }
            x->beats_seen = (uint32_t)seen;
        }
    }
}

void smn_zapm_run_all(zapm_model *m, uint64_t T)
{
    for (unsigned i = 0; i < m->nslots; i++) {
        chan_run(m, &m->slot[i], &m->slot[i].wr, T);
        chan_run(m, &m->slot[i], &m->slot[i].rd, T);
    }
}
