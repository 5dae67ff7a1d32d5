/* An interval timeline: a compact, append-only store of samples.
 *
 * Samples are kept in chunks; inside a chunk each value is stored as the
 * LEB128 varint of its difference from the previous sample's value (mod 2^64),
 * and timestamps likewise. Counters that move slowly cost one or two bytes a
 * value instead of eight, so millions of samples fit in memory. */
#ifndef SOCMON_TIMELINE_H
#define SOCMON_TIMELINE_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "socmon/sample.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_timeline socmon_timeline;

socmon_status socmon_timeline_new(size_t ncounters, socmon_timeline **out);
void socmon_timeline_free(socmon_timeline *tl);
size_t socmon_timeline_ncounters(const socmon_timeline *tl);
size_t socmon_timeline_len(const socmon_timeline *tl);
/* Bytes of heap the timeline holds. */
size_t socmon_timeline_bytes(const socmon_timeline *tl);

/* s->n must equal the timeline's counter count. */
socmon_status socmon_timeline_append(socmon_timeline *tl, const socmon_sample *s);
/* Random access; s must be allocated with n == ncounters. */
socmon_status socmon_timeline_get(const socmon_timeline *tl, size_t i, socmon_sample *s);

/* Sequential access without re-decoding from a chunk start each time. */
typedef struct socmon_timeline_iter {
    const socmon_timeline *tl;
    size_t next;       /* index of the sample the next call returns */
    size_t chunk;
    size_t pos;        /* byte position inside the chunk */
    uint64_t t_prev;
    uint64_t *prev;    /* internal: previous values */
} socmon_timeline_iter;

socmon_status socmon_timeline_iter_init(const socmon_timeline *tl, socmon_timeline_iter *it);
/* Returns SOCMON_OK and fills s, or SOCMON_ENOENT at the end. */
socmon_status socmon_timeline_iter_next(socmon_timeline_iter *it, socmon_sample *s);
void socmon_timeline_iter_free(socmon_timeline_iter *it);

SOCMON_END_DECLS
#endif
