/* Internal: the timeline's chunks, for the recording file's reader and writer.
 *
 * A recording stores the timeline chunk by chunk, in the timeline's own
 * encoding, so saving copies bytes and loading validates and adopts them
 * without re-encoding. */
#ifndef SOCMON_CORE_TIMELINE_INTERNAL_H
#define SOCMON_CORE_TIMELINE_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/timeline.h"

/* Samples per chunk of a new timeline, and the range a file may ask for. */
#define SOCMON_TIMELINE_CHUNK_DEFAULT 1024u
#define SOCMON_TIMELINE_CHUNK_MAX 65536u
/* Most counters a timeline (and so a recording) holds. */
#define SOCMON_TIMELINE_MAX_COUNTERS (1u << 20)

/* Like socmon_timeline_new with chunk_samples samples per chunk
 * (1..SOCMON_TIMELINE_CHUNK_MAX). */
socmon_status smn_timeline_new_chunked(size_t ncounters, size_t chunk_samples,
                                          socmon_timeline **out);
size_t smn_timeline_chunk_samples(const socmon_timeline *tl);
size_t smn_timeline_nchunks(const socmon_timeline *tl);
/* The encoded bytes and sample count of chunk i (i < nchunks). */
void smn_timeline_chunk(const socmon_timeline *tl, size_t i, const uint8_t **data,
                           size_t *len, size_t *nsamples);

/* Appends an encoded chunk read from a file. The last chunk must be full and
 * nsamples in 1..chunk_samples. data must decode to exactly nsamples samples
 * using all len bytes; otherwise SOCMON_EPARSE with a message naming the
 * absolute byte offset (file_offset + position in the chunk). The bytes are
 * copied. */
socmon_status smn_timeline_add_chunk(socmon_timeline *tl, const uint8_t *data, size_t len,
                                        size_t nsamples, size_t file_offset);

#endif
