/* What both recording fuzzers (fuzz_recording.c, v1; fuzz_recording_v2.c)
 * check of a file the loader accepted, in one place so the two cannot drift:
 * it decodes sample by sample to as many samples as its timeline holds, and
 * it serialises again. A header, not a file of its own, because each
 * fuzz/fuzz_*.c is built alone as one harness. */
#ifndef SOCMON_FUZZ_RECORDING_CHECK_H
#define SOCMON_FUZZ_RECORDING_CHECK_H

#include <stdint.h>
#include <stdlib.h>

#include "recording/recording_internal.h"

/* Traps on a failed check; else returns the serialised bytes (the caller
 * frees them) and their length in *len, for the caller's own comparison. */
static inline uint8_t *check_decodes(const socmon_recording *rec, size_t *len)
{
    uint64_t *v = calloc(rec->ncounters + 1, sizeof *v);
    socmon_sample s = {.t_ns = 0, .flags = 0, .missed = 0, .n = rec->ncounters, .v = v};
    socmon_timeline_iter it;
    size_t n = 0;
    if (v && socmon_timeline_iter_init(rec->tl, &it) == SOCMON_OK) {
        while (socmon_timeline_iter_next(&it, &s) == SOCMON_OK)
            n++;
        socmon_timeline_iter_free(&it);
        if (n != socmon_timeline_len(rec->tl))
            __builtin_trap();
    }
    free(v);
    uint8_t *out = NULL;
    *len = 0;
    if (smn_recording_serialize(rec, &out, len) != SOCMON_OK)
        __builtin_trap();
    return out;
}

#endif
