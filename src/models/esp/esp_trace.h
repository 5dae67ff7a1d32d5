/* NoC packet traces and synthetic traffic patterns for the virtual ESP SoC (docs/esp-model.md,
 * "Traffic you choose"): the parsers, on their own so they are tested and fuzzed alone.
 * Internal to the model; the workloads noc-trace:FILE and noc:... use them. */
#ifndef SOCMON_MODELS_ESP_TRACE_H
#define SOCMON_MODELS_ESP_TRACE_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

#define ESP_TRACE_MAX_FLITS 256u
#define ESP_TRACE_MAX_CYCLE ((UINT64_C(1) << 40) - 1)  /* the engine's run limit */

typedef struct esp_trace_pkt {
    uint64_t cycle;              /* offered no earlier than this cycle */
    uint16_t src, dst, flits;
} esp_trace_pkt;

typedef struct esp_trace_stall {
    uint64_t from, to;           /* the sink accepts nothing in from <= c < to */
    unsigned tile;
} esp_trace_stall;

typedef struct esp_trace {
    unsigned rows, cols, plane;
    unsigned mesh_line;          /* the line of "mesh", for a mesh the SoC does not have */
    esp_trace_pkt *pkt;
    size_t npkt, cappkt;
    esp_trace_stall *stall;
    size_t nstall, capstall;
} esp_trace;

/* Parses a trace held in text[0..len) (no NUL needed; a NUL byte is an error); src names it in
 * messages ("t.trace:4: field 'dst': 6 out of range 0..5"). Every error is SOCMON_EPARSE and
 * names the line and the field. On failure *out holds nothing to free. */
socmon_status smn_esp_trace_parse(const char *text, size_t len, const char *src, esp_trace *out);
/* Reads and parses the file path (at most 64 MiB). */
socmon_status smn_esp_trace_load(const char *path, esp_trace *out);
void smn_esp_trace_free(esp_trace *t);

/* ---- synthetic patterns (esp_pattern.c) ---- */
typedef enum esp_pattern_kind {
    ESP_PAT_UNIFORM, ESP_PAT_TRANSPOSE, ESP_PAT_BITCOMP, ESP_PAT_HOTSPOT, ESP_PAT_NEIGHBOR, ESP_PAT_TORNADO
} esp_pattern_kind;

#define ESP_PATTERN_MAX_CYCLES 10000000u
#define ESP_PATTERN_HOT_SHARE 0.25   /* hotspot: the share of packets sent to the hot tile */

typedef struct esp_pattern {
    esp_pattern_kind kind;
    double rate;                 /* flits offered per cycle per tile, 0 < rate <= 1 */
    unsigned len;                /* flits per packet; 0: the mix (1..5 flits, equally often) */
    uint64_t seed;
    unsigned plane;
    uint64_t cycles;             /* packets are generated in cycles 0..cycles-1 */
    unsigned hot;                /* hotspot: the hot tile */
    unsigned rows, cols;
    uint64_t rng;                /* state, from seed */
} esp_pattern;

/* Parses "pattern=P,rate=R,len=N|mix,seed=S,plane=P,cycles=C,hot=T" (every key but pattern
 * optional) for a rows x cols mesh. Errors are SOCMON_EPARSE naming the field and the value. */
socmon_status smn_esp_pattern_parse(const char *args, unsigned rows, unsigned cols, esp_pattern *out);
/* The destination of a packet from src under the pattern; src itself when the pattern sends
 * nothing from src (transpose's diagonal). Draws from the generator for uniform and hotspot. */
unsigned smn_esp_pattern_dest(esp_pattern *p, unsigned src);
/* One tile's Bernoulli draw for one cycle: 0, or the flits of the packet it offers now. */
unsigned smn_esp_pattern_draw(esp_pattern *p);
const char *smn_esp_pattern_name(esp_pattern_kind k);

#endif
