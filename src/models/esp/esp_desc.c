/* SoC descriptions: the built-in default and tile type names. The file
 * parser lives in esp_socfile.c; tile ordinals (socmon_esp_desc_tiles_of),
 * which the driver needs too, live in src/core/esp_desc.c. */
#include <string.h>

#include "models/esp/esp_internal.h"

static void set_tile(socmon_esp_soc_desc *d, unsigned r, unsigned c, socmon_esp_tile_type t,
                     const char *name, int l2)
{
    socmon_esp_tile_desc *td = &d->tiles[r * d->cols + c];
    td->type = t;
    td->has_l2 = l2;
    memset(td->name, 0, sizeof td->name);
    if (name)
        strncpy(td->name, name, sizeof td->name - 1);
}

/* Same mix as ESP's multifft_mon example SoC (one CPU, one memory tile, three
 * FFT accelerators of which one has a private L2, one IO tile), laid out 2x3. */
void socmon_esp_soc_desc_default(socmon_esp_soc_desc *d)
{
    memset(d, 0, sizeof *d);
    d->rows = 2;
    d->cols = 3;
    set_tile(d, 0, 0, SOCMON_ESP_TILE_CPU, NULL, 0);
    set_tile(d, 0, 1, SOCMON_ESP_TILE_MEM, NULL, 0);
    set_tile(d, 0, 2, SOCMON_ESP_TILE_ACC, "fft", 1);
    set_tile(d, 1, 0, SOCMON_ESP_TILE_ACC, "fft", 0);
    set_tile(d, 1, 1, SOCMON_ESP_TILE_ACC, "fft", 0);
    set_tile(d, 1, 2, SOCMON_ESP_TILE_IO, NULL, 0);
    d->cache_hierarchy = 1;
    d->dvfs = 1;
    d->noc_planes = 6;
    d->noc_queues = 5;
    d->monitor_base = SOCMON_ESP_DEFAULT_BASE;
    d->clock_hz = 78e6;
}

const char *smn_esp_tile_type_name(socmon_esp_tile_type t)
{
    switch (t) {
    case SOCMON_ESP_TILE_EMPTY: return "empty";
    case SOCMON_ESP_TILE_CPU: return "cpu";
    case SOCMON_ESP_TILE_MEM: return "mem";
    case SOCMON_ESP_TILE_ACC: return "acc";
    case SOCMON_ESP_TILE_IO: return "io";
    }
    return "?";
}
