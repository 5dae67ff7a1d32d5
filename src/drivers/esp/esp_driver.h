/* ESP tile monitors: the register protocol and the counter schema.
 *
 * Each ESP tile has a 0x200-byte monitor window at monitor_base + t*0x200:
 * word 0 is the "burst" register (writing 1 freezes a copy of all 59 counters
 * of the tile, writing 0 releases it), monitor m sits at byte 4*(m+1). The
 * driver speaks only that protocol over a socmon_bus, so it runs unchanged on
 * the virtual SoC (model bus) and on silicon (mmio bus over /dev/mem).
 *
 * Monitors that are undefined for a tile's type (guide section 1: DDR only in
 * memory tiles, L2 only in CPU tiles and accelerator tiles with an L2, ...)
 * read 0 on the hardware; the driver never spends a NoC round trip on them. */
#ifndef SOCMON_DRIVERS_ESP_DRIVER_H
#define SOCMON_DRIVERS_ESP_DRIVER_H

#include <stdint.h>
#include "models/esp/esp_soc.h"
#include "socmon/bus.h"
#include "socmon/device.h"

#define SOCMON_ESP_NDIRS 5

/* Direction names of the backpressure monitors, in register order
 * (29 + plane*5 + direction). */
extern const char *const socmon_esp_dir_names[SOCMON_ESP_NDIRS];

/* 1 if monitor mon carries meaning in tile `tile` of SoC d, else 0. */
int socmon_esp_mon_defined(const socmon_esp_soc_desc *d, unsigned tile, unsigned mon);

/* Checks what the driver relies on: grid within limits, planes 1..6,
 * queues 1..5, a clock. Errors name the field. */
socmon_status socmon_esp_desc_check(const socmon_esp_soc_desc *d);

typedef struct socmon_esp_drv socmon_esp_drv;

/* The driver does not own bus; it copies d. */
socmon_status socmon_esp_drv_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                 socmon_esp_drv **out);
void socmon_esp_drv_free(socmon_esp_drv *drv);
const socmon_esp_soc_desc *socmon_esp_drv_desc(const socmon_esp_drv *drv);
socmon_bus *socmon_esp_drv_bus(const socmon_esp_drv *drv);

/* Bus address of monitor mon (0..58) of tile t; mon -1 is the burst register. */
uint64_t socmon_esp_drv_addr(const socmon_esp_drv *drv, unsigned tile, int mon);

/* Writes burst=0 to every tile: a snapshot left frozen by a crashed user would
 * otherwise make the next 0->1 write a no-op and serve stale values. */
socmon_status socmon_esp_drv_release_all(socmon_esp_drv *drv);

/* Freeze (on=1) or release (on=0) tile t's counters. */
socmon_status socmon_esp_drv_burst(socmon_esp_drv *drv, unsigned tile, int on);

/* One 32-bit monitor read. Live unless the tile is frozen. Checks ranges. */
socmon_status socmon_esp_drv_read(socmon_esp_drv *drv, unsigned tile, unsigned mon,
                                  uint32_t *val);

/* A lo/hi pair (mon_lo, mon_lo+1) read live with hi-lo-hi, so a carry between
 * the two reads cannot give a value off by 2^32. */
socmon_status socmon_esp_drv_read64_live(socmon_esp_drv *drv, unsigned tile, unsigned mon_lo,
                                         uint64_t *val);

/* A device over the driver: one counter per defined monitor per tile,
 * instance "tileN", the two lo/hi pairs as 64-bit counters. Reading a
 * selection freezes every touched tile once, reads, releases. The device owns
 * a driver (and so a copy of d) but not bus. Parameters: clock_hz, rows, cols,
 * ntiles, ncpu, nmem, nacc, noc_planes. */
socmon_status socmon_esp_device_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                    const char *name, socmon_device **out);

#endif
