/* AXI Performance Monitor, Advanced mode: the metric counters with their
 * selectors, incrementers and ranges, sampled copies, the ID filter and the
 * registers only Advanced mode has.
 *
 * apm_model.c plays the traffic and calls smn_zadv_event for each AXI event of
 * a slot; here each counter whose selector names that slot and metric takes
 * it. Behaviour follows the axi_perf_mon v5.0 rev 9 HDL (eejlny/S2NN-HLS @
 * 170c1667, axi_perf_mon_v5_0_*.v), summarised in docs/zynq.md:
 *  - metric_sel_n_cnt.v:403-535: what each metric adds (Add_in) and the
 *    incrementer's step (incrementer_input_reg_val);
 *  - acc_n_incr.v: the incrementer steps when the event's Add_in[15:0] lies
 *    in [RANGE[15:0], RANGE[31:16]]; the accumulator is 36 bits and the
 *    register shows it >> log2(scale). Its overflow output is the rising
 *    edge of the bit above the register, which fires on every second wrap
 *    only; the model follows the documented intent (ESW "Metric Counter n
 *    Overflow", spec §1.6) and sets the IS bit on every wrap (docs/zynq.md);
 *  - metric_calc.v:419-431 id_matched: a mask bit of 1 makes that ID bit
 *    "don't care": match = ((id ^ filter) & ~mask) == 0. */
#include <string.h>

#include "models/zynq/zynq_internal.h"

#define ACC_BITS 36u
#define ACC_MASK ((1ull << ACC_BITS) - 1)

static unsigned sel_of(const zapm_model *m, unsigned n)
{
    return (m->xreg[ZAPM_XREG_MSR0 + n / 4] >> zapm_msr_shift(n)) & 0xFFu;
}

static int in_range(const zapm_model *m, unsigned n, uint64_t v)
{
    uint32_t r = m->range[n], lo = r & 0xFFFFu, hi = r >> 16, c = (uint32_t)(v & 0xFFFFu);
    return c >= lo && c <= hi;
}

int smn_zadv_id_match(const zapm_model *m, int is_read, uint32_t id)
{
    if (!(m->reg[ZAPM_REG_CTL] & R_ZAPM_CTL_IDFILTER_MASK))
        return 1;
    uint32_t f, mask;
    if (m->cfg.id32) {
        f = m->xreg[is_read ? ZAPM_XREG_RID : ZAPM_XREG_ID];
        mask = m->xreg[is_read ? ZAPM_XREG_RIDMASK : ZAPM_XREG_IDMASK];
    } else {
        unsigned sh = is_read ? 16 : 0;
        f = (m->xreg[ZAPM_XREG_ID] >> sh) & 0xFFFFu;
        mask = ((m->xreg[ZAPM_XREG_IDMASK] >> sh) & 0xFFFFu) | 0xFFFF0000u;
    }
    return ((id ^ f) & ~mask) == 0;
}

void smn_zadv_event(zapm_model *m, unsigned slot, int is_read, unsigned metric, uint32_t id,
                uint64_t n, uint64_t add, uint64_t incval)
{
    (void)is_read;
    (void)id;   /* the caller filtered */
    if (n == 0)
        return;
    unsigned sh = 32u + m->cfg.scale_log2;
    for (unsigned k = 0; k < m->cfg.ncounters; k++) {
        unsigned sel = sel_of(m, k);
        if ((sel >> 5) != slot || (sel & 0x1Fu) != metric)
            continue;
        zapm_adv_ctr *c = &m->ctr[k];
        uint64_t sum = c->acc + n * add;
        if ((sum >> sh) != (c->acc >> sh))
            m->reg[ZAPM_REG_IS] |= ZAPM_IXR_MC_OVF(k);
        c->acc = sum & ACC_MASK;
        if (m->cfg.event_count && in_range(m, k, add))
            c->inc += (uint32_t)(n * incval);
    }
}

/* Metrics 12-15 show the live min/max latency (HDL: Add_in_Valid always 1,
 * accumulate 0); their incrementers step every cycle the value is in range.
 * The model takes the value at the start of each step. */
static int live_value(const zapm_model *m, unsigned sel, uint64_t *v)
{
    const zapm_slot *s = &m->slot[sel >> 5];
    switch (sel & 0x1Fu) {
    case ZAPM_M_WR_LAT_MIN: *v = s->wr_min; return 1;
    case ZAPM_M_WR_LAT_MAX: *v = s->wr_max; return 1;
    case ZAPM_M_RD_LAT_MIN: *v = s->rd_min; return 1;
    case ZAPM_M_RD_LAT_MAX: *v = s->rd_max; return 1;
    default: return 0;
    }
}

void smn_zadv_tick(zapm_model *m, uint64_t cycles)
{
    for (unsigned k = 0; k < m->cfg.ncounters; k++) {
        uint64_t v;
        if (!live_value(m, sel_of(m, k), &v))
            continue;
        m->ctr[k].acc = v;
        if (m->cfg.event_count && in_range(m, k, v))
            m->ctr[k].inc += (uint32_t)cycles;
    }
}

static uint32_t mc_view(const zapm_model *m, unsigned k)
{
    uint64_t v;
    uint64_t acc = zapm_counting(m) && live_value(m, sel_of(m, k), &v) ? v : m->ctr[k].acc;
    return (uint32_t)(acc >> m->cfg.scale_log2);
}

void smn_zadv_reset(zapm_model *m, int sampled_too)
{
    for (unsigned k = 0; k < SOCMON_ZAPM_ADV_COUNTERS; k++) {
        m->ctr[k].acc = 0;
        m->ctr[k].inc = 0;
        if (sampled_too)
            m->ctr[k].smc = m->ctr[k].sinc = 0;
    }
    for (unsigned i = 0; i < SOCMON_ZAPM_MAX_SLOTS; i++) {
        m->slot[i].wr_min = m->slot[i].rd_min = 0xFFFFFFFFu;   /* min all-ones, max 0 */
        m->slot[i].wr_max = m->slot[i].rd_max = 0;
    }
}

void smn_zadv_latch(zapm_model *m)
{
    if (!m->cfg.sampled)
        return;
    for (unsigned k = 0; k < m->cfg.ncounters; k++) {
        m->ctr[k].smc = mc_view(m, k);
        m->ctr[k].sinc = m->cfg.event_count ? m->ctr[k].inc : 0;
    }
}

/* MSR bytes of counters the configuration lacks are tied to 0 (HDL
 * register_module.v:1122). */
static uint32_t msr_present(const zapm_model *m, unsigned r)
{
    uint32_t keep = 0;
    for (unsigned b = 0; b < 4; b++)
        if (4 * r + b < m->cfg.ncounters)
            keep |= 0xFFu << (8 * b);
    return keep;
}

static int xreg_present(const zapm_model *m, int x)
{
    return m->cfg.id32 || (x != ZAPM_XREG_RID && x != ZAPM_XREG_RIDMASK);
}

int smn_zadv_read(zapm_model *m, uint64_t off, uint32_t *val)
{
    int x = zapm_xreg_index(off);
    if (x >= 0 && xreg_present(m, x)) {
        *val = socmon_reg_read(&ZAPM_XREGINFO[x], &m->xreg[x]);
        return 1;
    }
    if (off < 0x100u || off >= 0x2A0u || (off >= 0x1A0u && off < 0x200u) || (off & 3u))
        return 0;
    unsigned k = (unsigned)((off & 0xFFu) / 16u), w = (unsigned)(off & 0xFu);
    if (k >= m->cfg.ncounters)
        return 0;
    int ev = m->cfg.event_count, samp = m->cfg.sampled;
    *val = 0;
    if (off < 0x200u) {
        if (w == 0)
            *val = mc_view(m, k);
        else if (w == 4 && ev)
            *val = m->ctr[k].inc;
        else if (w == 8 && ev)
            *val = m->range[k];
        else if (w == 12)
            *val = m->logen[k];
    } else if (samp) {
        if (w == 0)
            *val = m->ctr[k].smc;
        else if (w == 4 && ev)
            *val = m->ctr[k].sinc;
    }
    return 1;
}

int smn_zadv_write(zapm_model *m, uint64_t off, uint32_t v)
{
    int x = zapm_xreg_index(off);
    if (x >= 0 && xreg_present(m, x)) {
        if (x <= ZAPM_XREG_MSR2)
            v &= msr_present(m, (unsigned)(x - ZAPM_XREG_MSR0));
        m->xreg[x] = socmon_reg_write(&ZAPM_XREGINFO[x], m->xreg[x], v);
        return 1;
    }
    if (off < 0x100u || off >= 0x1A0u || (off & 3u))
        return 0;
    unsigned k = (unsigned)((off - 0x100u) / 16u), w = (unsigned)(off & 0xFu);
    if (k >= m->cfg.ncounters)
        return 0;
    if (w == 8 && m->cfg.event_count)
        m->range[k] = v;
    else if (w == 12)
        m->logen[k] = v;
    return 1;
}
