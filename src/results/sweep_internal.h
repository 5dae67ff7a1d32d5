/* Internal: how a sweep table (socmon/sweep.h) is filled by its readers (sweep_read.c). */
#ifndef SOCMON_ANALYSIS_SWEEP_INTERNAL_H
#define SOCMON_ANALYSIS_SWEEP_INTERNAL_H

#include "socmon/sweep.h"

/* Puts a copy of row (its strings and options copied; its values from vals, nvals of them,
 * ignoring row->values), replacing the row of the same point. */
socmon_status smn_sweep_put(socmon_sweep *s, const socmon_sweep_row *row, const socmon_value *const *vals,
                            size_t nvals);

/* The same for a row read from a table: a point the table already holds keeps its row when the
 * two are the same or only the new one failed, takes the new one when only the old one failed,
 * and is an error when both ran with different values (socmon_sweep_merge's rule across tables,
 * here within one). */
socmon_status smn_sweep_put_read(socmon_sweep *s, const socmon_sweep_row *row, const socmon_value *const *vals,
                                 size_t nvals);

/* The names a table's columns and JSON give: "counter:NAME", "metric:KEY", "option:KEY" in CSV;
 * in JSON the kinds are objects of their own ("counters", "metrics", "options"). */
#define SMN_SWEEP_COUNTER_COL "counter:"
#define SMN_SWEEP_METRIC_COL "metric:"
#define SMN_SWEEP_OPTION_COL "option:"

#endif
