/* Internal: what a target's run leaves beside its samples in a recording (analysis/session.h,
 * smn_session_attach): attachments a report reads back. */
#ifndef SOCMON_ANALYSIS_RUN_ATTACH_H
#define SOCMON_ANALYSIS_RUN_ATTACH_H

#include <stddef.h>
#include "socmon/recording.h"
#include "socmon/target.h"

/* A program's exact profile ("profile": a model that sees every instruction keeps one, ibex),
 * for report's call tree, lines and annotation; nothing for a target without one. */
socmon_status smn_attach_profile(socmon_target *t, socmon_recwriter *w);
/* The workload's phases ("phases": esp's multifft, its coherence modes), for report's phase
 * column, Perfetto's phase slices and the page's bands; nothing for a target without phases,
 * so its recordings stay as they were. */
socmon_status smn_attach_phases(socmon_target *t, socmon_recwriter *w);
/* The device's parameters that moved since the header's values params0 ("params": the traffic
 * Zynq's workload asked of each slot), their values at the end, so report weighs the run as
 * stat does; nothing when none moved. */
socmon_status smn_attach_params(socmon_target *t, socmon_recwriter *w, const double *params0, size_t nparams0);

#endif
