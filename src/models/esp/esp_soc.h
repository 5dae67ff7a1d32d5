/* The virtual ESP SoC: register-accurate tile monitors plus a workload model.
 *
 * Contract between the model (src/models/esp/) and its users (the ESP driver,
 * the esp_monitors API, the "esp" target, tests). The model implements the
 * monitor windows as regions of a model bus; nothing outside src/models/esp
 * touches its internals except through this header.
 *
 * Register map (from ESP's esp_tile_csr.vhd, see docs/esp.md): tile t's window
 * is at monitor_base + t*0x200. Word 0 is the burst (snapshot) register;
 * monitor m (0..58) is at 4*(m+1); 0x180..0x1FC are configuration registers. */
#ifndef SOCMON_MODELS_ESP_SOC_H
#define SOCMON_MODELS_ESP_SOC_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/status.h"

#define SOCMON_ESP_MAX_ROWS 16
#define SOCMON_ESP_MAX_COLS 16
#define SOCMON_ESP_MAX_TILES (SOCMON_ESP_MAX_ROWS * SOCMON_ESP_MAX_COLS)
#define SOCMON_ESP_NMON 59
#define SOCMON_ESP_TILE_SIZE 0x200u
#define SOCMON_ESP_DEFAULT_BASE 0x60090000ull /* Ariane/Ibex; Leon3 uses 0x80090000 */

/* Monitor indices inside a tile (ESP monitors.h numbering). */
enum {
    SOCMON_ESP_MON_DDR = 0,
    SOCMON_ESP_MON_COH_REQ = 1, SOCMON_ESP_MON_COH_FWD, SOCMON_ESP_MON_COH_RSP_RCV,
    SOCMON_ESP_MON_COH_RSP_SND, SOCMON_ESP_MON_DMA_REQ, SOCMON_ESP_MON_DMA_RSP,
    SOCMON_ESP_MON_COH_DMA_REQ, SOCMON_ESP_MON_COH_DMA_RSP,          /* ..8 */
    SOCMON_ESP_MON_L2_HIT = 9, SOCMON_ESP_MON_L2_MISS = 10,
    SOCMON_ESP_MON_LLC_HIT = 11, SOCMON_ESP_MON_LLC_MISS = 12,
    SOCMON_ESP_MON_ACC_TLB = 13, SOCMON_ESP_MON_ACC_MEM_LO = 14, SOCMON_ESP_MON_ACC_MEM_HI = 15,
    SOCMON_ESP_MON_ACC_TOT_LO = 16, SOCMON_ESP_MON_ACC_TOT_HI = 17, SOCMON_ESP_MON_ACC_INVOC = 18,
    SOCMON_ESP_MON_DVFS = 19,        /* 19..22: op point 0..3 */
    SOCMON_ESP_MON_NOC_INJ = 23,     /* 23..28: plane 0..5 */
    SOCMON_ESP_MON_NOC_QFULL = 29    /* 29 + plane*5 + direction (Local, East, West, South, North) */
};

typedef enum socmon_esp_tile_type {
    SOCMON_ESP_TILE_EMPTY = 0,
    SOCMON_ESP_TILE_CPU,
    SOCMON_ESP_TILE_MEM,
    SOCMON_ESP_TILE_ACC,
    SOCMON_ESP_TILE_IO
} socmon_esp_tile_type;

typedef enum socmon_esp_coherence {
    SOCMON_ESP_COH_NONE = 0,   /* non-coherent DMA: straight to DDR via the mem tile */
    SOCMON_ESP_COH_LLC,        /* LLC-coherent DMA */
    SOCMON_ESP_COH_DMA,        /* coherent DMA (recalls from private caches) */
    SOCMON_ESP_COH_FULL        /* fully coherent: through the accelerator's own L2 */
} socmon_esp_coherence;

typedef struct socmon_esp_tile_desc {
    socmon_esp_tile_type type;
    char name[32];     /* accelerator name, e.g. "fft" */
    int has_l2;        /* accelerator tiles: has a private L2 */
} socmon_esp_tile_desc;

typedef struct socmon_esp_soc_desc {
    unsigned rows, cols;
    socmon_esp_tile_desc tiles[SOCMON_ESP_MAX_TILES]; /* row-major: t = row*cols + col */
    int cache_hierarchy;   /* L2s and LLC present */
    int dvfs;              /* DVFS op-point monitors active */
    unsigned noc_planes;   /* 6 */
    unsigned noc_queues;   /* 5 per router */
    uint64_t monitor_base;
    double clock_hz;       /* model clock; cycles <-> ns */
} socmon_esp_soc_desc;

/* The built-in SoC: 2x3 with one CPU, one memory tile, three accelerators
 * (one with an L2) and one IO tile. */
void socmon_esp_soc_desc_default(socmon_esp_soc_desc *d);
/* Parses an SoC description file (format in docs/esp-model.md). Errors name the
 * source, the line and the field. */
socmon_status socmon_esp_soc_desc_parse(const char *text, const char *srcname,
                                        socmon_esp_soc_desc *d);
socmon_status socmon_esp_soc_desc_load(const char *path, socmon_esp_soc_desc *d);

/* Ordinals as ESP's socgen assigns them: tiles of a type in row-major order.
 * Fill idx[] (may be NULL) with global tile indices; return the count. */
unsigned socmon_esp_desc_tiles_of(const socmon_esp_soc_desc *d, socmon_esp_tile_type type,
                                  unsigned *idx, unsigned max);

typedef struct socmon_esp_soc socmon_esp_soc;

socmon_status socmon_esp_soc_new(const socmon_esp_soc_desc *d, socmon_esp_soc **out);
void socmon_esp_soc_free(socmon_esp_soc *soc);
const socmon_esp_soc_desc *socmon_esp_soc_get_desc(const socmon_esp_soc *soc);
/* Maps every tile's monitor window onto a model bus at desc->monitor_base. */
socmon_status socmon_esp_soc_map(socmon_esp_soc *soc, socmon_bus *model_bus);

/* Workloads: NULL-terminated names; [0] is the default ("multifft"). */
const char *const *socmon_esp_workloads(void);
socmon_status socmon_esp_soc_start(socmon_esp_soc *soc, const char *workload);
/* Runs the model for ns of simulated time; *done = 1 when the workload finished. */
socmon_status socmon_esp_soc_advance(socmon_esp_soc *soc, uint64_t ns, int *done);
uint64_t socmon_esp_soc_now_ns(const socmon_esp_soc *soc);

/* Direct workload primitives, for tests that need counts known in advance.
 * They run to completion in simulated time. */
socmon_status socmon_esp_soc_cpu_access(socmon_esp_soc *soc, unsigned cpu_ordinal,
                                        uint64_t loads, uint64_t stores, uint64_t footprint_bytes);
socmon_status socmon_esp_soc_acc_invoke(socmon_esp_soc *soc, unsigned acc_ordinal,
                                        uint64_t bytes, socmon_esp_coherence mode);

/* Test back door: a monitor's live value, and setting it (for wrap tests). */
uint32_t socmon_esp_soc_peek(const socmon_esp_soc *soc, unsigned tile, unsigned mon);
socmon_status socmon_esp_soc_poke(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint32_t v);

/* ---- additions by the model (additive) ---- */

/* While a workload from socmon_esp_soc_start is running (advance has not
 * reported done), the primitives and another start fail with SOCMON_ESTATE.
 * Primitive counts are documented in docs/esp-model.md section 3. */

/* Tile reset: the only thing that clears the counters (ESP has no software
 * clear). Also clears burst registers, caches, the NoC, a running workload
 * and time. */
socmon_status socmon_esp_soc_reset(socmon_esp_soc *soc);
/* Simulated tile-clock cycles since reset (desc->clock_hz per second). */
uint64_t socmon_esp_soc_cycles(const socmon_esp_soc *soc);
/* 1 if monitor mon is wired in tile (defined for its type), else 0. */
int socmon_esp_soc_defined(const socmon_esp_soc *soc, unsigned tile, unsigned mon);
/* Writes software made to a tile's config CSRs (0x180..0x1FC) since reset.
 * The driver must never write there; tests check this stays 0. */
uint64_t socmon_esp_soc_config_writes(const socmon_esp_soc *soc, unsigned tile);

/* Runs a cache flush as ESP's esp_run does before an invocation: every
 * private L2 writes its lines back (coherence requests to the LLCs); with
 * llc_too the LLCs also write dirty lines to DDR and empty (before
 * non-coherent DMA). Runs to completion in simulated time. */
socmon_status socmon_esp_soc_flush(socmon_esp_soc *soc, int llc_too);

/* Model-internal tallies that the monitors should agree with (tests check the
 * conservation laws of docs/esp-model.md against them). Counts since reset. */
typedef struct socmon_esp_model_stats {
    uint64_t cycles;
    uint64_t packets[6];          /* packets that entered the NoC, per plane */
    uint64_t flits_injected[6], flits_ejected[6];
    uint64_t flits_in_network;    /* injected, not yet ejected */
    uint64_t packets_waiting;     /* handed to a tile, not fully injected yet */
    uint64_t dma_lines[4];        /* accelerator lines moved, per socmon_esp_coherence */
    uint64_t l2_accesses;         /* lookups in any private L2 */
    uint64_t llc_writebacks;      /* dirty LLC victims written to DDR */
    uint64_t llc_flush_writebacks;/* dirty LLC lines written to DDR by flushes */
    uint64_t uncached_accesses;   /* CPU accesses without a cache hierarchy */
    uint64_t invocations;
} socmon_esp_model_stats;
void socmon_esp_soc_stats(const socmon_esp_soc *soc, socmon_esp_model_stats *out);

#endif
