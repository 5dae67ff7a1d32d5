/* Text tables with aligned columns, RFC 4180 CSV fields, and numbers and durations for humans. */
#ifndef SOCMON_EXPORT_TABLE_H
#define SOCMON_EXPORT_TABLE_H

#include <stddef.h>
#include <stdio.h>
#include <stdint.h>
#include "export/sink.h"
#include "socmon/status.h"

typedef struct socmon_table socmon_table;

/* ncols columns; align[i] is 'l' or 'r'. headers may be NULL (no header row). */
socmon_status socmon_table_new(size_t ncols, const char *align, const char *const *headers,
                               socmon_table **out);
void socmon_table_free(socmon_table *t);
/* Adds a row of ncols cells (copied; NULL prints as empty). */
socmon_status socmon_table_add(socmon_table *t, const char *const *cells);
size_t socmon_table_rows(const socmon_table *t);
/* Writes the rows with columns padded to their widest cell, separated by two spaces; each
 * line starts with indent. */
socmon_status socmon_table_write(const socmon_table *t, socmon_sink *s, const char *indent);
/* The same to a FILE (errors are not reported: for quick listings). */
void socmon_table_print(const socmon_table *t, FILE *fp, const char *indent);

/* 1 if a CSV field must be quoted: it holds sep, a quote, CR or LF, or
 * leading/trailing space (RFC 4180, plus the spaces spreadsheets trim). */
int socmon_csv_needs_quotes(const char *s, char sep);

/* Writes one CSV field: quoted (with doubled quotes) when it holds sep, a
 * quote, CR or LF, or leading/trailing space. NULL writes an empty field. */
socmon_status socmon_csv_write(socmon_sink *s, const char *field, char sep);
/* The same to a FILE. */
void socmon_csv_field(FILE *fp, const char *field, char sep);

/* Formats a value for humans: integers as is, others with 4 significant
 * digits, NaN as "-". */
void socmon_format_value(char *buf, size_t len, double v);

/* A duration for humans: "1.200 ms", "3.000 s", "250 ns". */
void socmon_format_ns(char *buf, size_t len, uint64_t ns);

#endif
