/* The virtual ESP SoC object: creation, reset, time. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

static socmon_status check_desc(const socmon_esp_soc_desc *d)
{
    if (d->rows < 1 || d->rows > SOCMON_ESP_MAX_ROWS)
        return socmon_fail(SOCMON_ERANGE, "esp soc: rows %u out of range 1..%u", d->rows,
                           SOCMON_ESP_MAX_ROWS);
    if (d->cols < 1 || d->cols > SOCMON_ESP_MAX_COLS)
        return socmon_fail(SOCMON_ERANGE, "esp soc: cols %u out of range 1..%u", d->cols,
                           SOCMON_ESP_MAX_COLS);
    if (d->noc_planes != 6)
        return socmon_fail(SOCMON_ERANGE, "esp soc: noc_planes %u not supported (ESP has 6)",
                           d->noc_planes);
    if (d->noc_queues != 5)
        return socmon_fail(SOCMON_ERANGE, "esp soc: noc_queues %u not supported (ESP has 5)",
                           d->noc_queues);
    if (!(d->clock_hz >= 1e3 && d->clock_hz <= 1e11))
        return socmon_fail(SOCMON_ERANGE, "esp soc: clock_hz %g out of range 1e3..1e11",
                           d->clock_hz);
    if (d->monitor_base % ESP_TILE_SIZE != 0 ||
        d->monitor_base > UINT64_MAX - (uint64_t)SOCMON_ESP_MAX_TILES * ESP_TILE_SIZE)
        return socmon_fail(SOCMON_ERANGE,
                           "esp soc: monitor_base 0x%llx must be a multiple of 0x200 and leave "
                           "room for the tile windows", (unsigned long long)d->monitor_base);
    for (unsigned t = 0; t < d->rows * d->cols; t++) {
        socmon_esp_tile_type ty = d->tiles[t].type;
        if ((int)ty < SOCMON_ESP_TILE_EMPTY || ty > SOCMON_ESP_TILE_IO)
            return socmon_fail(SOCMON_EINVAL, "esp soc: tile %u has invalid type %d", t, (int)ty);
        if (d->tiles[t].has_l2 && ty != SOCMON_ESP_TILE_ACC)
            return socmon_fail(SOCMON_EINVAL, "esp soc: tile %u (%s): only accelerator tiles "
                               "take has_l2 (CPU tiles always have an L2)", t,
                               smn_esp_tile_type_name(ty));
        if (memchr(d->tiles[t].name, '\0', sizeof d->tiles[t].name) == NULL)
            return socmon_fail(SOCMON_EINVAL, "esp soc: tile %u name is not terminated", t);
    }
    return SOCMON_OK;
}

static void reset_tiles(socmon_esp_soc *soc)
{
    for (unsigned t = 0; t < soc->ntiles; t++)
        smn_esp_tile_reset(&soc->tiles[t]);
}

socmon_status smn_esp_soc_new(const socmon_esp_soc_desc *d, socmon_esp_soc **out)
{
    if (!d || !out)
        return socmon_fail(SOCMON_EINVAL, "esp soc_new: %s is NULL", d ? "out" : "desc");
    *out = NULL;
    socmon_status st = check_desc(d);
    if (st != SOCMON_OK)
        return st;
    socmon_esp_soc *soc = calloc(1, sizeof *soc);
    if (!soc)
        return socmon_fail(SOCMON_ENOMEM, "esp soc_new: out of memory");
    soc->desc = *d;
    soc->ntiles = d->rows * d->cols;
    soc->tiles = calloc(soc->ntiles, sizeof *soc->tiles);
    if (!soc->tiles) {
        free(soc);
        return socmon_fail(SOCMON_ENOMEM, "esp soc_new: out of memory for %u tiles", d->rows * d->cols);
    }
    for (unsigned t = 0; t < soc->ntiles; t++) {
        soc->tiles[t].soc = soc;
        soc->tiles[t].index = t;
        soc->tiles[t].defined = smn_esp_defined_mask(d, t);
    }
    reset_tiles(soc);
    st = smn_esp_engine_new(soc);
    if (st != SOCMON_OK) {
        free(soc->tiles);
        free(soc);
        return st;
    }
    *out = soc;
    return SOCMON_OK;
}

void smn_esp_soc_free(socmon_esp_soc *soc)
{
    if (!soc)
        return;
    smn_esp_engine_free(soc);
    free(soc->tiles);
    free(soc);
}

const socmon_esp_soc_desc *socmon_esp_soc_get_desc(const socmon_esp_soc *soc)
{
    return soc ? &soc->desc : NULL;
}

socmon_status socmon_esp_soc_reset(socmon_esp_soc *soc)
{
    if (!soc)
        return socmon_fail(SOCMON_EINVAL, "esp soc_reset: soc is NULL");
    reset_tiles(soc);
    soc->cycles = 0;
    soc->ns = 0;
    smn_esp_engine_reset(soc);
    return SOCMON_OK;
}

uint64_t socmon_esp_soc_now_ns(const socmon_esp_soc *soc)
{
    return soc ? soc->ns : 0;
}

uint64_t socmon_esp_soc_cycles(const socmon_esp_soc *soc)
{
    return soc ? soc->cycles : 0;
}
