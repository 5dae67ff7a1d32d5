/* Fuzzes the perf event-name parsers (socmon_perf_event_parse, _list_parse) with the fixture
 * sysfs tree of tests/perf/fixtures: any input gives a status, never a crash or a hang. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/perf.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 512)
        return 0;
    char *s = malloc(size + 1);
    if (!s)
        return 0;
    memcpy(s, data, size);
    s[size] = 0;
    socmon_perf_names nm = {.sysfs_root = SOCMON_FUZZ_SYSFS, .no_pfm = 1};
    socmon_perf_attr a, *v = NULL;
    size_t n = 0;
    (void)socmon_perf_event_parse(s, &nm, &a);
    if (socmon_perf_event_list_parse(s, &nm, &v, &n) == SOCMON_OK && n == 0)
        __builtin_trap(); /* a successful parse yields at least one event */
    free(v);
    free(s);
    return 0;
}
