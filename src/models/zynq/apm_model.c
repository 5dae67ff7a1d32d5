/* AXI Performance Monitor, Profile mode, at register level, with the AXI
 * traffic model that drives it.
 *
 * Behaviour follows the axi_perf_mon v5.0 HDL as summarised in docs/zynq.md
 * (where the ESW driver's comments disagree, the HDL wins). Time is the APM
 * core clock; each slot direction is a master issuing bursts on a fixed
 * schedule, completing in order without interleaving, with at most 32
 * transactions outstanding: the limits under which the APM's latency FIFOs
 * pair start and end correctly. A master that wants more waits (its address is
 * valid but not accepted), which docs/zynq.md explains.
 *
 * Register facts come from src/hw/zynq_apm.h: the plain registers live in
 * m->reg[] and its access table does their storing; this file adds only what
 * a table cannot say (counting, sample pulses, GCC, level resets). */
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

static int counting(const zapm_model *m)
{
    uint32_t cr = m->reg[ZAPM_REG_CTL];
    return (cr & R_ZAPM_CTL_MCNTR_EN_MASK) && !(cr & R_ZAPM_CTL_MCNTR_RESET_MASK);
}

static void minmax_reset(zapm_slot *s)
{
    s->wr_minmax = s->rd_minmax = ZAPM_MINMAX_RESET;   /* min all-ones, max 0 */
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

void zapm_init(zapm_model *m, unsigned nslots, unsigned bus_width, int gcc_width, uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->nslots = nslots;
    m->bus_width = bus_width;
    m->gcc_width = gcc_width;
    for (unsigned r = 0; r < ZAPM_NREGS; r++)
        m->reg[r] = ZAPM_REGINFO[r].reset;
    m->sic_left = 3;
    for (unsigned i = 0; i < SOCMON_ZAPM_MAX_SLOTS; i++) {
        zapm_slot *s = &m->slot[i];
        minmax_reset(s);
        s->s_wr_minmax = s->s_rd_minmax = ZAPM_MINMAX_RESET;
        s->wr.is_read = 0;
        s->rd.is_read = 1;
        s->wr.rng = seed ^ (0x1000u + 2 * i);
        s->rd.rng = seed ^ (0x1001u + 2 * i);
    }
}

void zapm_set_chan(zapm_model *m, unsigned slot, int is_read, double period, uint32_t bytes,
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
    if (cnt) {
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

static void accept(zapm_slot *s, zapm_chan *c, uint64_t t_iss, uint64_t t_acc, int cnt)
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
    c->n++;
    c->last_end = end;
    c->last_accept = t_acc + 1;               /* one address handshake per cycle */
    c->k++;
    if (cnt)
        s->mc[c->is_read ? SOCMON_ZAPM_RD_TXNS : SOCMON_ZAPM_WR_TXNS]++;
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
    if (cnt) {
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
    int cnt = counting(m);
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
            accept(s, c, t_iss, t_acc, cnt);
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
            if (cnt)
                s->mc[SOCMON_ZAPM_RD_BYTES] += (uint32_t)(seen - x->beats_seen) * m->bus_width;
            x->beats_seen = (uint32_t)seen;
        }
    }
}

static void run_all(zapm_model *m, uint64_t T)
{
    for (unsigned i = 0; i < m->nslots; i++) {
        chan_run(m, &m->slot[i], &m->slot[i].wr, T);
        chan_run(m, &m->slot[i], &m->slot[i].rd, T);
    }
}

static void reset_counters(zapm_model *m, int sampled_too)
{
    for (unsigned i = 0; i < SOCMON_ZAPM_MAX_SLOTS; i++) {
        zapm_slot *s = &m->slot[i];
        memset(s->mc, 0, sizeof s->mc);
        minmax_reset(s);
        if (sampled_too) {
            memset(s->smc, 0, sizeof s->smc);
            s->s_wr_minmax = s->s_rd_minmax = ZAPM_MINMAX_RESET;
        }
    }
}

/* The sample pulse (SR read or interval lapse). */
static void latch(zapm_model *m)
{
    for (unsigned i = 0; i < SOCMON_ZAPM_MAX_SLOTS; i++) {
        zapm_slot *s = &m->slot[i];
        memcpy(s->smc, s->mc, sizeof s->smc);
        s->s_wr_minmax = s->wr_minmax;
        s->s_rd_minmax = s->rd_minmax;
    }
    if (m->reg[ZAPM_REG_SICR] & R_ZAPM_SICR_MCNTR_RST_MASK)
        reset_counters(m, 0);
}

static uint64_t sic_period(const zapm_model *m)
{
    /* load-to-load period of the down-counter: SI plus the underflow, carry
     * and reload stages of the HDL counter (docs/zynq.md) */
    return (uint64_t)m->reg[ZAPM_REG_SI_LOW] + 3;
}

static void sic_update(zapm_model *m)
{
    uint32_t sicr = m->reg[ZAPM_REG_SICR];
    int run = (sicr & R_ZAPM_SICR_EN_MASK) && !(sicr & R_ZAPM_SICR_LOAD_MASK) &&
              (m->reg[ZAPM_REG_CTL] & R_ZAPM_CTL_MCNTR_EN_MASK);
    if (m->sic_running && !run)
        m->sic_left = m->sic_next - m->now;
    if (sicr & R_ZAPM_SICR_LOAD_MASK)
        m->sic_left = sic_period(m);
    if (!m->sic_running && run)
        m->sic_next = m->now + m->sic_left;
    m->sic_running = run;
}

void zapm_advance_to(zapm_model *m, uint64_t T)
{
    if (T <= m->now)
        return;
    while (m->sic_running && m->sic_next <= T) {
        run_all(m, m->sic_next);
        m->now = m->sic_next;
        latch(m);
        m->reg[ZAPM_REG_IS] |= ZAPM_IXR_SIC_LAPSE;
        m->sic_next += sic_period(m);
    }
    run_all(m, T);
    m->now = T;
}

int zapm_irq(const zapm_model *m)
{
    return (m->reg[ZAPM_REG_GIE] & R_ZAPM_GIE_EN_MASK) &&
           (m->reg[ZAPM_REG_IS] & m->reg[ZAPM_REG_IE]) != 0;
}

static uint64_t gcc_value(const zapm_model *m)
{
    if (!m->advanced)
        return 0;   /* Profile mode has no global clock counter (spec §1.6) */
    uint64_t v = m->gcc_acc + (m->gcc_running ? m->now - m->gcc_start : 0);
    return m->gcc_width == 32 ? (v & 0xFFFFFFFFu) : v;
}

/* Finds which counter word an offset names. */
static uint32_t *counter_word(zapm_model *m, uint64_t off)
{
    for (unsigned k = 0; k < SOCMON_ZAPM_PER_SLOT * m->nslots; k++) {
        uint32_t base = socmon_zapm_mc_offset(k);
        unsigned sl = k / SOCMON_ZAPM_PER_SLOT, j = k % SOCMON_ZAPM_PER_SLOT;
        zapm_slot *s = &m->slot[sl];
        if (off == base)
            return &s->mc[j];
        if (off == base + 0x100u)
            return &s->smc[j];
        if (j == SOCMON_ZAPM_PER_SLOT - 1) {
            if (off == base + 4u)
                return &s->wr_minmax;
            if (off == base + 8u)
                return &s->rd_minmax;
            if (off == base + 0x104u)
                return &s->s_wr_minmax;
            if (off == base + 0x108u)
                return &s->s_rd_minmax;
        }
    }
    return NULL;
}

static socmon_status apm_read(void *model, uint64_t off, uint32_t *val)
{
    zapm_model *m = model;
    switch (off) {
    case A_ZAPM_GCC_HIGH:
        *val = m->gcc_width == 64 ? (uint32_t)(gcc_value(m) >> 32) : 0;
        return SOCMON_OK;
    case A_ZAPM_GCC_LOW:
        *val = m->gcc_width ? (uint32_t)gcc_value(m) : 0;
        return SOCMON_OK;
    case A_ZAPM_SR:
        /* free-running register-clock count since the first SR read; the
         * model's register clock is its core clock */
        if (!m->sr_started) {
            m->sr_started = 1;
            m->sr_base = m->now;
        }
        *val = (uint32_t)(m->now - m->sr_base);
        latch(m);
        return SOCMON_OK;
    default:
        break;
    }
    int r = zapm_reg_index(off);
    if (r >= 0) {
        *val = socmon_reg_read(&ZAPM_REGINFO[r], &m->reg[r]);
        return SOCMON_OK;
    }
    uint32_t *w = counter_word(m, off);
    *val = w ? *w : 0;   /* undecoded addresses read 0, as AXI4-Lite slaves do */
    return SOCMON_OK;
}

/* The access table does the storing (read-only, reserved and W1C bits);
 * what follows is what a write sets in motion. */
static socmon_status apm_write(void *model, uint64_t off, uint32_t v)
{
    zapm_model *m = model;
    int r = zapm_reg_index(off);
    if (r < 0)
        return SOCMON_OK;   /* counters and undecoded addresses ignore writes */
    if (r == ZAPM_REG_CTL && m->gcc_running)
        m->gcc_acc += m->now - m->gcc_start;
    m->reg[r] = socmon_reg_write(&ZAPM_REGINFO[r], m->reg[r], v);
    if (r == ZAPM_REG_CTL) {
        if (v & R_ZAPM_CTL_MCNTR_RESET_MASK)
            reset_counters(m, 1);
        if (m->reg[ZAPM_REG_CTL] & R_ZAPM_CTL_GCC_RESET_MASK)
            m->gcc_acc = 0;
        /* in Profile mode CR 16/17 are not decoded (the table drops them) */
        uint32_t cr = m->reg[ZAPM_REG_CTL];
        m->gcc_running = m->advanced && m->gcc_width && (cr & R_ZAPM_CTL_GCC_EN_MASK) &&
                         !(cr & R_ZAPM_CTL_GCC_RESET_MASK);
        m->gcc_start = m->now;
    }
    if (r == ZAPM_REG_CTL || r == ZAPM_REG_SICR)
        sic_update(m);
    return SOCMON_OK;
}

const socmon_regmodel_ops zapm_regops = {.read = apm_read, .write = apm_write};
