/* Fuzzes the reader of sweep tables (src/analysis/sweep_read.c: JSON and CSV), which resuming and
 * merging trust. Besides "never crash": an error names the file; an accepted table has its rows in
 * ascending point order, each below the total, and merges into a copy of itself; written back
 * as JSON (export/fmt_sweep.c) it reads again to the same points, statuses and number of values,
 * and writing that again changes nothing (it merges with the first rewrite). CSV's round trip
 * is tests/analysis/test_sweep.c's. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "socmon/sweep.h"

static socmon_sweep *rewrite(const socmon_sweep *s, const char *format)
{
    smn_sink *sink;
    smn_output *o;
    if (smn_sink_memory(&sink) != SOCMON_OK || smn_output_open(format, sink, NULL, &o) != SOCMON_OK)
        abort();
    if (smn_output_sweep(o, s) != SOCMON_OK || smn_output_end(o) != SOCMON_OK) {
        fprintf(stderr, "the %s rewrite failed: %s\n", format, socmon_errmsg());
        abort();
    }
    size_t len;
    const char *data = smn_sink_memory_data(sink, &len);
    socmon_sweep *back = NULL;
    if (socmon_sweep_parse(data, len, "back", &back) != SOCMON_OK) {
        fprintf(stderr, "the %s rewrite does not read back: %s\n", format, socmon_errmsg());
        abort();
    }
    smn_output_free(o);
    smn_sink_close(sink);
    return back;
}

static void same(const socmon_sweep *a, const socmon_sweep *b)
{
    if (strcmp(socmon_sweep_id(a), socmon_sweep_id(b)) != 0 || socmon_sweep_count(a) != socmon_sweep_count(b) ||
        socmon_sweep_total(a) != socmon_sweep_total(b))
        abort();
    for (size_t i = 0; i < socmon_sweep_count(a); i++) {
        const socmon_sweep_row *x = socmon_sweep_row_at(a, i), *y = socmon_sweep_row_at(b, i);
        if (x->point.index != y->point.index || x->ok != y->ok || x->nvalues != y->nvalues || !*y->point.target !=
            !*x->point.target)   /* the text itself may come back escaped */
            abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    socmon_sweep *s = NULL;
    if (socmon_sweep_parse((const char *)data, size, "f.csv", &s) != SOCMON_OK) {
        if (strncmp(socmon_errmsg(), "f.csv", 5) != 0)
            abort();
        return 0;
    }
    for (size_t i = 0; i < socmon_sweep_count(s); i++) {
        const socmon_sweep_row *r = socmon_sweep_row_at(s, i);
        if ((i && r->point.index <= socmon_sweep_row_at(s, i - 1)->point.index) ||
            (socmon_sweep_total(s) && r->point.index >= socmon_sweep_total(s)) || !r->point.target ||
            (!r->ok && !r->error))
            abort();
    }
    /* written as JSON, every table reads back with its points; written again, it is the same table
     * (text that is not UTF-8 is escaped the first time, never again), so it merges with itself */
    socmon_sweep *j = rewrite(s, "json"), *j2 = rewrite(j, "json");
    same(s, j);
    socmon_sweep *copy = NULL;
    if (socmon_sweep_new(socmon_sweep_id(s), socmon_sweep_total(s), &copy) != SOCMON_OK ||
        socmon_sweep_merge(copy, s, "s") != SOCMON_OK || socmon_sweep_merge(copy, s, "s") != SOCMON_OK)
        abort();
    same(s, copy);
    socmon_sweep_free(copy);
    copy = NULL;
    if (socmon_sweep_new(socmon_sweep_id(j), socmon_sweep_total(j), &copy) != SOCMON_OK ||
        socmon_sweep_merge(copy, j, "j") != SOCMON_OK || socmon_sweep_merge(copy, j2, "j2") != SOCMON_OK)
        abort();
    socmon_sweep_free(copy);
    socmon_sweep_free(j2);
    socmon_sweep_free(j);
    socmon_sweep_free(s);
    return 0;
}
