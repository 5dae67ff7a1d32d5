/* Internal: a sweep's table (socmon sweep) in the csv and json formats (fmt_sweep.c). */
#ifndef SOCMON_EXPORT_FMT_SWEEP_H
#define SOCMON_EXPORT_FMT_SWEEP_H

#include "export/output_format.h"

socmon_status smn_csv_sweep(smn_output *o, const socmon_sweep *s);
socmon_status smn_json_sweep(smn_output *o, const socmon_sweep *s);

#endif
