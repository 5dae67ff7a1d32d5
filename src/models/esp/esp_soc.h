/* The virtual ESP SoC: what the model offers beyond its public API.
 *
 * The model's public contract (workloads, knobs, time, test hooks on the
 * model behind an "esp" target) is include/socmon/esp.h. This header adds
 * what is internal: creating the model and mapping it on a bus (the "esp"
 * target does it; users open the target), and the model-internal tallies
 * that socmon's own tests check the monitors against (the conservation laws
 * of docs/esp-model.md). None of it is exported. */
#ifndef SOCMON_MODELS_ESP_SOC_H
#define SOCMON_MODELS_ESP_SOC_H

#include <stdint.h>
#include "socmon/esp.h"
#include "socmon/phase.h"
#include "socmon/result.h"

/* A virtual SoC as d describes it. The model supports ESP's 6 NoC planes and
 * 5 queues, clock_hz 1e3..1e11, and a monitor_base aligned to 0x200;
 * SOCMON_ERANGE / SOCMON_EINVAL name the field otherwise. */
socmon_status smn_esp_soc_new(const socmon_esp_soc_desc *d, socmon_esp_soc **out);
void smn_esp_soc_free(socmon_esp_soc *soc);
/* Maps every tile's monitor window onto a model bus (socmon_bus_model_new)
 * at desc->monitor_base. Fails if a window overlaps a mapped region. */
socmon_status smn_esp_soc_map(socmon_esp_soc *soc, socmon_bus *model_bus);

/* A model-only counter (hw/esp_monitor.h: word w of the tile's model-only window), live; 0 for
 * a bad tile or word. */
uint32_t smn_esp_soc_peek_xmon(const socmon_esp_soc *soc, unsigned tile, unsigned w);

/* Counts since reset. */
typedef struct smn_esp_model_stats {
    uint64_t cycles;
    uint64_t packets[6];          /* packets that entered the NoC, per plane */
    uint64_t flits_injected[6], flits_ejected[6];
    uint64_t flits_in_network;    /* injected, not yet ejected */
    uint64_t flit_hops;           /* router traversals: a flit forwarded by a router (into an output register) */
    uint64_t packets_waiting;     /* handed to a tile, not fully injected yet */
    uint64_t dma_lines[4];        /* accelerator lines moved, per socmon_esp_coherence */
    uint64_t l2_accesses;         /* lookups in any private L2 */
    uint64_t llc_writebacks;      /* dirty LLC victims written to DDR */
    uint64_t llc_flush_writebacks;/* dirty LLC lines written to DDR by flushes */
    uint64_t uncached_accesses;   /* CPU accesses without a cache hierarchy */
    uint64_t invocations;
} smn_esp_model_stats;
/* The phases of the running workload so far (the target's op phases): how many, out[0..max)
 * filled; the one still running ends at the current time. */
size_t smn_esp_soc_phases(const socmon_esp_soc *soc, socmon_phase *out, size_t max);
void smn_esp_soc_stats(const socmon_esp_soc *soc, smn_esp_model_stats *out);
/* The run results of a noc-trace or noc workload (the target's op results): cycles to the
 * drain, packets and flits delivered, latency min/mean/p99/max; how many (0 after any other
 * workload), out[0..max) filled. */
size_t smn_esp_soc_results(const socmon_esp_soc *soc, socmon_result *out, size_t max);

#endif
