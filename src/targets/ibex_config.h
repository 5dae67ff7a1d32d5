/* The Ibex model's configuration from the ibex target's options (its one option table), for
 * whoever builds a core without opening the target: the tests. */
#ifndef SOCMON_TARGETS_IBEX_CONFIG_H
#define SOCMON_TARGETS_IBEX_CONFIG_H

#include "models/ibex/ibex_model.h"

/* options: "key=value,..." as after "ibex:" in a spec ("config=maxperf,mhpm_width=33"; NULL or
 * "": the defaults). Errors as the target's: unknown keys, values out of range, named. */
socmon_status smn_ibex_config(const char *options, ibex_config *cfg);

#endif
