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

#ifdef __cplusplus
extern "C" {
#endif

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

#ifdef __cplusplus
}
#endif
#endif
