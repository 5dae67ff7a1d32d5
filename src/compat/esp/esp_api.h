/* Internal to the ESP Monitors API layer (src/compat/esp/), which is built
 * on the public API only: socmon/ headers and the compat headers. */
#ifndef SOCMON_COMPAT_ESP_API_H
#define SOCMON_COMPAT_ESP_API_H

#include "esp_monitors.h"
#include "socmon/esp.h"

/* An SoC description with what each call needs precomputed. */
typedef struct smn_esp_api_soc {
    socmon_esp_soc_desc desc;
    unsigned nmem, nacc;
    unsigned mem[SOCMON_ESP_MAX_TILES], acc[SOCMON_ESP_MAX_TILES];  /* global tile indices */
    uint64_t defined[SOCMON_ESP_MAX_TILES];   /* bit m: monitor m defined in the tile */
} smn_esp_api_soc;

/* Fills everything but desc from desc. */
void smn_esp_api_soc_init(smn_esp_api_soc *s);

/* Checks esp_monitor's arguments for SoC s, each only where the mode uses it. */
socmon_status smn_esp_api_check_args(const smn_esp_api_soc *s, const esp_monitor_args_t *a,
                                 const void *vals);

/* One planned read: monitor mon of tile goes to byte offset dst of the
 * result, and to dst2 too unless it is SOCMON_ESP_API_NO_DST. */
#define SOCMON_ESP_API_NO_DST ((size_t)-1)
typedef void (*socmon_esp_api_emit_fn)(void *user, unsigned tile, unsigned mon, size_t dst,
                                       size_t dst2);

/* Calls emit for every defined monitor the call (mode, mask, indices) reads. */
void smn_esp_api_plan(const smn_esp_api_soc *s, const socmon_esp_api_layout *l,
                  const esp_monitor_args_t *a, socmon_esp_api_emit_fn emit, void *user);

/* Records st as this thread's last API status and returns it. */
socmon_status smn_esp_api_set_status(socmon_status st);

/* The SoC description the API works on (loaded on first use: SOCMON_ESP_SOC
 * or the built-in SoC), checked against the caller's soc_defs.h layout. */
socmon_status smn_esp_api_desc(const socmon_esp_api_layout *l, socmon_esp_soc_desc *out);

/* Fails unless the caller's layout describes SoC d. */
socmon_status smn_esp_api_check_layout(const socmon_esp_api_layout *l, const socmon_esp_soc_desc *d);

/* For tests and benchmarks: map (if needed) and return the virtual SoC and
 * the bus the driver uses (NULL and NULL in hardware mode or on failure). */
socmon_esp_soc *smn_esp_api_virtual_soc(void);
socmon_bus *smn_esp_api_bus(void);

#endif
