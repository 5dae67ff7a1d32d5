/* Internal: the host's monotonic clock, for realtime pacing and hardware timestamps. */
#ifndef SOCMON_CORE_CLOCK_H
#define SOCMON_CORE_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in nanoseconds. */
uint64_t smn_mono_ns(void);

#endif
