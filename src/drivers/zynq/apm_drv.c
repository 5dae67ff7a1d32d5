/* AXI Performance Monitor driver, Profile or Advanced mode, over a socmon_bus.
 *
 * Programming follows the ESW driver's recipes (reset pulse on CR bit 1, SPA
 * latency points in CR bits 4-7, enable) with one deliberate difference: the
 * sample interval control register is written 0. Its reset value 0x100 makes
 * every sample (and so every read of the sample register) reset the live
 * counters; we keep them running free so that consumers take wrap-safe deltas
 * between samples, as the SPA monitor framework describes.
 *
 * Advanced mode: the metric selectors are written once (whole registers:
 * this driver owns every counter); a counter's register shows its
 * accumulator / scale, so the driver hands out register << log2(scale), a
 * value of 32 + log2(scale) bits in the metric's own units whose wrap-safe
 * delta is exact. The global clock counter, if asked for, is read hi-lo-hi. */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "drivers/zynq/zynq_drv.h"

#define NCTR_MAX (SOCMON_ZAPM_MAX_COUNTERS + 1)   /* Profile's 48, or 10 + the GCC */

typedef struct zapm_drv {
    socmon_bus *bus;
    uint64_t base;
    unsigned nslots, ncounters;
    int advanced, live, gcc_width;
    unsigned shift;                      /* log2(scale) */
    int gcc_index;                       /* -1: none */
    char inst[SOCMON_ZAPM_MAX_SLOTS][16];
    socmon_counter c[NCTR_MAX];
} zapm_drv;

static const struct {
    const char *name, *unit, *desc;
} kinds[SOCMON_ZAPM_PER_SLOT] = {
    {"wr_bytes", "bytes", "write bytes (WSTRB lanes, counted at WLAST)"},
    {"wr_txns", "events", "write transactions (address handshakes)"},
    {"wr_lat", "cycles", "total write latency, address accept to last data"},
    {"rd_bytes", "bytes", "read bytes (bus width per beat)"},
    {"rd_txns", "events", "read transactions (address handshakes)"},
    {"rd_lat", "cycles", "total read latency, address accept to last data"},
};

static socmon_status wr(zapm_drv *d, uint32_t off, uint32_t v)
{
    return socmon_bus_write32(d->bus, d->base + off, v);
}

static socmon_status apm_read(void *p, const uint32_t *idx, size_t n, uint64_t *out)
{
    zapm_drv *d = p;
    uint32_t v;
    /* one sample pulse: every sampled copy is from the same core clock edge */
    socmon_status st = socmon_bus_read32(d->bus, d->base + A_ZAPM_SR, &v);
    for (size_t i = 0; i < n && !st; i++) {
        if (idx[i] >= d->ncounters)
            return socmon_fail(SOCMON_ERANGE, "apm: counter %u out of range 0..%u", idx[i],
                               d->ncounters - 1);
        const socmon_counter *c = &d->c[idx[i]];
        if ((int)idx[i] == d->gcc_index) {
            if (d->gcc_width == 64) {
                st = socmon_bus_read64_hilohi(d->bus, c->reg, c->reg_hi, 0, &out[i]);
            } else {
                st = socmon_bus_read32(d->bus, c->reg, &v);
                out[i] = v;
            }
            continue;
        }
        st = socmon_bus_read32(d->bus, c->reg, &v);
        out[i] = (uint64_t)v << d->shift;
    }
    return st ? socmon_fail_prefix(st, "apm: ") : SOCMON_OK;
}

static void apm_destroy(void *p)
{
    free(p);
}

static void profile_counters(zapm_drv *d, const smn_zapm_config *cfg)
{
    for (unsigned s = 0; s < d->nslots; s++) {
        for (unsigned j = 0; j < SOCMON_ZAPM_PER_SLOT; j++) {
            socmon_counter *c = &d->c[s * SOCMON_ZAPM_PER_SLOT + j];
            c->name = kinds[j].name;
            c->instance = d->inst[s];
            c->desc = kinds[j].desc;
            c->unit = kinds[j].unit;
            c->width = 32;
            c->reg = d->base + socmon_zapm_smc_offset(s * SOCMON_ZAPM_PER_SLOT + j);
            /* bytes: a full beat per cycle; transactions: one address per
             * cycle; latency: up to 32 outstanding each adding a cycle */
            double r = cfg->clock_hz;
            if (j == SOCMON_ZAPM_WR_BYTES || j == SOCMON_ZAPM_RD_BYTES)
                r *= cfg->bus_width_bytes ? cfg->bus_width_bytes : 8;
            else if (j == SOCMON_ZAPM_WR_LAT || j == SOCMON_ZAPM_RD_LAT)
                r *= 32;
            c->max_rate_hz = r;
        }
    }
    d->ncounters = SOCMON_ZAPM_PER_SLOT * d->nslots;
}

/* Checks the selections and makes a counter of each; fills msr[3]. */
static socmon_status advanced_counters(zapm_drv *d, const smn_zapm_config *cfg,
                                       uint32_t msr[3])
{
    smn_zapm_sel def[SOCMON_ZAPM_MAX_SEL];
    unsigned nctr = cfg->ncounters ? cfg->ncounters : SOCMON_ZAPM_MAX_SEL;
    if (nctr > SOCMON_ZAPM_MAX_SEL)
        return socmon_fail(SOCMON_ERANGE, "apm: ncounters %u out of range 1..%u", nctr,
                           SOCMON_ZAPM_MAX_SEL);
    if (cfg->nsel > nctr)
        return socmon_fail(SOCMON_ERANGE, "apm: %u selections for %u counters", cfg->nsel, nctr);
    unsigned scale = cfg->scale ? cfg->scale : 1;
    if (scale != 1 && scale != 2 && scale != 4 && scale != 8)
        return socmon_fail(SOCMON_ERANGE, "apm: scale %u invalid (1, 2, 4 or 8)", scale);
    while ((1u << d->shift) < scale)
        d->shift++;
    if (cfg->gcc_width != 0 && cfg->gcc_width != 32 && cfg->gcc_width != 64)
        return socmon_fail(SOCMON_ERANGE, "apm: gcc_width %d invalid (0, 32 or 64)",
                           cfg->gcc_width);
    const smn_zapm_sel *sel = cfg->sel;
    unsigned nsel = cfg->nsel;
    if (nsel == 0) {
        nsel = smn_zapm_default_sel(d->nslots, nctr, def);
        sel = def;
    }
    double width = cfg->bus_width_bytes ? cfg->bus_width_bytes : 8;
    for (unsigned k = 0; k < nsel; k++) {
        const zapm_metric_info *mi = smn_zapm_metric_info_of(sel[k].metric);
        if (!mi)
            return socmon_fail(SOCMON_ERANGE, "apm: selection %u: metric %u is no APM metric "
                               "(0..22 or 30)", k, sel[k].metric);
        if (sel[k].slot >= d->nslots)
            return socmon_fail(SOCMON_ERANGE, "apm: selection %u: slot %u out of range 0..%u", k,
                               sel[k].slot, d->nslots - 1);
        for (unsigned j = 0; j < k; j++)
            if (sel[j].slot == sel[k].slot && sel[j].metric == sel[k].metric)
                return socmon_fail(SOCMON_EINVAL, "apm: slot%u.%s selected twice (%u and %u)",
                                   sel[k].slot, mi->name, j, k);
        msr[k / 4] |= (uint32_t)zapm_msr_byte(sel[k].slot, sel[k].metric) << zapm_msr_shift(k);
        socmon_counter *c = &d->c[k];
        c->name = mi->name;
        c->instance = d->inst[sel[k].slot];
        c->desc = mi->desc;
        c->unit = mi->unit;
        c->width = 32 + d->shift;
        c->reg = d->base + (d->live ? zapm_adv_mc_offset(k) : zapm_adv_smc_offset(k));
        c->max_rate_hz = cfg->clock_hz * mi->per_clock * (mi->per_byte ? width : 1);
    }
    d->ncounters = nsel;
    if (cfg->gcc_width) {
        socmon_counter *c = &d->c[d->ncounters];
        d->gcc_index = (int)d->ncounters++;
        d->gcc_width = cfg->gcc_width;
        c->name = "gcc";
        c->instance = "apm";
        c->desc = "APM global clock counter (core clock cycles)";
        c->unit = "cycles";
        c->width = (unsigned)cfg->gcc_width;
        c->reg = d->base + A_ZAPM_GCC_LOW;
        c->reg_hi = cfg->gcc_width == 64 ? d->base + A_ZAPM_GCC_HIGH : 0;
        c->max_rate_hz = cfg->clock_hz;
    }
    return SOCMON_OK;
}

static socmon_status program(zapm_drv *d, const uint32_t msr[3])
{
    uint32_t sr, gcc = d->gcc_index >= 0 ? R_ZAPM_CTL_GCC_EN_MASK : 0;
    socmon_status st = wr(d, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK |
                                             (gcc ? R_ZAPM_CTL_GCC_RESET_MASK : 0));
    if (!st)
        st = wr(d, A_ZAPM_CTL, 0);
    if (!st)
        st = wr(d, A_ZAPM_SICR, 0);
    if (!st)
        st = wr(d, A_ZAPM_IE, 0);
    if (!st)   /* W1C of every source either mode has */
        st = wr(d, A_ZAPM_IS, ZAPM_IXR_ADV_MASK);
    for (unsigned r = 0; d->advanced && r < 3 && !st; r++)
        st = wr(d, A_ZAPM_MSR0 + 4 * r, msr[r]);
    if (!st)
        st = wr(d, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY | gcc);
    if (!st)
        st = socmon_bus_read32(d->bus, d->base + A_ZAPM_SR, &sr);
    return st;
}

socmon_status smn_zapm_part_new(socmon_bus *bus, uint64_t base, const smn_zapm_config *cfg,
                                   smn_zynq_part *out)
{
    if (!bus || !cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "apm: NULL argument");
    if (cfg->nslots < 1 || cfg->nslots > SOCMON_ZAPM_MAX_SLOTS)
        return socmon_fail(SOCMON_ERANGE, "apm: slots %u out of range 1..%u", cfg->nslots,
                           SOCMON_ZAPM_MAX_SLOTS);
    if (!(cfg->clock_hz > 0))
        return socmon_fail(SOCMON_ERANGE, "apm: clock_hz %g must be > 0", cfg->clock_hz);
    if (cfg->mode != SOCMON_ZAPM_PROFILE && cfg->mode != SOCMON_ZAPM_ADVANCED)
        return socmon_fail(SOCMON_ERANGE, "apm: mode %d invalid (0 profile, 1 advanced)",
                           cfg->mode);
    zapm_drv *d = calloc(1, sizeof *d);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "apm: out of memory");
    d->bus = bus;
    d->base = base;
    d->nslots = cfg->nslots;
    d->advanced = cfg->mode == SOCMON_ZAPM_ADVANCED;
    d->live = d->advanced && cfg->no_sampled;
    d->gcc_index = -1;
    for (unsigned s = 0; s < d->nslots; s++)
        snprintf(d->inst[s], sizeof d->inst[s], "slot%u", s);
    uint32_t msr[3] = {0, 0, 0};
    socmon_status st = SOCMON_OK;
    if (d->advanced)
        st = advanced_counters(d, cfg, msr);
    else
        profile_counters(d, cfg);
    if (st) {
        free(d);
        return st;
    }
    if ((st = program(d, msr)) != SOCMON_OK) {
        free(d);
        return socmon_fail_prefix(st, "apm at 0x%llx: ", (unsigned long long)base);
    }
    out->drv = d;
    out->ncounters = d->ncounters;
    out->counters = d->c;
    out->read = apm_read;
    out->destroy = apm_destroy;
    return SOCMON_OK;
}

socmon_status smn_zapm_bus_uio(const char *uio_path, socmon_bus **out)
{
    /* UIO map N is selected by mmap offset N * page size; map 0 is the
     * register window */
    return socmon_bus_mmio_open(uio_path, 0, SOCMON_ZAPM_WINDOW, out);
}
