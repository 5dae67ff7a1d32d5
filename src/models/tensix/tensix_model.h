/* The Tensix core model: its internal part (the knobs of the model behind a
 * "tensix" target are include/socmon/tensix.h). Creating the core and mapping
 * it on a bus is the target's job (targets/tensix.c); socmon's tests do it
 * too. Not exported. */
#ifndef SOCMON_MODELS_TENSIX_MODEL_H
#define SOCMON_MODELS_TENSIX_MODEL_H

#include "socmon/bus.h"
#include "socmon/tensix.h"

/* A core at cycle 0, every bank stopped, L1 zeroed; p NULL: the defaults. */
socmon_status smn_tensix_core_new(const socmon_tensix_kernel_params *p, socmon_tensix_core **out);
void smn_tensix_core_free(socmon_tensix_core *c);
/* Maps the debug registers (SOCMON_TENSIX_REGS_SIZE bytes) at regs_base and
 * L1 (SOCMON_TENSIX_L1_SIZE bytes) at l1_base on a model bus
 * (socmon_bus_model_new). Errors of socmon_bus_model_map pass through. The
 * core must outlive the bus's use of it. */
socmon_status smn_tensix_core_map(socmon_tensix_core *c, socmon_bus *model_bus,
                                     uint64_t regs_base, uint64_t l1_base);

#endif
