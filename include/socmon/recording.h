/* Recordings: a timeline together with the schema needed to read it later.
 *
 * `socmon record` writes one; `socmon report` and the exporters read it. The
 * file holds the target spec, the device name, every counter's schema, the
 * device parameters, the sampling interval and the timeline. The format is
 * described in docs/recording-format.md; the loader rejects any malformed or
 * truncated file with SOCMON_EPARSE and a message naming the byte offset. */
#ifndef SOCMON_RECORDING_H
#define SOCMON_RECORDING_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/sample.h"
#include "socmon/timeline.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_recording {
    char *target;              /* target spec, e.g. "esp" */
    char *device;              /* device name */
    uint64_t interval_ns;      /* requested sampling interval */
    size_t ncounters;
    socmon_counter *counters;  /* strings owned by the recording */
    size_t nparams;
    char **param_names;
    double *param_values;
    socmon_timeline *tl;       /* owned */
} socmon_recording;

/* Builds an empty recording whose schema is the set's counters and the
 * device's parameters. */
socmon_status socmon_recording_new(const socmon_set *set, const char *target,
                                   uint64_t interval_ns, socmon_recording **out);
void socmon_recording_free(socmon_recording *rec);

socmon_status socmon_recording_save(const socmon_recording *rec, const char *path);
socmon_status socmon_recording_load(const char *path, socmon_recording **out);
/* Same as load, from memory (used by the fuzzer). */
socmon_status socmon_recording_parse(const void *buf, size_t len, socmon_recording **out);

SOCMON_END_DECLS
#endif
