/* Internal: a program's exact profile in the table, csv and json formats (fmt_profile.c). */
#ifndef SOCMON_EXPORT_FMT_PROFILE_H
#define SOCMON_EXPORT_FMT_PROFILE_H

#include "export/output_format.h"

socmon_status smn_table_profile(smn_output *o, const smn_profile_view *v);
socmon_status smn_csv_profile(smn_output *o, const smn_profile_view *v);
socmon_status smn_json_profile(smn_output *o, const smn_profile_view *v);

#endif
