/* Internal to the bus layer. */
#ifndef SOCMON_BUS_INTERNAL_H
#define SOCMON_BUS_INTERNAL_H

#include "socmon/bus.h"

typedef socmon_status (*socmon_bus_read_fn)(void *priv, uint64_t addr, uint32_t *val);

/* A backend's private state, if bus was made with that backend's read
 * callback; lets a backend-specific call check that it got its own kind of bus. */
void *socmon_bus_backend_priv(socmon_bus *bus, socmon_bus_read_fn read_fn);

#endif
