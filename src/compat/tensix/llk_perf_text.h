/* Internal: a growable text buffer and CSV helpers for the Tensix host API. */
#ifndef SOCMON_COMPAT_TENSIX_TEXT_H
#define SOCMON_COMPAT_TENSIX_TEXT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include "socmon/status.h"
#include "socmon/target.h"

typedef struct tx_text {
    char *buf;
    size_t len, cap;
    int oom;
} tx_text;

void smn_tx_text_add(tx_text *t, const char *fmt, ...) SOCMON_PRINTF(2, 3);
void smn_tx_text_rep(tx_text *t, const char *s, unsigned n);
/* 1234567 -> "1,234,567" */
void smn_tx_text_commas(tx_text *t, uint64_t v, int width);
/* Copies into buf/cap snprintf-style, sets *len, frees t. */
socmon_status smn_tx_text_finish(tx_text *t, char *buf, size_t cap, size_t *len);
socmon_status smn_tx_text_print(tx_text *t, FILE *fp);
/* A CSV field, quoted when it holds a comma, quote or line break. */
void smn_tx_csv_field(tx_text *t, const char *s);
/* Appends rows to FILENAME.WORKER.csv (worker NULL: "gw0"); writes head as
 * the header when the file is new, and refuses a file whose header differs.
 * Frees both texts, whatever happens. */
socmon_status smn_tx_csv_export(const char *filename, const char *worker_id, tx_text *head, tx_text *rows);
void smn_tx_csv_params_header(tx_text *t, const socmon_kv *params, size_t n);
void smn_tx_csv_params_values(tx_text *t, const socmon_kv *params, size_t n);

#endif
