/* Internal to the ESP model (the .c files in src/models/esp): the SoC object's layout and
 * the helpers the model's files share. Users go through esp_soc.h only. */
#ifndef SOCMON_MODELS_ESP_INTERNAL_H
#define SOCMON_MODELS_ESP_INTERNAL_H

#include <stdint.h>
#include "models/esp/esp_soc.h"

#define ESP_CFG_WORDS 32u      /* 0x180..0x1FC */
#define ESP_CFG_OFFSET 0x180u

struct socmon_esp_soc;

/* One tile's register window: the live counters, the snapshot taken on the
 * burst register's rising edge, and the config CSRs. */
typedef struct esp_tile {
    struct socmon_esp_soc *soc;    /* back pointer: the region callbacks get the tile */
    unsigned index;
    uint64_t defined;              /* bit m set: monitor m is wired in this tile */
    uint32_t count[SOCMON_ESP_NMON];
    uint32_t frozen[SOCMON_ESP_NMON];
    uint32_t burst;
    uint32_t cfg[ESP_CFG_WORDS];
    uint64_t cfg_writes;           /* software must not write them: counted for tests */
    unsigned op_point;             /* current DVFS op point 0..3 */
} esp_tile;

struct esp_engine;                 /* workload model state (esp_engine.c) */

struct socmon_esp_soc {
    socmon_esp_soc_desc desc;
    unsigned ntiles;
    esp_tile *tiles;
    uint64_t cycles;               /* simulated tile-clock cycles since reset */
    uint64_t ns;                   /* simulated time handed out by now_ns */
    struct esp_engine *eng;
};

/* Which monitors are wired in a tile of this type (bit m = monitor m). */
uint64_t esp_defined_mask(const socmon_esp_soc_desc *d, unsigned tile);
/* Adds n to a live monitor if it is wired in the tile; wraps modulo 2^32. The
 * two 64-bit accelerator pairs (14/15, 16/17) carry from lo into hi. */
void esp_count(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint64_t n);
const char *esp_tile_type_name(socmon_esp_tile_type t);

/* Engine hooks (esp_engine.c). */
socmon_status esp_engine_new(socmon_esp_soc *soc);
void esp_engine_free(socmon_esp_soc *soc);
void esp_engine_reset(socmon_esp_soc *soc);

#endif
