/* Internal: the recording's layout (opaque in socmon/recording.h), the file
 * format's constants and an in-memory writer. The byte layout is described in
 * docs/recording-format.md. Tests and benchmarks include this header to build
 * recordings field by field. */
#ifndef SOCMON_CORE_RECORDING_INTERNAL_H
#define SOCMON_CORE_RECORDING_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/recording.h"

struct socmon_recording {
    char *target;              /* target spec, e.g. "esp" */
    char *device;              /* device name */
    uint64_t interval_ns;      /* requested sampling interval */
    size_t ncounters;
    socmon_counter *counters;  /* strings owned by the recording */
    size_t nparams;
    char **param_names;
    double *param_values;
    socmon_timeline *tl;       /* owned */
};

#define SOCMON_REC_MAGIC "SOCMONRC"   /* 8 bytes at offset 0 */
#define SOCMON_REC_END "SOCMEND!"     /* 8 bytes before the final CRC-32 */
#define SOCMON_REC_VERSION 1u
#define SOCMON_REC_MAX_STRING 4096u   /* bytes in any one string */
#define SOCMON_REC_MAX_PARAMS 65536u

/* The exact bytes socmon_recording_save writes, in a malloc'd buffer. A
 * buffer that socmon_recording_parse accepts serialises back to itself. */
socmon_status socmon_recording_serialize(const socmon_recording *rec, uint8_t **buf,
                                         size_t *len);

/* CRC-32 (IEEE 802.3, reflected, as in zlib and PNG) of buf, continuing from
 * crc (0 to start). */
uint32_t socmon_crc32(uint32_t crc, const void *buf, size_t len);

#endif
