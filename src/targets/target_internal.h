/* Internal to the library: target calls the sampler needs. */
#ifndef SOCMON_TARGETS_TARGET_INTERNAL_H
#define SOCMON_TARGETS_TARGET_INTERNAL_H

#include "socmon/target.h"

/* socmon_target_advance without the sleep on hardware: for the sampler,
 * which has already waited until its deadline. */
socmon_status socmon_target_step(socmon_target *t, uint64_t ns, int *done);

#endif
