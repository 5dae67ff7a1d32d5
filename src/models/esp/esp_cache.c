/* Set-associative tag arrays with LRU replacement, for the L2s and LLCs.
 * Only tags, dirty bits and (LLC) the holding L2 are kept: the model counts
 * events, it does not move data. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_internal.h"

socmon_status smn_esp_cache_init(esp_cache *c, unsigned sets, unsigned ways, int with_holder)
{
    memset(c, 0, sizeof *c);
    size_t n = (size_t)sets * ways;
    c->sets = sets;
    c->ways = ways;
    c->tag = calloc(n, sizeof *c->tag);
    c->dirty = calloc(n, sizeof *c->dirty);
    c->stamp = calloc(n, sizeof *c->stamp);
    c->holder = with_holder ? calloc(n, sizeof *c->holder) : NULL;
    if (!c->tag || !c->dirty || !c->stamp || (with_holder && !c->holder)) {
        smn_esp_cache_destroy(c);
        return socmon_fail(SOCMON_ENOMEM, "esp model: out of memory for a %u-line cache",
                           sets * ways);
    }
    return SOCMON_OK;
}

void smn_esp_cache_destroy(esp_cache *c)
{
    free(c->tag);
    free(c->dirty);
    free(c->stamp);
    free(c->holder);
    memset(c, 0, sizeof *c);
}

void smn_esp_cache_clear(esp_cache *c)
{
    size_t n = (size_t)c->sets * c->ways;
    if (n == 0)
        return;
    memset(c->tag, 0, n * sizeof *c->tag);
    memset(c->dirty, 0, n * sizeof *c->dirty);
    memset(c->stamp, 0, n * sizeof *c->stamp);
    if (c->holder)
        memset(c->holder, 0, n * sizeof *c->holder);
    c->clock = 0;
}

int smn_esp_cache_find(esp_cache *c, uint64_t line)
{
    unsigned base = (unsigned)(line % c->sets) * c->ways;
    for (unsigned w = 0; w < c->ways; w++)
        if (c->tag[base + w] == line + 1) {
            c->stamp[base + w] = ++c->clock;
            return (int)w;
        }
    return -1;
}

int smn_esp_cache_victim(const esp_cache *c, uint64_t line)
{
    unsigned base = (unsigned)(line % c->sets) * c->ways;
    int best = 0;
    for (unsigned w = 0; w < c->ways; w++) {
        if (c->tag[base + w] == 0)
            return (int)w;
        if (c->stamp[base + w] < c->stamp[base + (unsigned)best])
            best = (int)w;
    }
    return best;
}

void smn_esp_cache_fill(esp_cache *c, unsigned slot, uint64_t line, int dirty)
{
    c->tag[slot] = line + 1;
    c->dirty[slot] = (uint8_t)(dirty != 0);
    c->stamp[slot] = ++c->clock;
    if (c->holder)
        c->holder[slot] = 0;
}
