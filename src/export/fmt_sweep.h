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
/* The option's or value's key a column is of (its name past "option:" ...). */
const char *smn_sweep_column_key(const smn_sweep_column *c);
/* A row's option value, or its counter's (counter 1) or metric's value, of that key; NULL: none. */
const char *smn_sweep_row_option(const socmon_sweep_row *r, const char *key);
const socmon_value *smn_sweep_row_value(const socmon_sweep_row *r, const char *key, int counter);

socmon_status smn_csv_sweep(smn_output *o, const socmon_sweep *s);
socmon_status smn_json_sweep(smn_output *o, const socmon_sweep *s);

#endif
