/* Internal: the library's code includes this for socmon_fail and
 * socmon_fail_prefix, which are public (socmon/status.h) so that user
 * targets, buses and compatibility layers report errors the same way. */
#ifndef SOCMON_CORE_ERROR_H
#define SOCMON_CORE_ERROR_H

#include "socmon/status.h"

#endif
