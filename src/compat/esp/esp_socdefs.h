/* soc_defs.h / soc_locs.h for an ESP SoC description, as ESP's socgen
 * (tools/socgen/socmap_gen.py) writes them for its Monitors API. */
#ifndef SOCMON_COMPAT_ESP_SOCDEFS_H
#define SOCMON_COMPAT_ESP_SOCDEFS_H

#include <stdio.h>
#include "socmon/esp.h"

/* Writes the two headers (either FILE may be NULL to skip it). srcname is
 * quoted in their comments. Fails on SoCs ESP's API cannot describe (no
 * memory tile, no CPU). */
socmon_status smn_esp_socdefs_write(const socmon_esp_soc_desc *d, const char *srcname,
                                       FILE *defs, FILE *locs);

#endif
