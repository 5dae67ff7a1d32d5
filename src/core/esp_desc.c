/* ESP SoC descriptions: the facts about a description that both the ESP
 * driver (counter parameters such as ncpu) and the ESP model (which tiles run
 * which workload) need. They live in core, which both layers may use, so that
 * neither calls into the other (tests/arch/link_layering.py checks it). */
#include "socmon/esp.h"

unsigned socmon_esp_desc_tiles_of(const socmon_esp_soc_desc *d, socmon_esp_tile_type type,
                                  unsigned *idx, unsigned max)
{
    unsigned n = 0;
    if (!d || d->rows > SOCMON_ESP_MAX_ROWS || d->cols > SOCMON_ESP_MAX_COLS)
        return 0;
    for (unsigned t = 0; t < d->rows * d->cols; t++) {
        if (d->tiles[t].type != type)
            continue;
        if (idx && n < max)
            idx[n] = t;
        n++;
    }
    return n;
}
