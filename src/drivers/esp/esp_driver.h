/* ESP tile monitors: the driver's internal header.
 *
 * The driver's API (burst/read protocol over a socmon_bus, the device) is
 * public: include/socmon/esp.h. The register facts it speaks (window layout,
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

#endif
