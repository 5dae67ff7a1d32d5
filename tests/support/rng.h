/* The seeded generator of tests and benchmarks: splitmix64, so a failing
 * case replays from its seed on any machine and every test draws the same
 * well-mixed stream (one definition, not one copy per file). */
#ifndef SOCMON_TEST_RNG_H
#define SOCMON_TEST_RNG_H

#include <stdint.h>

/* The next value of the stream whose state is *s (any value is a seed). */
uint64_t rng_next(uint64_t *s);

#endif
