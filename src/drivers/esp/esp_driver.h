/* ESP tile monitors: the driver's internal header.
 *
 * The driver's API (burst/read protocol over a socmon_bus, the device) is
 * internal: targets/esp.c and socmon's tests use it; users reach it through
 * the "esp" target and the socmon_esp_monitors_* calls of include/socmon/esp.h,
 * which use the same protocol (one copy of the freeze, read, release
 * sequence: snapshot() in esp_driver.c). The register facts it speaks (window layout,
 * monitor numbering, tile wiring) are in src/hw/esp_monitor.h, shared with
 * the model; the driver never includes a model header. It speaks only the
 * register protocol, so it runs unchanged on the virtual SoC (model bus) and
 * on silicon (mmio bus over /dev/mem).
 *
 * Monitors that are undefined for a tile's type read 0 on the hardware; the
 * driver never spends a NoC round trip on them. */
#ifndef SOCMON_DRIVERS_ESP_DRIVER_H
#define SOCMON_DRIVERS_ESP_DRIVER_H

#include "hw/esp_monitor.h"
#include "socmon/esp.h"

typedef struct smn_esp_drv smn_esp_drv;

/* A driver for SoC d's monitors on bus. It does not own bus; it copies d
 * (checked with socmon_esp_desc_check). */
socmon_status smn_esp_drv_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                 smn_esp_drv **out);
void smn_esp_drv_free(smn_esp_drv *drv);
const socmon_esp_soc_desc *smn_esp_drv_desc(const smn_esp_drv *drv);
socmon_bus *smn_esp_drv_bus(const smn_esp_drv *drv);

/* Bus address of monitor mon (0..58) of tile t; mon -1 is the burst register. */
uint64_t smn_esp_drv_addr(const smn_esp_drv *drv, unsigned tile, int mon);

/* Writes burst=0 to every tile: a snapshot left frozen by a crashed user would
 * otherwise make the next 0->1 write a no-op and serve stale values. */
socmon_status smn_esp_drv_release_all(smn_esp_drv *drv);

/* Freeze (on=1) or release (on=0) tile t's counters, fenced so the freeze
 * lands before later reads and the release after earlier ones.
 * SOCMON_ERANGE for a tile past the grid. */
socmon_status smn_esp_drv_burst(smn_esp_drv *drv, unsigned tile, int on);

/* One 32-bit monitor read: live, or the snapshot while the tile is frozen.
 * SOCMON_ERANGE for a tile or monitor out of range. */
socmon_status smn_esp_drv_read(smn_esp_drv *drv, unsigned tile, unsigned mon,
                                  uint32_t *val);

/* A lo/hi pair (mon_lo 14 or 16, and mon_lo+1) read live with hi-lo-hi, so a
 * carry between the two reads cannot give a value off by 2^32. */
socmon_status smn_esp_drv_read64_live(smn_esp_drv *drv, unsigned tile, unsigned mon_lo,
                                         uint64_t *val);

/* A device over the driver: one counter per defined monitor per tile,
 * instance "tileN", the two lo/hi pairs as 64-bit counters (docs/esp.md lists
 * the names). With model_only (the target knows socmon's model is behind the bus), also the
 * model-only counters of hw/esp_monitor.h, from the model's own window. Reading a selection freezes every touched tile once, reads,
 * releases. The device owns a driver (and so a copy of d) but not bus; name
 * NULL means "esp". Parameters: clock_hz, rows, cols, ntiles, ncpu, nmem,
 * nacc, noc_planes. */
socmon_status smn_esp_device_new(socmon_bus *bus, const socmon_esp_soc_desc *d,
                                    const char *name, int model_only, socmon_device **out);

#endif
