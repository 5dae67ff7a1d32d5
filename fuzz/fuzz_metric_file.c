/* libFuzzer: a metric file loaded, bound to a small schema and evaluated.
 * Every result slot must be written by eval: a NaN with a payload no
 * expression can produce marks slots not yet written. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/metrics.h"

static const socmon_counter counters[] = {
    {.name = "l2_hits", .instance = "tile0", .width = 32},
    {.name = "l2_misses", .instance = "tile0", .width = 32},
    {.name = "l2_hits", .instance = "tile1", .width = 32},
    {.name = "l2_misses", .instance = "tile1", .width = 32},
    {.name = "busy", .instance = "tile2", .width = 16},
    {.name = "cycles", .instance = "", .width = 64},
};
static const char *const pnames[] = {"clock_hz", "bus_bytes"};
static const double pvalues[] = {1e9, 16};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    socmon_metricset *ms = NULL;
    if (socmon_metricset_load_string(text, "fuzz.json", &ms) == SOCMON_OK) {
        socmon_metric_schema sc = {.ncounters = 6, .counters = counters, .nparams = 2,
            .param_names = pnames, .param_values = pvalues};
        socmon_metrics *m = NULL;
        if (socmon_metrics_bind(ms, &sc, &m) == SOCMON_OK) {
            size_t n = socmon_metrics_nresults(m);
            double *out = malloc((n ? n : 1) * sizeof *out);
            uint64_t deltas[6] = {300, 100, 0, 0, 65535, 4000};
            const uint64_t sentinel = 0x7ff400000000deadull;
            if (out) {
                for (size_t i = 0; i < n; i++)
                    memcpy(&out[i], &sentinel, sizeof sentinel);
                if (socmon_metrics_eval(m, deltas, 0.001, out) != SOCMON_OK)
                    abort();
                for (size_t i = 0; i < n; i++) {
                    const socmon_metric_result_info *r = socmon_metrics_result(m, i);
                    if (!r || !r->def || !r->instance || memcmp(&out[i], &sentinel, 8) == 0)
                        abort();
                }
                for (size_t i = 0; i < socmon_metricset_count(ms); i++)
                    (void)socmon_metrics_skipped(m, i);
            }
            free(out);
            socmon_metrics_free(m);
        }
        socmon_metricset_free(ms);
    }
    free(text);
    return 0;
}
