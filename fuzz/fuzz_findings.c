/* libFuzzer: a findings file loaded and its rules evaluated over a small run (socmon/findings.h).
 * Whatever the file, the loader either refuses it with a message or gives rules whose
 * evaluation never crashes, and every finding it gives has its text and evidence. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/findings.h"

static const socmon_counter counters[] = {
    {.name = "busy", .instance = "tile0", .width = 32},
    {.name = "wait", .instance = "tile0", .width = 32},
    {.name = "busy", .instance = "tile1", .width = 32},
    {.name = "wait", .instance = "tile1", .width = 32},
    {.name = "cycles", .instance = "", .width = 64},
};
static const char *const pnames[] = {"clock_hz"};
static const double pvalues[] = {1e9};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';
    socmon_findingset *fs = NULL;
    if (socmon_findingset_new(&fs) != SOCMON_OK) {
        free(text);
        return 0;
    }
    if (socmon_findingset_add_string(fs, text, "fuzz.findings.json") == SOCMON_OK) {
        socmon_source_info info = {.kind = "recording", .target = "fuzz", .ncounters = 5, .counters = counters,
                                   .nparams = 1, .param_names = pnames, .param_values = pvalues};
        socmon_analysis_info a = {.src = &info};
        uint64_t values[5] = {300, 100, 0, 65535, 4000};
        socmon_totals t = {.runs = 1, .elapsed_ns = 1000, .raw = values, .values = values};
        socmon_findings *f = NULL;
        if (socmon_findings_eval(fs, &a, &t, &f) == SOCMON_OK) {
            for (size_t i = 0; i < socmon_findings_count(f); i++) {
                const socmon_finding *x = socmon_findings_at(f, i);
                if (!x || !x->text || !x->target || !x->rule || !x->instance || (x->nevidence && !x->keys))
                    abort();
            }
            socmon_findings_free(f);
        }
    }
    socmon_findingset_free(fs);
    free(text);
    return 0;
}
