/* The CSV format (-x SEP): one record per line for spreadsheets and scripts. Totals are
 * "type,name,instance,value,unit" records (counter, metric, hotspot), every counter included
 * (zeros too); repeated runs (stat -r) add a "stddev" field after unit, perf -x's spread
 * ("0.12%") in perf's place for it (after value, unit and name); perf_event counts add a
 * "pcnt-running" field (perf -x's), empty in metric records; a timeline has one column per
 * metric result and, with opts.deltas, one per counter delta. Every field that needs it is
 * quoted by the one rule in export/table.c (smn_csv_write). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/fmt_profile.h"
#include "export/fmt_diff.h"
#include "export/fmt_sweep.h"
#include "export/output_format.h"
#include "export/table.h"

/* A totals document's header is written with its first record: only the counters say whether
 * they carry perf_event running shares, and then every record has that field (empty where it
 * means nothing), so the document stays rectangular. */
typedef struct csv_state {
    int header, running;
} csv_state;

static socmon_status csv_begin(smn_output *o)
{
    if (o->run.doc != SOCMON_DOC_TOTALS)
        return SOCMON_OK; /* a timeline's header names its columns: begin_intervals */
    if (!(o->state = calloc(1, sizeof(csv_state))))
        return socmon_fail(SOCMON_ENOMEM, "csv: out of memory");
    return SOCMON_OK;
}

static socmon_status header(smn_output *o, int running)
{
    csv_state *cs = o->state;
    if (!cs || cs->header)
        return SOCMON_OK;
    char c = o->opts.sep;
    cs->header = 1;
    cs->running = running;
    smn_sink_printf(o->sink, "type%cname%cinstance%cvalue%cunit", c, c, c, c);
    if (o->run.runs > 1)
        smn_sink_printf(o->sink, "%cstddev", c);
    if (running)
        smn_sink_printf(o->sink, "%cpcnt-running", c);
    return smn_sink_putc(o->sink, '\n');
}

/* sd: the record's spread ("0.12%"), NULL for none; the field exists only in repeated runs, so
 * every record of a document has the same fields; pct likewise where the counters have it. */
static socmon_status csv_record_pct(smn_output *o, const char *type, const char *name, const char *inst,
                                    const char *val, const char *unit, const char *sd, const char *pct)
{
    socmon_status st = header(o, pct != NULL);
    const csv_state *cs = o->state;
    const char *f[7] = {type, name, inst, val, unit};
    int nf = 5;
    if (o->run.runs > 1)
        f[nf++] = sd ? sd : "";
    if (cs && cs->running)
        f[nf++] = pct ? pct : "";
    for (int i = 0; i < nf && st == SOCMON_OK; i++) {
        if (i)
            smn_sink_putc(o->sink, o->opts.sep);
        st = smn_csv_write(o->sink, f[i], o->opts.sep);
    }
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}

static socmon_status csv_record(smn_output *o, const char *type, const char *name, const char *inst,
                                const char *val, const char *unit, const char *sd)
{
    return csv_record_pct(o, type, name, inst, val, unit, sd, NULL);
}

/* perf -x's spread of a mean: "0.12%"; NULL without one. */
static const char *spread(const smn_output *o, const double *sd, size_t i, double mean, char *buf, size_t len)
{
    if (o->run.runs < 2 || !sd)
        return NULL;
    if (!isfinite(mean))
        return ""; /* nothing to spread: the value is undefined or a label */
    snprintf(buf, len, "%.2f%%", smn_stddev_pct(mean, sd[i]));
    return buf;
}

static socmon_status counter_records(smn_output *o, const smn_counter_rows *r, const char *type,
                                     const double *sd)
{
    socmon_status st = SOCMON_OK;
    const double *run = r->list->running;
    for (size_t j = 0; j < r->n && st == SOCMON_OK; j++) {
        size_t i = r->idx[j];
        char v[32], sp[32], pct[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)r->values[i]);
        /* perf_event counts: the share of enabled time counted, perf -x's pcnt-running field */
        if (run && isnan(run[i]))
            snprintf(v, sizeof v, "<not counted>");
        if (run)
            snprintf(pct, sizeof pct, "%.2f", isnan(run[i]) ? 0.0 : run[i]);
        st = csv_record_pct(o, type, r->list->names[i], r->list->c[i].instance, v, r->list->c[i].unit,
                            spread(o, sd, i, strcmp(type, "counter") == 0 ? smn_counter_spread_mean(o, r->values, i)
                                                                     : (double)r->values[i], sp, sizeof sp),
                            run ? pct : NULL);
    }
    for (size_t k = 0; run && strcmp(type, "counter") == 0 && k < r->list->nunsupported && st == SOCMON_OK; k++)
        st = csv_record_pct(o, type, r->list->unsupported[k], "", "<not supported>", "", "", "0.00");
    return st;
}

static socmon_status csv_counters(smn_output *o, const smn_counter_rows *r)
{
    return counter_records(o, r, "counter", o->run.counter_stddev);
}

static socmon_status csv_hotspots(smn_output *o, const smn_counter_rows *r)
{
    return counter_records(o, r, "hotspot", o->run.counter_stddev);
}

static socmon_status csv_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                 const double *values)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < socmon_metrics_nresults(m) && st == SOCMON_OK; i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        char v[48], sp[32];
        const char *unit;
        smn_metric_text(r->def, values[i], v, sizeof v, &unit);
        st = csv_record(o, "metric", r->def->name, r->instance, v, unit,
                        spread(o, o->run.metric_stddev, i, smn_metric_label(r->def, values[i]) ? NAN : values[i],
                               sp, sizeof sp));
    }
    return st;
}

static size_t nresults(const smn_output *o)
{
    return o->cols.metrics ? socmon_metrics_nresults(o->cols.metrics) : 0;
}

static socmon_status csv_begin_intervals(smn_output *o)
{
    const smn_interval_cols *c = &o->cols;
    char sep = o->opts.sep;
    socmon_status st = smn_sink_printf(o->sink, "t_ns%cinterval_ns%cflags", sep, sep);
    if (o->run.nphases)   /* only with phases: other files keep their columns */
        st = smn_sink_printf(o->sink, "%cphase", sep);
    for (size_t k = 0; k < nresults(o) && st == SOCMON_OK; k++) {
        char h[160];
        smn_result_name(socmon_metrics_result(c->metrics, k), h, sizeof h);
        smn_sink_putc(o->sink, sep);
        st = smn_csv_write(o->sink, h, sep);
    }
    for (size_t i = 0; o->opts.deltas && i < c->counters->n && st == SOCMON_OK; i++) {
        smn_sink_putc(o->sink, sep);
        st = smn_csv_write(o->sink, c->counters->names[i], sep);
    }
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}

/* Metric values are plain numbers here (no labels, empty when undefined): columns a
 * spreadsheet can compute with. */
static socmon_status csv_row(smn_output *o, const socmon_row *row)
{
    char sep = o->opts.sep, flags[400];
    smn_row_flags(o, row, flags, sizeof flags);
    smn_sink_printf(o->sink, "%llu%c%llu%c", (unsigned long long)row->t_ns, sep,
                       (unsigned long long)row->dt_ns, sep);
    socmon_status st = smn_csv_write(o->sink, flags, sep);
    if (st == SOCMON_OK && o->run.nphases) {
        smn_sink_putc(o->sink, sep);
        const char *phase = smn_output_row_phase(o, row);
        st = smn_csv_write(o->sink, phase ? phase : "", sep);
    }
    for (size_t k = 0; k < nresults(o) && st == SOCMON_OK; k++) {
        double x = row->metrics ? row->metrics[k] : NAN; /* not evaluated: empty, columns stay aligned */
        char v[48];
        smn_format_value(v, sizeof v, x);
        smn_sink_putc(o->sink, sep);
        st = smn_csv_write(o->sink, isnan(x) ? "" : v, sep);
    }
    for (size_t i = 0; o->opts.deltas && i < o->cols.counters->n && st == SOCMON_OK; i++)
        st = smn_sink_printf(o->sink, "%c%llu", sep, (unsigned long long)row->deltas[smn_col(o, i)]);
    return st == SOCMON_OK ? smn_sink_putc(o->sink, '\n') : st;
}

/* A program's functions: "function,cycles,...,cpi,cycle_share", one record each, then "total"
 * (an empty field for a column the source lacks, 0 for a CPI without instructions). */
static socmon_status csv_functions(smn_output *o, const socmon_functions *f)
{
    char c = o->opts.sep;
    smn_sink_printf(o->sink, "function");
    for (size_t k = 0; k < SOCMON_FUNCTION_COLS; k++)
        smn_sink_printf(o->sink, "%c%s", c, socmon_function_col(k));
    socmon_status st = smn_sink_printf(o->sink, "%ccpi%ccycle_share\n", c, c);
    for (size_t i = 0; i <= f->n && st == SOCMON_OK; i++) {
        const socmon_function_row *r = i < f->n ? &f->rows[i] : &f->total;
        smn_csv_write(o->sink, r->name, c);
        for (size_t k = 0; k < SOCMON_FUNCTION_COLS; k++)
            smn_sink_printf(o->sink, r->has & (1u << k) ? "%c%lld" : "%c", c, (long long)r->v[k]);
        st = smn_sink_printf(o->sink, "%c%.6g%c%.4f\n", c, isnan(r->cpi) ? 0 : r->cpi, c, r->share);
    }
    return st;
}

/* A document with no records still has its header. */
static socmon_status csv_end(smn_output *o)
{
    return header(o, 0);
}

static void csv_release(smn_output *o)
{
    free(o->state);
    o->state = NULL;
}

/* What a recording file holds (report --stats): one header row and one row, the JSON format's
 * fields in its order. */
static socmon_status csv_file_facts(smn_output *o, const smn_file_facts *f)
{
    static const char *const names[] = {"file", "version", "samples", "counters", "blocks", "file_bytes",
                                        "bytes_per_value", "complete", "blocks_lost", "bytes_lost",
                                        "samples_lost", "samples_lost_known", "ns_lost", "flush_ns", "gaps",
                                        "gap_samples", "gap_ns", "lost", "clock", "attachments",
                                        "attachment_bytes"};
    enum { NF = sizeof names / sizeof names[0] };
    const socmon_recording_info *in = &f->info;
    const uint64_t u[NF] = {0, in->version, f->samples, f->counters, in->blocks, in->file_bytes, 0,
                            (uint64_t)in->complete, in->blocks_lost, in->bytes_lost, in->samples_lost,
                            (uint64_t)in->samples_lost_known, in->ns_lost, in->flush_ns, in->gaps,
                            in->gap_samples, in->gap_ns, 0, 0, f->attachments, f->attachment_bytes};
    char num[NF][32];
    for (int i = 0; i < NF; i++)
        snprintf(num[i], sizeof num[0], "%llu", (unsigned long long)u[i]);
    snprintf(num[6], sizeof num[0], "%.4f", f->bytes_per_value);
    for (int i = 0; i < NF; i++) {
        smn_csv_write(o->sink, names[i], o->opts.sep);
        smn_sink_putc(o->sink, i == NF - 1 ? '\n' : o->opts.sep);
    }
    socmon_status st = SOCMON_OK;
    for (int i = 0; i < NF; i++) {
        /* lost and clock are text, before the two attachment counts */
        smn_csv_write(o->sink, i == 0 ? f->file : i == NF - 4 ? in->what : i == NF - 3 ? f->clock : num[i],
                         o->opts.sep);
        st = smn_sink_putc(o->sink, i == NF - 1 ? '\n' : o->opts.sep);
    }
    return st;
}

/* Counters the program stopped (Ibex mcountinhibit): one "inhibited" record each, its value the
 * cycles it was stopped for, so a spreadsheet sees the hole that JSON's "inhibited" and the
 * table's note describe (issue 28). */
/* The run's results: one "result" record each (name, value, unit). */
static socmon_status csv_results(smn_output *o, const socmon_result *x, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        char v[48];
        snprintf(v, sizeof v, "%.17g", x[i].value);
        st = csv_record(o, "result", x[i].name, "", v, x[i].unit ? x[i].unit : "", NULL);
    }
    return st;
}

static socmon_status csv_inhibited(smn_output *o, const socmon_inhibited *x, size_t n)
{
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        char v[32];
        snprintf(v, sizeof v, "%llu", (unsigned long long)x[i].inhibited_cycles);
        st = csv_record(o, "inhibited", x[i].counter, "", v, "cycles", NULL);
    }
    return st;
}

static const smn_timeline_ops csv_timeline = {
    .begin_intervals = csv_begin_intervals, .row = csv_row,
};

static const smn_document_ops csv_documents = {
    .file_facts = csv_file_facts, .diff = smn_csv_diff, .sweep = smn_csv_sweep,
    .profile = smn_csv_profile,
};

const smn_output_format smn_format_csv = {
    .name = "csv", .begin = csv_begin, .counters = csv_counters, .metrics = csv_metrics,
    .hotspots = csv_hotspots, .inhibited = csv_inhibited, .results = csv_results,
    .functions = csv_functions, .end = csv_end, .release = csv_release, .timeline = &csv_timeline,
    .documents = &csv_documents,
};
