/* The counter banks at register level, and the L1 region.
 *
 * Plain register behaviour (reset values, read-only OUT registers) comes from
 * the access table TENSIX_REGINFO in src/hw/tensix_bank.h, applied with
 * socmon_reg_read/socmon_reg_write. This file holds what is special, per the
 * guide (docs/tensix.md): start and stop act on a rising edge of the control
 * register (bit 0 start, bit 1 stop), a start edge clears the bank and
 * latches mode, reference period and (L1) the mux; OUT_L is the bank's
 * elapsed cycles and OUT_H the counter counter_sel picks. All counters of a
 * bank count at once; counter_sel only routes one to OUT_H. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/tensix/tensix_internal.h"

static unsigned mux_bit(uint32_t v)
{
    return SM_FIELD_EX32(v, TENSIX_PERF_CNT_MUX_CTRL, L1_MUX);
}

static uint32_t bank_reg(const socmon_tensix_core *c, unsigned b, unsigned role)
{
    return c->reg[b * TENSIX_NROLES + role];
}

static void bank_start(socmon_tensix_core *c, unsigned b)
{
    tx_bank *k = &c->bank[b];
    k->running = 1;
    k->mode = SM_FIELD_EX32(bank_reg(c, b, TENSIX_ROLE_MODE), TENSIX_MODE, MODE);
    k->ref_period = bank_reg(c, b, TENSIX_ROLE_REF);
    k->start_cycle = c->now;
    k->stop_cycle = c->now;
    for (unsigned s = 0; s < TX_NSIG; s++)
        k->start_cnt[s] = k->stop_cnt[s] = smn_tx_signal_total(c, s);
    if (b == TENSIX_BANK_L1) {
        k->mux = mux_bit(c->reg[TENSIX_REG_MUX_CTRL]);
        c->l1_undef = 0;
    }
    if (k->mode == TENSIX_MODE_REF_PERIOD && k->ref_period == 0)
        k->running = 0;   /* a zero period has already elapsed */
}

static void bank_stop(socmon_tensix_core *c, unsigned b)
{
    tx_bank *k = &c->bank[b];
    if (!k->running)
        return;   /* stopping a stopped bank keeps the latched values */
    k->running = 0;
    k->stop_cycle = c->now;
    for (unsigned s = 0; s < TX_NSIG; s++)
        k->stop_cnt[s] = smn_tx_signal_total(c, s);
}

/* Start first, then stop: a write of 3 from 0 leaves an empty, stopped window. */
static void ctrl_write(socmon_tensix_core *c, uint32_t old, uint32_t val, const unsigned *banks,
                       unsigned nb)
{
    uint32_t rise = ~old & val;
    for (unsigned i = 0; i < nb; i++) {
        if (rise & R_TENSIX_CTRL_START_MASK)
            bank_start(c, banks[i]);
        if (rise & R_TENSIX_CTRL_STOP_MASK)
            bank_stop(c, banks[i]);
    }
}

static uint64_t bank_elapsed(const socmon_tensix_core *c, unsigned b)
{
    const tx_bank *k = &c->bank[b];
    if (k->mode == TENSIX_MODE_NO_REF)
        return 0;   /* mode 2 keeps no reference count */
    return (k->running ? c->now : k->stop_cycle) - k->start_cycle;
}

static uint64_t bank_count(const socmon_tensix_core *c, unsigned b)
{
    const tx_bank *k = &c->bank[b];
    unsigned sel = SM_FIELD_EX32(bank_reg(c, b, TENSIX_ROLE_MODE), TENSIX_MODE, SEL);
    int s = smn_tx_signal_index(b, sel, b == TENSIX_BANK_L1 ? k->mux : 0);
    if (s < 0)
        return 0;   /* unknown counter ids read 0 */
    uint64_t end = k->running ? smn_tx_signal_total(c, (unsigned)s) : k->stop_cnt[s];
    return end - k->start_cnt[s];
}

void smn_tx_regs_reset(socmon_tensix_core *c)
{
    memset(c->bank, 0, sizeof c->bank);
    for (unsigned i = 0; i < TENSIX_NREGS; i++)
        c->reg[i] = TENSIX_REGINFO[i].reset;
    c->l1_undef = 0;
}

uint64_t smn_tx_regs_next_deadline(const socmon_tensix_core *c)
{
    uint64_t best = UINT64_MAX;
    for (unsigned b = 0; b < TENSIX_NBANKS; b++) {
        const tx_bank *k = &c->bank[b];
        if (k->running && k->mode == TENSIX_MODE_REF_PERIOD) {
            uint64_t end = k->start_cycle + k->ref_period;
            uint64_t left = end > c->now ? end - c->now : 0;
            if (left < best)
                best = left;
        }
    }
    return best;
}

void smn_tx_regs_expire(socmon_tensix_core *c)
{
    for (unsigned b = 0; b < TENSIX_NBANKS; b++) {
        const tx_bank *k = &c->bank[b];
        if (k->running && k->mode == TENSIX_MODE_REF_PERIOD &&
            c->now >= k->start_cycle + k->ref_period)
            bank_stop(c, b);
    }
}

static socmon_status regs_read(void *model, uint64_t off, uint32_t *val)
{
    socmon_tensix_core *c = model;
    int i = off < TENSIX_REGS_SIZE ? tensix_reg_index((uint32_t)off) : -1;
    *val = 0;   /* unmodelled debug registers read 0 */
    if (i < 0)
        return SOCMON_OK;
    if (i < TENSIX_REG_ALL) {
        /* OUT_L/OUT_H are computed from the bank's window on every read. */
        unsigned b = (unsigned)i / TENSIX_NROLES, role = (unsigned)i % TENSIX_NROLES;
        if (role == TENSIX_ROLE_OUT_L)
            c->reg[i] = (uint32_t)bank_elapsed(c, b);   /* 32 bits: wraps */
        else if (role == TENSIX_ROLE_OUT_H && b == TENSIX_BANK_L1 && c->l1_undef)
            return socmon_fail(SOCMON_EUNDEF,
                               "tensix L1 bank: results undefined, PERF_CNT_MUX_CTRL bit 4 changed "
                               "while the bank was running (latched mux %u)", c->bank[b].mux);
        else if (role == TENSIX_ROLE_OUT_H)
            c->reg[i] = (uint32_t)bank_count(c, b);
    }
    *val = socmon_reg_read(&TENSIX_REGINFO[i], &c->reg[i]);
    return SOCMON_OK;
}

static socmon_status regs_write(void *model, uint64_t off, uint32_t val)
{
    static const unsigned all_banks[] = {TENSIX_BANK_INSTRN_THREAD, TENSIX_BANK_FPU};
    socmon_tensix_core *c = model;
    int i = off < TENSIX_REGS_SIZE ? tensix_reg_index((uint32_t)off) : -1;
    if (i < 0)
        return SOCMON_OK;   /* unmodelled debug registers ignore writes */
    uint32_t old = c->reg[i];
    c->reg[i] = socmon_reg_write(&TENSIX_REGINFO[i], old, val);
    if (i == TENSIX_REG_ALL) {
        ctrl_write(c, old, c->reg[i], all_banks, 2);
    } else if (i == TENSIX_REG_MUX_CTRL) {
        if (c->bank[TENSIX_BANK_L1].running && mux_bit(c->reg[i]) != mux_bit(old))
            c->l1_undef = 1;   /* sticky until the next L1 start, even if changed back */
    } else if ((unsigned)i % TENSIX_NROLES == TENSIX_ROLE_CTRL) {
        unsigned b = (unsigned)i / TENSIX_NROLES;
        ctrl_write(c, old, c->reg[i], &b, 1);
    }
    return SOCMON_OK;
}

const socmon_regmodel_ops smn_tensix_regs_ops = {.read = regs_read, .write = regs_write};

static socmon_status l1_read(void *model, uint64_t off, uint32_t *val)
{
    socmon_tensix_core *c = model;
    if (off > TENSIX_L1_SIZE - 4 || (off & 3))
        return socmon_fail(SOCMON_EIO, "tensix L1 read at 0x%llx outside 0..0x%x",
                           (unsigned long long)off, TENSIX_L1_SIZE - 4);
    memcpy(val, c->l1 + off, 4);
    return SOCMON_OK;
}

static socmon_status l1_write(void *model, uint64_t off, uint32_t val)
{
    socmon_tensix_core *c = model;
    if (off > TENSIX_L1_SIZE - 4 || (off & 3))
        return socmon_fail(SOCMON_EIO, "tensix L1 write at 0x%llx outside 0..0x%x",
                           (unsigned long long)off, TENSIX_L1_SIZE - 4);
    memcpy(c->l1 + off, &val, 4);
    return SOCMON_OK;
}

const socmon_regmodel_ops smn_tensix_l1_ops = {.read = l1_read, .write = l1_write};

/* ---- the core ---- */

socmon_status smn_tensix_core_new(const socmon_tensix_kernel_params *p, socmon_tensix_core **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "tensix core: out is NULL");
    *out = NULL;
    socmon_tensix_core *c = calloc(1, sizeof *c);
    if (!c)
        return socmon_fail(SOCMON_ENOMEM, "tensix core: out of memory");
    if (p)
        c->p = *p;
    else
        socmon_tensix_kernel_params_default(&c->p);
    if (!c->p.platform)
        c->p.platform = socmon_tensix_platform_at(0);
    c->l1 = calloc(1, TENSIX_L1_SIZE);
    socmon_status st = c->l1 ? smn_tx_kernel_init(c) : socmon_fail(SOCMON_ENOMEM, "tensix L1: out of memory");
    if (st != SOCMON_OK) {
        smn_tensix_core_free(c);
        return st;
    }
    smn_tx_regs_reset(c);
    *out = c;
    return SOCMON_OK;
}

void smn_tensix_core_free(socmon_tensix_core *c)
{
    if (!c)
        return;
    free(c->l1);
    free(c);
}

socmon_status smn_tensix_core_map(socmon_tensix_core *c, socmon_bus *bus, uint64_t regs_base,
                                     uint64_t l1_base)
{
    if (!c || !bus)
        return socmon_fail(SOCMON_EINVAL, "tensix core map: NULL core or bus");
    socmon_status st = socmon_bus_model_map(bus, regs_base, TENSIX_REGS_SIZE,
                                            &smn_tensix_regs_ops, c);
    if (st != SOCMON_OK)
        return st;
    return socmon_bus_model_map(bus, l1_base, TENSIX_L1_SIZE, &smn_tensix_l1_ops, c);
}

socmon_status socmon_tensix_core_kernel_start(socmon_tensix_core *c)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "tensix core: NULL");
    smn_tx_kernel_begin(c);
    return SOCMON_OK;
}

socmon_status socmon_tensix_core_advance(socmon_tensix_core *c, uint64_t cycles, int *done)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "tensix core: NULL");
    while (cycles > 0) {
        /* Split at mode-1 auto-stops so they freeze exactly at their period. */
        uint64_t step = smn_tx_regs_next_deadline(c);
        if (step == 0) {
            smn_tx_regs_expire(c);
            continue;
        }
        if (step > cycles)
            step = cycles;
        smn_tx_kernel_step(c, step);
        cycles -= step;
        smn_tx_regs_expire(c);
    }
    smn_tx_regs_expire(c);
    if (done)
        *done = c->phase == TX_PH_IDLE;
    return SOCMON_OK;
}

uint64_t socmon_tensix_core_now(const socmon_tensix_core *c)
{
    return c->now;
}

const socmon_tensix_kernel_params *socmon_tensix_core_params(const socmon_tensix_core *c)
{
    return &c->p;
}

uint64_t socmon_tensix_core_signal(const socmon_tensix_core *c, unsigned bank, unsigned counter_id,
                                   unsigned l1_mux)
{
    int s = smn_tx_signal_index(bank, counter_id, l1_mux);
    return s < 0 ? UINT64_MAX : smn_tx_signal_total(c, (unsigned)s);
}

int socmon_tensix_core_l1_undefined(const socmon_tensix_core *c)
{
    return c->l1_undef;
}
