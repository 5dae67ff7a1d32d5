/* Internal to src/targets: the "esp" target's grid op (esp_grid.c). */
#ifndef SOCMON_TARGETS_ESP_GRID_H
#define SOCMON_TARGETS_ESP_GRID_H

#include "socmon/target.h"

size_t smn_esp_grid(const socmon_counter *counters, size_t ncounters, size_t nparams, const char *const *names,
                const double *values, socmon_grid *grid, socmon_grid_tile *tiles, size_t max);

#endif
