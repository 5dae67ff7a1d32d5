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

/* Opaque: a recording's layout is the library's own, so it can change (e.g.
 * for streaming recordings) without breaking programs built against an older
 * version. Read it through the accessors below. */
typedef struct socmon_recording socmon_recording;

/* Builds an empty recording whose schema is the set's counters and the
 * device's parameters. */
socmon_status socmon_recording_new(const socmon_set *set, const char *target,
                                   uint64_t interval_ns, socmon_recording **out);
void socmon_recording_free(socmon_recording *rec);

socmon_status socmon_recording_save(const socmon_recording *rec, const char *path);
socmon_status socmon_recording_load(const char *path, socmon_recording **out);
/* Same as load, from memory (used by the fuzzer). */
socmon_status socmon_recording_parse(const void *buf, size_t len, socmon_recording **out);

/* ---- what a recording holds (rec must not be NULL) ----
 * Strings and arrays belong to the recording: valid until it is freed. */

/* The target spec it was recorded from, e.g. "esp" or "tensix:bound=pack". */
const char *socmon_recording_target(const socmon_recording *rec);
/* The device's name. */
const char *socmon_recording_device(const socmon_recording *rec);
/* The sampling interval that was requested, in ns. */
uint64_t socmon_recording_interval_ns(const socmon_recording *rec);
/* The schema: ncounters counters, in the order of every sample's values. */
size_t socmon_recording_ncounters(const socmon_recording *rec);
const socmon_counter *socmon_recording_counters(const socmon_recording *rec);
/* The device parameters (e.g. clock_hz): nparams names and values. */
size_t socmon_recording_nparams(const socmon_recording *rec);
const char *const *socmon_recording_param_names(const socmon_recording *rec);
const double *socmon_recording_param_values(const socmon_recording *rec);
/* The samples. Writable, so that a sampler run can append to a new
 * recording (socmon_sampler_run(..., socmon_recording_timeline(rec), ...)). */
socmon_timeline *socmon_recording_timeline(socmon_recording *rec);

SOCMON_END_DECLS
#endif
