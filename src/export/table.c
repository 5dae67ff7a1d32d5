/* Aligned text tables and CSV quoting for the CLI and exporters. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/table.h"

struct socmon_table {
    size_t ncols;
    char *align;
    char **cells;      /* row-major, rows * ncols */
    size_t rows, cap;
    int has_header;
};

socmon_status socmon_table_new(size_t ncols, const char *align, const char *const *headers,
                               socmon_table **out)
{
    if (!out || ncols == 0 || !align || strlen(align) < ncols)
        return socmon_fail(SOCMON_EINVAL, "socmon_table_new: need ncols > 0 and an alignment per column");
    socmon_table *t = calloc(1, sizeof *t);
    if (!t || !(t->align = strdup(align))) {
        free(t);
        return socmon_fail(SOCMON_ENOMEM, "socmon_table_new: out of memory");
    }
    t->ncols = ncols;
    *out = t;
    if (headers) {
        socmon_status st = socmon_table_add(t, headers);
        if (st != SOCMON_OK) {
            socmon_table_free(t);
            *out = NULL;
            return st;
        }
        t->has_header = 1;
    }
    return SOCMON_OK;
}

void socmon_table_free(socmon_table *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->rows * t->ncols; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t->align);
    free(t);
}

socmon_status socmon_table_add(socmon_table *t, const char *const *cells)
{
    if (!t || !cells)
        return socmon_fail(SOCMON_EINVAL, "socmon_table_add: NULL argument");
    if (t->rows == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 32;
        char **c = realloc(t->cells, cap * t->ncols * sizeof *c);
        if (!c)
            return socmon_fail(SOCMON_ENOMEM, "socmon_table_add: out of memory");
        t->cells = c;
        t->cap = cap;
    }
    char **row = &t->cells[t->rows * t->ncols];
    for (size_t i = 0; i < t->ncols; i++) {
        row[i] = strdup(cells[i] ? cells[i] : "");
        if (!row[i]) {
            while (i--)
                free(row[i]);
            return socmon_fail(SOCMON_ENOMEM, "socmon_table_add: out of memory");
        }
    }
    t->rows++;
    return SOCMON_OK;
}

size_t socmon_table_rows(const socmon_table *t)
{
    return t ? t->rows - (size_t)t->has_header : 0;
}

void socmon_table_print(const socmon_table *t, FILE *fp, const char *indent)
{
    if (!t || !fp)
        return;
    size_t *w = calloc(t->ncols, sizeof *w);
    if (!w)
        return;
    for (size_t r = 0; r < t->rows; r++)
        for (size_t c = 0; c < t->ncols; c++) {
            size_t l = strlen(t->cells[r * t->ncols + c]);
            if (l > w[c])
                w[c] = l;
        }
    for (size_t r = 0; r < t->rows; r++) {
        fputs(indent ? indent : "", fp);
        for (size_t c = 0; c < t->ncols; c++) {
            const char *s = t->cells[r * t->ncols + c];
            int last = c + 1 == t->ncols;
            if (t->align[c] == 'r')
                fprintf(fp, "%*s", (int)w[c], s);
            else if (last)
                fputs(s, fp); /* no trailing padding */
            else
                fprintf(fp, "%-*s", (int)w[c], s);
            if (!last)
                fputs("  ", fp);
        }
        fputc('\n', fp);
    }
    free(w);
}

int socmon_csv_needs_quotes(const char *s, char sep)
{
    size_t n = strlen(s);
    if (n && (s[0] == ' ' || s[n - 1] == ' '))
        return 1;
    for (const char *p = s; *p; p++)
        if (*p == sep || *p == '"' || *p == '\n' || *p == '\r')
            return 1;
    return 0;
}

void socmon_csv_field(FILE *fp, const char *s, char sep)
{
    if (!s)
        s = "";
    if (!socmon_csv_needs_quotes(s, sep)) {
        fputs(s, fp);
        return;
    }
    fputc('"', fp);
    for (const char *p = s; *p; p++) {
        if (*p == '"')
            fputc('"', fp);
        fputc(*p, fp);
    }
    fputc('"', fp);
}

void socmon_format_value(char *buf, size_t len, double v)
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
