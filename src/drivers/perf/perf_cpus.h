/* Internal to src/drivers/perf: CPU lists as perf's -C takes them. */
#ifndef SOCMON_DRIVERS_PERF_CPUS_H
#define SOCMON_DRIVERS_PERF_CPUS_H

#include <stddef.h>
#include "socmon/status.h"

#define PERF_MAX_CPUS 4096

/* "0-3,6" into a sorted, de-duplicated malloc'd array (free it); NULL: every online CPU
 * (/sys/devices/system/cpu/online). Errors name the bad item. */
socmon_status smn_perf_cpu_list(const char *list, int **cpus, size_t *n);

#endif
