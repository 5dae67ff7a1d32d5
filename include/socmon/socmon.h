/* socmon: one library for the performance monitors of SoCs, accelerators and CPUs.
 *
 * The umbrella header: includes every public socmon/ header, the blocks'
 * (esp.h, tensix.h, zynq.h: their models and drivers) included. Vendor-compatible
 * APIs have their own headers (installed in include/socmon/compat). */
#ifndef SOCMON_H
#define SOCMON_H

#include "socmon/version.h"
#include "socmon/status.h"
#include "socmon/bus.h"
#include "socmon/delta.h"
#include "socmon/device.h"
#include "socmon/sample.h"
#include "socmon/timeline.h"
#include "socmon/recording.h"
#include "socmon/profile.h"
#include "socmon/result.h"
#include "socmon/metrics.h"
#include "socmon/target.h"
#include "socmon/sampler.h"
#include "socmon/data.h"
#include "socmon/esp.h"
#include "socmon/tensix.h"
#include "socmon/zynq.h"
/* RISC-V firmware API; on a host only its portable part (names, snapshots, deltas) */
#include "socmon/riscv_hpm.h"
#include "socmon/perf.h"
#include "socmon/scaling.h"
#include "socmon/host.h"
#include "socmon/region.h"

#endif
