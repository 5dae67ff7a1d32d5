/* socmon report --by-symbol: a program's recording (record -t ibex -- prog.elf holds per-function
 * counters f.fn_cycles, f.fn_instret, ...) as one row per function: cycles, instructions, CPI,
 * the wait cycles (the CPI stack) and the share of all cycles, sorted by cycles, then a total
 * row, which is the whole-program counters exactly (each instruction's counts went to exactly one
 * function), and a line saying whether it is.
 *
 * A program that writes its own counters (zeroes mcycle, say) has that write's change attributed
 * to the writing instruction, so its function can show a negative count: the values are signed
 * modulo the counter's width, and the totals still match. */
#include <stdlib.h>
#include <string.h>

#include "cli/by_symbol.h"
#include "export/sink.h"
#include "socmon/delta.h"

static const char *const cols[] = {"cycles", "instret", "lsu_wait", "fetch_wait", "mul_wait", "div_wait",
                                   "loads", "stores", "branches", "branches_taken"};
#define NCOLS (sizeof cols / sizeof cols[0])

typedef struct fnrow {
    const char *name;
    int64_t v[NCOLS];
    int has[NCOLS];
} fnrow;

/* v modulo 2^width as a signed number of that width */
static int64_t signed_of(uint64_t v, unsigned width)
{
    if (width >= 64)
        return (int64_t)v;
    uint64_t half = UINT64_C(1) << (width - 1);
    v &= socmon_width_mask(width);
    return v >= half ? (int64_t)v - (int64_t)(half << 1) : (int64_t)v;
}

static int col_of(const char *name)
{
    for (size_t k = 0; k < NCOLS; k++)
        if (strcmp(name, cols[k]) == 0)
            return (int)k;
    return -1;
}

static int by_cycles(const void *a, const void *b)
{
    const fnrow *x = a, *y = b;
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0] ? -1 : 1;
    return strcmp(x->name, y->name);
}

static socmon_status print_row(socmon_sink *s, const char *fmt, char sep, const char *name, const int64_t *v,
                               const int *has, double total_cycles, int first)
{
    double cpi = has[1] && v[1] ? (double)v[0] / (double)v[1] : 0;
    double share = total_cycles ? 100.0 * (double)v[0] / total_cycles : 0;
    if (strcmp(fmt, "json") == 0) {
        socmon_sink_printf(s, "%s\n    {\"function\": \"%s\"", first ? "" : ",", name);
        for (size_t k = 0; k < NCOLS; k++)
            if (has[k])
                socmon_sink_printf(s, ", \"%s\": %lld", cols[k], (long long)v[k]);
        return socmon_sink_printf(s, ", \"cpi\": %.6g, \"cycle_share\": %.6g}", has[1] && v[1] ? cpi : 0, share);
    }
    if (strcmp(fmt, "csv") == 0) {
        socmon_sink_printf(s, "%s", name);
        for (size_t k = 0; k < NCOLS; k++)
            socmon_sink_printf(s, has[k] ? "%c%lld" : "%c", sep, (long long)v[k]);
        return socmon_sink_printf(s, "%c%.6g%c%.4f\n", sep, cpi, sep, share);
    }
    socmon_sink_printf(s, "  %-28s", name);
    for (size_t k = 0; k < NCOLS; k++) {
        if (has[k])
            socmon_sink_printf(s, " %*lld", k < 2 ? 12 : 10, (long long)v[k]);
        else
            socmon_sink_printf(s, " %*s", k < 2 ? 12 : 10, "-");
    }
    if (has[1] && v[1])
        socmon_sink_printf(s, " %7.3f", cpi);
    else
        socmon_sink_printf(s, " %7s", "-");
    return socmon_sink_printf(s, " %6.2f%%\n", share);
}

socmon_status cli_by_symbol_print(socmon_sink *s, const cli_opts *o, const socmon_counter *c, size_t n,
                                  const uint64_t *acc, int *mismatch)
{
    fnrow *rows = calloc(n + 1, sizeof *rows);
    size_t nrows = 0;
    uint64_t total[NCOLS] = {0}, whole[NCOLS] = {0};
    unsigned width[NCOLS] = {0};
    int has_total[NCOLS] = {0}, has_whole[NCOLS] = {0};
    if (!rows)
        return socmon_fail(SOCMON_ENOMEM, "report --by-symbol: out of memory");
    for (size_t i = 0; i < n; i++) {
        int k;
        if (!*c[i].instance) {
            if ((k = col_of(c[i].name)) >= 0) {
                whole[k] = acc[i] & socmon_width_mask(c[i].width);
                has_whole[k] = 1;
            }
            continue;
        }
        if (strncmp(c[i].name, "fn_", 3) != 0 || (k = col_of(c[i].name + 3)) < 0)
            continue;
        size_t r = 0;
        while (r < nrows && strcmp(rows[r].name, c[i].instance) != 0)
            r++;
        if (r == nrows)
            rows[nrows++].name = c[i].instance;
        rows[r].v[k] = signed_of(acc[i], c[i].width);
        rows[r].has[k] = 1;
        total[k] = (total[k] + acc[i]) & socmon_width_mask(c[i].width);
        width[k] = c[i].width;
        has_total[k] = 1;
    }
    if (!nrows) {
        free(rows);
        return socmon_fail(SOCMON_ENOENT, "the recording has no per-function counters: record a program "
                                          "(socmon record -t ibex -- prog.elf)");
    }
    qsort(rows, nrows, sizeof *rows, by_cycles);
    int64_t tv[NCOLS], wv[NCOLS];
    for (size_t k = 0; k < NCOLS; k++) {
        tv[k] = has_total[k] ? signed_of(total[k], width[k]) : 0;
        wv[k] = has_whole[k] ? signed_of(whole[k], width[k] ? width[k] : 64) : 0;
        if (has_total[k] && has_whole[k] && total[k] != whole[k])
            *mismatch = 1;
    }
    double tc = (double)tv[0];
    const char *fmt = o->format;
    if (strcmp(fmt, "json") == 0) {
        socmon_sink_printf(s, "{\"kind\": \"by-symbol\", \"functions\": [");
    } else if (strcmp(fmt, "csv") == 0) {
        socmon_sink_printf(s, "function");
        for (size_t k = 0; k < NCOLS; k++)
            socmon_sink_printf(s, "%c%s", o->sep, cols[k]);
        socmon_sink_printf(s, "%ccpi%ccycle_share\n", o->sep, o->sep);
    } else {
        socmon_sink_printf(s, "\n Cycles by function (ELF symbol), every event attributed to the function whose "
                              "instruction caused it:\n\n  %-28s", "function");
        for (size_t k = 0; k < NCOLS; k++)
            socmon_sink_printf(s, " %*s", k < 2 ? 12 : 10, cols[k]);
        socmon_sink_printf(s, " %7s %7s\n", "CPI", "share");
    }
    int first = 1;
    for (size_t r = 0; r < nrows; r++) {
        int any = 0;
        for (size_t k = 0; k < NCOLS; k++)
            any |= rows[r].v[k] != 0;
        if (!any && !o->old_all)
            continue;
        print_row(s, fmt, o->sep, rows[r].name, rows[r].v, rows[r].has, tc, first);
        first = 0;
    }
    if (strcmp(fmt, "json") == 0) {
        socmon_sink_printf(s, "\n  ],\n  \"total\": ");
        first = 1;
        print_row(s, fmt, o->sep, "total", tv, has_total, tc, 1);
        socmon_sink_printf(s, ",\n  \"whole_program\": ");
        print_row(s, fmt, o->sep, "whole program", wv, has_whole, tc, 1);
        socmon_sink_printf(s, ",\n  \"total_matches\": %s\n}\n", *mismatch ? "false" : "true");
    } else {
        print_row(s, fmt, o->sep, "total", tv, has_total, tc, 0);
        if (strcmp(fmt, "csv") != 0)
            socmon_sink_printf(s, "\n  total %s the whole-program counters%s\n\n",
                               *mismatch ? "DIFFERS FROM" : "equals", *mismatch ? " (see docs/ibex.md)" : "");
    }
    free(rows);
    return socmon_sink_flush(s);
}
