/* libFuzzer: socmon_expr_eval on arbitrary text over a small schema. Any
 * input must give a status, never a crash, hang or sanitizer report. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/metrics.h"

static const socmon_counter counters[] = {
    {.name = "l2_hits", .instance = "tile0", .width = 32},
    {.name = "l2_misses", .instance = "tile0", .width = 32},
    {.name = "l2_hits", .instance = "tile1", .width = 32},
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
    socmon_metric_schema sc = {.ncounters = 4, .counters = counters, .nparams = 1,
        .param_names = pnames, .param_values = pvalues};
    /* the first byte picks deltas, so zero and huge values are both explored */
    uint64_t v = size ? data[0] : 0;
    uint64_t deltas[4] = {v, v * 3, UINT64_MAX - v, v & 1};
    double out = 0;
    (void)socmon_expr_eval(text, &sc, deltas, size ? 0.5 : 0, &out);
    free(text);
    return 0;
}
