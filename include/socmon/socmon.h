/* socmon: one library for the performance monitors of SoCs, accelerators and CPUs. */
#ifndef SOCMON_H
#define SOCMON_H

#include "socmon/status.h"
#include "socmon/bus.h"
#include "socmon/delta.h"
#include "socmon/device.h"
#include "socmon/sample.h"
#include "socmon/timeline.h"
#include "socmon/recording.h"
#include "socmon/metrics.h"
#include "socmon/target.h"
#include "socmon/sampler.h"

#define SOCMON_VERSION "0.1.0"

#endif
