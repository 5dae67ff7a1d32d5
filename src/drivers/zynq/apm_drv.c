/* AXI Performance Monitor driver, Profile mode, over a socmon_bus.
 *
 * Programming follows the ESW driver's recipes (reset pulse on CR bit 1, SPA
 * latency points in CR bits 4-7, enable) with one deliberate difference: the
 * sample interval control register is written 0. Its reset value 0x100 makes
 * every sample (and so every read of the sample register) reset the live
 * counters; we keep them running free so that consumers take wrap-safe deltas
 * between samples, as the SPA monitor framework describes. */
#include <stdio.h>
#include <stdlib.h>

#include "core/error.h"
#include "drivers/zynq/zynq_drv.h"

typedef struct zapm_drv {
    socmon_bus *bus;
    uint64_t base;
    unsigned nslots;
    char inst[SOCMON_ZAPM_MAX_SLOTS][16];
    socmon_counter c[SOCMON_ZAPM_MAX_COUNTERS];
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
        if (idx[i] >= SOCMON_ZAPM_PER_SLOT * d->nslots)
            return socmon_fail(SOCMON_ERANGE, "apm: counter %u out of range 0..%u", idx[i],
                               SOCMON_ZAPM_PER_SLOT * d->nslots - 1);
        st = socmon_bus_read32(d->bus, d->c[idx[i]].reg, &v);
        out[i] = v;
    }
    return st ? socmon_fail_prefix(st, "apm: ") : SOCMON_OK;
}

static void apm_destroy(void *p)
{
    free(p);
}

socmon_status socmon_zapm_part_new(socmon_bus *bus, uint64_t base, const socmon_zapm_config *cfg,
                                   socmon_zynq_part *out)
{
    if (!bus || !cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "apm: NULL argument");
    if (cfg->nslots < 1 || cfg->nslots > SOCMON_ZAPM_MAX_SLOTS)
        return socmon_fail(SOCMON_ERANGE, "apm: slots %u out of range 1..%u", cfg->nslots,
                           SOCMON_ZAPM_MAX_SLOTS);
    if (!(cfg->clock_hz > 0))
        return socmon_fail(SOCMON_ERANGE, "apm: clock_hz %g must be > 0", cfg->clock_hz);
    zapm_drv *d = calloc(1, sizeof *d);
    if (!d)
        return socmon_fail(SOCMON_ENOMEM, "apm: out of memory");
    d->bus = bus;
    d->base = base;
    d->nslots = cfg->nslots;
    for (unsigned s = 0; s < d->nslots; s++) {
        snprintf(d->inst[s], sizeof d->inst[s], "slot%u", s);
        for (unsigned j = 0; j < SOCMON_ZAPM_PER_SLOT; j++) {
            socmon_counter *c = &d->c[s * SOCMON_ZAPM_PER_SLOT + j];
            c->name = kinds[j].name;
            c->instance = d->inst[s];
            c->desc = kinds[j].desc;
            c->unit = kinds[j].unit;
            c->width = 32;
            c->reg = base + socmon_zapm_smc_offset(s * SOCMON_ZAPM_PER_SLOT + j);
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
    uint32_t sr;
    socmon_status st = wr(d, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_RESET_MASK);
    if (!st)
        st = wr(d, A_ZAPM_CTL, 0);
    if (!st)
        st = wr(d, A_ZAPM_SICR, 0);
    if (!st)
        st = wr(d, A_ZAPM_IE, 0);
    if (!st)
        st = wr(d, A_ZAPM_IS, ZAPM_IXR_MASK);
    if (!st)
        st = wr(d, A_ZAPM_CTL, R_ZAPM_CTL_MCNTR_EN_MASK | ZAPM_CR_SPA_LATENCY |
                                        R_ZAPM_CTL_GCC_EN_MASK);
    if (!st)
        st = socmon_bus_read32(bus, base + A_ZAPM_SR, &sr);
    if (st) {
        free(d);
        return socmon_fail_prefix(st, "apm at 0x%llx: ", (unsigned long long)base);
    }
    out->drv = d;
    out->ncounters = SOCMON_ZAPM_PER_SLOT * d->nslots;
    out->counters = d->c;
    out->read = apm_read;
    out->destroy = apm_destroy;
    return SOCMON_OK;
}

socmon_status socmon_zapm_bus_uio(const char *uio_path, socmon_bus **out)
{
    /* UIO map N is selected by mmap offset N * page size; map 0 is the
     * register window */
    return socmon_bus_mmio_open(uio_path, 0, SOCMON_ZAPM_WINDOW, out);
}
