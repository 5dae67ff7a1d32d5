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

/* n consecutive 64-bit registers at addr, addr + 8, ... into vals: one call of the backend's
 * run reader where it has one for them (the model bus, for a region given one:
 * smn_bus_model_set_run), else socmon_bus_read64 each, so on any other bus (mmio, a recording
 * bus tracing every access) the accesses are the same as n reads. Counted as n reads either way
 * (a native 64-bit read counts one). On a failure *done (if not NULL) says how many were read. */
typedef socmon_status (*smn_bus_run_fn)(void *priv, uint64_t addr, size_t n, uint64_t *vals);
socmon_status smn_bus_read64_run(socmon_bus *bus, uint64_t addr, size_t n, uint64_t *vals, size_t *done);
void smn_bus_set_run(socmon_bus *bus, smn_bus_run_fn fn);

/* A run reader for the model bus's region at base (mapped already): fn(model, offset, n, vals)
 * answers n consecutive 64-bit registers of the region, read whole (an Ibex profile's per-function
 * table, hw/ibex_csr.h). Other reads of the region keep to its ops. */
typedef socmon_status (*smn_regmodel_run_fn)(void *model, uint64_t offset, size_t n, uint64_t *vals);
socmon_status smn_bus_model_set_run(socmon_bus *bus, uint64_t base, smn_regmodel_run_fn fn);

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
