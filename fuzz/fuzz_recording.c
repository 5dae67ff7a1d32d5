/* Fuzzes the recording loader. Besides "never crash", it checks two
 * properties: an accepted file decodes sample by sample, and it serialises
 * back to exactly the input bytes (the format has one encoding per
 * recording, so anything else means the loader accepted something the
 * writer cannot produce).
 *
 * A mutated file almost never carries a matching CRC-32, which would stop the
 * fuzzer at the checksum; so each input is also tried with its last four bytes
 * replaced by the right checksum, to reach the paths behind it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "recording/recording_internal.h"
#include "recording_check.h"

static void check(const uint8_t *data, size_t size)
{
    socmon_recording *rec = NULL;
    if (socmon_recording_parse(data, size, &rec) != SOCMON_OK)
        return;
    /* v1 has one encoding per recording; v2 inputs (fuzz_recording_v2 covers
     * them) only need to serialise at all */
    size_t len;
    uint8_t *out = check_decodes(rec, &len);
    if (rec->info.version == 1 && (len != size || memcmp(out, data, size) != 0))
        __builtin_trap();
    free(out);
    socmon_recording_free(rec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    check(data, size);
    if (size < 4)
        return 0;
    uint8_t *fixed = malloc(size);
    if (!fixed)
        return 0;
    memcpy(fixed, data, size);
    uint32_t crc = smn_crc32(0, fixed, size - 4);
    for (int i = 0; i < 4; i++)
        fixed[size - 4 + i] = (uint8_t)(crc >> (8 * i));
    check(fixed, size);
    free(fixed);
    return 0;
}
