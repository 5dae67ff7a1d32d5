/* An agent's stream as a source of the analysis pipeline (socmon/analysis.h): what stat, record
 * and serve read with --remote. */
#ifndef SOCMON_AGENT_COLLECTOR_SOURCE_H
#define SOCMON_AGENT_COLLECTOR_SOURCE_H

#include "agent/collector.h"
#include "socmon/analysis.h"

typedef struct collector_source_opts {
    uint32_t mode;          /* WIRE_SUB_SEQ (from seq), WIRE_SUB_OLDEST or WIRE_SUB_LATEST */
    uint64_t seq;
    uint64_t duration_ns;   /* stop once a sample is this far past the first received (0: at the END) */
    int idle_ms;            /* collector_set_idle_timeout */
    /* Indices relative to where the stream starts: the pipeline sees seq - base, base the first
     * sample's seq (or have_base's base). A window that starts now (--from now) then starts at
     * index 0 instead of after a leading gap of every sample the agent took before it. */
    int rebase, have_base;
    uint64_t base;
} collector_source_opts;

/* A source over c, connected and past its HELLO; the source owns c from here (also on failure).
 * Samples the agent had before the HELLO (seq < its next_seq) come as SOCMON_PAST. A HELLO with
 * other counters (a collector's CONFIG) ends the run with the collector's error saying so. */
socmon_status collector_source(collector *c, const collector_source_opts *o, socmon_source **out);
/* Where the source's run subscribes from (set before socmon_pipeline_run). */
void collector_source_start(socmon_source *s, uint32_t mode, uint64_t seq);
/* With opts.rebase: the agent's seq of the pipeline's index 0; 0 (and *have 0) before the first
 * sample. */
uint64_t collector_source_base(const socmon_source *s, int *have);
/* With opts.rebase: index 0 is the agent's seq `base` (an --append continuing such a stream). */
void collector_source_set_base(socmon_source *s, uint64_t base);
/* The collector under a source made by collector_source (for its statistics). */
collector *collector_source_collector(const socmon_source *s);

#endif
