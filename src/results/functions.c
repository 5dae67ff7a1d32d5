/* Per-function rows of a program's recording (socmon/analysis.h: socmon_functions_from_totals):
 * the functions' counters grouped by function, signed modulo their width, CPI and share of
 * cycles, sorted by cycles, and a total row that must equal the whole-program counters, since
 * each instruction's counts went to exactly one function. The formats only render them
 * (export/output.h: smn_output_functions). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/analysis.h"
#include "socmon/delta.h"

#define NCOLS SOCMON_FUNCTION_COLS
static const char *const cols[NCOLS] = {"cycles", "instret", "lsu_wait", "fetch_wait", "mul_wait", "div_wait",
                                        "loads", "stores", "branches", "branches_taken"};

const char *socmon_function_col(size_t k)
{
    return k < NCOLS ? cols[k] : NULL;
}

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
    const socmon_function_row *x = a, *y = b;
    if (x->v[0] != y->v[0])
        return x->v[0] > y->v[0] ? -1 : 1;
    return strcmp(x->name, y->name);
}

/* CPI and share of a row whose values are set; tc: the functions' total cycles. */
static void derive(socmon_function_row *r, double tc)
{
    r->cpi = (r->has & 2) && r->v[1] ? (double)r->v[0] / (double)r->v[1] : NAN;
    r->share = tc ? 100.0 * (double)r->v[0] / tc : 0;
}

socmon_status socmon_functions_from_totals(const socmon_source_info *info, const socmon_totals *t, int idle,
                                           socmon_functions **out)
{
    if (!info || !t || !out || (info->ncounters && (!info->counters || !t->raw)))
        return socmon_fail(SOCMON_EINVAL, "socmon_functions_from_totals: NULL argument");
    *out = NULL;
    const socmon_counter *c = info->counters;
    socmon_functions *f = calloc(1, sizeof *f + (info->ncounters + 1) * sizeof(socmon_function_row));
    if (!f)
        return socmon_fail(SOCMON_ENOMEM, "socmon_functions_from_totals: out of memory");
    socmon_function_row *rows = (socmon_function_row *)(f + 1);   /* one block: the rows follow */
    uint64_t total[NCOLS] = {0}, whole[NCOLS] = {0};
    unsigned width[NCOLS] = {0};
    size_t nrows = 0;
    for (size_t i = 0; i < info->ncounters; i++) {
        int k;
        if (!*c[i].instance) {
            if ((k = col_of(c[i].name)) >= 0) {
                whole[k] = t->raw[i] & socmon_width_mask(c[i].width);
                f->whole.has |= 1u << k;
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
        rows[r].v[k] = signed_of(t->raw[i], c[i].width);
        rows[r].has |= 1u << k;
        total[k] = (total[k] + t->raw[i]) & socmon_width_mask(c[i].width);
        width[k] = c[i].width;
        f->total.has |= 1u << k;
    }
    if (!nrows) {
        free(f);
        return socmon_fail(SOCMON_ENOENT, "the recording has no per-function counters: record a program "
                                          "(socmon record -t ibex -- prog.elf)");
    }
    qsort(rows, nrows, sizeof *rows, by_cycles);
    f->total.name = "total";
    f->whole.name = "whole program";
    for (size_t k = 0; k < NCOLS; k++) {
        unsigned bit = 1u << k;
        f->total.v[k] = f->total.has & bit ? signed_of(total[k], width[k]) : 0;
        f->whole.v[k] = f->whole.has & bit ? signed_of(whole[k], width[k] ? width[k] : 64) : 0;
        if ((f->total.has & f->whole.has & bit) && total[k] != whole[k])
            f->mismatch = 1;
    }
    double tc = (double)f->total.v[0];
    for (size_t r = 0; r < nrows; r++) {
        int any = 0;
        for (size_t k = 0; k < NCOLS; k++)
            any |= rows[r].v[k] != 0;
        if (!any && !idle)
            continue;   /* a function that never ran */
        rows[f->n] = rows[r];
        derive(&rows[f->n++], tc);
    }
    derive(&f->total, tc);
    derive(&f->whole, tc);
    f->rows = rows;
    *out = f;
    return SOCMON_OK;
}

void socmon_functions_free(socmon_functions *f)
{
    free(f);
}
