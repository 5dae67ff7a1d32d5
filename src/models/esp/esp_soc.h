/* The virtual ESP SoC: what the model offers beyond its public API.
 *
 * The model's public contract (create, map, workloads, knobs, time, test
 * hooks) is include/socmon/esp.h. This header adds the model-internal tallies
 * that socmon's own tests check the monitors against (the conservation laws
 * of docs/esp-model.md); they are not exported. */
#ifndef SOCMON_MODELS_ESP_SOC_H
#define SOCMON_MODELS_ESP_SOC_H

#include <stdint.h>
#include "socmon/esp.h"

/* Counts since reset. */
typedef struct socmon_esp_model_stats {
    uint64_t cycles;
    uint64_t packets[6];          /* packets that entered the NoC, per plane */
    uint64_t flits_injected[6], flits_ejected[6];
    uint64_t flits_in_network;    /* injected, not yet ejected */
    uint64_t packets_waiting;     /* handed to a tile, not fully injected yet */
    uint64_t dma_lines[4];        /* accelerator lines moved, per socmon_esp_coherence */
    uint64_t l2_accesses;         /* lookups in any private L2 */
    uint64_t llc_writebacks;      /* dirty LLC victims written to DDR */
    uint64_t llc_flush_writebacks;/* dirty LLC lines written to DDR by flushes */
    uint64_t uncached_accesses;   /* CPU accesses without a cache hierarchy */
    uint64_t invocations;
} socmon_esp_model_stats;
void socmon_esp_soc_stats(const socmon_esp_soc *soc, socmon_esp_model_stats *out);

#endif
