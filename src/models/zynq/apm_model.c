/* AXI Performance Monitor at register level: the registers both modes
 * share, the Profile-mode counters, sampling, the sample-interval counter,
 * the global clock counter (Advanced only) and time.
 *
 * Behaviour follows the axi_perf_mon v5.0 HDL as summarised in docs/zynq.md
 * (where the ESW driver's comments disagree, the HDL wins). Time is the APM
 * core clock. The traffic that the counters count is played by
 * apm_traffic.c; Advanced mode's counters and registers live in
 * apm_advanced.c.
 *
 * Register facts come from src/hw/zynq_apm.h: the plain registers live in
 * m->reg[] and the mode's access table (m->ri) does their storing; this file
 * adds only what a table cannot say (counting, sample pulses, GCC, level
 * resets). */
#include <string.h>

#include "models/zynq/zynq_internal.h"

static void minmax_reset(zapm_slot *s)
{
    s->wr_minmax = s->rd_minmax = ZAPM_MINMAX_RESET;   /* min all-ones, max 0 */
}

void smn_zapm_init(zapm_model *m, unsigned nslots, unsigned bus_width, const zapm_cfg *cfg,
               uint64_t seed)
{
    memset(m, 0, sizeof *m);
    m->nslots = nslots;
    m->bus_width = bus_width;
    m->cfg = *cfg;
    m->advanced = cfg->advanced;
    m->gcc_width = cfg->gcc_width;
    m->ri = m->advanced ? ZAPM_REGINFO_ADV : ZAPM_REGINFO;
    for (unsigned r = 0; r < ZAPM_NREGS; r++)
        m->reg[r] = m->ri[r].reset;
    m->sic_left = 3;
    for (unsigned i = 0; i < SOCMON_ZAPM_MAX_SLOTS; i++) {
        zapm_slot *s = &m->slot[i];
        minmax_reset(s);
        s->s_wr_minmax = s->s_rd_minmax = ZAPM_MINMAX_RESET;
        s->wr.is_read = 0;
        s->rd.is_read = 1;
        s->wr.rng = seed ^ (0x1000u + 2 * i);
        s->rd.rng = seed ^ (0x1001u + 2 * i);
        s->wr.id_count = s->rd.id_count = 1;
    }
    smn_zadv_reset(m, 1);
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
    smn_zadv_reset(m, sampled_too);
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
    if (m->advanced)
        smn_zadv_latch(m);
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

static uint64_t gcc_raw(const zapm_model *m)
{
    return m->gcc_acc + (m->gcc_running ? m->now - m->gcc_start : 0);
}

/* Runs the traffic to T and moves the clock there; the GCC's carry out of
 * its width sets IS bit 0 (HDL glbl_clk_cnt.v Carry_Out; Advanced only). */
static void step_to(zapm_model *m, uint64_t T)
{
    if (m->advanced && zapm_counting(m))
        smn_zadv_tick(m, T - m->now);
    uint64_t before = gcc_raw(m);
    smn_zapm_run_all(m, T);
    m->now = T;
    if (m->advanced && m->gcc_width == 32 && (before >> 32) != (gcc_raw(m) >> 32))
        m->reg[ZAPM_REG_IS] |= ZAPM_IXR_GCC_OVF;
}

void smn_zapm_advance_to(zapm_model *m, uint64_t T)
{
    if (T <= m->now)
        return;
    while (m->sic_running && m->sic_next <= T) {
        step_to(m, m->sic_next);
        latch(m);
        m->reg[ZAPM_REG_IS] |= ZAPM_IXR_SIC_LAPSE;
        m->sic_next += sic_period(m);
    }
    step_to(m, T);
}

int smn_zapm_irq(const zapm_model *m)
{
    return (m->reg[ZAPM_REG_GIE] & R_ZAPM_GIE_EN_MASK) &&
           (m->reg[ZAPM_REG_IS] & m->reg[ZAPM_REG_IE]) != 0;
}

static uint64_t gcc_value(const zapm_model *m)
{
    if (!m->advanced)
        return 0;   /* Profile mode has no global clock counter (spec §1.6) */
    uint64_t v = gcc_raw(m);
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
        *val = socmon_reg_read(&m->ri[r], &m->reg[r]);
        return SOCMON_OK;
    }
    if (m->advanced) {
        if (!smn_zadv_read(m, off, val))
            *val = 0;
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
    if (r < 0) {
        if (m->advanced)
            smn_zadv_write(m, off, v);
        return SOCMON_OK;   /* counters and undecoded addresses ignore writes */
    }
    if (r == ZAPM_REG_CTL && m->gcc_running)
        m->gcc_acc += m->now - m->gcc_start;
    m->reg[r] = socmon_reg_write(&m->ri[r], m->reg[r], v);
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

const socmon_regmodel_ops smn_zapm_regops = {.read = apm_read, .write = apm_write};
