/* Internal: socmon's own Parquet writer (parquet_write.c; docs/parquet.md), a narrow typed-column
 * API under the Parquet output format (fmt_parquet.c). Declare the columns, set each row's
 * cells, end the row; the writer keeps one row group in memory, writes it when it grows past
 * row_group_bytes, and the footer at close. Bytes go to the caller's out function, in order, once
 * each, so any byte sink will do.
 *
 *   smn_pq_new(out, user, &w);
 *   smn_pq_column(w, "t_ns", SMN_PQ_TIMESTAMP_NS, 0);   // column 0, required
 *   smn_pq_column(w, "ipc", SMN_PQ_DOUBLE, 1);          // column 1, nullable
 *   smn_pq_set_int64(w, 0, 1000); smn_pq_set_double(w, 1, 1.5); smn_pq_end_row(w);
 *   smn_pq_close(w); smn_pq_free(w);
 */
#ifndef SOCMON_EXPORT_PARQUET_WRITE_H
#define SOCMON_EXPORT_PARQUET_WRITE_H

#include <stddef.h>
#include <stdint.h>

#include "socmon/status.h"

typedef enum smn_pq_type {
    SMN_PQ_INT64,          /* INT64, exact */
    SMN_PQ_DOUBLE,         /* DOUBLE */
    SMN_PQ_STRING,         /* BYTE_ARRAY, logical type STRING (UTF-8), dictionary-encoded */
    SMN_PQ_TIMESTAMP_NS,   /* INT64, logical type TIMESTAMP(NANOS, not adjusted to UTC) */
    SMN_PQ_BOOLEAN         /* BOOLEAN */
} smn_pq_type;

typedef socmon_status (*smn_pq_out)(void *user, const void *buf, size_t len);

typedef struct smn_pq smn_pq;

socmon_status smn_pq_new(smn_pq_out out, void *user, smn_pq **w);
/* Frees the writer, written or not (a writer that failed, or was never closed, writes nothing
 * more: the caller cancels what it wrote to). */
void smn_pq_free(smn_pq *w);

/* The row group's size in memory that makes the writer write it (default 64 MiB; at least 1),
 * and the most rows in one data page (default 65536; at least 1). Tests set them small. */
void smn_pq_set_limits(smn_pq *w, size_t row_group_bytes, size_t page_rows);

/* Adds a column, before the first row. Names are UTF-8 and unique. */
socmon_status smn_pq_column(smn_pq *w, const char *name, smn_pq_type type, int nullable);
size_t smn_pq_ncolumns(const smn_pq *w);

/* A cell of the current row, column col (set once per row). int64 for INT64 and TIMESTAMP_NS,
 * double for DOUBLE (stored as given: NaN stays NaN; give NULL by smn_pq_set_null), string
 * (UTF-8, copied; NULL: null) for STRING, bool (0 or not) for BOOLEAN. */
socmon_status smn_pq_set_int64(smn_pq *w, size_t col, int64_t v);
socmon_status smn_pq_set_double(smn_pq *w, size_t col, double v);
socmon_status smn_pq_set_string(smn_pq *w, size_t col, const char *s);
socmon_status smn_pq_set_bool(smn_pq *w, size_t col, int v);
socmon_status smn_pq_set_null(smn_pq *w, size_t col);
/* Ends the row: a nullable cell not set is null; a required one not set is an error. */
socmon_status smn_pq_end_row(smn_pq *w);
uint64_t smn_pq_rows(const smn_pq *w);

/* Writes the last row group and the footer. A file of no rows has no row group. */
socmon_status smn_pq_close(smn_pq *w);

#endif
