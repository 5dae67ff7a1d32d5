/* Wrap-safe counter arithmetic.
 *
 * socmon_delta is the one function through which every counter difference in
 * socmon goes. A counter of width w counts modulo 2^w, so the number of events
 * between two readings is (end - start) mod 2^w. That is exact as long as the
 * counter wrapped at most once between the readings; two wraps are
 * indistinguishable from none. socmon_max_interval_ns gives the longest safe
 * sampling interval for a counter, which the sampler enforces. */
#ifndef SOCMON_DELTA_H
#define SOCMON_DELTA_H

#include "socmon/export.h"

#include <stdint.h>

SOCMON_BEGIN_DECLS

/* All-ones mask of `width` bits, width 1..64. */
static inline uint64_t socmon_width_mask(unsigned width)
{
    return width >= 64 ? UINT64_MAX : (((uint64_t)1 << width) - 1);
}

/* (end - start) mod 2^width. Inputs are masked to width first, so stray high
 * bits from a bus never leak into the result. */
static inline uint64_t socmon_delta(uint64_t start, uint64_t end, unsigned width)
{
    uint64_t m = socmon_width_mask(width);
    return ((end & m) - (start & m)) & m;
}

/* Longest interval in ns between two samples such that a counter of `width`
 * bits incrementing at most max_rate_hz times per second cannot wrap twice
 * (we stay below one full period so a single wrap stays detectable).
 * max_rate_hz <= 0 means unknown: returns UINT64_MAX. */
uint64_t socmon_max_interval_ns(unsigned width, double max_rate_hz);

SOCMON_END_DECLS
#endif
