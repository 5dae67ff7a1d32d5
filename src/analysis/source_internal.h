/* Internal to src/analysis: what the sources share. */
#ifndef SOCMON_ANALYSIS_SOURCE_INTERNAL_H
#define SOCMON_ANALYSIS_SOURCE_INTERNAL_H

#include "socmon/analysis.h"

/* 1 if a recording made on target `spec` holds a model's simulated time (a v1 file does not say). */
int smn_source_spec_simulated(const char *spec);

#endif
