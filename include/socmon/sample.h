/* Counter sets and samples.
 *
 * A set is a selection of a device's counters, chosen by name patterns, read
 * together. A sample is a timestamped vector of their values; the difference
 * of two samples goes through socmon_delta per counter width. */
#ifndef SOCMON_SAMPLE_H
#define SOCMON_SAMPLE_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/device.h"

SOCMON_BEGIN_DECLS

enum {
    SOCMON_SAMPLE_MISSED = 1u << 0,  /* one or more intervals before this sample were missed */
    SOCMON_SAMPLE_UNDEF = 1u << 1,   /* the device flagged some values as undefined */
    SOCMON_SAMPLE_SHORT = 1u << 2    /* the interval ending here is shorter than the sampling interval:
                                      * the last of a duration that is not a whole number of
                                      * intervals, or the workload ended inside it */
};

typedef struct socmon_sample {
    uint64_t t_ns;    /* target clock: simulated time for models, CLOCK_MONOTONIC on hardware */
    uint32_t flags;   /* SOCMON_SAMPLE_* */
    uint32_t missed;  /* intervals missed before this one (with SOCMON_SAMPLE_MISSED) */
    size_t n;
    uint64_t *v;      /* n values */
} socmon_sample;

typedef struct socmon_set socmon_set;

/* patterns: comma-separated shell globs on full counter names ("tile*.l2_*");
 * NULL or "" selects every counter. A pattern that matches nothing is an error
 * naming it. The set does not own dev. */
socmon_status socmon_set_new(socmon_device *dev, const char *patterns, socmon_set **out);
void socmon_set_free(socmon_set *set);
size_t socmon_set_size(const socmon_set *set);
socmon_device *socmon_set_device(const socmon_set *set);
/* Index into the device of the set's i-th counter. */
uint32_t socmon_set_index(const socmon_set *set, size_t i);
const socmon_counter *socmon_set_counter(const socmon_set *set, size_t i);
const char *socmon_set_full_name(const socmon_set *set, size_t i);

socmon_status socmon_sample_alloc(const socmon_set *set, socmon_sample *s);
void socmon_sample_free(socmon_sample *s);
/* Reads every counter of the set into s, stamping it with t_ns. */
socmon_status socmon_set_read(socmon_set *set, uint64_t t_ns, socmon_sample *s);
/* deltas[i] = socmon_delta(a->v[i], b->v[i], width of counter i). */
socmon_status socmon_set_diff(const socmon_set *set, const socmon_sample *a,
                              const socmon_sample *b, uint64_t *deltas);

SOCMON_END_DECLS
#endif
