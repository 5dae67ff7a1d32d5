/* Internal: the diff document (socmon diff) in the table, csv and json formats, one file for
 * the three because they show the same columns (the html page is fmt_html_diff.c). */
#ifndef SOCMON_EXPORT_FMT_DIFF_H
#define SOCMON_EXPORT_FMT_DIFF_H

#include "export/output_format.h"

socmon_status smn_table_diff(smn_output *o, const socmon_diff *d);
socmon_status smn_csv_diff(smn_output *o, const socmon_diff *d);
socmon_status smn_json_diff(smn_output *o, const socmon_diff *d);
/* A value and a row's change for people, as the diff table writes them (and check, and the
 * page's titles): an exact count grouped when group is set ("-1,234", "+56"), a measure with
 * its unit's decimals (smn_unit_decimals), "-" when undefined. */
void smn_diff_human(char *buf, size_t len, const socmon_value *v, int group);
void smn_diff_human_delta(char *buf, size_t len, const socmon_diff_row *r, int group);
/* One row as the JSON contract gives it (docs/compare.md), its strings through smn_json_text;
 * NULL only when out of memory. */
#include <jansson.h>
json_t *smn_json_diff_row(const socmon_diff_row *r);
/* s as a JSON string whatever its bytes (not clean UTF-8: escaped \xNN as the terminal shows
 * it); NULL s: null. */
json_t *smn_json_text(const char *s);

#endif
