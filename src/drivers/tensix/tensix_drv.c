/* The Tensix counter-bank driver (socmon/tensix.h, drivers/tensix/tensix_drv.h): the banks'
 * protocol over a socmon_bus, and a socmon_device over a slot configuration.
 *
 * start() starts each bank that a valid slot names (once, at its first slot;
 * the L1 mux comes from the first L1 slot); stop() stops them all, then reads
 * every valid slot in slot order; a read selects the counter and polls the
 * mode register until the selection shows. docs/tensix.md, "Driver
 * protocol", says why each step differs from tt-llk's. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "drivers/tensix/tensix_drv.h"
#include "hw/tensix_bank.h"

struct socmon_tensix_drv {
    socmon_bus *bus;
    uint64_t regs, l1;
    int l1_mux_latched;   /* -1: the L1 bank was not started by this driver */
};

#define SETTLE_TRIES 8

socmon_status socmon_tensix_drv_new(socmon_bus *bus, uint64_t regs_base, uint64_t l1_base,
                                    socmon_tensix_drv **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "tensix driver: out is NULL");
    *out = NULL;
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "tensix driver: bus is NULL");
    socmon_tensix_drv *d = calloc(1, sizeof *d);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "tensix driver: out of memory");
    d->bus = bus;
    d->regs = regs_base;
    d->l1 = l1_base;
    d->l1_mux_latched = -1;
    *out = d;
    return SOCMON_OK;
}

void socmon_tensix_drv_free(socmon_tensix_drv *d)
{
    free(d);
}

socmon_bus *smn_tensix_drv_bus(const socmon_tensix_drv *d)
{
    return d ? d->bus : NULL;
}

static socmon_status wr(socmon_tensix_drv *d, uint32_t off, uint32_t v)
{
    return socmon_bus_write32(d->bus, d->regs + off, v);
}

static socmon_status rd(socmon_tensix_drv *d, uint32_t off, uint32_t *v)
{
    return socmon_bus_read32(d->bus, d->regs + off, v);
}

static socmon_status check_thread(unsigned thread)
{
    if (thread >= TENSIX_NTHREADS)
        return socmon_fail(SOCMON_ERANGE, "tensix thread %u out of range 0..2 (UNPACK, MATH, PACK)",
                           thread);
    return SOCMON_OK;
}

socmon_status socmon_tensix_drv_load_config(socmon_tensix_drv *d, unsigned thread, uint32_t *words)
{
    if (!d || !words)
        return socmon_fail(SOCMON_EINVAL, "socmon_tensix_drv_load_config: %s is NULL",
                           !d ? "d (the driver)" : "words");
    socmon_status st = check_thread(thread);
    if (st != SOCMON_OK)
        return st;
    uint64_t a = d->l1 + tensix_config_addr(thread);
    for (unsigned i = 0; i < TENSIX_CONFIG_WORDS; i++)
        if ((st = socmon_bus_read32(d->bus, a + 4u * i, &words[i])) != SOCMON_OK)
            return st;
    return SOCMON_OK;
}

socmon_status socmon_tensix_drv_store_config(socmon_tensix_drv *d, unsigned thread,
                                             const uint32_t *words, size_t n)
{
    if (!d || (n && !words))
        return socmon_fail(SOCMON_EINVAL, "socmon_tensix_drv_store_config: %s is NULL",
                           !d ? "d (the driver)" : "words (of n > 0)");
    socmon_status st = check_thread(thread);
    if (st != SOCMON_OK)
        return st;
    if (n > TENSIX_CONFIG_WORDS)
        return socmon_fail(SOCMON_ERANGE, "tensix config: %zu words for thread %s, at most %u", n,
                           socmon_tensix_thread_name(thread), TENSIX_CONFIG_WORDS);
    uint64_t a = d->l1 + tensix_config_addr(thread);
    unsigned total = TENSIX_CONFIG_WORDS + TENSIX_DATA_WORDS;
    for (unsigned i = 0; i < total; i++)
        if ((st = socmon_bus_write32(d->bus, a + 4u * i, i < n ? words[i] : 0)) != SOCMON_OK)
            return st;
    return SOCMON_OK;
}

static socmon_status set_l1_mux(socmon_tensix_drv *d, unsigned mux)
{
    uint32_t cur;
    socmon_status st = rd(d, A_TENSIX_PERF_CNT_MUX_CTRL, &cur);
    if (st != SOCMON_OK)
        return st;
    uint32_t v = SM_FIELD_DP32(cur, TENSIX_PERF_CNT_MUX_CTRL, L1_MUX, mux);
    return v == cur ? SOCMON_OK : wr(d, A_TENSIX_PERF_CNT_MUX_CTRL, v);
}

/* Banks in the order of their first valid slot; returns how many. */
static unsigned banks_in_use(const socmon_tensix_slot *s, size_t n, unsigned *order, unsigned *mux)
{
    unsigned nb = 0, seen = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s[i].valid || (seen & (1u << s[i].bank)))
            continue;
        seen |= 1u << s[i].bank;
        order[nb++] = s[i].bank;
        if (s[i].bank == TENSIX_BANK_L1)
            *mux = s[i].l1_mux;
    }
    return nb;
}

socmon_status smn_tensix_drv_start(socmon_tensix_drv *d, const uint32_t *words, size_t n)
{
    socmon_tensix_slot s[TENSIX_CONFIG_WORDS];
    unsigned order[TENSIX_NBANKS], mux = 0;
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "tensix start: driver is NULL");
    socmon_status st = socmon_tensix_slots_check(words, n, s, NULL);
    if (st != SOCMON_OK)
        return st;
    unsigned nb = banks_in_use(s, n, order, &mux);
    for (unsigned i = 0; i < nb; i++) {
        const tensix_bank_regs *r = tensix_bank(order[i]);
        if (order[i] == TENSIX_BANK_L1) {
            /* The mux is latched at start: it must be set before the edge. */
            if ((st = set_l1_mux(d, mux)) != SOCMON_OK)
                return st;
            d->l1_mux_latched = (int)mux;
        }
        if ((st = wr(d, r->ref, 0xFFFFFFFFu)) != SOCMON_OK ||
            (st = wr(d, r->mode, TENSIX_MODE_CONTINUOUS)) != SOCMON_OK ||
            (st = wr(d, r->ctrl, 0)) != SOCMON_OK ||
            (st = wr(d, r->ctrl, R_TENSIX_CTRL_START_MASK)) != SOCMON_OK)
            return st;
    }
    return SOCMON_OK;
}

socmon_status smn_tensix_drv_read(socmon_tensix_drv *d, unsigned bank, unsigned counter_id,
                                     uint32_t *cycles, uint32_t *count)
{
    const tensix_bank_regs *r = tensix_bank(bank);
    if (!r)
        return socmon_fail(SOCMON_ERANGE, "tensix bank %u out of range 0..4", bank);
    if (counter_id > (R_TENSIX_MODE_SEL_MASK >> R_TENSIX_MODE_SEL_SHIFT))
        return socmon_fail(SOCMON_ERANGE, "tensix counter id %u out of range 0..511", counter_id);
    uint32_t sel = SM_FIELD_DP32(0, TENSIX_MODE, SEL, counter_id), back = ~sel;
    socmon_status st = wr(d, r->mode, sel);
    /* Read the mode register back until it shows the selection, so OUT_H is
     * not read before the select has taken effect. */
    for (unsigned t = 0; st == SOCMON_OK && back != sel && t < SETTLE_TRIES; t++)
        st = rd(d, r->mode, &back);
    if (st != SOCMON_OK)
        return st;
    if (back != sel)
        return socmon_fail(SOCMON_EAGAIN, "tensix %s: mode register reads 0x%08x, wrote 0x%08x",
                           r->name, back, sel);
    if ((st = rd(d, r->out_l, cycles)) != SOCMON_OK)
        return st;
    if (bank == TENSIX_BANK_L1 && d->l1_mux_latched >= 0) {
        /* On hardware the driver's own check: the mux must still be the latched one. */
        uint32_t m;
        if ((st = rd(d, A_TENSIX_PERF_CNT_MUX_CTRL, &m)) != SOCMON_OK)
            return st;
        unsigned now = SM_FIELD_EX32(m, TENSIX_PERF_CNT_MUX_CTRL, L1_MUX);
        if ((int)now != d->l1_mux_latched)
            return socmon_fail(SOCMON_EUNDEF,
                               "tensix L1 bank: results undefined, mux is %u but %d was latched at start",
                               now, d->l1_mux_latched);
    }
    return rd(d, r->out_h, count);
}

socmon_status smn_tensix_drv_stop(socmon_tensix_drv *d, const uint32_t *words, size_t n,
                                     socmon_tensix_result *res, size_t cap, size_t *nres)
{
    socmon_tensix_slot s[TENSIX_CONFIG_WORDS];
    unsigned order[TENSIX_NBANKS], mux = 0;
    size_t nv = 0, k = 0;
    if (!d || (!res && cap) || !nres)
        return socmon_fail(SOCMON_EINVAL, "tensix stop: NULL argument");
    *nres = 0;
    socmon_status st = socmon_tensix_slots_check(words, n, s, &nv);
    if (st != SOCMON_OK)
        return st;
    if (nv > cap)
        return socmon_fail(SOCMON_ERANGE, "tensix stop: %zu valid slots, room for %zu results", nv, cap);
    /* Stop every bank first, so the readout does not stretch later windows. */
    unsigned nb = banks_in_use(s, n, order, &mux);
    for (unsigned i = 0; i < nb; i++) {
        const tensix_bank_regs *r = tensix_bank(order[i]);
        if ((st = wr(d, r->ctrl, 0)) != SOCMON_OK ||
            (st = wr(d, r->ctrl, R_TENSIX_CTRL_STOP_MASK)) != SOCMON_OK)
            return st;
    }
    socmon_status undef = SOCMON_OK;
    char undef_msg[256] = "";
    unsigned nundef = 0;
    for (size_t i = 0; i < n; i++) {
        if (!s[i].valid)
            continue;
        socmon_tensix_result *o = &res[k++];
        memset(o, 0, sizeof *o);
        o->bank = s[i].bank;
        o->counter_id = s[i].counter_id;
        o->l1_mux = s[i].l1_mux;
        o->slot = (unsigned)i;
        st = smn_tensix_drv_read(d, o->bank, o->counter_id, &o->cycles, &o->count);
        if (st == SOCMON_EUNDEF) {
            if (!nundef++)
                snprintf(undef_msg, sizeof undef_msg, "slot %zu (L1 counter %u): %s", i,
                         o->counter_id, socmon_errmsg());
            o->undefined = 1;
            o->cycles = o->count = 0;
            undef = SOCMON_EUNDEF;
        } else if (st != SOCMON_OK) {
            *nres = k - 1;
            return socmon_fail_prefix(st, "tensix stop, slot %zu: ", i);
        }
    }
    *nres = k;
    if (undef != SOCMON_OK)
        return socmon_fail(undef, "%s (%u undefined result%s)", undef_msg, nundef,
                           nundef == 1 ? "" : "s");
    return SOCMON_OK;
}

/* ---- a kernel thread's counter calls (tt-llk's PerfCounters start/stop) ---- */

socmon_status socmon_tensix_drv_thread_start(socmon_tensix_drv *d, unsigned thread, uint32_t *words)
{
    if (!d || !words)
        return socmon_fail(SOCMON_EINVAL, "tensix thread start: NULL argument");
    socmon_status st = socmon_tensix_drv_load_config(d, thread, words);
    return st == SOCMON_OK ? smn_tensix_drv_start(d, words, TENSIX_CONFIG_WORDS) : st;
}

socmon_status socmon_tensix_drv_thread_stop(socmon_tensix_drv *d, unsigned thread, const uint32_t *words,
                                            socmon_tensix_result *res, size_t cap, size_t *nres)
{
    socmon_status st = check_thread(thread);
    if (st != SOCMON_OK)
        return st;
    st = smn_tensix_drv_stop(d, words, TENSIX_CONFIG_WORDS, res, cap, nres);
    if (st != SOCMON_OK && st != SOCMON_EUNDEF)
        return st;
    /* Undefined results are still written (as SOCMON_TENSIX_UNDEF_WORD pairs); their
     * message is kept for the end, the writes would not change it but a failed one would. */
    socmon_status undef = st;
    char msg[512] = "";
    if (undef != SOCMON_OK)
        snprintf(msg, sizeof msg, "%s", socmon_errmsg());
    uint64_t data = d->l1 + tensix_data_addr(thread);
    for (size_t k = 0; k < *nres; k++) {
        uint32_t w0 = res[k].undefined ? SOCMON_TENSIX_UNDEF_WORD : res[k].cycles;
        uint32_t w1 = res[k].undefined ? SOCMON_TENSIX_UNDEF_WORD : res[k].count;
        if ((st = socmon_bus_write32(d->bus, data + 8 * k, w0)) != SOCMON_OK ||
            (st = socmon_bus_write32(d->bus, data + 8 * k + 4, w1)) != SOCMON_OK)
            return st;
    }
    return undef != SOCMON_OK ? socmon_fail(undef, "%s", msg) : SOCMON_OK;
}

/* ---- the socmon_device over configured slots ---- */

typedef struct dev_counter {
    unsigned bank, counter_id;
    int is_cycles;
} dev_counter;

typedef struct tensix_dev {
    socmon_tensix_drv *d;
    size_t n;
    dev_counter c[TENSIX_CONFIG_WORDS + TENSIX_NBANKS];
} tensix_dev;

static socmon_status dev_read(void *priv, const uint32_t *idx, size_t n, uint64_t *out)
{
    tensix_dev *td = priv;
    socmon_status undef = SOCMON_OK;
    char msg[256] = "";
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= td->n)
            return socmon_fail(SOCMON_ERANGE, "tensix device: counter index %u out of range (%zu counters)",
                               idx[i], td->n);
        const dev_counter *c = &td->c[idx[i]];
        const tensix_bank_regs *r = tensix_bank(c->bank);
        uint32_t cyc = 0, cnt = 0;
        socmon_status st;
        if (c->is_cycles)
            st = rd(td->d, r->out_l, &cyc);
        else
            st = smn_tensix_drv_read(td->d, c->bank, c->counter_id, &cyc, &cnt);
        if (st == SOCMON_EUNDEF) {
            if (undef == SOCMON_OK)
                snprintf(msg, sizeof msg, "%s counter %u: %s", r->name, c->counter_id, socmon_errmsg());
            undef = st;
            out[i] = 0;
            continue;
        }
        if (st != SOCMON_OK)
            return st;
        out[i] = c->is_cycles ? cyc : cnt;
    }
    if (undef != SOCMON_OK)
        return socmon_fail(undef, "%s", msg);
    return SOCMON_OK;
}

static void dev_destroy(void *priv)
{
    free(priv);
}

static const socmon_device_ops dev_ops = {.read = dev_read, .destroy = dev_destroy};

/* s == NULL: the bank's cycles counter (OUT_L). A counter id the guide does
 * not list gets tt-llk's name ({BANK}_UNKNOWN_{id}). */
static socmon_status add(socmon_device *dev, tensix_dev *td, unsigned bank,
                         const socmon_tensix_slot *s, double clock_hz)
{
    const tensix_bank_regs *r = tensix_bank(bank);
    const socmon_tensix_event *e = s ? socmon_tensix_event_find(bank, s->counter_id, s->l1_mux) : NULL;
    char name[48];
    if (s)
        socmon_tensix_counter_name(bank, s->counter_id, s->l1_mux, name, sizeof name);
    socmon_counter c = {
        .name = s ? name : "cycles",
        .instance = r->lname,
        .desc = e ? e->desc : s ? "A counter select the guide does not document" :
                                  "Elapsed cycles of the bank's window (OUT_L)",
        .unit = s ? "events" : "cycles",
        .width = 32,
        .reg = s ? r->out_h : r->out_l,
        .max_rate_hz = clock_hz,
    };
    socmon_status st = socmon_device_add_counter(dev, &c, NULL);
    if (st != SOCMON_OK)
        return st;
    td->c[td->n++] = (dev_counter){bank, s ? s->counter_id : 0, s == NULL};
    return SOCMON_OK;
}

socmon_status smn_tensix_drv_device(socmon_tensix_drv *d, const char *name, const uint32_t *words,
                                       size_t n, double clock_hz, socmon_device **out)
{
    socmon_tensix_slot s[TENSIX_CONFIG_WORDS];
    unsigned order[TENSIX_NBANKS], mux = 0;
    if (!d || !out)
        return socmon_fail(SOCMON_EINVAL, "tensix device: NULL argument");
    *out = NULL;
    socmon_status st = socmon_tensix_slots_check(words, n, s, NULL);
    if (st != SOCMON_OK)
        return st;
    tensix_dev *td = calloc(1, sizeof *td);
    if (!td)
        return socmon_fail(SOCMON_ENOMEM, "tensix device: out of memory");
    td->d = d;
    socmon_device *dev;
    if ((st = socmon_device_new(name ? name : "tensix", &dev_ops, td, &dev)) != SOCMON_OK) {
        free(td);
        return st;
    }
    unsigned nb = banks_in_use(s, n, order, &mux);
    for (unsigned b = 0; b < nb && st == SOCMON_OK; b++)
        st = add(dev, td, order[b], NULL, clock_hz);
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        if (!s[i].valid)
            continue;
        int dup = 0;
        for (size_t j = 0; j < td->n; j++)
            dup |= !td->c[j].is_cycles && td->c[j].bank == s[i].bank &&
                   td->c[j].counter_id == s[i].counter_id;
        if (!dup)   /* a slot repeated in the config reads the same counter */
            st = add(dev, td, s[i].bank, &s[i], clock_hz);
    }
    if (st != SOCMON_OK) {
        socmon_device_free(dev);
        return st;
    }
    *out = dev;
    return SOCMON_OK;
}
