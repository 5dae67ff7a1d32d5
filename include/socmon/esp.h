/* ESP tile monitors: the public API.
 *
 * ESP (Columbia's open SoC platform) puts 59 free-running 32-bit monitors in
 * every tile of its NoC grid. Three parts, usable alone or together:
 *  - the SoC description: the grid, each tile's type, the cache hierarchy,
 *    DVFS, the NoC, where the monitors sit (built in, parsed from a file in
 *    the format of docs/esp-model.md, or filled in by hand);
 *  - the driver: the tiles' burst (snapshot) and read protocol over any
 *    socmon_bus (silicon through an mmio bus over /dev/mem, or the model
 *    below), and a socmon_device with one counter per defined monitor;
 *  - the model: a virtual ESP SoC whose tile monitor windows answer on a
 *    model bus at register level, with a workload model (CPU streams,
 *    accelerator invocations, caches, six NoC planes) that makes every
 *    monitor count self-consistent events. A user's own driver can run
 *    against it in CI.
 *
 * Register map: tile t's 0x200-byte window is at monitor_base + t*0x200;
 * word 0 is the burst register (a 0->1 edge of bit 0 freezes a copy of the
 * tile's 59 counters, reads see the copy while bit 0 is 1), monitor m is at
 * byte 4*(m+1), 0x180..0x1FC are tile config registers software must not
 * write. docs/esp.md and docs/esp-model.md describe the behaviour. Every call
 * that can fail returns a socmon_status and leaves a message naming the bad
 * value (socmon_errmsg()). */
#ifndef SOCMON_ESP_H
#define SOCMON_ESP_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

/* ==== facts ==== */

#define SOCMON_ESP_MAX_ROWS 16
#define SOCMON_ESP_MAX_COLS 16
#define SOCMON_ESP_MAX_TILES (SOCMON_ESP_MAX_ROWS * SOCMON_ESP_MAX_COLS)
#define SOCMON_ESP_NMON 59                    /* monitors per tile */
#define SOCMON_ESP_NDIRS 5                    /* router queues per NoC plane */
#define SOCMON_ESP_TILE_SIZE 0x200u           /* one tile's monitor window */
#define SOCMON_ESP_DEFAULT_BASE 0x60090000ull /* Ariane/Ibex; Leon3 uses 0x80090000 */

/* Monitor indices inside a tile (ESP's monitors.h numbering). */
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
    SOCMON_ESP_MON_NOC_QFULL = 29    /* 29 + plane*5 + port, in the RTL's order North, South, West, East, Local */
};

/* ==== SoC descriptions ==== */

typedef enum socmon_esp_tile_type {
    SOCMON_ESP_TILE_EMPTY = 0,
    SOCMON_ESP_TILE_CPU,
    SOCMON_ESP_TILE_MEM,
    SOCMON_ESP_TILE_ACC,
    SOCMON_ESP_TILE_IO
} socmon_esp_tile_type;

/* How an accelerator's DMA reaches memory (ESP's coherence modes). */
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
    double clock_hz;       /* tile clock; cycles <-> ns */
} socmon_esp_soc_desc;

/* The built-in SoC: 2x3 with one CPU, one memory tile, three accelerators
 * (one with an L2) and one IO tile. d must not be NULL. */
void socmon_esp_soc_desc_default(socmon_esp_soc_desc *d);
/* Parses an SoC description (format in docs/esp-model.md). Errors
 * (SOCMON_EPARSE, SOCMON_ERANGE) name the source, the line and the field. */
socmon_status socmon_esp_soc_desc_parse(const char *text, const char *srcname,
                                        socmon_esp_soc_desc *d);
/* Loads a description file; a bare name that is no file ("esp_4x4") names
 * an installed one. SOCMON_ENOENT / SOCMON_EPERM / SOCMON_EIO on file errors. */
socmon_status socmon_esp_soc_desc_load(const char *path, socmon_esp_soc_desc *d);
/* Checks what the driver relies on: grid within limits, planes 1..6,
 * queues 1..5, a clock, known tile types. Errors name the field. */
socmon_status socmon_esp_desc_check(const socmon_esp_soc_desc *d);
/* Ordinals as ESP's socgen assigns them: tiles of a type in row-major order.
 * Fills idx[] (may be NULL; at most max entries) with global tile indices;
 * returns the count. */
unsigned socmon_esp_desc_tiles_of(const socmon_esp_soc_desc *d, socmon_esp_tile_type type,
                                  unsigned *idx, unsigned max);
/* 1 if monitor mon carries meaning in tile `tile` of SoC d (ESP's guide §1:
 * DDR only in memory tiles, L2 only in CPU tiles and accelerators with an
 * L2, ...), else 0. Undefined monitors read 0 on the hardware. */
int socmon_esp_mon_defined(const socmon_esp_soc_desc *d, unsigned tile, unsigned mon);

/* ==== the monitors of an open "esp" target ====
 *
 * The ESP driver (burst and read protocol over a bus) is internal; these calls give its protocol
 * to whoever holds the target's device (socmon_target_device of an "esp" target, on the virtual
 * SoC or on silicon with devmem=1), so a vendor API or a user's tool reads monitors word by word
 * with the driver's own freeze, read, release sequence instead of a copy of it. Each fails with
 * SOCMON_EINVAL if dev is not an ESP device, SOCMON_ERANGE naming a tile or monitor out of range. */

/* Reads n 32-bit monitor words, word i being monitor mon[i] of tile tile[i], from one snapshot:
 * every tile named is frozen once (back to back, in first-use order), the words are read, and
 * every frozen tile is released, also after a failed read. A lo/hi pair read in one call cannot
 * tear. out[i] is 0 where a read failed. */
socmon_status socmon_esp_monitors_read(socmon_device *dev, size_t n, const unsigned *tile,
                                       const unsigned *mon, uint32_t *out);
/* One live read (no snapshot): one bus access, as ESP's single-monitor read. */
socmon_status socmon_esp_monitor_read_live(socmon_device *dev, unsigned tile, unsigned mon,
                                           uint32_t *val);
/* Writes burst=0 to every tile: a snapshot left frozen by a crashed user would otherwise make
 * the next freeze a no-op and serve stale values. */
socmon_status socmon_esp_monitors_release(socmon_device *dev);

/* ==== model: the virtual ESP SoC ==== */

/* The virtual SoC behind an "esp" target: open the target (socmon_target_open("esp:soc=..."),
 * socmon/target.h), take its bus (socmon_target_bus) for a driver of your own and its model
 * (socmon_esp_soc_of_target, below) to turn the knobs. */
typedef struct socmon_esp_soc socmon_esp_soc;

const socmon_esp_soc_desc *socmon_esp_soc_get_desc(const socmon_esp_soc *soc);

/* Workloads: NULL-terminated names; [0] is the default ("multifft"). */
const char *const *socmon_esp_workloads(void);
/* Starts a built-in workload (SOCMON_ENOENT naming the valid set), or the NoC traffic you
 * choose: "noc-trace:FILE" or "noc:pattern=..." (docs/esp-model.md 5.1; SOCMON_EPARSE naming the
 * line and field of a bad trace or pattern); it runs
 * as socmon_esp_soc_advance moves time. workload NULL: the default. */
socmon_status socmon_esp_soc_start(socmon_esp_soc *soc, const char *workload);
/* Runs the model for ns of simulated time; *done (may be NULL) = 1 when the
 * workload finished. A workload that finishes inside the step stops the clock
 * there (the first whole ns at or after its last cycle), so
 * socmon_esp_soc_now_ns is its end; with no workload running the full ns pass. */
socmon_status socmon_esp_soc_advance(socmon_esp_soc *soc, uint64_t ns, int *done);
/* Simulated time and tile-clock cycles since reset. */
uint64_t socmon_esp_soc_now_ns(const socmon_esp_soc *soc);
uint64_t socmon_esp_soc_cycles(const socmon_esp_soc *soc);

/* Activity knobs: direct workload primitives whose counts are known in
 * advance (docs/esp-model.md section 3). They run to completion in simulated
 * time; while a started workload runs they fail with SOCMON_ESTATE.
 * cpu_access: CPU cpu_ordinal makes loads + stores accesses over a buffer of
 * footprint_bytes. acc_invoke: accelerator acc_ordinal moves bytes by DMA in
 * coherence mode `mode`. flush: every private L2 writes back, as ESP's
 * esp_run does before an invocation; with llc_too the LLCs write dirty lines
 * to DDR and empty (before non-coherent DMA). */
socmon_status socmon_esp_soc_cpu_access(socmon_esp_soc *soc, unsigned cpu_ordinal,
                                        uint64_t loads, uint64_t stores, uint64_t footprint_bytes);
socmon_status socmon_esp_soc_acc_invoke(socmon_esp_soc *soc, unsigned acc_ordinal,
                                        uint64_t bytes, socmon_esp_coherence mode);
socmon_status socmon_esp_soc_flush(socmon_esp_soc *soc, int llc_too);

/* Tile reset: the only thing that clears the counters (ESP has no software
 * clear). Also clears burst registers, config registers, caches, the NoC, a
 * running workload and time. */
socmon_status socmon_esp_soc_reset(socmon_esp_soc *soc);

/* 1 if monitor mon is wired in tile (defined for its type), else 0. */
int socmon_esp_soc_defined(const socmon_esp_soc *soc, unsigned tile, unsigned mon);
/* Test hooks, for a driver's own wrap tests: a monitor's live value (0 on a
 * bad index), and setting it (SOCMON_ERANGE for a monitor the tile does not
 * define: it always reads 0). */
uint32_t socmon_esp_soc_peek(const socmon_esp_soc *soc, unsigned tile, unsigned mon);
socmon_status socmon_esp_soc_poke(socmon_esp_soc *soc, unsigned tile, unsigned mon, uint32_t v);
/* Writes software made to a tile's config registers (0x180..0x1FC) since
 * reset: a driver must never write there, and a test can check it did not. */
uint64_t socmon_esp_soc_config_writes(const socmon_esp_soc *soc, unsigned tile);

/* The virtual SoC behind an open "esp" target (socmon/target.h), so a
 * program can turn its knobs while socmon samples it; NULL if t is another
 * target or runs on silicon (esp:devmem=1). The target owns it. */
struct socmon_target;
socmon_esp_soc *socmon_esp_soc_of_target(const struct socmon_target *t);

SOCMON_END_DECLS
#endif
