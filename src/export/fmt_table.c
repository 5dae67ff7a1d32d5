/* The table format: what people read in a terminal. Totals come as headed sections of aligned
 * columns; every counter and every metric result is shown, zero and idle ones too, as perf
 * prints everything it counted; repeated runs (stat -r) add perf's "( +- 0.12% )" after a value;
 * a timeline is one aligned table of the chosen metrics, so its rows are kept until
 * end_intervals, when the column widths are known.
 *
 * Numbers are for scanning: counts with thousands separators (unless opts.no_big_num), each
 * metric with its one precision in every row, units in the timeline's headers, "simulated"
 * beside a model's elapsed time, and totals headed as what they are: values over the run. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/fmt_profile.h"
#include "export/fmt_check.h"
#include "export/fmt_diff.h"
#include "export/output_format.h"
#include "export/table.h"

/* Cell sizes of the timeline table: longer metric names and values are cut, never overflow. */
#define NAME_MAX_LEN 96
#define CELL_MAX_LEN 48

/* s as the heading shows it: itself, or (a recording's or remote agent's text holding control
 * bytes) escaped into buf, so a target name cannot clear the screen or forge a line. */
static const char *shown(char *buf, size_t cap, const char *s)
{
    if (!s || smn_text_clean(s))
        return s;
    smn_text_escape(buf, cap, s);
    return buf;
}

static socmon_status table_begin(smn_output *o)
{
    const smn_run_info *r = &o->run;
    if (r->doc != SOCMON_DOC_TOTALS)
        return SOCMON_OK; /* the timeline's heading comes with its table */
    /* A sink repeats its first failure, so the status of the last write covers them all. */
    smn_sink *s = o->sink;
    char tb[512], wb[512];
    smn_sink_printf(s, "\n %s for target '%s'", r->title ? r->title : "Results", shown(tb, sizeof tb, r->target));
    if (r->workload)
        smn_sink_printf(s, ", workload '%s'", shown(wb, sizeof wb, r->workload));
    /* The elapsed time closes the document, as perf's does (table_end). */
    if (r->runs > 1)
        smn_sink_printf(s, " (%u runs)", r->runs); /* as perf stat -r's heading */
    socmon_status st = smn_sink_puts(s, ":\n\n");
    if (r->recording) {
        char n[32], m[32];
        smn_output_count(o, r->samples, n, sizeof n);
        smn_output_count(o, r->missed, m, sizeof m);
        st = smn_sink_printf(s, "  %s samples, %s intervals missed\n\n", n, m);
    }
    if (r->implausible_intervals) {
        char k[32];
        smn_output_count(o, r->implausible_intervals, k, sizeof k);
        smn_sink_printf(s, "  %s interval%s with implausible values:", k, r->implausible_intervals == 1 ? "" : "s");
        if (r->implausible && *r->implausible)
            smn_sink_printf(s, " %s moved more than its maximum rate allows", r->implausible);
        if (r->dead_bus && *r->dead_bus)
            smn_sink_printf(s, "%s %s read all-ones (a dead bus)", r->implausible && *r->implausible ? ";" : "",
                            r->dead_bus);
        st = smn_sink_puts(s, ".\n  Their deltas are counted as read; the metrics over them are undefined (-).\n\n");
    }
    return st;
}

/* Writes t with the CLI's two-space indent and frees it. */
static socmon_status write_table(smn_output *o, smn_table *t)
{
    socmon_status st = smn_table_write(t, o->sink, "  ");
    smn_table_free(t);
    return st;
}

/* The end of a totals table: t as built (st: the status of building it), written and freed. */
static socmon_status finish_table(smn_output *o, smn_table *t, socmon_status st)
{
    if (st != SOCMON_OK) {
        smn_table_free(t);
        return st;
    }
    return write_table(o, t);
}

/* perf stat -r's spread after a value: "( +- 0.12% )"; "" for a single run and for a value
 * with no number to spread (undefined, or a label). */
static void spread(const smn_output *o, const double *sd, size_t i, double mean, char *buf, size_t len)
{
    *buf = '\0';
    if (o->run.runs > 1 && sd && isfinite(mean))
        snprintf(buf, len, "( +- %5.2f%% )", smn_stddev_pct(mean, sd[i]));
}

/* A table folds the counters that stayed 0 into one line when there are at least this many:
 * most of an ESP SoC's 59 monitors per tile read 0 in any one workload, and 200 lines of zeros
 * hide the counts that matter. Fewer (a perf-like selection) are listed as perf lists them. */
#define ZERO_FOLD_MIN 10

/* Counter i stayed 0 and says nothing else: no spread over runs, and it was counted. */
static int folds(const smn_output *o, const smn_counter_rows *r, size_t i)
{
    const double *run = r->list->running, *sd = o->run.counter_stddev;
    return r->values[i] == 0 && !(run && (isnan(run[i]) || run[i] < 100)) &&
           !(o->run.runs > 1 && sd && sd[i] != 0);
}

/* "  (206 counters stayed 0: tile0.dvfs_op1, tile0.dvfs_op2, ... ; --zeros lists them)" */
static socmon_status zero_note(smn_output *o, const smn_counter_rows *r, size_t nzero)
{
    socmon_status st = smn_sink_printf(o->sink, "  (%zu more counters stayed 0:", nzero);
    size_t listed = 0;
    for (size_t j = 0; j < r->n && listed < 4 && st == SOCMON_OK; j++)
        if (folds(o, r, r->idx[j])) {
            char nb[512];   /* a recording's names are escaped as the table's cells are */
            st = smn_sink_printf(o->sink, "%s %s", listed++ ? "," : "", shown(nb, sizeof nb, r->list->names[r->idx[j]]));
        }
    return st == SOCMON_OK ? smn_sink_printf(o->sink, "%s; --zeros lists them)\n", nzero > listed ? ", ..." : "")
                           : st;
}

static socmon_status table_counters(smn_output *o, const smn_counter_rows *r)
{
    int rep = o->run.runs > 1 && o->run.counter_stddev;
    const double *run = r->list->running;
    size_t nzero = 0;
    for (size_t j = 0; !o->opts.zeros && j < r->n; j++)
        nzero += (size_t)folds(o, r, r->idx[j]);
    int fold = nzero >= ZERO_FOLD_MIN;
    const char *hdr[] = {"counter", "value", "unit", "", ""};
    smn_table *t;
    socmon_status st = smn_table_new(3 + rep + (run != NULL), "lrlll", hdr, &t);
    for (size_t j = 0; j < r->n && st == SOCMON_OK; j++) {
        size_t i = r->idx[j];
        if (fold && folds(o, r, i))
            continue;
        char v[32], sp[32], pct[32] = "";
        smn_output_count(o, r->values[i], v, sizeof v);
        spread(o, o->run.counter_stddev, i, smn_counter_spread_mean(o, r->values, i), sp, sizeof sp);
        if (run && isnan(run[i]))
            snprintf(v, sizeof v, "<not counted>");
        else if (run && run[i] < 100)
            snprintf(pct, sizeof pct, "(%.2f%%)", run[i]);
        const char *row[] = {r->list->names[i], v, r->list->c[i].unit, rep ? sp : pct, pct};
        st = smn_table_add(t, row);
    }
    for (size_t k = 0; k < r->list->nunsupported && st == SOCMON_OK; k++) {
        const char *row[] = {r->list->unsupported[k], "<not supported>", "", "", ""};
        st = smn_table_add(t, row);
    }
    st = finish_table(o, t, st);
    return st == SOCMON_OK && fold ? zero_note(o, r, nzero) : st;
}

/* Metrics a counter selection (-e) leaves without inputs: said once, naming the first. */
static socmon_status skipped_note(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m)
{
    size_t nskip = 0, first = 0;
    for (size_t i = 0; ms && i < socmon_metricset_count(ms); i++)
        if (socmon_metrics_skipped(m, i) && !nskip++)
            first = i;
    if (!nskip)
        return SOCMON_OK;
    return smn_sink_printf(o->sink, "  (%zu metric%s not computed: %s: %s%s)\n", nskip, nskip == 1 ? "" : "s",
                              socmon_metricset_def(ms, first)->name, socmon_metrics_skipped(m, first),
                              nskip > 1 ? "; and others" : "");
}

/* "  (not computed here, their counters are absent: ipc, ghz)" */
static socmon_status absent_note(smn_output *o, const socmon_metrics *m, const double *values, size_t n)
{
    socmon_status st = smn_sink_printf(o->sink, "  (%zu not computed here, their counters are absent:", n);
    const char *sep = " ";
    for (size_t i = 0; i < socmon_metrics_nresults(m) && st == SOCMON_OK; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        if (r->absent && isnan(values[i])) {
            st = smn_sink_printf(o->sink, "%s%s%s%s", sep, r->instance, *r->instance ? "." : "", r->def->name);
            sep = ", ";
        }
    }
    return st == SOCMON_OK ? smn_sink_puts(o->sink, ")\n") : st;
}

static socmon_status table_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                   const double *values)
{
    /* Every result, idle tiles' 0 and undefined ones too: perf shows all it counted, and the
     * table then lists the same results as CSV and JSON. The exception: a result undefined
     * because its counter is absent here (no PMU, not in -e) is named in one line after the
     * table, not given a row of '-' (perf leaves such metrics off). */
    int rep = o->run.runs > 1 && o->run.metric_stddev;
    const char *hdr[] = {"metric", "instance", "value", "unit", "description"};
    const char *hdr_rep[] = {"metric", "instance", "value", "unit", "", "description"};
    smn_table *t;
    socmon_status st = smn_table_new(rep ? 6 : 5, rep ? "llrlll" : "llrll", rep ? hdr_rep : hdr, &t);
    if (st != SOCMON_OK)
        return st;
    smn_sink_puts(o->sink, "\n Metrics over the run:\n\n");
    size_t nabsent = 0;
    for (size_t i = 0; i < socmon_metrics_nresults(m) && st == SOCMON_OK; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        if (r->absent && isnan(values[i])) {
            nabsent++;
            continue;
        }
        char v[48], desc[512], sp[32];
        const char *unit;
        smn_metric_human(o, r->def, values[i], v, sizeof v, &unit);
        spread(o, o->run.metric_stddev, i, smn_metric_label(r->def, values[i]) ? NAN : values[i], sp, sizeof sp);
        const char *d = smn_metric_desc(o, r->def, desc, sizeof desc);
        const char *row[] = {r->def->name, r->instance, v, unit, d};
        const char *row_rep[] = {r->def->name, r->instance, v, unit, sp, d};
        st = smn_table_add(t, rep ? row_rep : row);
    }
    if (st == SOCMON_OK && !smn_table_rows(t) && nabsent) {   /* no row: no header over nothing */
        smn_table_free(t);
        t = NULL;
    }
    st = t ? finish_table(o, t, st) : st;
    if (st == SOCMON_OK && nabsent)
        st = absent_note(o, m, values, nabsent);
    return st == SOCMON_OK ? skipped_note(o, ms, m) : st;
}

/* Hot spots: an aligned table like the others, so a long counter name never pushes the values
 * out of line. */
static socmon_status table_hotspots(smn_output *o, const smn_counter_rows *r)
{
    socmon_status st = smn_sink_printf(o->sink, "\n Hot spots over the run (largest %s):\n\n", r->pattern);
    if (!r->n)
        return smn_sink_puts(o->sink, "  none: every such counter read 0\n");
    smn_table *t;
    if (st != SOCMON_OK || (st = smn_table_new(3, "lrl", NULL, &t)) != SOCMON_OK)
        return st;
    for (size_t j = 0; j < r->n && st == SOCMON_OK; j++) {
        size_t i = r->idx[j];
        char v[32];
        smn_output_count(o, r->values[i], v, sizeof v);
        const char *row[] = {r->list->names[i], v, r->list->c[i].unit};
        st = smn_table_add(t, row);
    }
    if (st != SOCMON_OK) {
        smn_table_free(t);
        return st;
    }
    return write_table(o, t);
}

/* A timeline's rows wait here for end_intervals, which knows the column widths and the span. */
typedef struct timeline {
    smn_table *t;
    uint64_t unit_ns;   /* every time of the column in this one unit (smn_time_unit_ns) */
    uint64_t last_ns;   /* since_ns of the last row: the time the table covers */
    unsigned used;      /* the flag words its rows used: one footnote each (value_notes.c) */
} timeline;

/* A column header: the result's name and, when its values are numbers with a unit, the unit
 * ("l2_hit_rate_all [%]"); a labelled metric shows words, so no unit. */
static void metric_header(const socmon_metric_result_info *r, char *buf, size_t len)
{
    char name[NAME_MAX_LEN];
    smn_result_name(r, name, sizeof name);
    const char *u = r->def->unit;
    if (u && *u && !r->def->nlabels)
        snprintf(buf, len, "%s [%s]", name, u);
    else
        snprintf(buf, len, "%s", name);
}

/* Timeline: time, the chosen metrics (or, with none, the sum of all deltas), flags. */
static socmon_status table_begin_intervals(smn_output *o)
{
    const smn_interval_cols *c = &o->cols;
    size_t ph = o->run.nphases ? 1 : 0;   /* the phase column, only with phases */
    size_t cols = 2 + ph + (c->nshown ? c->nshown : 1);
    char *align = malloc(cols + 1);
    const char **hdr = calloc(cols, sizeof *hdr);
    char(*names)[NAME_MAX_LEN + 32] = calloc(c->nshown + 1, sizeof *names);
    timeline *tl = calloc(1, sizeof *tl);
    char time_hdr[16];
    socmon_status st = SOCMON_OK;
    if (!align || !hdr || !names || !tl) {
        st = socmon_fail(SOCMON_ENOMEM, "table: out of memory for %zu columns", cols);
        goto out;
    }
    memset(align, 'r', cols);
    align[cols - 1] = 'l';
    align[cols] = '\0';
    size_t k = 0;
    tl->unit_ns = smn_time_unit_ns(o->run.interval_ns);
    snprintf(time_hdr, sizeof time_hdr, "time [%s]", smn_time_unit_name(tl->unit_ns));
    hdr[k++] = time_hdr;
    if (ph) {
        align[k] = 'l';
        hdr[k++] = "phase";
    }
    for (size_t j = 0; j < c->nshown; j++) {
        metric_header(socmon_metrics_result(c->metrics, c->shown[j]), names[j], sizeof names[j]);
        hdr[k++] = names[j];
    }
    if (!c->nshown)
        hdr[k++] = "events";
    hdr[k] = "flags";
    if ((st = smn_table_new(cols, align, hdr, &tl->t)) == SOCMON_OK) {
        o->state = tl;
        tl = NULL;
    }
out:
    free(align), free(hdr), free(names), free(tl);
    return st;
}

static socmon_status table_row(smn_output *o, const socmon_row *row)
{
    const smn_interval_cols *c = &o->cols;
    timeline *tl = o->state;
    size_t ph = o->run.nphases ? 1 : 0;
    size_t cols = 2 + ph + (c->nshown ? c->nshown : 1);
    const char **cell = calloc(cols, sizeof *cell);
    char(*text)[CELL_MAX_LEN] = calloc(cols, sizeof *text);
    socmon_status st = SOCMON_OK;
    if (!cell || !text) {
        st = socmon_fail(SOCMON_ENOMEM, "table: out of memory for a row");
        goto out;
    }
    size_t k = 0;
    smn_format_time(text[k], sizeof text[k], row->since_ns, tl->unit_ns, !o->opts.no_big_num);
    if (ph) {
        k++;
        const char *phase = smn_output_row_phase(o, row);
        snprintf(text[k], sizeof text[k], "%s", phase && *phase ? phase : "-");
    }
    for (size_t j = 0; j < c->nshown; j++) {
        k++;
        const socmon_metric_result_info *r = socmon_metrics_result(c->metrics, c->shown[j]);
        smn_metric_human(o, r->def, row->metrics ? row->metrics[c->shown[j]] : NAN, text[k], sizeof text[k],
                            NULL);
    }
    if (!c->nshown) {
        uint64_t sum = 0;
        for (size_t i = 0; i < c->counters->n; i++)
            sum += row->deltas[smn_col(o, i)];
        k++;
        smn_output_count(o, sum, text[k], sizeof text[k]);
    }
    k++;
    smn_row_flags_used(o, row, text[k], sizeof text[k], &tl->used);
    for (size_t i = 0; i < cols; i++)
        cell[i] = text[i];
    st = smn_table_add(tl->t, cell);
    tl->last_ns = row->since_ns;
out:
    free(cell), free(text);
    return st;
}

static socmon_status table_end_intervals(smn_output *o)
{
    const smn_run_info *r = &o->run;
    timeline *tl = o->state;
    smn_table *t = tl->t;
    o->state = NULL;
    char el[48];
    smn_output_elapsed(o, tl->last_ns, el, sizeof el);
    char tb[512], db[512];
    const char *target = shown(tb, sizeof tb, r->target), *device = shown(db, sizeof db, r->device);
    if (r->recording) {
        char n[32];
        smn_output_count(o, r->samples, n, sizeof n);
        smn_sink_printf(o->sink, "recording of '%s' (%s), %s samples, %s\n\n", target,
                           device ? device : "?", n, el);
    } else {
        smn_sink_printf(o->sink, "%s of target '%s', %s\n\n", r->title ? r->title : "intervals", target, el);
    }
    unsigned used = tl->used;
    free(tl);
    socmon_status st = write_table(o, t);
    if (st == SOCMON_OK)
        st = smn_row_footnotes(o->sink, used);
    return st == SOCMON_OK ? smn_table_findings(o) : st;
}

static socmon_status table_note(smn_output *o, const char *text)
{
    return smn_sink_printf(o->sink, "\n  %s\n", text);
}

/* Counters the program stopped: one note each, under the counts they qualify. */
static socmon_status table_inhibited(smn_output *o, const socmon_inhibited *x, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK;) {
        char text[320];
        size_t k = socmon_inhibited_text(&x[i], n - i, text, sizeof text);
        st = smn_sink_printf(o->sink, "%s  note: %s\n", i ? "" : "\n", text);
        i += k;
    }
    return st;
}

/* The run's results, after the counts: a value, its unit and what it is, one a line. Whole
 * values are grouped like counts; others get two decimals. */
static socmon_status table_results(smn_output *o, const socmon_result *x, size_t n)
{
    socmon_status st = smn_sink_printf(o->sink, "\n Run results:\n\n");
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        char num[48];
        double v = x[i].value;
        smn_format_fixed(num, sizeof num, v, v == floor(v) ? 0 : 2, !o->opts.no_big_num);
        st = smn_sink_printf(o->sink, "  %-16s %14s  %-8s %s\n", x[i].name, num, x[i].unit ? x[i].unit : "",
                             x[i].desc ? x[i].desc : "");
    }
    return st;
}

/* A program's functions (report --by-symbol): one fixed-width line each, counts as every table
 * writes them (thousands separators unless --no-big-num; a function that wrote a counter can
 * read a negative count, docs/ibex.md); "-" for a column the source lacks and a CPI without
 * instructions. */
static socmon_status fn_row(smn_output *o, const socmon_function_row *r)
{
    char nb[256];
    smn_sink_printf(o->sink, "  %-28s", shown(nb, sizeof nb, r->name));
    for (size_t k = 0; k < SOCMON_FUNCTION_COLS; k++) {
        char num[40];
        smn_format_fixed(num, sizeof num, (double)r->v[k], 0, !o->opts.no_big_num);
        if (r->has & (1u << k))
            smn_sink_printf(o->sink, " %*s", k < 2 ? 12 : 10, num);
        else
            smn_sink_printf(o->sink, " %*s", k < 2 ? 12 : 10, "-");
    }
    if (isnan(r->cpi))
        smn_sink_printf(o->sink, " %7s", "-");
    else
        smn_sink_printf(o->sink, " %7.3f", r->cpi);
    return smn_sink_printf(o->sink, " %6.2f%%\n", r->share);
}

static socmon_status table_functions(smn_output *o, const socmon_functions *f)
{
    smn_sink_printf(o->sink, "\n Cycles by function (ELF symbol), every event attributed to the function whose "
                                "instruction caused it:\n\n  %-28s", "function");
    for (size_t k = 0; k < SOCMON_FUNCTION_COLS; k++)
        smn_sink_printf(o->sink, " %*s", k < 2 ? 12 : 10, socmon_function_col(k));
    smn_sink_printf(o->sink, " %7s %7s\n", "CPI", "share");
    for (size_t r = 0; r < f->n; r++)
        fn_row(o, &f->rows[r]);
    fn_row(o, &f->total);
    return smn_sink_printf(o->sink, "\n  total %s the whole-program counters%s\n\n",
                              f->mismatch ? "DIFFERS FROM" : "equals", f->mismatch ? " (see docs/ibex.md)" : "");
}

/* Totals end as perf's do, with the elapsed time in seconds, "simulated" when it is a model's. */
static socmon_status table_end(smn_output *o)
{
    const smn_run_info *r = &o->run;
    if (r->doc != SOCMON_DOC_TOTALS)
        return SOCMON_OK;
    if (r->elapsed_ns)
        smn_sink_printf(o->sink, "\n %17.9f seconds %stime elapsed\n", (double)r->elapsed_ns / 1e9,
                           r->simulated ? "simulated " : "");
    socmon_status st = smn_table_findings(o);
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}

static void table_release(smn_output *o)
{
    timeline *tl = o->state;
    if (tl)
        smn_table_free(tl->t);
    free(tl);
    o->state = NULL;
}

/* What a recording file holds (report --stats): a person reads these, so counts are grouped like
 * every human output (--no-big-num: plain). */
static socmon_status table_file_facts(smn_output *o, const smn_file_facts *f)
{
    char a[32], b[32], c[32];
    smn_output_count(o, f->samples, a, sizeof a);
    smn_output_count(o, f->info.blocks, b, sizeof b);
    smn_output_count(o, f->info.file_bytes, c, sizeof c);
    socmon_status st = smn_sink_printf(o->sink, "recording %s\n  format version:  %u\n  samples:         %s\n"
                              "  counters:        %zu\n  blocks:          %s\n  file bytes:      %s\n"
                              "  bytes per value: %.2f\n  lost:            %s\n  clock:           %s\n",
                              f->file, f->info.version, a, f->counters, b, c, f->bytes_per_value,
                              f->info.complete ? "nothing" : f->info.what, f->clock);
    if (st == SOCMON_OK && f->attachments) {   /* documents beside the samples: not part of the bytes per value */
        char d[32];
        smn_output_count(o, f->attachment_bytes, d, sizeof d);
        st = smn_sink_printf(o->sink, "  attachments:     %zu (%s bytes: %s)\n", f->attachments, d, f->attachment_names);
    }
    return st;
}

static const smn_timeline_ops table_timeline = {
    .begin_intervals = table_begin_intervals, .row = table_row, .end_intervals = table_end_intervals,
};

static const smn_document_ops table_documents = {
    .file_facts = table_file_facts, .diff = smn_table_diff, .check = smn_table_check,
    .profile = smn_table_profile,
};

const smn_output_format smn_format_table = {
    .name = "table", .selects_metrics = 1, .begin = table_begin, .counters = table_counters,
    .metrics = table_metrics, .hotspots = table_hotspots, .functions = table_functions,
    .note = table_note, .end = table_end, .release = table_release, .inhibited = table_inhibited,
    .results = table_results, .timeline = &table_timeline, .documents = &table_documents,
};
