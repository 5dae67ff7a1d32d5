/* ESP Monitors API, source-compatible with ESP's soft/common/drivers/common/include/monitors.h.
 *
 * Names, types, field order and values follow ESP's guide ("How to: gather
 * performance data with the ESP Monitors API"), so programs written for ESP
 * compile unchanged. The implementation is a thin layer over socmon's ESP
 * public API (src/compat/esp/ over socmon/esp.h); docs/esp.md lists every difference from ESP's
 * reference library, all of them bug fixes:
 *   - sub_monitor_vals and esp_monitor_diff are exact modulo 2^32 (2^64 for
 *     the accelerator pairs); the reference is off by one on wrap.
 *   - esp_monitor fills llc_stats[] and also keeps the reference's copy of
 *     the LLC counts in l2_stats[memory tile].
 *   - every field of a result is written (diff, ALL and MANY zero first).
 *   - esp_monitor_print prints unsigned values (%u, %llu).
 *   - bad arguments return 0 / leave vals untouched and set an error you
 *     read with esp_monitor_status() and esp_monitor_errmsg().
 *   - esp_monitor_free may be called twice; a later esp_monitor maps again.
 *
 * The SoC layout comes from soc_defs.h (SOC_ROWS, SOC_COLS, SOC_NCPU,
 * SOC_NMEM, SOC_NACC). socmon ships one for its built-in virtual SoC; put the
 * directory of a generated one (tools/esp_socdefs) first on the include path
 * to use another SoC. Functions whose behaviour depends on that layout are
 * static inline wrappers, so the library always sees the layout the caller
 * was compiled with, and refuses (with an error) an SoC that does not match.
 *
 * Which SoC the calls reach: the built-in virtual SoC by default, the SoC
 * description file named by SOCMON_ESP_SOC if set, and real hardware through
 * /dev/mem with SOCMON_ESP=devmem or SOCMON_ESP=devmem:0xBASE. */
#ifndef SOCMON_COMPAT_ESP_MONITORS_H
#define SOCMON_COMPAT_ESP_MONITORS_H

#include "socmon/export.h"

/* What ESP's monitors.h includes: programs rely on these. */
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <soc_defs.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

#define DVFS_OP_POINTS 4
#define NOC_PLANES 6
#define NOC_QUEUES 5
#ifndef SOC_NTILES
#define SOC_NTILES (SOC_ROWS * SOC_COLS)
#endif
#define VF_OP_POINTS 4
#define NOCS_NUM 6

/* Bit positions in esp_monitor_args_t.read_mask (use as 1 << X). */
#define ESP_MON_READ_DDR_ACCESSES 0
#define ESP_MON_READ_MEM_REQS 1
#define ESP_MON_READ_L2_STATS 2
#define ESP_MON_READ_LLC_STATS 3
#define ESP_MON_READ_ACC_STATS 4          /* uses acc_index */
#define ESP_MON_READ_DVFS_OP 5            /* uses tile_index */
#define ESP_MON_READ_NOC_INJECTS 6        /* uses tile_index */
#define ESP_MON_READ_NOC_QUEUE_FULL_TILE 7  /* uses tile_index */
#define ESP_MON_READ_NOC_QUEUE_FULL_PLANE 8 /* uses noc_index */

/* Monitor indices within a tile. */
#define MON_DDR_WORD_TRANSFER_INDEX 0
#define MON_MEM_COH_REQ_INDEX 1
#define MON_MEM_COH_FWD_INDEX 2
#define MON_MEM_COH_RSP_RCV_INDEX 3
#define MON_MEM_COH_RSP_SND_INDEX 4
#define MON_MEM_DMA_REQ_INDEX 5
#define MON_MEM_DMA_RSP_INDEX 6
#define MON_MEM_COH_DMA_REQ_INDEX 7
#define MON_MEM_COH_DMA_RSP_INDEX 8
#define MON_L2_HIT_INDEX 9
#define MON_L2_MISS_INDEX 10
#define MON_LLC_HIT_INDEX 11
#define MON_LLC_MISS_INDEX 12
#define MON_ACC_TLB_INDEX 13
#define MON_ACC_MEM_LO_INDEX 14
#define MON_ACC_MEM_HI_INDEX 15
#define MON_ACC_TOT_LO_INDEX 16
#define MON_ACC_TOT_HI_INDEX 17
#define MON_ACC_INVOCATIONS 18
#define MON_DVFS_BASE_INDEX 19
#define MON_NOC_TILE_INJECT_BASE_INDEX (MON_DVFS_BASE_INDEX + VF_OP_POINTS)         /* 23 */
#define MON_NOC_QUEUES_FULL_BASE_INDEX (MON_NOC_TILE_INJECT_BASE_INDEX + NOCS_NUM) /* 29 */

typedef struct esp_mem_reqs {
    unsigned int coh_reqs;
    unsigned int coh_fwds;
    unsigned int coh_rsps_rcv;
    unsigned int coh_rsps_snd;
    unsigned int dma_reqs;
    unsigned int dma_rsps;
    unsigned int coh_dma_reqs;
    unsigned int coh_dma_rsps;
} esp_mem_reqs_t;

typedef struct esp_cache_stats {
    unsigned int hits;
    unsigned int misses;
} esp_cache_stats_t;

typedef struct acc_stats_t {
    unsigned int acc_tlb;
    unsigned int acc_mem_lo;
    unsigned int acc_mem_hi;
    unsigned int acc_tot_lo;
    unsigned int acc_tot_hi;
    unsigned int acc_invocations;
} esp_acc_stats_t;

/* ESP declares acc_stats[SOC_NACC], a GNU zero-length array when there are
 * no accelerators; ISO C needs at least one element. */
#if SOC_NACC > 0
#define SOCMON_ESP_NACC_DIM SOC_NACC
#else
#define SOCMON_ESP_NACC_DIM 1
#endif

typedef struct esp_monitor_vals {
    unsigned int ddr_accesses[SOC_NMEM];
    esp_mem_reqs_t mem_reqs[SOC_NMEM];
    esp_cache_stats_t l2_stats[SOC_NTILES];   /* by global tile index */
    esp_cache_stats_t llc_stats[SOC_NMEM];    /* by memory-tile ordinal */
    esp_acc_stats_t acc_stats[SOCMON_ESP_NACC_DIM]; /* by accelerator ordinal */
    unsigned int dvfs_op[SOC_NTILES][DVFS_OP_POINTS];
    unsigned int noc_injects[SOC_NTILES][NOC_PLANES];
    unsigned int noc_queue_full[SOC_NTILES][NOC_PLANES][NOC_QUEUES];
} esp_monitor_vals_t;

typedef enum esp_monitor_read_mode {
    ESP_MON_READ_ALL,
    ESP_MON_READ_SINGLE,
    ESP_MON_READ_MANY,
} esp_monitor_mode_t;

typedef struct esp_monitor_args {
    esp_monitor_mode_t read_mode;
    uint16_t read_mask;
    uint8_t tile_index;
    uint8_t acc_index;
    uint8_t mon_index;
    uint8_t noc_index;
} esp_monitor_args_t;

typedef struct soc_loc {
    uint8_t row;
    uint8_t col;
} soc_loc_t;

/* ---- socmon additions ---- */

/* Status of this thread's last esp_monitor* / sub_monitor_vals-free call:
 * SOCMON_OK, or the error whose message esp_monitor_errmsg() returns (the
 * message names the bad value, e.g. "tile_index 9 out of range 0..5"). */
socmon_status esp_monitor_status(void);
const char *esp_monitor_errmsg(void);

/* ---- layout-independent functions ---- */

/* (val_end - val_start) mod 2^32: exact across one wrap. */
uint32_t sub_monitor_vals(uint32_t val_start, uint32_t val_end);
/* (val_end - val_start) mod 2^64. */
uint64_t sub_monitor_vals64(uint64_t val_start, uint64_t val_end);
/* Unmaps the monitors and frees every esp_monitor_vals_alloc() result.
 * Safe to call twice; a later esp_monitor maps again. */
void esp_monitor_free(void);

/* ---- internals behind the inline wrappers: the caller's layout ---- */

typedef struct socmon_esp_api_layout {
    size_t size;                 /* sizeof(esp_monitor_vals_t) */
    unsigned rows, cols, ntiles, ncpu, nmem, nacc;
    size_t off_mem_reqs, off_l2, off_llc, off_acc, off_dvfs, off_inj, off_qfull;
} socmon_esp_api_layout;

#define SOCMON_ESP_API_LAYOUT                                                              \
    {sizeof(esp_monitor_vals_t), SOC_ROWS, SOC_COLS, SOC_NTILES, SOC_NCPU, SOC_NMEM,       \
     SOC_NACC, offsetof(esp_monitor_vals_t, mem_reqs), offsetof(esp_monitor_vals_t, l2_stats), \
     offsetof(esp_monitor_vals_t, llc_stats), offsetof(esp_monitor_vals_t, acc_stats),     \
     offsetof(esp_monitor_vals_t, dvfs_op), offsetof(esp_monitor_vals_t, noc_injects),     \
     offsetof(esp_monitor_vals_t, noc_queue_full)}

/* What the inline functions below call, with the layout of the caller's structs: l (their
 * SOCMON_ESP_API_LAYOUT) and args must not be NULL, nor diff's start, end and out, nor print's
 * vals. */
unsigned int socmon_esp_api_monitor(const socmon_esp_api_layout *l, const esp_monitor_args_t *args,
                                    void *vals);
void socmon_esp_api_diff(const socmon_esp_api_layout *l, const void *start, const void *end,
                         void *out);
void socmon_esp_api_print(const socmon_esp_api_layout *l, const esp_monitor_args_t *args,
                          const void *vals, FILE *fp);
void *socmon_esp_api_vals_alloc(const socmon_esp_api_layout *l);

/* ---- the ESP API ---- */

/* SINGLE: returns the live value of monitor mon_index of tile tile_index
 * (global index); vals is unused and may be NULL. ALL and MANY: freeze each
 * tile read, fill *vals (zeroed first), return 0. */
static inline unsigned int esp_monitor(esp_monitor_args_t args, esp_monitor_vals_t *vals)
{
    static const socmon_esp_api_layout l = SOCMON_ESP_API_LAYOUT;
    return socmon_esp_api_monitor(&l, &args, vals);
}

/* vals_end - vals_start for every field, modulo 2^32; the two accelerator
 * cycle counts as 64-bit values. */
static inline esp_monitor_vals_t esp_monitor_diff(esp_monitor_vals_t vals_start,
                                                  esp_monitor_vals_t vals_end)
{
    static const socmon_esp_api_layout l = SOCMON_ESP_API_LAYOUT;
    esp_monitor_vals_t d;
    socmon_esp_api_diff(&l, &vals_start, &vals_end, &d);
    return d;
}

/* A zeroed vals structure, freed by esp_monitor_free(). NULL on failure. */
static inline esp_monitor_vals_t *esp_monitor_vals_alloc(void)
{
    static const socmon_esp_api_layout l = SOCMON_ESP_API_LAYOUT;
    return (esp_monitor_vals_t *)socmon_esp_api_vals_alloc(&l);
}

static inline void esp_monitor_fprint(esp_monitor_args_t args, esp_monitor_vals_t vals, FILE *fp)
{
    static const socmon_esp_api_layout l = SOCMON_ESP_API_LAYOUT;
    socmon_esp_api_print(&l, &args, &vals, fp);
}

static inline void esp_monitor_print_console(esp_monitor_args_t args, esp_monitor_vals_t vals)
{
    esp_monitor_fprint(args, vals, stdout);
}

/* ESP has esp_monitor_print(args, vals) on baremetal and
 * esp_monitor_print(args, vals, fp) on Linux; both forms work here. */
#define SOCMON_ESP_PICK3(a1, a2, a3, name, ...) name
#define esp_monitor_print(...)                                                            \
    SOCMON_ESP_PICK3(__VA_ARGS__, esp_monitor_fprint, esp_monitor_print_console,          \
                     esp_monitor_print_console)(__VA_ARGS__)

SOCMON_END_DECLS
#endif
