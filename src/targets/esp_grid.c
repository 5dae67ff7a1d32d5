/* The "esp" target's grid op: where each tile of an ESP SoC sits, for the web page's heat map.
 * Read from the counters and parameters alone (a recording or a remote agent gives no opened
 * target): rows, cols and noc_planes are the device's parameters; tile t sits at row t / cols,
 * column t % cols, as in a .soc file; its kind comes from the monitors ESP gives each kind
 * (docs/esp.md). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/esp.h"
#include "targets/esp_grid.h"

static int param(size_t n, const char *const *names, const double *values, const char *name, double *out)
{
    for (size_t i = 0; i < n; i++)
        if (names[i] && strcmp(names[i], name) == 0) {
            *out = values[i];
            return 1;
        }
    return 0;
}

enum { HAS_ANY = 1, HAS_ACC = 2, HAS_MEM = 4, HAS_L2 = 8 };

/* Accelerators count their cycles, memory tiles their DDR accesses, CPU tiles (and accelerators
 * with a private L2, found first) their L2; a tile with only NoC monitors is the IO tile, one
 * with none is empty. */
static const char *tile_type(unsigned has)
{
    return has & HAS_ACC ? "acc" : has & HAS_MEM ? "mem" : has & HAS_L2 ? "cpu" : has & HAS_ANY ? "io" : "empty";
}

size_t smn_esp_grid(const socmon_counter *counters, size_t ncounters, size_t nparams, const char *const *names,
                const double *values, socmon_grid *grid, socmon_grid_tile *tiles, size_t max)
{
    double rows, cols, planes = 0;
    if (!param(nparams, names, values, "rows", &rows) || !param(nparams, names, values, "cols", &cols) ||
        rows < 1 || cols < 1 || rows > SOCMON_ESP_MAX_ROWS || cols > SOCMON_ESP_MAX_COLS)
        return 0;   /* no grid facts: the page shows no heat map */
    param(nparams, names, values, "noc_planes", &planes);
    *grid = (socmon_grid){.kind = "esp-grid", .rows = (unsigned)rows, .cols = (unsigned)cols, .planes = (int)planes};
    size_t nt = (size_t)grid->rows * grid->cols;
    if (nt > max)
        return nt;
    unsigned has[SOCMON_ESP_MAX_TILES] = {0};
    /* one pass over the counters: an 8x8 SoC has thousands */
    for (size_t i = 0; i < ncounters; i++) {
        const socmon_counter *c = &counters[i];
        char *end;
        if (strncmp(c->instance, "tile", 4) != 0 || !isdigit((unsigned char)c->instance[4]))
            continue;
        unsigned long t = strtoul(c->instance + 4, &end, 10);
        if (*end || t >= nt)
            continue;
        has[t] |= HAS_ANY | (strncmp(c->name, "acc_", 4) == 0 ? HAS_ACC : 0) |
                  (strcmp(c->name, "ddr_accesses") == 0 || strncmp(c->name, "llc_", 4) == 0 ? HAS_MEM : 0) |
                  (strncmp(c->name, "l2_", 3) == 0 ? HAS_L2 : 0);
    }
    for (size_t t = 0; t < nt; t++) {
        snprintf(tiles[t].instance, sizeof tiles[t].instance, "tile%zu", t);
        tiles[t].x = (unsigned)(t % grid->cols);
        tiles[t].y = (unsigned)(t / grid->cols);
        tiles[t].type = tile_type(has[t]);
    }
    return nt;
}
