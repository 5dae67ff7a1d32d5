/* The counter banks at register level, and the L1 region.
 *
 * Behaviour follows the guide (docs/tensix.md): start and stop act on a
 * rising edge of the control register (bit 0 start, bit 1 stop), a start edge
 * clears the bank, mode and reference period are latched at start, OUT_L is
 * the bank's elapsed cycles and OUT_H the counter picked by counter_sel. All
 * counters of a bank count at once; counter_sel only routes one to OUT_H. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/tensix/tensix_internal.h"

static unsigned mux_bit(uint32_t v)
{
    return (v >> SOCMON_TENSIX_L1_MUX_BIT) & 1u;
}

static void bank_start(socmon_tensix_core *c, unsigned b)
{
    tx_bank *k = &c->bank[b];
    k->running = 1;
    k->mode = k->mode_reg & 0xFFu;
    k->ref_period = k->ref_reg;
    k->start_cycle = c->now;
    k->stop_cycle = c->now;
    for (unsigned s = 0; s < TX_NSIG; s++)
        k->start_cnt[s] = k->stop_cnt[s] = tx_signal_total(c, s);
    if (b == SOCMON_TENSIX_BANK_L1) {
        k->mux = mux_bit(c->mux_reg);
        c->l1_undef = 0;
    }
    if (k->mode == SOCMON_TENSIX_MODE_REF_PERIOD && k->ref_period == 0)
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
        k->stop_cnt[s] = tx_signal_total(c, s);
}

/* Start first, then stop: a write of 3 from 0 leaves an empty, stopped window. */
static void ctrl_write(socmon_tensix_core *c, uint32_t old, uint32_t val, const unsigned *banks,
                       unsigned nb)
{
    uint32_t rise = ~old & val;
    for (unsigned i = 0; i < nb; i++) {
        if (rise & SOCMON_TENSIX_CTRL_START)
            bank_start(c, banks[i]);
        if (rise & SOCMON_TENSIX_CTRL_STOP)
            bank_stop(c, banks[i]);
    }
}

static uint64_t bank_elapsed(const socmon_tensix_core *c, unsigned b)
{
    const tx_bank *k = &c->bank[b];
    if (k->mode == SOCMON_TENSIX_MODE_NO_REF)
        return 0;   /* mode 2 keeps no reference count */
    return (k->running ? c->now : k->stop_cycle) - k->start_cycle;
}

static uint64_t bank_count(const socmon_tensix_core *c, unsigned b)
{
    const tx_bank *k = &c->bank[b];
    unsigned sel = (k->mode_reg >> SOCMON_TENSIX_MODE_SEL_SHIFT) & SOCMON_TENSIX_MODE_SEL_MASK;
    int s = tx_signal_index(b, sel, b == SOCMON_TENSIX_BANK_L1 ? k->mux : 0);
    if (s < 0)
        return 0;   /* unknown counter ids read 0 */
    uint64_t end = k->running ? tx_signal_total(c, (unsigned)s) : k->stop_cnt[s];
    return end - k->start_cnt[s];
}

void tx_regs_reset(socmon_tensix_core *c)
{
    memset(c->bank, 0, sizeof c->bank);
    c->all_reg = 0;
    c->mux_reg = 0;
    c->l1_undef = 0;
}

uint64_t tx_regs_next_deadline(const socmon_tensix_core *c)
{
    uint64_t best = UINT64_MAX;
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
        const tx_bank *k = &c->bank[b];
        if (k->running && k->mode == SOCMON_TENSIX_MODE_REF_PERIOD) {
            uint64_t end = k->start_cycle + k->ref_period;
            uint64_t left = end > c->now ? end - c->now : 0;
            if (left < best)
                best = left;
        }
    }
    return best;
}

void tx_regs_expire(socmon_tensix_core *c)
{
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
        const tx_bank *k = &c->bank[b];
        if (k->running && k->mode == SOCMON_TENSIX_MODE_REF_PERIOD &&
            c->now >= k->start_cycle + k->ref_period)
            bank_stop(c, b);
    }
}

/* Which bank and which register (0 ref, 1 mode, 2 ctrl, 3 out_l, 4 out_h) an offset is. */
static int decode(uint64_t off, unsigned *bank, unsigned *reg)
{
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
        const socmon_tensix_bank_regs *r = socmon_tensix_bank(b);
        *bank = b;
        if (off >= r->ctrl_base && off < r->ctrl_base + 12u) {
            *reg = (unsigned)(off - r->ctrl_base) / 4u;
            return 1;
        }
        if (off == r->out_l || off == r->out_h) {
            *reg = off == r->out_l ? 3 : 4;
            return 1;
        }
    }
    return 0;
}

static socmon_status regs_read(void *model, uint64_t off, uint32_t *val)
{
    socmon_tensix_core *c = model;
    unsigned b, r;
    *val = 0;   /* unmodelled debug registers read 0 */
    if (off == SOCMON_TENSIX_PERF_CNT_ALL) {
        *val = c->all_reg;
    } else if (off == SOCMON_TENSIX_PERF_CNT_MUX_CTRL) {
        *val = c->mux_reg;
    } else if (decode(off, &b, &r)) {
        tx_bank *k = &c->bank[b];
        switch (r) {
        case 0: *val = k->ref_reg; break;
        case 1: *val = k->mode_reg; break;
        case 2: *val = k->ctrl_reg; break;
        case 3: *val = (uint32_t)bank_elapsed(c, b); break;
        default:
            if (b == SOCMON_TENSIX_BANK_L1 && c->l1_undef)
                return socmon_fail(SOCMON_EUNDEF,
                                   "tensix L1 bank: results undefined, PERF_CNT_MUX_CTRL bit 4 changed "
                                   "while the bank was running (latched mux %u)", k->mux);
            *val = (uint32_t)bank_count(c, b);
            break;
        }
    }
    return SOCMON_OK;
}

static socmon_status regs_write(void *model, uint64_t off, uint32_t val)
{
    socmon_tensix_core *c = model;
    unsigned b, r;
    if (off == SOCMON_TENSIX_PERF_CNT_ALL) {
        static const unsigned both[] = {SOCMON_TENSIX_BANK_INSTRN_THREAD, SOCMON_TENSIX_BANK_FPU};
        uint32_t old = c->all_reg;
        c->all_reg = val;
        ctrl_write(c, old, val, both, 2);
    } else if (off == SOCMON_TENSIX_PERF_CNT_MUX_CTRL) {
        const tx_bank *l1 = &c->bank[SOCMON_TENSIX_BANK_L1];
        if (l1->running && mux_bit(val) != mux_bit(c->mux_reg))
            c->l1_undef = 1;   /* sticky until the next L1 start, even if changed back */
        c->mux_reg = val;
    } else if (decode(off, &b, &r)) {
        tx_bank *k = &c->bank[b];
        if (r == 0) {
            k->ref_reg = val;
        } else if (r == 1) {
            k->mode_reg = val;
        } else if (r == 2) {
            uint32_t old = k->ctrl_reg;
            k->ctrl_reg = val;
            ctrl_write(c, old, val, &b, 1);
        }   /* OUT_L/OUT_H are read-only: writes are ignored */
    }
    return SOCMON_OK;
}

const socmon_regmodel_ops socmon_tensix_regs_ops = {.read = regs_read, .write = regs_write};

static socmon_status l1_read(void *model, uint64_t off, uint32_t *val)
{
    socmon_tensix_core *c = model;
    if (off > SOCMON_TENSIX_L1_SIZE - 4 || (off & 3))
        return socmon_fail(SOCMON_EIO, "tensix L1 read at 0x%llx outside 0..0x%x",
                           (unsigned long long)off, SOCMON_TENSIX_L1_SIZE - 4);
    memcpy(val, c->l1 + off, 4);
    return SOCMON_OK;
}

static socmon_status l1_write(void *model, uint64_t off, uint32_t val)
{
    socmon_tensix_core *c = model;
    if (off > SOCMON_TENSIX_L1_SIZE - 4 || (off & 3))
        return socmon_fail(SOCMON_EIO, "tensix L1 write at 0x%llx outside 0..0x%x",
                           (unsigned long long)off, SOCMON_TENSIX_L1_SIZE - 4);
    memcpy(c->l1 + off, &val, 4);
    return SOCMON_OK;
}

const socmon_regmodel_ops socmon_tensix_l1_ops = {.read = l1_read, .write = l1_write};

/* ---- the core ---- */

socmon_status socmon_tensix_core_new(const socmon_tensix_kernel_params *p, socmon_tensix_core **out)
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
    c->l1 = calloc(1, SOCMON_TENSIX_L1_SIZE);
    socmon_status st = c->l1 ? tx_kernel_init(c) : socmon_fail(SOCMON_ENOMEM, "tensix L1: out of memory");
    if (st != SOCMON_OK) {
        socmon_tensix_core_free(c);
        return st;
    }
    tx_regs_reset(c);
    *out = c;
    return SOCMON_OK;
}

void socmon_tensix_core_free(socmon_tensix_core *c)
{
    if (!c)
        return;
    free(c->l1);
    free(c);
}

socmon_status socmon_tensix_core_map(socmon_tensix_core *c, socmon_bus *bus, uint64_t regs_base,
                                     uint64_t l1_base)
{
    if (!c || !bus)
        return socmon_fail(SOCMON_EINVAL, "tensix core map: NULL core or bus");
    socmon_status st = socmon_bus_model_map(bus, regs_base, SOCMON_TENSIX_REGS_SIZE,
                                            &socmon_tensix_regs_ops, c);
    if (st != SOCMON_OK)
        return st;
    return socmon_bus_model_map(bus, l1_base, SOCMON_TENSIX_L1_SIZE, &socmon_tensix_l1_ops, c);
}

socmon_status socmon_tensix_core_kernel_start(socmon_tensix_core *c)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "tensix core: NULL");
    tx_kernel_begin(c);
    return SOCMON_OK;
}

socmon_status socmon_tensix_core_advance(socmon_tensix_core *c, uint64_t cycles, int *done)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "tensix core: NULL");
    while (cycles > 0) {
        /* Split at mode-1 auto-stops so they freeze exactly at their period. */
        uint64_t step = tx_regs_next_deadline(c);
        if (step == 0) {
            tx_regs_expire(c);
            continue;
        }
        if (step > cycles)
            step = cycles;
        tx_kernel_step(c, step);
        cycles -= step;
        tx_regs_expire(c);
    }
    tx_regs_expire(c);
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
    int s = tx_signal_index(bank, counter_id, l1_mux);
    return s < 0 ? UINT64_MAX : tx_signal_total(c, (unsigned)s);
}

int socmon_tensix_core_l1_undefined(const socmon_tensix_core *c)
{
    return c->l1_undef;
}
