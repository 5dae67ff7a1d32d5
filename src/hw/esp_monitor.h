/* ESP tile monitors: every register-level fact, once.
 *
 * Included by the driver (src/drivers/esp) and by the model (src/models/esp);
 * neither includes the other. Holds a tile's 0x200-byte monitor window (the
 * burst register, the 59 monitors, the unused words, the config CSRs), its
 * access table, the monitor numbering, the NoC direction order, and the tile
 * wiring: which monitors each tile type defines.
 *
 * Sources (docs/esp.md, "Sources of the facts used", names them in full):
 *  - ../shared/specs/esp_monitors.md §2.1 (rtl/sockets/csr/esp_tile_csr.vhd):
 *    the window, word 0 = burst, words 1..59 = monitors, words 60..95 read 0,
 *    0x180..0x1FC = tile config CSRs (esp_csr_pkg.vhd names), monitor writes
 *    ignored; §2.4: the burst register stores pwdata, bit 0's rising edge
 *    snapshots;
 *  - §1.1 / §1.4 (monitors.h, libmonitors.c, socmap_gen.py): monitor indices,
 *    4*(m+1) offsets, MONITOR_TILE_SIZE 0x200, MONITOR_BASE_ADDR;
 *  - ESP's guide (../shared/seeds/esp_monitors_guide.txt §1): which monitors
 *    are well-defined in which tile type;
 *  - ESP's router RTL (shared/specs/esp_noc_rtl.md): the NoC monitors' port
 *    order N, S, W, E, L (the guide's is the reverse) and what they count. */
#ifndef SOCMON_HW_ESP_MONITOR_H
#define SOCMON_HW_ESP_MONITOR_H

#include <stddef.h>
#include <stdint.h>

#include "hw/regfields.h"

/* socmap_gen.py: 0x60090000 on Ariane/Ibex SoCs, 0x80090000 on Leon3. */
#define ESP_MON_BASE_ARIANE 0x60090000ull
#define ESP_MON_BASE_LEON3 0x80090000ull
#define ESP_TILE_SIZE 0x200u            /* MONITOR_TILE_SIZE: tile t at base + t*0x200 */
#define ESP_TILE_WORDS (ESP_TILE_SIZE / 4)
#define ESP_NMON 59                     /* MONITOR_REG_COUNT = 19 + 4 + 6 + 30 */
#define ESP_NPLANES 6                   /* NoC planes (ESP's NoC1..NoC6) */
#define ESP_NQUEUES 5                   /* router queues (directions) per plane */
#define ESP_DVFS_OPS 4                  /* V/F operating points */

/* ---- the window (spec §2.1) ---- */
SM_REG32(ESP_BURST, 0x000)              /* snapshot control; all 32 bits stored */
SM_FIELD(ESP_BURST, SNAP, 0, 1)         /* 0 -> 1 copies all 59 counters; 1: reads see the copy */
SM_REG32(ESP_MON0, 0x004)               /* monitor m at 4*(m+1): MONITOR_APB_OFFSET = 1 */
SM_REG32(ESP_MON_LAST, 0x0EC)           /* monitor 58 */
SM_REG32(ESP_UNUSED0, 0x0F0)            /* 0x0F0..0x17C read 0, ignore writes */
SM_REG32(ESP_CSR0, 0x180)               /* 0x180..0x1FC: tile config CSRs (paddr(8:7) = "11") */
#define ESP_NCSR 32u                    /* csr_addr = paddr(6 downto 2) */

/* Byte offset of monitor m (0..58) in a tile window. */
static inline uint32_t esp_mon_offset(unsigned m)
{
    return A_ESP_MON0 + 4u * m;
}

/* Config CSR names (esp_csr_pkg.vhd): software must never write them. */
enum { ESP_CSR_VALID = 0, ESP_CSR_TILE_ID = 1, ESP_CSR_ARIANE_HARTID = 2, ESP_CSR_ACC_COH = 3,
       ESP_CSR_TP_ACC_RST = 4, ESP_CSR_SRST = 5, ESP_CSR_DCO_NOC_CFG = 6,
       ESP_CSR_MDC_SCALER_CFG = 7, ESP_CSR_DDR_CFG0 = 8, ESP_CSR_CPU_LOC_OVR0 = 11 };

/* ---- access table ----
 * The words of the window with plain storage behaviour: the burst register
 * and the 32 config CSRs. Every word is 32 bits with reset 0 except VALID
 * (1) and TILE_ID (the tile's index: the one per-tile reset value, which the
 * model sets itself; the table says 0). No ESP monitor register is W1C or
 * clear-on-read: only the tile reset clears (spec §2.3).
 * The monitor words are read-only (writes ignored, spec §2.1) and the unused
 * words reserved (read 0, writes ignored); esp_tile_reginfo() returns
 * ESP_MON_REGINFO and ESP_UNUSED_REGINFO for them, whose addr is the first
 * word of their range. */
#define ESP_CSR_REGINFO(name, i, reset) {name, A_ESP_CSR0 + 4u * (i), (reset), 0, 0, 0, 0}
static const smn_reginfo ESP_TILE_REGINFO[] SM_UNUSED = {
    {"BURST", A_ESP_BURST, 0, 0, 0, 0, 0},
    ESP_CSR_REGINFO("VALID", 0, 1), ESP_CSR_REGINFO("TILE_ID", 1, 0),
    ESP_CSR_REGINFO("ARIANE_HARTID", 2, 0), ESP_CSR_REGINFO("ACC_COH", 3, 0),
    ESP_CSR_REGINFO("TP_ACC_RST", 4, 0), ESP_CSR_REGINFO("SRST", 5, 0),
    ESP_CSR_REGINFO("DCO_NOC_CFG", 6, 0), ESP_CSR_REGINFO("MDC_SCALER_CFG", 7, 0),
    ESP_CSR_REGINFO("DDR_CFG0", 8, 0), ESP_CSR_REGINFO("DDR_CFG1", 9, 0),
    ESP_CSR_REGINFO("DDR_CFG2", 10, 0), ESP_CSR_REGINFO("CPU_LOC_OVR0", 11, 0),
    ESP_CSR_REGINFO("CPU_LOC_OVR1", 12, 0), ESP_CSR_REGINFO("CPU_LOC_OVR2", 13, 0),
    ESP_CSR_REGINFO("CPU_LOC_OVR3", 14, 0), ESP_CSR_REGINFO("CPU_LOC_OVR4", 15, 0),
    /* 16..31: unnamed in esp_csr_pkg.vhd (the epochs branch puts NoC CSRs at
     * 0x1C0); stored as written, like the model always has. */
    ESP_CSR_REGINFO("CSR16", 16, 0), ESP_CSR_REGINFO("CSR17", 17, 0),
    ESP_CSR_REGINFO("CSR18", 18, 0), ESP_CSR_REGINFO("CSR19", 19, 0),
    ESP_CSR_REGINFO("CSR20", 20, 0), ESP_CSR_REGINFO("CSR21", 21, 0),
    ESP_CSR_REGINFO("CSR22", 22, 0), ESP_CSR_REGINFO("CSR23", 23, 0),
    ESP_CSR_REGINFO("CSR24", 24, 0), ESP_CSR_REGINFO("CSR25", 25, 0),
    ESP_CSR_REGINFO("CSR26", 26, 0), ESP_CSR_REGINFO("CSR27", 27, 0),
    ESP_CSR_REGINFO("CSR28", 28, 0), ESP_CSR_REGINFO("CSR29", 29, 0),
    ESP_CSR_REGINFO("CSR30", 30, 0), ESP_CSR_REGINFO("CSR31", 31, 0),
};
#undef ESP_CSR_REGINFO
enum { ESP_TILE_NREGS = 1 + ESP_NCSR };

static const smn_reginfo ESP_MON_REGINFO SM_UNUSED =
    {"MON", A_ESP_MON0, 0, 0xFFFFFFFFu, 0, 0, 0};
static const smn_reginfo ESP_UNUSED_REGINFO SM_UNUSED =
    {"UNUSED", A_ESP_UNUSED0, 0, 0, 0, 0, 0xFFFFFFFFu};

/* The access of the word at byte offset off (word aligned) of a tile
 * window; NULL past the window. */
static inline const smn_reginfo *esp_tile_reginfo(uint32_t off)
{
    if (off >= ESP_TILE_SIZE)
        return NULL;
    if (off >= A_ESP_MON0 && off <= A_ESP_MON_LAST)
        return &ESP_MON_REGINFO;
    if (off >= A_ESP_UNUSED0 && off < A_ESP_CSR0)
        return &ESP_UNUSED_REGINFO;
    return socmon_reginfo_find(ESP_TILE_REGINFO, ESP_TILE_NREGS, off);
}

/* ---- monitor numbering (monitors.h, guide §1) ---- */
enum {
    ESP_MON_DDR = 0,
    ESP_MON_COH_REQ = 1, ESP_MON_COH_FWD, ESP_MON_COH_RSP_RCV, ESP_MON_COH_RSP_SND,
    ESP_MON_DMA_REQ, ESP_MON_DMA_RSP, ESP_MON_COH_DMA_REQ, ESP_MON_COH_DMA_RSP,  /* ..8 */
    ESP_MON_L2_HIT = 9, ESP_MON_L2_MISS = 10,
    ESP_MON_LLC_HIT = 11, ESP_MON_LLC_MISS = 12,
    ESP_MON_ACC_TLB = 13, ESP_MON_ACC_MEM_LO = 14, ESP_MON_ACC_MEM_HI = 15,
    ESP_MON_ACC_TOT_LO = 16, ESP_MON_ACC_TOT_HI = 17, ESP_MON_ACC_INVOC = 18,
    ESP_MON_DVFS = 19,                  /* 19..22: op point 0..3 */
    ESP_MON_NOC_INJ = 23,               /* 23..28: plane 0..5 */
    ESP_MON_NOC_QFULL = 29              /* 29 + plane*5 + direction */
};

/* Monitors 14/15 and 16/17 are the lo/hi words of one 64-bit accumulator
 * (spec §2.2): both words change in the same cycle, lo carries into hi. */
static inline int esp_mon_is_pair_lo(unsigned m)
{
    return m == ESP_MON_ACC_MEM_LO || m == ESP_MON_ACC_TOT_LO;
}
static inline int esp_mon_is_pair_hi(unsigned m)
{
    return m == ESP_MON_ACC_MEM_HI || m == ESP_MON_ACC_TOT_HI;
}

/* Router ports in the RTL's order (rtl/noc/router/noc_pkg.sv: kNorthPort 0 .. kLocalPort 4),
 * which is the order of queue_full(Q), monitor 29 + 5P + Q (sync_noc_xy.vhd wires Q to the
 * router's port Q; shared/specs/esp_noc_rtl.md). ESP's guide lists the five as "Local, East,
 * West, South, North", the reverse: a driver on silicon reading 29 + 5P + 0 gets the North
 * output (docs/esp.md). */
enum { ESP_DIR_NORTH = 0, ESP_DIR_SOUTH, ESP_DIR_WEST, ESP_DIR_EAST, ESP_DIR_LOCAL, ESP_NDIRS };
static const char *const ESP_DIR_NAMES[ESP_NDIRS] SM_UNUSED = {"north", "south", "west", "east",
                                                               "local"};

/* ---- model-only counters (socmon's virtual SoC; no ESP monitor counts them) ----
 * What ESP's guide describes and the RTL does not count: the cycles each router input FIFO is
 * full (its stop_out, real backpressure) and the packets injected. The model keeps them in a
 * window of its own per tile, after the last tile's monitor window: tile t's at
 * monitor_base + ntiles * ESP_TILE_SIZE + t * ESP_XTILE_SIZE. Word w at 4w; 32 bits each,
 * read-only, frozen by the tile's burst register like the 59. A driver reads them only when its
 * target says the model is behind the bus (on silicon nothing answers there). */
#define ESP_XTILE_SIZE 0x100u
#define ESP_XMON_OFFSET 0x100000u
enum {
    ESP_XMON_STOP = 0,                  /* 0..29: stop_out of plane P, input port Q at 5P + Q */
    ESP_XMON_PKTS = 30,                 /* 30..35: packets injected into plane P */
    ESP_NXMON = 36
};
static inline uint64_t esp_xmon_addr(uint64_t monitor_base, unsigned tile, unsigned w)
{
    return monitor_base + ESP_XMON_OFFSET + (uint64_t)tile * ESP_XTILE_SIZE + 4u * w;
}

/* ---- tile wiring (guide §1) ----
 * Tile types, numbered as socmon's SoC descriptions number them. */
enum { ESP_TILE_EMPTY = 0, ESP_TILE_CPU, ESP_TILE_MEM, ESP_TILE_ACC, ESP_TILE_IO, ESP_NTILE_TYPES };

#define ESP_MON_BIT(m) (UINT64_C(1) << (m))
#define ESP_MON_RANGE(a, b) (((UINT64_C(1) << ((b) + 1)) - 1) & ~((UINT64_C(1) << (a)) - 1))

/* Which monitors a tile type defines, as ESP's RTL wires them (rtl/tiles/tile_*.vhd, spec §2.2):
 * always, and with the cache hierarchy on, and with an L2 in the tile (accelerators: has_l2; CPUs
 * always have one) and the cache hierarchy on. The NoC monitors (23..58) are in every tile, empty
 * ones included (each has a router), as far as the SoC's planes and queues go. Undefined monitors
 * read 0.
 * - DVFS (19..22): every non-empty tile hard-wires its op point to 3 (vf = "1000"; ESP's dvfs_top
 *   is declared but never instantiated), so 22 counts every cycle and 19..21 stay 0, whatever the
 *   SoC's DVFS setting. The guide describes op-point residency instead.
 * - The memory tile's queue monitors (1..8) are its NoC FIFOs' strobes, wired with or without the
 *   LLC (without it, noc2ahbmst takes the CPUs' requests from the coherence queues and DMA from the
 *   DMA queues); the LLC's hit and miss (11/12) need the LLC. The guide calls 1..8 and 11/12
 *   meaningful with the cache hierarchy only. */
typedef struct esp_wiring {
    uint64_t always, caches, l2;
} esp_wiring;

#define ESP_WIRE_L2 (ESP_MON_BIT(ESP_MON_L2_HIT) | ESP_MON_BIT(ESP_MON_L2_MISS))
#define ESP_WIRE_DVFS ESP_MON_RANGE(ESP_MON_DVFS, ESP_MON_DVFS + ESP_DVFS_OPS - 1)
static const esp_wiring ESP_WIRING[ESP_NTILE_TYPES] SM_UNUSED = {
    [ESP_TILE_EMPTY] = {0, 0, 0},
    [ESP_TILE_CPU] = {ESP_WIRE_DVFS, 0, ESP_WIRE_L2},
    [ESP_TILE_MEM] = {ESP_MON_BIT(ESP_MON_DDR) | ESP_MON_RANGE(ESP_MON_COH_REQ, ESP_MON_COH_DMA_RSP) |
                          ESP_WIRE_DVFS,
                      ESP_MON_BIT(ESP_MON_LLC_HIT) | ESP_MON_BIT(ESP_MON_LLC_MISS), 0},
    [ESP_TILE_ACC] = {ESP_MON_RANGE(ESP_MON_ACC_TLB, ESP_MON_ACC_INVOC) | ESP_WIRE_DVFS, 0, ESP_WIRE_L2},
    [ESP_TILE_IO] = {ESP_WIRE_DVFS, 0, 0},
};
#undef ESP_WIRE_L2
#undef ESP_WIRE_DVFS

/* The monitors (bit m = monitor m) a tile defines. type is ESP_TILE_*;
 * has_l2 is 1 for a CPU tile and an accelerator with a private L2. An
 * unknown type defines only the NoC monitors. */
static inline uint64_t esp_tile_wired(unsigned type, int has_l2, int cache_hierarchy, unsigned planes,
                                      unsigned queues)
{
    uint64_t m = 0;
    if (type < ESP_NTILE_TYPES) {
        const esp_wiring *w = &ESP_WIRING[type];
        m = w->always;
        if (cache_hierarchy)
            m |= w->caches | (has_l2 ? w->l2 : 0);
    }
    for (unsigned p = 0; p < planes && p < ESP_NPLANES; p++) {
        m |= ESP_MON_BIT(ESP_MON_NOC_INJ + p);
        for (unsigned q = 0; q < queues && q < ESP_NQUEUES; q++)
            m |= ESP_MON_BIT(ESP_MON_NOC_QFULL + p * ESP_NQUEUES + q);
    }
    return m;
}

#endif
