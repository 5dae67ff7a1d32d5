/* Internal: the library's code includes this for socmon_fail and
 * socmon_fail_prefix, which are public (socmon/status.h) so that user
 * targets, buses and compatibility layers report errors the same way. */
#ifndef SOCMON_CORE_ERROR_H
#define SOCMON_CORE_ERROR_H

#include <stddef.h>

#include "socmon/status.h"

/* The check of a public struct's `size` member (the structs a caller fills and passes in:
 * *_ops, *_opts, socmon_metric_schema; docs/architecture.md, "Names and growing structs"):
 * 0, a caller that does not set it, means the layout these headers first gave the struct, and
 * so does the size this library was built with; anything else is SOCMON_EINVAL naming it.
 * When a struct grows, the older sizes join the accepted ones and the library reads the new
 * members only where given covers them. */
static inline socmon_status smn_check_size(const char *type, size_t given, size_t known)
{
    if (given == 0 || given == known)
        return SOCMON_OK;
    return socmon_fail(SOCMON_EINVAL,
                       "%s.size %zu is not a size of it this library knows (0 or %zu: set it to "
                       "sizeof(%s)%s)",
                       type, given, known, type,
                       given > known ? "; built against a newer socmon than this library?" : "");
}

#endif
