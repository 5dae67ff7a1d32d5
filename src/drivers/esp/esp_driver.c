/* ESP tile monitors: register protocol and counter schema (see esp_driver.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_kind.h"
#include "core/error.h"
#include "drivers/esp/esp_driver.h"

/* The public numbering restates the hardware's (src/hw/esp_monitor.h). */
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(SOCMON_ESP_NMON, ESP_NMON) && SAME(SOCMON_ESP_NDIRS, ESP_NDIRS) &&
                   SAME(SOCMON_ESP_TILE_SIZE, ESP_TILE_SIZE) &&
                   SOCMON_ESP_DEFAULT_BASE == ESP_MON_BASE_ARIANE,
               "socmon/esp.h and hw/esp_monitor.h disagree on the window");
_Static_assert(SAME(SOCMON_ESP_MON_DDR, ESP_MON_DDR) && SAME(SOCMON_ESP_MON_COH_REQ, ESP_MON_COH_REQ) &&
                   SAME(SOCMON_ESP_MON_COH_DMA_RSP, ESP_MON_COH_DMA_RSP) &&
                   SAME(SOCMON_ESP_MON_L2_HIT, ESP_MON_L2_HIT) &&
                   SAME(SOCMON_ESP_MON_LLC_MISS, ESP_MON_LLC_MISS) &&
                   SAME(SOCMON_ESP_MON_ACC_TLB, ESP_MON_ACC_TLB) &&
                   SAME(SOCMON_ESP_MON_ACC_MEM_LO, ESP_MON_ACC_MEM_LO) &&
                   SAME(SOCMON_ESP_MON_ACC_TOT_HI, ESP_MON_ACC_TOT_HI) &&
                   SAME(SOCMON_ESP_MON_ACC_INVOC, ESP_MON_ACC_INVOC) &&
                   SAME(SOCMON_ESP_MON_DVFS, ESP_MON_DVFS) &&
                   SAME(SOCMON_ESP_MON_NOC_INJ, ESP_MON_NOC_INJ) &&
                   SAME(SOCMON_ESP_MON_NOC_QFULL, ESP_MON_NOC_QFULL),
               "socmon/esp.h and hw/esp_monitor.h disagree on the monitor numbering");
_Static_assert(SAME(SOCMON_ESP_TILE_EMPTY, ESP_TILE_EMPTY) && SAME(SOCMON_ESP_TILE_CPU, ESP_TILE_CPU) &&
                   SAME(SOCMON_ESP_TILE_MEM, ESP_TILE_MEM) && SAME(SOCMON_ESP_TILE_ACC, ESP_TILE_ACC) &&
                   SAME(SOCMON_ESP_TILE_IO, ESP_TILE_IO),
               "socmon/esp.h and hw/esp_monitor.h disagree on the tile types");
#undef SAME

struct smn_esp_drv {
    socmon_bus *bus;
    socmon_esp_soc_desc desc;
};

int socmon_esp_mon_defined(const socmon_esp_soc_desc *d, unsigned tile, unsigned mon)
{
    if (!d || d->rows > SOCMON_ESP_MAX_ROWS || d->cols > SOCMON_ESP_MAX_COLS ||
        tile >= d->rows * d->cols || mon >= ESP_NMON)
        return 0;
    const socmon_esp_tile_desc *t = &d->tiles[tile];
    uint64_t wired = esp_tile_wired((unsigned)t->type, t->type == SOCMON_ESP_TILE_CPU || t->has_l2,
                                    d->cache_hierarchy, d->noc_planes, d->noc_queues);
    return (wired & ESP_MON_BIT(mon)) != 0;
}

socmon_status socmon_esp_desc_check(const socmon_esp_soc_desc *d)
{
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "esp: SoC description is NULL");
    if (d->rows < 1 || d->rows > SOCMON_ESP_MAX_ROWS)
        return socmon_fail(SOCMON_ERANGE, "esp: rows %u out of range 1..%u", d->rows,
                           SOCMON_ESP_MAX_ROWS);
    if (d->cols < 1 || d->cols > SOCMON_ESP_MAX_COLS)
        return socmon_fail(SOCMON_ERANGE, "esp: cols %u out of range 1..%u", d->cols,
                           SOCMON_ESP_MAX_COLS);
    if (d->noc_planes < 1 || d->noc_planes > 6)
        return socmon_fail(SOCMON_ERANGE, "esp: noc_planes %u out of range 1..6", d->noc_planes);
    if (d->noc_queues < 1 || d->noc_queues > SOCMON_ESP_NDIRS)
        return socmon_fail(SOCMON_ERANGE, "esp: noc_queues %u out of range 1..5", d->noc_queues);
    if (!(d->clock_hz > 0))
        return socmon_fail(SOCMON_ERANGE, "esp: clock_hz %g must be positive", d->clock_hz);
    for (unsigned t = 0; t < d->rows * d->cols; t++)
        if (d->tiles[t].type > SOCMON_ESP_TILE_IO)
            return socmon_fail(SOCMON_ERANGE, "esp: tile %u has unknown type %d", t,
                               (int)d->tiles[t].type);
    return SOCMON_OK;
}

socmon_status smn_esp_drv_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                 smn_esp_drv **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "esp driver: out is NULL");
    *out = NULL;
    if (!bus)
        return socmon_fail(SOCMON_EINVAL, "esp driver: bus is NULL");
    socmon_status st = socmon_esp_desc_check(d);
    if (st != SOCMON_OK)
        return st;
    smn_esp_drv *drv = malloc(sizeof *drv);
    if (!drv)
        return socmon_fail(SOCMON_ENOMEM, "esp driver: out of memory");
    drv->bus = bus;
    drv->desc = *d;
    *out = drv;
    return SOCMON_OK;
}

void smn_esp_drv_free(smn_esp_drv *drv)
{
    free(drv);
}

const socmon_esp_soc_desc *smn_esp_drv_desc(const smn_esp_drv *drv)
{
    return &drv->desc;
}

socmon_bus *smn_esp_drv_bus(const smn_esp_drv *drv)
{
    return drv->bus;
}

uint64_t smn_esp_drv_addr(const smn_esp_drv *drv, unsigned tile, int mon)
{
    uint64_t tbase = drv->desc.monitor_base + (uint64_t)tile * ESP_TILE_SIZE;
    return mon < 0 ? tbase + A_ESP_BURST : tbase + esp_mon_offset((unsigned)mon);
}

static unsigned ntiles(const smn_esp_drv *drv)
{
    return drv->desc.rows * drv->desc.cols;
}

static socmon_status check_tile(const smn_esp_drv *drv, unsigned tile)
{
    if (tile >= ntiles(drv))
        return socmon_fail(SOCMON_ERANGE, "tile_index %u out of range 0..%u", tile,
                           ntiles(drv) - 1);
    return SOCMON_OK;
}

socmon_status smn_esp_drv_burst(smn_esp_drv *drv, unsigned tile, int on)
{
    socmon_status st = check_tile(drv, tile);
    if (st != SOCMON_OK)
        return st;
    /* The freeze must land before the reads it protects, and the release
     * after them: fence on both sides. */
    if (!on)
        socmon_bus_fence(drv->bus);
    st = socmon_bus_write32(drv->bus, smn_esp_drv_addr(drv, tile, -1), on ? 1u : 0u);
    if (on)
        socmon_bus_fence(drv->bus);
    return st;
}

socmon_status smn_esp_drv_release_all(smn_esp_drv *drv)
{
    for (unsigned t = 0; t < ntiles(drv); t++) {
        socmon_status st = socmon_bus_write32(drv->bus, smn_esp_drv_addr(drv, t, -1), 0);
        if (st != SOCMON_OK)
            return st;
    }
    socmon_bus_fence(drv->bus);
    return SOCMON_OK;
}

socmon_status smn_esp_drv_read(smn_esp_drv *drv, unsigned tile, unsigned mon,
                                  uint32_t *val)
{
    socmon_status st = check_tile(drv, tile);
    if (st != SOCMON_OK)
        return st;
    if (mon >= ESP_NMON)
        return socmon_fail(SOCMON_ERANGE, "mon_index %u out of range 0..%u", mon,
                           ESP_NMON - 1);
    if (!val)
        return socmon_fail(SOCMON_EINVAL, "esp driver: val is NULL");
    return socmon_bus_read32(drv->bus, smn_esp_drv_addr(drv, tile, (int)mon), val);
}

socmon_status smn_esp_drv_read64_live(smn_esp_drv *drv, unsigned tile, unsigned mon_lo,
                                         uint64_t *val)
{
    socmon_status st = check_tile(drv, tile);
    if (st != SOCMON_OK)
        return st;
    if (!esp_mon_is_pair_lo(mon_lo))
        return socmon_fail(SOCMON_ERANGE, "mon_index %u is not the low word of a 64-bit pair (%u or %u)",
                           mon_lo, ESP_MON_ACC_MEM_LO, ESP_MON_ACC_TOT_LO);
    return socmon_bus_read64_hilohi(drv->bus, smn_esp_drv_addr(drv, tile, (int)mon_lo),
                                    smn_esp_drv_addr(drv, tile, (int)mon_lo + 1), 0, val);
}

/* ---- the device ---- */

#define ESP_CTR_MODEL_ONLY 0xffu
typedef struct esp_ctr {
    uint64_t addr;    /* of mon, worked out once */
    uint16_t tile;
    uint8_t mon;      /* low word for a 64-bit pair; ESP_CTR_MODEL_ONLY: a model-only counter */
    uint8_t is64;
} esp_ctr;

typedef struct esp_dev {
    smn_esp_drv *drv;
    esp_ctr *c;
    size_t n;
} esp_dev;

/* Adds tile t to order[] (first-use order) unless touched[] has it. */
static void touch(uint8_t *touched, uint16_t *order, unsigned *nt, unsigned t)
{
    if (!touched[t]) {
        touched[t] = 1;
        order[(*nt)++] = (uint16_t)t;
    }
}

/* The freeze protocol, its one copy (the device's reads and socmon_esp_monitors_read use it):
 * freeze every tile of order[0..nt) back to back, so their snapshots are as close in time as the
 * bus allows, then read (reads(user)), then release. Within a snapshot a lo/hi pair cannot tear,
 * so two plain reads suffice. */
static socmon_status snapshot(smn_esp_drv *drv, const uint16_t *order, unsigned nt,
                              socmon_status (*reads)(smn_esp_drv *drv, void *user), void *user)
{
    socmon_status st = SOCMON_OK;
    unsigned frozen = 0;
    for (; frozen < nt && st == SOCMON_OK; frozen++)
        st = socmon_bus_write32(drv->bus, smn_esp_drv_addr(drv, order[frozen], -1), 1);
    if (st != SOCMON_OK)
        frozen--;
    socmon_bus_fence(drv->bus);
    if (st == SOCMON_OK)
        st = reads(drv, user);
    socmon_bus_fence(drv->bus);
    /* Release what we froze even after a failed read: a tile left frozen
     * would serve stale values to every later live reader. */
    for (unsigned k = 0; k < frozen; k++) {
        socmon_status s2 = socmon_bus_write32(drv->bus, smn_esp_drv_addr(drv, order[k], -1), 0);
        if (st == SOCMON_OK)
            st = s2;
    }
    return st;
}

typedef struct dev_reads {
    const esp_dev *ed;
    const uint32_t *idx;
    size_t n;
    uint64_t *out;
} dev_reads;

static socmon_status read_counters(smn_esp_drv *drv, void *user)
{
    const dev_reads *r = user;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < r->n && st == SOCMON_OK; i++) {
        const esp_ctr *c = &r->ed->c[r->idx[i]];
        uint32_t lo = 0, hi = 0;
        st = socmon_bus_read32(drv->bus, c->addr, &lo);
        if (st == SOCMON_OK && c->is64)
            st = socmon_bus_read32(drv->bus, c->addr + 4, &hi);
        r->out[i] = ((uint64_t)hi << 32) | lo;
    }
    return st;
}

static socmon_status dev_read(void *priv, const uint32_t *idx, size_t n, uint64_t *out)
{
    esp_dev *ed = priv;
    uint8_t touched[SOCMON_ESP_MAX_TILES] = {0};
    uint16_t order[SOCMON_ESP_MAX_TILES];
    unsigned nt = 0;
    for (size_t i = 0; i < n; i++)
        touch(touched, order, &nt, ed->c[idx[i]].tile);
    dev_reads r = {.ed = ed, .idx = idx, .n = n, .out = out};
    return snapshot(ed->drv, order, nt, read_counters, &r);
}

/* ---- the monitors word by word, for holders of an "esp" target's device (socmon/esp.h) ---- */

static socmon_status esp_drv_of(socmon_device *dev, const char *who, smn_esp_drv **drv)
{
    if (!smn_device_reads_with(dev, dev_read))
        return socmon_fail(SOCMON_EINVAL, "%s: device '%s' is not an ESP monitor device (open an "
                                          "\"esp\" target and pass socmon_target_device)",
                           who, dev ? socmon_device_name(dev) : "(null)");
    *drv = ((esp_dev *)socmon_device_driver(dev))->drv;
    return SOCMON_OK;
}

typedef struct word_reads {
    size_t n;
    const unsigned *tile, *mon;
    uint32_t *out;
} word_reads;

static socmon_status read_words(smn_esp_drv *drv, void *user)
{
    const word_reads *r = user;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < r->n && st == SOCMON_OK; i++)
        st = socmon_bus_read32(drv->bus, smn_esp_drv_addr(drv, r->tile[i], (int)r->mon[i]),
                               &r->out[i]);
    return st;
}

socmon_status socmon_esp_monitors_read(socmon_device *dev, size_t n, const unsigned *tile,
                                       const unsigned *mon, uint32_t *out)
{
    smn_esp_drv *drv = NULL;
    socmon_status st = esp_drv_of(dev, "socmon_esp_monitors_read", &drv);
    if (st != SOCMON_OK)
        return st;
    if (n && (!tile || !mon || !out))
        return socmon_fail(SOCMON_EINVAL, "socmon_esp_monitors_read: tile, mon or out is NULL");
    uint8_t touched[SOCMON_ESP_MAX_TILES] = {0};
    uint16_t order[SOCMON_ESP_MAX_TILES];
    unsigned nt = 0;
    for (size_t i = 0; i < n; i++) {
        out[i] = 0;
        if ((st = check_tile(drv, tile[i])) != SOCMON_OK)
            return st;
        if (mon[i] >= ESP_NMON)
            return socmon_fail(SOCMON_ERANGE, "mon_index %u out of range 0..%u", mon[i], ESP_NMON - 1);
        touch(touched, order, &nt, tile[i]);
    }
    word_reads r = {.n = n, .tile = tile, .mon = mon, .out = out};
    return snapshot(drv, order, nt, read_words, &r);
}

socmon_status socmon_esp_monitor_read_live(socmon_device *dev, unsigned tile, unsigned mon,
                                           uint32_t *val)
{
    smn_esp_drv *drv = NULL;
    socmon_status st = esp_drv_of(dev, "socmon_esp_monitor_read_live", &drv);
    return st == SOCMON_OK ? smn_esp_drv_read(drv, tile, mon, val) : st;
}

socmon_status socmon_esp_monitors_release(socmon_device *dev)
{
    smn_esp_drv *drv = NULL;
    socmon_status st = esp_drv_of(dev, "socmon_esp_monitors_release", &drv);
    return st == SOCMON_OK ? smn_esp_drv_release_all(drv) : st;
}

static void dev_destroy(void *priv)
{
    esp_dev *ed = priv;
    if (!ed)
        return;
    smn_esp_drv_free(ed->drv);
    free(ed->c);
    free(ed);
}

static const socmon_device_ops esp_dev_ops = {.read = dev_read, .destroy = dev_destroy};

typedef struct mon_info {
    const char *name;
    const char *desc;
    const char *unit;
} mon_info;

static const mon_info base_mons[ESP_MON_DVFS] = {
    /* What ESP's RTL counts (tile_mem.vhd): DDR the AHB bus's beats (word transfers), 1..8 the
     * strobes of the memory tile's NoC queues, one per flit. */
    {"ddr_accesses", "off-chip memory (DDR) AHB beats (word transfers); 2 per 16-byte line", "beats"},
    {"coh_reqs", "flits of coherence requests the LLC took from its queue", "flits"},
    {"coh_fwds", "flits of coherence forwards the LLC sent", "flits"},
    {"coh_rsps_rcv", "flits of coherence responses the LLC took from its queue", "flits"},
    {"coh_rsps_snd", "flits of coherence responses the LLC sent", "flits"},
    {"dma_reqs", "flits of non-coherent DMA requests the memory tile took from its queue", "flits"},
    {"dma_rsps", "flits of non-coherent DMA responses the memory tile sent", "flits"},
    {"coh_dma_reqs", "flits of LLC-coherent and coherent DMA requests the LLC took from its queue", "flits"},
    {"coh_dma_rsps", "flits of LLC-coherent and coherent DMA responses the LLC sent", "flits"},
    {"l2_hits", "L2 cache hits", "events"},
    {"l2_misses", "L2 cache misses", "events"},
    {"llc_hits", "LLC hits", "events"},
    {"llc_misses", "LLC misses", "events"},
    {"acc_tlb_cycles", "accelerator TLB-loading cycles", "cycles"},
    {"acc_mem_cycles", "accelerator cycles issuing or awaiting memory requests", "cycles"},
    {NULL, NULL, NULL},   /* 15: high word of 14 */
    {"acc_tot_cycles", "accelerator total execution cycles", "cycles"},
    {NULL, NULL, NULL},   /* 17: high word of 16 */
    {"acc_invocations", "accelerator invocations", "events"},
};

static void mon_name(unsigned mon, char *name, size_t nsz, char *desc, size_t dsz,
                     const char **unit)
{
    if (mon < ESP_MON_DVFS) {
        snprintf(name, nsz, "%s", base_mons[mon].name);
        snprintf(desc, dsz, "%s", base_mons[mon].desc);
        *unit = base_mons[mon].unit;
    } else if (mon < ESP_MON_NOC_INJ) {
        snprintf(name, nsz, "dvfs_op%u", mon - ESP_MON_DVFS);
        snprintf(desc, dsz, "cycles at DVFS operating point %u", mon - ESP_MON_DVFS);
        *unit = "cycles";
    } else if (mon < ESP_MON_NOC_QFULL) {
        snprintf(name, nsz, "noc_inj_p%u", mon - ESP_MON_NOC_INJ);
        snprintf(desc, dsz, "flits the tile offered to its router on NoC plane %u (tile_inject)",
                 mon - ESP_MON_NOC_INJ);
        *unit = "flits";
    } else {
        /* queue_full(Q) counts output register Q's occupancy, Q in the RTL's order
         * (hw/esp_monitor.h; docs/esp.md) */
        unsigned q = mon - ESP_MON_NOC_QFULL, p = q / ESP_NDIRS, d = q % ESP_NDIRS;
        const char *dir = ESP_DIR_NAMES[d];
        snprintf(name, nsz, "noc_out_p%u_%s", p, dir);
        if (d == ESP_DIR_LOCAL)
            snprintf(desc, dsz, "cycles a flit was on the local port of the NoC plane %u router (offered on the "
                     "local input or waiting in the local output)", p);
        else
            snprintf(desc, dsz, "cycles the %s output register of the NoC plane %u router held a flit (flits "
                     "sent %s + cycles they waited for room downstream)", dir, p, dir);
        *unit = "cycles";
    }
}

/* The model-only counters (hw/esp_monitor.h): word w of a tile's model-only window. */
static void xmon_name(unsigned w, char *name, size_t nsz, char *desc, size_t dsz, const char **unit)
{
    if (w < ESP_XMON_PKTS) {
        unsigned p = w / ESP_NDIRS;
        const char *dir = ESP_DIR_NAMES[w % ESP_NDIRS];
        snprintf(name, nsz, "noc_stop_p%u_%s", p, dir);
        snprintf(desc, dsz, "model only, no ESP monitor: cycles the %s input FIFO of the NoC plane %u router "
                 "was full (stop_out: backpressure)", dir, p);
        *unit = "cycles";
    } else {
        unsigned p = w - ESP_XMON_PKTS;
        snprintf(name, nsz, "noc_pkts_p%u", p);
        snprintf(desc, dsz, "model only, no ESP monitor: packets the tile injected into NoC plane %u", p);
        *unit = "packets";
    }
}

static socmon_status add_counters(socmon_device *dev, esp_dev *ed, const socmon_esp_soc_desc *d,
                                  int model_only)
{
    unsigned nt = d->rows * d->cols;
    ed->c = malloc((size_t)nt * (ESP_NMON + ESP_NXMON) * sizeof *ed->c);
    if (!ed->c)
        return socmon_fail(SOCMON_ENOMEM, "esp device: out of memory");
    for (unsigned t = 0; t < nt; t++) {
        char inst[16];
        snprintf(inst, sizeof inst, "tile%u", t);
        for (unsigned m = 0; m < ESP_NMON; m++) {
            if (esp_mon_is_pair_hi(m))
                continue;
            if (!socmon_esp_mon_defined(d, t, m))
                continue;
            char name[32], desc[160];
            const char *unit;
            mon_name(m, name, sizeof name, desc, sizeof desc, &unit);
            int is64 = esp_mon_is_pair_lo(m);
            uint64_t reg = smn_esp_drv_addr(ed->drv, t, (int)m);
            socmon_counter c = {
                .name = name, .instance = inst, .desc = desc, .unit = unit,
                .width = is64 ? 64 : 32, .reg = reg, .reg_hi = is64 ? reg + 4 : 0,
                /* Each monitor increments at most once per tile clock cycle. */
                .max_rate_hz = d->clock_hz,
            };
            uint32_t idx;
            socmon_status st = socmon_device_add_counter(dev, &c, &idx);
            /* ESP's number for it (a 64-bit pair: its low word's), as libmonitors and the guide use */
            if (st == SOCMON_OK)
                st = socmon_device_set_counter_index(dev, "monitor", idx, m);
            if (st != SOCMON_OK)
                return st;
            ed->c[ed->n++] = (esp_ctr){reg, (uint16_t)t, (uint8_t)m, (uint8_t)is64};
        }
        for (unsigned w = 0; model_only && w < ESP_NXMON; w++) {
            unsigned p = w < ESP_XMON_PKTS ? w / ESP_NDIRS : w - ESP_XMON_PKTS;
            if (p >= d->noc_planes || (w < ESP_XMON_PKTS && w % ESP_NDIRS >= d->noc_queues))
                continue;
            char name[32], desc[160];
            const char *unit;
            xmon_name(w, name, sizeof name, desc, sizeof desc, &unit);
            uint64_t reg = esp_xmon_addr(d->monitor_base, t, w);
            socmon_counter c = {.name = name, .instance = inst, .desc = desc, .unit = unit, .width = 32,
                                .reg = reg, .max_rate_hz = d->clock_hz};
            socmon_status st = socmon_device_add_counter(dev, &c, NULL);
            if (st != SOCMON_OK)
                return st;
            ed->c[ed->n++] = (esp_ctr){reg, (uint16_t)t, ESP_CTR_MODEL_ONLY, 0};
        }
    }
    return SOCMON_OK;
}

socmon_status smn_esp_device_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                    const char *name, int model_only, socmon_device **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "esp device: out is NULL");
    *out = NULL;
    esp_dev *ed = calloc(1, sizeof *ed);
    if (!ed)
        return socmon_fail(SOCMON_ENOMEM, "esp device: out of memory");
    socmon_status st = smn_esp_drv_new(bus, d, &ed->drv);
    if (st != SOCMON_OK) {
        free(ed);
        return st;
    }
    socmon_device *dev = NULL;
    st = socmon_device_new(name ? name : "esp", &esp_dev_ops, ed, &dev);
    if (st != SOCMON_OK) {
        dev_destroy(ed);
        return st;
    }
    if ((st = add_counters(dev, ed, d, model_only)) != SOCMON_OK) {
        socmon_device_free(dev);
        return st;
    }
    const struct {
        const char *name;
        double v;
    } params[] = {
        {"clock_hz", d->clock_hz},
        {"rows", d->rows},
        {"cols", d->cols},
        {"ntiles", d->rows * d->cols},
        {"ncpu", socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_CPU, NULL, 0)},
        {"nmem", socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_MEM, NULL, 0)},
        {"nacc", socmon_esp_desc_tiles_of(d, SOCMON_ESP_TILE_ACC, NULL, 0)},
        {"noc_planes", d->noc_planes},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++)
        if ((st = socmon_device_set_param(dev, params[i].name, params[i].v)) != SOCMON_OK) {
            socmon_device_free(dev);
            return st;
        }
    if ((st = smn_esp_drv_release_all(ed->drv)) != SOCMON_OK) {
        socmon_device_free(dev);
        return socmon_fail_prefix(st, "esp device: clearing burst registers: ");
    }
    *out = dev;
    return SOCMON_OK;
}
