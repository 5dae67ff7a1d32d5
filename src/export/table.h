/* Text tables with aligned columns, RFC 4180 CSV fields, and numbers and durations for humans. */
#ifndef SOCMON_EXPORT_TABLE_H
#define SOCMON_EXPORT_TABLE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "core/text.h"
#include "export/sink.h"
#include "socmon/status.h"

typedef struct smn_table smn_table;

/* ncols columns; align[i] is 'l' or 'r'. headers may be NULL (no header row). */
socmon_status smn_table_new(size_t ncols, const char *align, const char *const *headers,
                               smn_table **out);
void smn_table_free(smn_table *t);
/* Adds a row of ncols cells (copied; NULL prints as empty). */
socmon_status smn_table_add(smn_table *t, const char *const *cells);
size_t smn_table_rows(const smn_table *t);
/* Writes the rows with columns padded to their widest cell (computed from the cells, so a
 * long name widens its column rather than pushing values out of line), separated by two
 * spaces; each line starts with indent. */
socmon_status smn_table_write(const smn_table *t, smn_sink *s, const char *indent);
/* The same to a FILE (errors are not reported: for quick listings). */
void smn_table_print(const smn_table *t, FILE *fp, const char *indent);

/* 1 if a CSV field must be quoted: it holds sep, a quote, CR or LF, or
 * leading/trailing space (RFC 4180, plus the spaces spreadsheets trim). */
int smn_csv_needs_quotes(const char *s, char sep);

/* Writes one CSV field: quoted (with doubled quotes) when it holds sep, a
 * quote, CR or LF, or leading/trailing space. NULL writes an empty field. */
socmon_status smn_csv_write(smn_sink *s, const char *field, char sep);
/* The same to a FILE. */
void smn_csv_field(FILE *fp, const char *field, char sep);

/* Formats a value for machines that read text (CSV): integers as is, others with 4
 * significant digits, NaN as "-". Never grouped. */
void smn_format_value(char *buf, size_t len, double v);

/* The unit a timeline states its times in, in ns (1e9, 1e6, 1e3 or 1): the largest in which
 * the interval is at least 1, so a time column never switches from "999.000 ms" to "1.000 s". */
uint64_t smn_time_unit_ns(uint64_t interval_ns);
/* Its name: "s", "ms", "us", "ns". */
const char *smn_time_unit_name(uint64_t unit_ns);
/* ns in that unit, 3 decimals (none for ns), the integer part grouped when group is set:
 * "1,050.000". */
void smn_format_time(char *buf, size_t len, uint64_t ns, uint64_t unit_ns, int group);

/* smn_utf8_len (a valid UTF-8 sequence's length), the escaping of outside text, counts and
 * durations for people (smn_format_count, smn_format_ns), and numbers with the tables' decimals
 * (smn_format_fixed, smn_unit_decimals): core/text.h. */

#endif
