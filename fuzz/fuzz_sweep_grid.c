/* Fuzzes sweep files and brace expansion (src/analysis/sweep_grid.c). Besides "never crash" (and
 * no hang: the grid is capped): an error names the file; an accepted grid has points numbered
 * 0..n-1, each with a target spec free of braces whose options are key=value pairs, and a
 * 16-hex-digit id that the same text gives again. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    socmon_sweep_grid *g = NULL;
    if (size > 4096)   /* a grid's size is the product of its braces: keep runs short */
        return 0;
    if (socmon_sweep_grid_parse((const char *)data, size, "f.sweep", &g) != SOCMON_OK) {
        if (strncmp(socmon_errmsg(), "f.sweep", 7) != 0)
            abort();
        return 0;
    }
    size_t n = socmon_sweep_grid_count(g);
    if (n == 0 || strlen(socmon_sweep_grid_id(g)) != 16)
        abort();
    for (size_t i = 0; i < n; i++) {
        const socmon_sweep_point *p = socmon_sweep_grid_point(g, i);
        if (p->index != i || strpbrk(p->target, "{}") || (p->workload && !*p->workload))
            abort();
        for (size_t k = 0; k < p->noptions; k++)
            if (!*p->options[k].key)
                abort();
    }
    socmon_sweep_grid *h = NULL;
    if (socmon_sweep_grid_parse((const char *)data, size, "f.sweep", &h) != SOCMON_OK ||
        strcmp(socmon_sweep_grid_id(g), socmon_sweep_grid_id(h)) != 0)
        abort();
    socmon_sweep_grid_free(h);
    socmon_sweep_grid_free(g);
    return 0;
}
