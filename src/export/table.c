/* Aligned text tables, CSV quoting and value formatting for the CLI and the output formats. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/table.h"

struct smn_table {
    size_t ncols;
    char *align;
    char **cells;      /* row-major, rows * ncols */
    size_t rows, cap;
    int has_header;
};

socmon_status smn_table_new(size_t ncols, const char *align, const char *const *headers,
                               smn_table **out)
{
    if (!out || ncols == 0 || !align || strlen(align) < ncols)
        return socmon_fail(SOCMON_EINVAL, "smn_table_new: need ncols > 0 and an alignment per column");
    smn_table *t = calloc(1, sizeof *t);
    if (!t || !(t->align = strdup(align))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "smn_table_new: out of memory");
    }
    t->ncols = ncols;
    *out = t;
    if (headers) {
        socmon_status st = smn_table_add(t, headers);
        if (st != SOCMON_OK) {
            smn_table_free(t);
            *out = NULL;
            return st;
        }
        t->has_header = 1;
    }
    return SOCMON_OK;
}

void smn_table_free(smn_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->rows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->align);
    free(t);
}

socmon_status smn_table_add(smn_table *t, const char *const *cells)
{
    if (!t || !cells)
        return socmon_fail(SOCMON_EINVAL, "smn_table_add: NULL argument");
    if (t->rows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char **c = realloc(t->cells, cap * t->ncols * sizeof *c);
        if (!c)
            return socmon_fail(SOCMON_ENOMEM, "smn_table_add: out of memory");
        t->cells = c;
        t->cap = cap;
    }
    char **row = &t->cells[t->rows * t->ncols];
    for (size_t i = 0; i < t->ncols; i++) {
        /* a cell can hold a recording's or a remote agent's text: control bytes are shown as
         * \xNN, never sent to the terminal (and a newline cannot break the table's rows) */
        row[i] = smn_text_escape_dup(cells[i]);
        if (!row[i]) {
            while (i--)
                free(row[i]);
            return socmon_fail(SOCMON_ENOMEM, "smn_table_add: out of memory");
        }
    }
    t->rows++;
    return SOCMON_OK;
}

size_t smn_table_rows(const smn_table *t)
{
    return t ? t->rows - (size_t)t->has_header : 0;
}

socmon_status smn_table_write(const smn_table *t, smn_sink *s, const char *indent)
{
    if (!t || !s)
        return socmon_fail(SOCMON_EINVAL, "smn_table_write: NULL argument");
    size_t *w = calloc(t->ncols, sizeof *w);
    if (!w)
        return socmon_fail(SOCMON_ENOMEM, "smn_table_write: out of memory");
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t l = strlen(t->cells[r * t->ncols + c]);
            if (l > w[c])
                w[c] = l;
        }
    socmon_status st = SOCMON_OK;
    for (size_t r = 0; r < t->rows && st == SOCMON_OK; r++) {
        st = smn_sink_puts(s, indent ? indent : "");
        for (size_t c = 0; c < t->ncols && st == SOCMON_OK; c++) {
            const char *cell = t->cells[r * t->ncols + c];
            int last = c + 1 == t->ncols;
            if (t->align[c] == 'r')
                st = smn_sink_printf(s, "%*s", (int)w[c], cell);
            else if (last)
                st = smn_sink_puts(s, cell); /* no trailing padding */
            else
                st = smn_sink_printf(s, "%-*s", (int)w[c], cell);
            if (!last && st == SOCMON_OK)
                st = smn_sink_puts(s, "  ");
        }
        if (st == SOCMON_OK)
            st = smn_sink_putc(s, '\n');
    }
    free(w);
    return st;
}

/* The FILE forms keep their old signatures for callers that print straight to a stream;
 * they go through a borrowed-FILE sink so both forms write the same bytes. */
void smn_table_print(const smn_table *t, FILE *fp, const char *indent)
{
    smn_sink *s;
    if (!t || !fp || smn_sink_file(fp, "table", &s) != SOCMON_OK)
        return;
    smn_table_write(t, s, indent);
    smn_sink_close(s);
}

int smn_csv_needs_quotes(const char *s, char sep)
{
    size_t n = strlen(s);
    if (n && (s[0] == ' ' || s[n - 1] == ' '))
        return 1;
    for (const char *p = s; *p; p++)
        if (*p == sep || *p == '"' || *p == '\n' || *p == '\r')
            return 1;
    return 0;
}

socmon_status smn_csv_write(smn_sink *s, const char *field, char sep)
{
    if (!field)
        field = "";
    if (!smn_csv_needs_quotes(field, sep))
        return smn_sink_puts(s, field);
    socmon_status st = smn_sink_putc(s, '"');
    for (const char *p = field; *p && st == SOCMON_OK; p++) {
        size_t run = strcspn(p, "\""); /* copy up to the next quote, then double it */
        st = smn_sink_write(s, p, run);
        p += run;
        if (!*p)
            break;
        if (st == SOCMON_OK)
            st = smn_sink_puts(s, "\"\"");
    }
    return st == SOCMON_OK ? smn_sink_putc(s, '"') : st;
}

void smn_csv_field(FILE *fp, const char *field, char sep)
{
    smn_sink *s;
    if (!fp || smn_sink_file(fp, "csv", &s) != SOCMON_OK)
        return;
    smn_csv_write(s, field, sep);
    smn_sink_close(s);
}

void smn_format_value(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "-");
    else if (isinf(v))
        snprintf(buf, len, v > 0 ? "inf" : "-inf");
    else if (fabs(v - nearbyint(v)) <= 1e-9 * fmax(1.0, fabs(v)) && fabs(v) < 1e15)
        snprintf(buf, len, "%.0f", nearbyint(v)); /* whole up to float noise: 350, not 350.00 */
    else if (fabs(v) >= 1e6 || fabs(v) < 1e-3)
        snprintf(buf, len, "%.4g", v);
    else
        snprintf(buf, len, "%.*f", fabs(v) >= 1000 ? 1 : fabs(v) >= 100 ? 2 : fabs(v) >= 10 ? 3 : 4, v);
}

uint64_t smn_time_unit_ns(uint64_t interval_ns)
{
    return interval_ns >= 1000000000u ? 1000000000u : interval_ns >= 1000000u ? 1000000u
                                                 : interval_ns >= 1000u       ? 1000u
                                                                              : 1u;
}

const char *smn_time_unit_name(uint64_t unit_ns)
{
    return unit_ns >= 1000000000u ? "s" : unit_ns >= 1000000u ? "ms" : unit_ns >= 1000u ? "us" : "ns";
}

void smn_format_time(char *buf, size_t len, uint64_t ns, uint64_t unit_ns, int group)
{
    if (unit_ns <= 1)
        smn_format_count(buf, len, ns, group);
    else
        smn_format_fixed(buf, len, (double)ns / (double)unit_ns, 3, group);
}
