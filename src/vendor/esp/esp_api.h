/* Internal to the ESP Monitors API layer (src/vendor/esp/). */
#ifndef SOCMON_VENDOR_ESP_API_H
#define SOCMON_VENDOR_ESP_API_H

#include "esp_monitors.h"
#include "models/esp/esp_soc.h"

/* Records st as this thread's last API status and returns it. */
socmon_status esp_api_set_status(socmon_status st);

/* The SoC description the API works on (loaded on first use: SOCMON_ESP_SOC
 * or the built-in SoC), checked against the caller's soc_defs.h layout. */
socmon_status esp_api_desc(const socmon_esp_api_layout *l, socmon_esp_soc_desc *out);

/* Fails unless the caller's layout describes SoC d. */
socmon_status esp_api_check_layout(const socmon_esp_api_layout *l, const socmon_esp_soc_desc *d);

/* For tests and benchmarks: map (if needed) and return the virtual SoC and
 * the bus the driver uses (NULL and NULL in hardware mode or on failure). */
socmon_esp_soc *esp_api_virtual_soc(void);
socmon_bus *esp_api_bus(void);

#endif
