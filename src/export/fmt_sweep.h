/* Internal: a sweep's table (socmon sweep) in the csv and json formats (fmt_sweep.c). */
#ifndef SOCMON_EXPORT_FMT_SWEEP_H
#define SOCMON_EXPORT_FMT_SWEEP_H

#include "core/strmap.h"
#include "export/output_format.h"

/* The table's columns past the fixed ones, as the CSV has them: option:, counter: and metric:
 * columns, each kind together, in order of first use; the Parquet form (fmt_parquet.c) takes
 * the same. */
typedef struct smn_sweep_column {
    char *name;                 /* "counter:NAME" */
    int kind;                   /* 'o', 'c', 'm' */
} smn_sweep_column;

typedef struct smn_sweep_columns {
    smn_strmap map;             /* name -> column */
    smn_sweep_column *col;
    size_t n, cap;
} smn_sweep_columns;

socmon_status smn_sweep_columns_collect(const socmon_sweep *s, smn_sweep_columns *c);
void smn_sweep_columns_free(smn_sweep_columns *c);
/* A row's cell of one column: the option's value ('o'), or the counter's or metric's value;
 * both NULL where the row has none. */
typedef struct smn_sweep_cell {
    const char *option;
    const socmon_value *value;
} smn_sweep_cell;
/* Row r's cells of every column of c, into cell[0..c->n). */
socmon_status smn_sweep_row_cells(const smn_sweep_columns *c, const socmon_sweep_row *r, smn_sweep_cell *cell);

socmon_status smn_csv_sweep(smn_output *o, const socmon_sweep *s);
socmon_status smn_json_sweep(smn_output *o, const socmon_sweep *s);

#endif
