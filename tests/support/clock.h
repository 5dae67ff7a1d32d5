/* Clock readings in seconds, for the figures benchmarks print: wall time
 * (CLOCK_MONOTONIC) and CPU time (CLOCK_PROCESS_CPUTIME_ID,
 * CLOCK_THREAD_CPUTIME_ID) from one function. */
#ifndef SOCMON_TEST_CLOCK_H
#define SOCMON_TEST_CLOCK_H

#include <time.h>

double clock_seconds(clockid_t c);

#endif
