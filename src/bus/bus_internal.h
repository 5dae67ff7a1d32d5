/* Internal to the bus layer. */
#ifndef SOCMON_BUS_INTERNAL_H
#define SOCMON_BUS_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "socmon/bus.h"

typedef socmon_status (*socmon_bus_read_fn)(void *priv, uint64_t addr, uint32_t *val);

/* A backend's private state, if bus was made with that backend's read
 * callback; lets a backend-specific call check that it got its own kind of bus. */
void *smn_bus_backend_priv(socmon_bus *bus, socmon_bus_read_fn read_fn);

/* The recording bus (record_bus.c) with a callback whose status becomes the access's: a
 * tracer that must not lose lines fails the access whose line it could not write (the
 * trace_bus target option). A fence has no status: what its callback returns is dropped. */
typedef socmon_status (*socmon_bus_check_fn)(void *user, const socmon_bus_access *acc);
socmon_status smn_bus_record_checked(socmon_bus *inner, socmon_bus_check_fn check, void *user,
                                        socmon_bus **out);

/* user of a bus that smn_bus_record_checked made with check; NULL for any other bus. */
void *smn_bus_record_user(socmon_bus *bus, socmon_bus_check_fn check);

/* The recording bus's line for acc on fp ("R 0x00000104 = 0x0000002a", a failed access
 * ending in " ! SOCMON_EIO"); -1 if a write failed, else 0. */
int smn_bus_access_print(FILE *fp, const socmon_bus_access *acc);

/* One 32-bit load or store of a mapping (map, len) that returns SIGBUS instead
 * of dying when the access faults (mmio_guard.c), else 0. */
int smn_mmio_guarded_load(const volatile uint32_t *p, uint32_t *val);
int smn_mmio_guarded_store(volatile uint32_t *p, uint32_t val);

#endif
