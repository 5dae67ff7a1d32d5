/* socmon status codes and error messages.
 *
 * Every public function that can fail returns a socmon_status. When it is not
 * SOCMON_OK, socmon_errmsg() returns a message naming the bad value, e.g.
 * "tile_index 9 out of range 0..8". The message lives in thread-local storage
 * (like errno): each thread sees the message of its own last failure, so two
 * threads never overwrite each other's diagnostics. The library never prints,
 * exits or aborts on its own. */
#ifndef SOCMON_STATUS_H
#define SOCMON_STATUS_H

#include "socmon/export.h"

SOCMON_BEGIN_DECLS

typedef enum socmon_status {
    SOCMON_OK = 0,
    SOCMON_EINVAL = -1,   /* a bad argument: NULL, bad width, bad option */
    SOCMON_ERANGE = -2,   /* an index or value outside its range */
    SOCMON_ENOMEM = -3,   /* allocation failed */
    SOCMON_EIO = -4,      /* a bus or device access failed */
    SOCMON_EPERM = -5,    /* permission denied (e.g. /dev/mem) */
    SOCMON_ENOTSUP = -6,  /* not supported by this target or host */
    SOCMON_EPARSE = -7,   /* malformed file, expression or frame */
    SOCMON_ESTATE = -8,   /* call not valid in the object's current state */
    SOCMON_ENOENT = -9,   /* a named thing (counter, file, target) not found */
    SOCMON_EUNDEF = -10,  /* the hardware result is undefined (e.g. mux changed) */
    SOCMON_EAGAIN = -11   /* a retry loop gave up (e.g. hi-lo-hi never stable) */
} socmon_status;

/* "SOCMON_ERANGE" */
const char *socmon_status_name(socmon_status st);
/* "index out of range" */
const char *socmon_status_str(socmon_status st);
/* The detailed message of this thread's last failure; "" if none. Never NULL. */
const char *socmon_errmsg(void);
/* Forget this thread's last message. */
void socmon_clear_error(void);

/* For code that fails on socmon's behalf (the library, user targets and
 * buses, compatibility layers): sets this thread's message (printf-style)
 * and returns st, so a failure path reads
 *     return socmon_fail(SOCMON_ERANGE, "tile_index %u out of range 0..%u", t, n - 1);
 * fmt NULL: the message is "(no message)" (socmon_fail_prefix: no prefix). */
socmon_status socmon_fail(socmon_status st, const char *fmt, ...) SOCMON_PRINTF(2, 3);
/* Prefixes the current message with context: "esp: " + "tile_index 9 ...". */
socmon_status socmon_fail_prefix(socmon_status st, const char *fmt, ...) SOCMON_PRINTF(2, 3);

SOCMON_END_DECLS
#endif
