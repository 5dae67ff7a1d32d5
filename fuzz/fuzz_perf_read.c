/* Fuzzes the perf group-read decoder (what the kernel or a model answers to read()): any
 * buffer and event count gives a status; on success every value came from the buffer. */
#include <stdint.h>
#include <string.h>

#include "drivers/perf/perf_drv.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t n = data[0] % 8;
    data++, size--;
    uint64_t buf[64];
    size_t len = size > sizeof buf ? sizeof buf : size;
    memcpy(buf, data, len);
    uint64_t ids[8], vals[8], en, run;
    for (size_t i = 0; i < 8; i++)
        ids[i] = i + 1;
    if (smn_perf_decode_group(buf, len, n, ids, vals, &en, &run) == SOCMON_OK && (run > en || buf[0] != n))
        __builtin_trap();
    return 0;
}
