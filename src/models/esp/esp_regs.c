/* The per-tile monitor window, modelled after ESP's esp_tile_csr.vhd:
 *   0x000          burst register (read/write; bit 0's rising edge snapshots)
 *   0x004..0x0EC   monitors 0..58 (read-only; writes ignored)
 *   0x0F0..0x17C   unused, read 0
 *   0x180..0x1FC   tile config CSRs (software must not write them)
 * Register reads are QEMU-style callbacks on a model bus region per tile. */
#include "core/error.h"
#include "models/esp/esp_internal.h"

#define MON_BIT(m) (UINT64_C(1) << (m))
#define MON_RANGE(a, b) (((UINT64_C(1) << ((b) + 1)) - 1) & ~((UINT64_C(1) << (a)) - 1))

/* Which monitors the hardware wires per tile type, as ESP's guide defines
 * them (docs/esp-model.md lists where the RTL differs). */
uint64_t esp_defined_mask(const socmon_esp_soc_desc *d, unsigned tile)
{
    const socmon_esp_tile_desc *td = &d->tiles[tile];
    uint64_t m = MON_RANGE(SOCMON_ESP_MON_NOC_INJ, SOCMON_ESP_NMON - 1); /* NoC: every tile */
    uint64_t dvfs = d->dvfs ? MON_RANGE(SOCMON_ESP_MON_DVFS, SOCMON_ESP_MON_DVFS + 3) : 0;
    uint64_t l2 = MON_BIT(SOCMON_ESP_MON_L2_HIT) | MON_BIT(SOCMON_ESP_MON_L2_MISS);
    switch (td->type) {
    case SOCMON_ESP_TILE_MEM:
        m |= MON_BIT(SOCMON_ESP_MON_DDR);
        if (d->cache_hierarchy)
            m |= MON_RANGE(SOCMON_ESP_MON_COH_REQ, SOCMON_ESP_MON_COH_DMA_RSP) |
                 MON_BIT(SOCMON_ESP_MON_LLC_HIT) | MON_BIT(SOCMON_ESP_MON_LLC_MISS);
        break;
    case SOCMON_ESP_TILE_CPU:
        m |= dvfs | (d->cache_hierarchy ? l2 : 0);
        break;
    case SOCMON_ESP_TILE_ACC:
        m |= dvfs | MON_RANGE(SOCMON_ESP_MON_ACC_TLB, SOCMON_ESP_MON_ACC_INVOC);
        if (d->cache_hierarchy && td->has_l2)
            m |= l2;
        break;
    case SOCMON_ESP_TILE_IO:
    case SOCMON_ESP_TILE_EMPTY:
        break;
    }
    return m;
}

void esp_count(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint64_t n)
{
    esp_tile *t = &soc->tiles[tile];
    if (!(t->defined & MON_BIT(mon)) || n == 0)
        return;
    if (mon == SOCMON_ESP_MON_ACC_MEM_LO || mon == SOCMON_ESP_MON_ACC_TOT_LO) {
        /* One 64-bit accumulator shown as lo/hi: both words change together. */
        uint64_t v = ((uint64_t)t->count[mon + 1] << 32 | t->count[mon]) + n;
        t->count[mon] = (uint32_t)v;
        t->count[mon + 1] = (uint32_t)(v >> 32);
        return;
    }
    t->count[mon] = (uint32_t)(t->count[mon] + n); /* 32-bit, wraps like the RTL's "+" */
}

static socmon_status tile_read(void *model, uint64_t off, uint32_t *val)
{
    esp_tile *t = model;
    uint64_t word = off / 4;
    if (off == 0) {
        *val = t->burst;
    } else if (word >= 1 && word <= SOCMON_ESP_NMON) {
        *val = (t->burst & 1u) ? t->frozen[word - 1] : t->count[word - 1];
    } else if (off >= ESP_CFG_OFFSET && off < SOCMON_ESP_TILE_SIZE) {
        *val = t->cfg[(off - ESP_CFG_OFFSET) / 4];
    } else if (off < SOCMON_ESP_TILE_SIZE) {
        *val = 0;
    } else {
        return socmon_fail(SOCMON_EIO, "esp tile %u: offset 0x%llx outside the 0x200-byte window",
                           t->index, (unsigned long long)off);
    }
    return SOCMON_OK;
}

static socmon_status tile_write(void *model, uint64_t off, uint32_t val)
{
    esp_tile *t = model;
    if (off == 0) {
        /* The RTL copies count into count_value on bit 0's rising edge only:
         * writing 1 while it is already 1 keeps the old snapshot. */
        if ((val & 1u) && !(t->burst & 1u))
            for (unsigned m = 0; m < SOCMON_ESP_NMON; m++)
                t->frozen[m] = t->count[m];
        t->burst = val;
    } else if (off >= ESP_CFG_OFFSET && off < SOCMON_ESP_TILE_SIZE) {
        /* Accepted (the APB slave does not error) and kept so a read shows it,
         * but the model's monitors ignore it. Counted so tests can prove the
         * driver never writes here. */
        t->cfg[(off - ESP_CFG_OFFSET) / 4] = val;
        t->cfg_writes++;
    } else if (off >= SOCMON_ESP_TILE_SIZE) {
        return socmon_fail(SOCMON_EIO, "esp tile %u: offset 0x%llx outside the 0x200-byte window",
                           t->index, (unsigned long long)off);
    }
    /* Monitor words and the unused words are read-only: writes are dropped. */
    return SOCMON_OK;
}

static const socmon_regmodel_ops tile_ops = {.read = tile_read, .write = tile_write};

socmon_status socmon_esp_soc_map(socmon_esp_soc *soc, socmon_bus *model_bus)
{
    if (!soc || !model_bus)
        return socmon_fail(SOCMON_EINVAL, "esp soc_map: %s is NULL", soc ? "model_bus" : "soc");
    for (unsigned t = 0; t < soc->ntiles; t++) {
        uint64_t base = soc->desc.monitor_base + (uint64_t)t * SOCMON_ESP_TILE_SIZE;
        socmon_status st = socmon_bus_model_map(model_bus, base, SOCMON_ESP_TILE_SIZE, &tile_ops,
                                                &soc->tiles[t]);
        if (st != SOCMON_OK)
            return socmon_fail_prefix(st, "esp soc_map: tile %u at 0x%llx: ", t,
                                      (unsigned long long)base);
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
    if (mon >= SOCMON_ESP_NMON)
        return socmon_fail(SOCMON_ERANGE, "esp %s: monitor %u out of range 0..%u", who, mon,
                           SOCMON_ESP_NMON - 1);
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
    if (!(soc->tiles[tile].defined & MON_BIT(mon)))
        return socmon_fail(SOCMON_ERANGE,
                           "esp poke: monitor %u is not defined in tile %u (%s): it always reads 0",
                           mon, tile, esp_tile_type_name(soc->desc.tiles[tile].type));
    soc->tiles[tile].count[mon] = v;
    return SOCMON_OK;
}

int socmon_esp_soc_defined(const socmon_esp_soc *soc, unsigned tile, unsigned mon)
{
    if (!soc || tile >= soc->ntiles || mon >= SOCMON_ESP_NMON)
        return 0;
    return (soc->tiles[tile].defined & MON_BIT(mon)) != 0;
}

uint64_t socmon_esp_soc_config_writes(const socmon_esp_soc *soc, unsigned tile)
{
    if (!soc || tile >= soc->ntiles)
        return 0;
    return soc->tiles[tile].cfg_writes;
}
