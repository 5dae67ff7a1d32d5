/* The generic events, as data: perf's names for the kernel's generalized
 * hardware, software and hardware-cache events. The encodings are the enums of
 * include/uapi/linux/perf_event.h (perf_hw_id, perf_sw_ids, perf_hw_cache_id,
 * _op_id, _op_result_id; a cache event's config is id | op << 8 | result << 16);
 * the names (and aliases) are those `perf list` prints (tools/perf/util/
 * parse-events.c's event_symbols_hw/_sw and evsel.c's hw cache names). */
#include <stdio.h>
#include <string.h>

#include "drivers/perf/perf_names.h"

#define HW 0u   /* PERF_TYPE_HARDWARE */
#define SW 1u   /* PERF_TYPE_SOFTWARE */
#define HWC 3u  /* PERF_TYPE_HW_CACHE */

static const struct {
    const char *name;
    unsigned type;
    unsigned config;
    const char *unit;
} symbols[] = {
    {"cpu-cycles", HW, 0, "events"}, {"cycles", HW, 0, "events"},
    {"instructions", HW, 1, "events"},
    {"cache-references", HW, 2, "events"}, {"cache-misses", HW, 3, "events"},
    {"branch-instructions", HW, 4, "events"}, {"branches", HW, 4, "events"},
    {"branch-misses", HW, 5, "events"}, {"bus-cycles", HW, 6, "events"},
    {"stalled-cycles-frontend", HW, 7, "events"}, {"idle-cycles-frontend", HW, 7, "events"},
    {"stalled-cycles-backend", HW, 8, "events"}, {"idle-cycles-backend", HW, 8, "events"},
    {"ref-cycles", HW, 9, "events"},
    {"cpu-clock", SW, 0, "ns"}, {"task-clock", SW, 1, "ns"},
    {"page-faults", SW, 2, "events"}, {"faults", SW, 2, "events"},
    {"context-switches", SW, 3, "events"}, {"cs", SW, 3, "events"},
    {"cpu-migrations", SW, 4, "events"}, {"migrations", SW, 4, "events"},
    {"minor-faults", SW, 5, "events"}, {"major-faults", SW, 6, "events"},
    {"alignment-faults", SW, 7, "events"}, {"emulation-faults", SW, 8, "events"},
    {"dummy", SW, 9, "events"}, {"bpf-output", SW, 10, "events"},
    {"cgroup-switches", SW, 11, "events"},
};
#define NSYM (sizeof symbols / sizeof symbols[0])

static const char *const caches[] = {"L1-dcache", "L1-icache", "LLC", "dTLB", "iTLB", "branch", "node"};
/* op names: the access form ("loads") and the miss form's stem ("load") */
static const char *const ops[][2] = {{"loads", "load"}, {"stores", "store"}, {"prefetches", "prefetch"}};
#define NCACHE (sizeof caches / sizeof caches[0])
#define NOPS (sizeof ops / sizeof ops[0])

int smn_perf_generic_name(size_t i, char *buf, size_t len)
{
    if (i < NSYM) {
        snprintf(buf, len, "%s", symbols[i].name);
        return 1;
    }
    i -= NSYM;
    if (i >= NCACHE * NOPS * 2)
        return 0;
    size_t c = i / (NOPS * 2), op = i / 2 % NOPS, miss = i % 2;
    if (miss)
        snprintf(buf, len, "%s-%s-misses", caches[c], ops[op][1]);
    else
        snprintf(buf, len, "%s-%s", caches[c], ops[op][0]);
    return 1;
}

int smn_perf_generic_lookup(const char *name, socmon_perf_attr *out)
{
    for (size_t i = 0; i < NSYM; i++)
        if (strcmp(name, symbols[i].name) == 0) {
            out->type = symbols[i].type;
            out->config = symbols[i].config;
            snprintf(out->unit, sizeof out->unit, "%s", symbols[i].unit);
            snprintf(out->pmu, sizeof out->pmu, "%s", symbols[i].type == SW ? "software" : "cpu");
            return 1;
        }
    char buf[64];
    for (size_t i = 0; i < NCACHE * NOPS * 2; i++) {
        smn_perf_generic_name(NSYM + i, buf, sizeof buf);
        if (strcmp(name, buf) == 0) {
            size_t c = i / (NOPS * 2), op = i / 2 % NOPS, miss = i % 2;
            out->type = HWC;
            out->config = (uint64_t)c | (uint64_t)op << 8 | (uint64_t)miss << 16;
            snprintf(out->unit, sizeof out->unit, "events");
            snprintf(out->pmu, sizeof out->pmu, "cpu");
            return 1;
        }
    }
    return 0;
}
