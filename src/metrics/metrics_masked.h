/* Internal to socmon: metrics evaluated with some counters' deltas unusable. */
#ifndef SOCMON_METRICS_MASKED_H
#define SOCMON_METRICS_MASKED_H

#include "socmon/metrics.h"

/* socmon_metrics_eval, where every counter i with bad[i] != 0 reads as NaN (undefined), so each
 * result computed from it is undefined; bad NULL: as socmon_metrics_eval. The pipeline passes
 * the counters whose deltas are implausible (analysis/value_flags.c). */
socmon_status smn_metrics_eval_masked(socmon_metrics *m, const uint64_t *deltas, const unsigned char *bad,
                                      double interval_s, double *out);

#endif
