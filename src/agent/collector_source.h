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
} collector_source_opts;

/* A source over c, connected and past its HELLO; the source owns c from here (also on failure).
 * Samples the agent had before the HELLO (seq < its next_seq) come as SOCMON_PAST. A HELLO with
 * other counters (a collector's CONFIG) ends the run with the collector's error saying so. */
socmon_status collector_source(collector *c, const collector_source_opts *o, socmon_source **out);
/* Where the source's run subscribes from (set before socmon_pipeline_run). */
void collector_source_start(socmon_source *s, uint32_t mode, uint64_t seq);
/* The collector under a source made by collector_source (for its statistics). */
collector *collector_source_collector(const socmon_source *s);

#endif
