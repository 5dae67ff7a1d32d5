/* The host's monotonic clock in nanoseconds. */
#include <time.h>

#include "core/clock.h"

uint64_t smn_mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
