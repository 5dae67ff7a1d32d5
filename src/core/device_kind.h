/* Internal: which driver made a device. A driver that offers functions of its own on its
 * devices (socmon_perf_device_unsupported) checks the device is one of its own by its read
 * function, which no other driver shares. */
#ifndef SOCMON_CORE_DEVICE_KIND_H
#define SOCMON_CORE_DEVICE_KIND_H

#include "socmon/device.h"

int smn_device_reads_with(const socmon_device *dev,
                             socmon_status (*read)(void *drv, const uint32_t *idx, size_t n, uint64_t *out));

#endif
