/* The per-tile monitor window, modelled after ESP's esp_tile_csr.vhd. The
 * layout, the access table (burst register and config CSRs: plain storage
 * with reset values; monitor words read-only; unused words reserved) and the
 * tile wiring are in hw/esp_monitor.h; this file keeps what is special: the
 * live/frozen monitors, the snapshot on the burst register's rising edge,
 * and counting writes to the config CSRs. Register accesses are QEMU-style
 * callbacks on a model bus region per tile. */
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

uint64_t smn_esp_defined_mask(const socmon_esp_soc_desc *d, unsigned tile)
{
    const socmon_esp_tile_desc *td = &d->tiles[tile];
    return esp_tile_wired((unsigned)td->type, td->type == SOCMON_ESP_TILE_CPU || td->has_l2,
                          d->cache_hierarchy, d->noc_planes, d->noc_queues);
}

void smn_esp_tile_reset(esp_tile *t)
{
    memset(t->count, 0, sizeof t->count);
    memset(t->frozen, 0, sizeof t->frozen);
    memset(t->xcount, 0, sizeof t->xcount);
    memset(t->xfrozen, 0, sizeof t->xfrozen);
    memset(t->word, 0, sizeof t->word);
    for (unsigned i = 0; i < ESP_TILE_NREGS; i++)
        t->word[ESP_TILE_REGINFO[i].addr / 4] = ESP_TILE_REGINFO[i].reset;
    /* The one reset value the table cannot hold: each tile knows its index. */
    t->word[(A_ESP_CSR0 + 4u * ESP_CSR_TILE_ID) / 4] = t->index;
    t->cfg_writes = 0;
    t->op_point = 3; /* idle tiles sit at the lowest V/F point */
}

void smn_esp_count(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint64_t n)
{
    esp_tile *t = &soc->tiles[tile];
    if (!(t->defined & ESP_MON_BIT(mon)) || n == 0)
        return;
    if (esp_mon_is_pair_lo(mon)) {
        /* One 64-bit accumulator shown as lo/hi: both words change together. */
        uint64_t v = ((uint64_t)t->count[mon + 1] << 32 | t->count[mon]) + n;
        t->count[mon] = (uint32_t)v;
        t->count[mon + 1] = (uint32_t)(v >> 32);
        return;
    }
    t->count[mon] = (uint32_t)(t->count[mon] + n); /* 32-bit, wraps like the RTL's "+" */
}

static socmon_status outside(const esp_tile *t, uint64_t off)
{
    return socmon_fail(SOCMON_EIO, "esp tile %u: offset 0x%llx outside the 0x200-byte window",
                       t->index, (unsigned long long)off);
}

static socmon_status tile_read(void *model, uint64_t off, uint32_t *val)
{
    esp_tile *t = model;
    const smn_reginfo *ri = off < ESP_TILE_SIZE ? esp_tile_reginfo((uint32_t)off) : NULL;
    if (!ri)
        return outside(t, off);
    if (ri == &ESP_MON_REGINFO) {
        unsigned m = (unsigned)(off - A_ESP_MON0) / 4;
        *val = SM_FIELD_EX32(t->word[R_ESP_BURST], ESP_BURST, SNAP) ? t->frozen[m] : t->count[m];
    } else {
        *val = socmon_reg_read(ri, &t->word[off / 4]);
    }
    return SOCMON_OK;
}

static socmon_status tile_write(void *model, uint64_t off, uint32_t val)
{
    esp_tile *t = model;
    const smn_reginfo *ri = off < ESP_TILE_SIZE ? esp_tile_reginfo((uint32_t)off) : NULL;
    if (!ri)
        return outside(t, off);
    /* Monitor words are read-only and the unused words reserved: the table
     * makes the write a no-op, and they have no storage here. */
    if (ri == &ESP_MON_REGINFO || ri == &ESP_UNUSED_REGINFO)
        return SOCMON_OK;
    uint32_t *w = &t->word[off / 4];
    if (off == A_ESP_BURST) {
        /* The RTL copies count into count_value on bit 0's rising edge only:
         * writing 1 while it is already 1 keeps the old snapshot. */
        if (SM_FIELD_EX32(val, ESP_BURST, SNAP) && !SM_FIELD_EX32(*w, ESP_BURST, SNAP)) {
            memcpy(t->frozen, t->count, sizeof t->frozen);
            memcpy(t->xfrozen, t->xcount, sizeof t->xfrozen); /* the model-only ones too */
        }
    } else if (off >= A_ESP_CSR0) {
        /* Accepted (the APB slave does not error) and kept so a read shows it,
         * but the model's monitors ignore it. Counted so tests can prove the
         * driver never writes here. */
        t->cfg_writes++;
    }
    *w = socmon_reg_write(ri, *w, val);
    return SOCMON_OK;
}

static const socmon_regmodel_ops tile_ops = {.read = tile_read, .write = tile_write};

/* The model-only window (hw/esp_monitor.h): ESP_NXMON read-only words, 0 past them. */
static socmon_status xtile_read(void *model, uint64_t off, uint32_t *val)
{
    const esp_tile *t = model;
    if (off >= ESP_XTILE_SIZE)
        return socmon_fail(SOCMON_EIO, "esp tile %u: offset 0x%llx outside the model-only window", t->index,
                           (unsigned long long)off);
    unsigned w = (unsigned)off / 4;
    int frozen = SM_FIELD_EX32(t->word[R_ESP_BURST], ESP_BURST, SNAP) != 0;
    *val = w < ESP_NXMON ? (frozen ? t->xfrozen[w] : t->xcount[w]) : 0;
    return SOCMON_OK;
}

static socmon_status xtile_write(void *model, uint64_t off, uint32_t val)
{
    (void)model;
    (void)off;
    (void)val;
    return SOCMON_OK; /* read-only, like the monitors */
}

static const socmon_regmodel_ops xtile_ops = {.read = xtile_read, .write = xtile_write};

socmon_status smn_esp_soc_map(socmon_esp_soc *soc, socmon_bus *model_bus)
{
    if (!soc || !model_bus)
        return socmon_fail(SOCMON_EINVAL, "esp soc_map: %s is NULL", soc ? "model_bus" : "soc");
    for (unsigned t = 0; t < soc->ntiles; t++) {
        uint64_t base = soc->desc.monitor_base + (uint64_t)t * ESP_TILE_SIZE;
        socmon_status st = socmon_bus_model_map(model_bus, base, ESP_TILE_SIZE, &tile_ops,
                                                &soc->tiles[t]);
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "esp soc_map: tile %u at 0x%llx: ", t,
                                      (unsigned long long)base);
        uint64_t xbase = esp_xmon_addr(soc->desc.monitor_base, t, 0);
        st = socmon_bus_model_map(model_bus, xbase, ESP_XTILE_SIZE, &xtile_ops, &soc->tiles[t]);
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "esp soc_map: tile %u's model-only window at 0x%llx: ", t,
                                      (unsigned long long)xbase);
    }
    return SOCMON_OK;
}

static socmon_status check_tile_mon(const socmon_esp_soc *soc, unsigned tile, unsigned mon,
                                    const char *who)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "esp %s: soc is NULL", who);
    if (tile >= soc->ntiles)
        return socmon_fail(SOCMON_ERANGE, "esp %s: tile %u out of range 0..%u", who, tile,
                           soc->ntiles - 1);
    if (mon >= ESP_NMON)
        return socmon_fail(SOCMON_ERANGE, "esp %s: monitor %u out of range 0..%u", who, mon,
                           ESP_NMON - 1);
    return SOCMON_OK;
}

uint32_t socmon_esp_soc_peek(const socmon_esp_soc *soc, unsigned tile, unsigned mon)
{
    if (check_tile_mon(soc, tile, mon, "peek") != SOCMON_OK)
        return 0;
    return soc->tiles[tile].count[mon];
}

socmon_status socmon_esp_soc_poke(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint32_t v)
{
    socmon_status st = check_tile_mon(soc, tile, mon, "poke");
    if (st != SOCMON_OK)
        return st;
    if (!(soc->tiles[tile].defined & ESP_MON_BIT(mon)))
        return socmon_fail(SOCMON_ERANGE,
                           "esp poke: monitor %u is not defined in tile %u (%s): it always reads 0",
                           mon, tile, smn_esp_tile_type_name(soc->desc.tiles[tile].type));
    soc->tiles[tile].count[mon] = v;
    return SOCMON_OK;
}

uint32_t smn_esp_soc_peek_xmon(const socmon_esp_soc *soc, unsigned tile, unsigned w)
{
    if (!soc || tile >= soc->ntiles || w >= ESP_NXMON)
        return 0;
    return soc->tiles[tile].xcount[w];
}

int socmon_esp_soc_defined(const socmon_esp_soc *soc, unsigned tile, unsigned mon)
{
    if (!soc || tile >= soc->ntiles || mon >= ESP_NMON)
        return 0;
    return (soc->tiles[tile].defined & ESP_MON_BIT(mon)) != 0;
}

uint64_t socmon_esp_soc_config_writes(const socmon_esp_soc *soc, unsigned tile)
{
    if (!soc || tile >= soc->ntiles)
        return 0;
    return soc->tiles[tile].cfg_writes;
}
