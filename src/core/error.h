/* Internal: recording the message that goes with a failing status. */
#ifndef SOCMON_CORE_ERROR_H
#define SOCMON_CORE_ERROR_H

#include "socmon/status.h"

#if defined(__GNUC__)
#define SOCMON_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define SOCMON_PRINTF(a, b)
#endif

/* Sets this thread's message (printf-style) and returns st, so a failure
 * path reads: return socmon_fail(SOCMON_ERANGE, "tile_index %u out of range 0..%u", t, n-1); */
socmon_status socmon_fail(socmon_status st, const char *fmt, ...) SOCMON_PRINTF(2, 3);

/* Prefixes the current message with context: "esp: " + "tile_index 9 ...". */
socmon_status socmon_fail_prefix(socmon_status st, const char *fmt, ...) SOCMON_PRINTF(2, 3);

#endif
