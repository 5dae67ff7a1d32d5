/* The output interface's front: the format registry, the order of calls, and the choices
 * every format shares (which counters to show, which are hot spots, how a metric value reads),
 * so the formats themselves only render (export/fmt_*.c). */
#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/output_format.h"
#include "export/web_assets.h"
#include "export/table.h"
#include "socmon/sample.h"

/* Adding a format: its file, and its line here. */
static const smn_output_format *const formats[] = {
    &smn_format_table,
    &smn_format_csv,
    &smn_format_json,
    &smn_format_live,
    &smn_format_prometheus,
    &smn_format_openmetrics,
    &smn_format_perfetto,
    &smn_format_html,
    &smn_format_junit,
    &smn_format_markdown,
    &smn_format_parquet,
};
#define NFORMATS (sizeof formats / sizeof formats[0])

enum { STAGE_OPEN, STAGE_BEGUN, STAGE_INTERVALS, STAGE_FACTS, STAGE_ENDED };

/* A format without timeline or document ops has each of them NULL. */
static const smn_timeline_ops no_timeline;
static const smn_document_ops no_documents;

static const smn_timeline_ops *timeline(const smn_output *o)
{
    return o->fmt->timeline ? o->fmt->timeline : &no_timeline;
}

static const smn_document_ops *documents(const smn_output *o)
{
    return o->fmt->documents ? o->fmt->documents : &no_documents;
}

const smn_output_format *smn_output_format_find(const char *name)
{
    for (size_t i = 0; name && i < NFORMATS; i++)
        if (strcmp(formats[i]->name, name) == 0)
            return formats[i];
    return NULL;
}

const char *smn_output_format_name(size_t i)
{
    return i < NFORMATS ? formats[i]->name : NULL;
}

socmon_status smn_output_open(const char *name, smn_sink *sink, const smn_output_opts *opts,
                                 smn_output **out)
{
    if (!sink || !out)
        return socmon_fail(SOCMON_EINVAL, "smn_output_open: NULL argument");
    const smn_output_format *f = smn_output_format_find(name);
    if (!f) {
        char known[128] = "";
        for (size_t i = 0; i < NFORMATS; i++)
            snprintf(known + strlen(known), sizeof known - strlen(known), "%s%s", i ? ", " : "", formats[i]->name);
        return socmon_fail(SOCMON_ENOENT, "unknown output format '%s' (known: %s)", name ? name : "(null)", known);
    }
    if (f->needs_page) {
        socmon_status st = smn_web_require("the html format (--html)");
        if (st != SOCMON_OK)
            return st;
    }
    smn_output *o = calloc(1, sizeof *o);
    if (!o)
        return socmon_fail(SOCMON_ENOMEM, "smn_output_open: out of memory");
    o->fmt = f;
    o->sink = sink;
    o->opts = opts ? *opts : (smn_output_opts){.sep = ','};
    *out = o;
    return SOCMON_OK;
}

void smn_output_free(smn_output *o)
{
    if (!o)
        return;
    if (o->fmt->release)
        o->fmt->release(o);
    socmon_findings_free(o->findings);
    free(o);
}

int smn_output_selects_metrics(const smn_output *o)
{
    return o && o->fmt->selects_metrics;
}

/* Checks that a call comes at stage `from` and moves the output to stage `to`. */
static socmon_status move(smn_output *o, int from, int to, const char *call)
{
    if (!o)
        return socmon_fail(SOCMON_EINVAL, "%s: NULL output", call);
    if (o->stage != from)
        return socmon_fail(SOCMON_ESTATE, "%s: not valid here (%s)", call,
                           o->stage == STAGE_OPEN        ? "begin was not called"
                           : o->stage == STAGE_INTERVALS ? "inside begin_intervals/end_intervals"
                           : o->stage == STAGE_ENDED     ? "the output has ended"
                           : o->stage == STAGE_FACTS     ? "after a whole document only end"
                                                         : "no begin_intervals");
    o->stage = to;
    return SOCMON_OK;
}

socmon_status smn_output_begin(smn_output *o, const smn_run_info *run)
{
    if (!run || !run->target)
        return socmon_fail(SOCMON_EINVAL, "smn_output_begin: need run information with a target");
    socmon_status st = move(o, STAGE_OPEN, STAGE_BEGUN, "smn_output_begin");
    if (st == SOCMON_OK)
        o->run = *run;
    return st == SOCMON_OK && o->fmt->begin ? o->fmt->begin(o) : st;
}

socmon_status smn_output_counters(smn_output *o, const smn_counter_list *s, const uint64_t *values)
{
    if (!s || (s->n && !values))
        return socmon_fail(SOCMON_EINVAL, "smn_output_counters: NULL argument");
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_counters");
    if (st != SOCMON_OK || !o->fmt->counters)
        return st;
    size_t *idx = calloc(s->n + 1, sizeof *idx);
    if (!idx)
        return socmon_fail(SOCMON_ENOMEM, "smn_output_counters: out of memory");
    smn_counter_rows r = {s, values, idx, 0, 0, NULL};
    /* Every counter, zero or not: perf prints what it counted, and a reader must not have to
     * guess whether a missing counter read 0 or was not counted. */
    for (size_t i = 0; i < s->n; i++)
        idx[r.n++] = i;
    st = o->fmt->counters(o, &r);
    free(idx);
    return st;
}

socmon_status smn_output_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                    const double *values)
{
    if (m && !values)
        return socmon_fail(SOCMON_EINVAL, "smn_output_metrics: NULL values");
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_metrics");
    return st == SOCMON_OK && m && o->fmt->metrics ? o->fmt->metrics(o, ms, m, values) : st;
}

typedef struct hot {
    size_t i;
    uint64_t v;
} hot;

/* Largest first; equal values keep the schema's order, so the listing is stable. */
static int by_value_desc(const void *a, const void *b)
{
    const hot *x = a, *y = b;
    return x->v < y->v ? 1 : x->v > y->v ? -1 : (x->i > y->i) - (x->i < y->i);
}

socmon_status smn_output_hotspots(smn_output *o, const smn_counter_list *s, const uint64_t *values,
                                     const char *pattern, size_t n)
{
    if (pattern && (!s || (s->n && !values)))
        return socmon_fail(SOCMON_EINVAL, "smn_output_hotspots: NULL argument");
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_hotspots");
    if (st != SOCMON_OK || !pattern || !o->fmt->hotspots)
        return st;
    hot *h = calloc(s->n + 1, sizeof *h);
    size_t *idx = calloc(s->n + 1, sizeof *idx);
    if (!h || !idx) {
        free(h), free(idx);
        return socmon_fail(SOCMON_ENOMEM, "smn_output_hotspots: out of memory");
    }
    size_t k = 0, matching = 0;
    for (size_t i = 0; i < s->n; i++)
        if (fnmatch(pattern, s->names[i], 0) == 0) {
            matching++;
            if (values[i])
                h[k++] = (hot){i, values[i]};
        }
    /* No such counter in the selection (-e): no section at all, rather than "none". */
    if (matching) {
        qsort(h, k, sizeof *h, by_value_desc);
        if (k > n)
            k = n;
        for (size_t j = 0; j < k; j++)
            idx[j] = h[j].i;
        smn_counter_rows r = {s, values, idx, k, 0, pattern};
        st = o->fmt->hotspots(o, &r);
    }
    free(h), free(idx);
    return st;
}

socmon_status smn_output_begin_intervals(smn_output *o, const smn_interval_cols *cols)
{
    if (!cols || !cols->counters || (cols->nshown && !cols->shown))
        return socmon_fail(SOCMON_EINVAL, "smn_output_begin_intervals: need the columns and counters");
    size_t nm = cols->metrics ? socmon_metrics_nresults(cols->metrics) : 0;
    for (size_t k = 0; k < cols->nshown; k++)
        if (cols->shown[k] >= nm)
            return socmon_fail(SOCMON_ERANGE, "smn_output_begin_intervals: shown result %zu out of range 0..%zu",
                               cols->shown[k], nm ? nm - 1 : 0);
    socmon_status st = move(o, STAGE_BEGUN, STAGE_INTERVALS, "smn_output_begin_intervals");
    if (st == SOCMON_OK)
        o->cols = *cols;
    return st == SOCMON_OK && timeline(o)->begin_intervals ? timeline(o)->begin_intervals(o) : st;
}

size_t smn_output_merge(const smn_output *o)
{
    size_t k = o && o->stage == STAGE_INTERVALS && timeline(o)->merge ? timeline(o)->merge(o) : 1;
    return k ? k : 1;
}

socmon_status smn_output_row(smn_output *o, const socmon_row *row)
{
    socmon_status st = move(o, STAGE_INTERVALS, STAGE_INTERVALS, "smn_output_row");
    if (st == SOCMON_OK && (!row || (o->cols.counters->n && !row->deltas)))
        st = socmon_fail(SOCMON_EINVAL, "smn_output_row: need a row with deltas");
    return st == SOCMON_OK && timeline(o)->row ? timeline(o)->row(o, row) : st;
}

socmon_status smn_output_end_intervals(smn_output *o)
{
    socmon_status st = move(o, STAGE_INTERVALS, STAGE_BEGUN, "smn_output_end_intervals");
    return st == SOCMON_OK && timeline(o)->end_intervals ? timeline(o)->end_intervals(o) : st;
}

socmon_status smn_output_run_totals(smn_output *o, const socmon_totals *t)
{
    socmon_status st = move(o, STAGE_INTERVALS, STAGE_INTERVALS, "smn_output_run_totals");
    if (st == SOCMON_OK && (!t || (o->cols.counters->n && !t->values)))
        st = socmon_fail(SOCMON_EINVAL, "smn_output_run_totals: need the totals, with a value per counter");
    return st == SOCMON_OK && timeline(o)->run_totals ? timeline(o)->run_totals(o, t) : st;
}

socmon_status smn_output_functions(smn_output *o, const socmon_functions *f)
{
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_functions");
    if (st == SOCMON_OK && (!f || o->run.doc != SOCMON_DOC_FUNCTIONS))
        st = socmon_fail(SOCMON_EINVAL, "smn_output_functions: need the rows, in a FUNCTIONS document");
    if (st == SOCMON_OK && !o->fmt->functions)
        st = socmon_fail(SOCMON_ENOTSUP, "the %s format has no per-function rows (use table, CSV or JSON)",
                         o->fmt->name);
    return st == SOCMON_OK ? o->fmt->functions(o, f) : st;
}

socmon_status smn_output_note(smn_output *o, const char *text)
{
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_note");
    return st == SOCMON_OK && text && o->fmt->note ? o->fmt->note(o, text) : st;
}

socmon_status smn_output_inhibited(smn_output *o, const socmon_inhibited *x, size_t n)
{
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_inhibited");
    return st == SOCMON_OK && n && x && o->fmt->inhibited ? o->fmt->inhibited(o, x, n) : st;
}

socmon_status smn_output_results(smn_output *o, const socmon_result *x, size_t n)
{
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_results");
    return st == SOCMON_OK && n && x && o->fmt->results ? o->fmt->results(o, x, n) : st;
}

socmon_status smn_output_program(smn_output *o, const smn_program_run *r)
{
    socmon_status st = move(o, STAGE_BEGUN, STAGE_BEGUN, "smn_output_program");
    return st == SOCMON_OK && r && o->fmt->program ? o->fmt->program(o, r) : st;
}

socmon_status smn_output_findings(smn_output *o, socmon_findings *f)
{
    if (!o || (o->stage != STAGE_BEGUN && o->stage != STAGE_INTERVALS)) {
        socmon_findings_free(f);
        return socmon_fail(SOCMON_ESTATE, "smn_output_findings: only inside a document of totals or a timeline");
    }
    socmon_findings_free(o->findings);
    o->findings = f;
    return SOCMON_OK;
}

int smn_output_shows_inhibited(const smn_output *o)
{
    return o && o->fmt->inhibited != NULL;
}

socmon_status smn_output_file_facts(smn_output *o, const smn_file_facts *f)
{
    if (!f || !f->file)
        return socmon_fail(SOCMON_EINVAL, "smn_output_file_facts: need the facts of a named file");
    socmon_status st = move(o, STAGE_OPEN, STAGE_FACTS, "smn_output_file_facts");
    if (st == SOCMON_OK && !documents(o)->file_facts)
        return socmon_fail(SOCMON_EINVAL, "the %s format cannot show a file's facts (table, csv or json can)",
                           o->fmt->name);
    return st == SOCMON_OK ? documents(o)->file_facts(o, f) : st;
}

socmon_status smn_output_diff(smn_output *o, const socmon_diff *d)
{
    if (!d)
        return socmon_fail(SOCMON_EINVAL, "smn_output_diff: NULL diff");
    socmon_status st = move(o, STAGE_OPEN, STAGE_FACTS, "smn_output_diff");
    if (st == SOCMON_OK && !documents(o)->diff)
        return socmon_fail(SOCMON_EINVAL, "the %s format cannot show a comparison (table, csv, json or html can)",
                           o->fmt->name);
    return st == SOCMON_OK ? documents(o)->diff(o, d) : st;
}

socmon_status smn_output_check(smn_output *o, const socmon_check *c)
{
    if (!c)
        return socmon_fail(SOCMON_EINVAL, "smn_output_check: NULL check");
    socmon_status st = move(o, STAGE_OPEN, STAGE_FACTS, "smn_output_check");
    if (st == SOCMON_OK && !documents(o)->check)
        return socmon_fail(SOCMON_EINVAL, "the %s format cannot show a check (table, junit or markdown can)",
                           o->fmt->name);
    return st == SOCMON_OK ? documents(o)->check(o, c) : st;
}

socmon_status smn_output_sweep(smn_output *o, const socmon_sweep *s)
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "smn_output_sweep: NULL table");
    socmon_status st = move(o, STAGE_OPEN, STAGE_FACTS, "smn_output_sweep");
    if (st == SOCMON_OK && !documents(o)->sweep)
        return socmon_fail(SOCMON_EINVAL, "the %s format cannot show a sweep's table (csv or json can)", o->fmt->name);
    return st == SOCMON_OK ? documents(o)->sweep(o, s) : st;
}

socmon_status smn_output_profile(smn_output *o, const smn_profile_view *v)
{
    if (!v || !v->p)
        return socmon_fail(SOCMON_EINVAL, "smn_output_profile: NULL view");
    socmon_status st = move(o, STAGE_OPEN, STAGE_FACTS, "smn_output_profile");
    if (st == SOCMON_OK && v->kind == SMN_PV_FOLDED)   /* folded stacks are a format of their own */
        return smn_sink_puts(o->sink, v->folded ? v->folded : "");
    if (st == SOCMON_OK && !documents(o)->profile)
        return socmon_fail(SOCMON_EINVAL, "the %s format cannot show a profile (table, csv or json can)",
                           o->fmt->name);
    return st == SOCMON_OK ? documents(o)->profile(o, v) : st;
}

/* The sink is flushed even after a failing end: its own error is the one to report then. */
socmon_status smn_output_end(smn_output *o)
{
    /* the facts of a file, a diff or a check were the whole document: nothing to close */
    int facts = o && o->stage == STAGE_FACTS;
    socmon_status st = move(o, facts ? STAGE_FACTS : STAGE_BEGUN, STAGE_ENDED, "smn_output_end");
    if (st != SOCMON_OK)
        return st;
    st = o->fmt->end && !facts ? o->fmt->end(o) : SOCMON_OK;
    socmon_status fst = smn_sink_flush(o->sink);
    return st != SOCMON_OK ? st : fst;
}

double smn_counter_spread_mean(const smn_output *o, const uint64_t *values, size_t i)
{
    return o->run.counter_mean ? o->run.counter_mean[i] : (double)values[i];
}

double smn_stddev_pct(double mean, double stddev)
{
    if (!isfinite(mean) || !isfinite(stddev) || mean == 0)
        return 0;
    return 100.0 * stddev / fabs(mean);
}

const char *smn_metric_label(const socmon_metric_def *d, double v)
{
    if (!d->nlabels || isnan(v) || v < 0 || v != floor(v) || v >= (double)d->nlabels)
        return NULL;
    return d->labels[(size_t)v];
}

const char *smn_metric_text(const socmon_metric_def *d, double v, char *buf, size_t len,
                               const char **unit)
{
    const char *label = smn_metric_label(d, v);
    if (label)
        snprintf(buf, len, "%s", label);
    else
        smn_format_value(buf, len, v);
    if (unit)
        *unit = label ? "" : (d->unit ? d->unit : "");
    return buf;
}

int smn_metric_decimals(const socmon_metric_def *d)
{
    return d->precision >= 0 ? d->precision : smn_unit_decimals(d->unit);
}

const char *smn_metric_human(const smn_output *o, const socmon_metric_def *d, double v, char *buf,
                                size_t len, const char **unit)
{
    const char *label = smn_metric_label(d, v);
    if (label)
        snprintf(buf, len, "%s", label);
    else
        smn_format_fixed(buf, len, v, smn_metric_decimals(d), !o->opts.no_big_num);
    if (unit)
        *unit = label ? "" : (d->unit ? d->unit : "");
    return buf;
}

void smn_output_count(const smn_output *o, uint64_t v, char *buf, size_t len)
{
    smn_format_count(buf, len, v, !o->opts.no_big_num);
}

void smn_output_elapsed(const smn_output *o, uint64_t ns, char *buf, size_t len)
{
    char t[32];
    smn_format_ns(t, sizeof t, ns);
    snprintf(buf, len, "%s %stime elapsed", t, o->run.simulated ? "simulated " : "");
}

const char *smn_metric_desc(const smn_output *o, const socmon_metric_def *d, char *buf, size_t len)
{
    static const char from[] = "the interval", to[] = "the run";
    const char *at = o->run.doc == SOCMON_DOC_TOTALS && d->desc ? strstr(d->desc, from) : NULL;
    if (!at)
        return d->desc ? d->desc : "";
    snprintf(buf, len, "%.*s%s%s", (int)(at - d->desc), d->desc, to, at + sizeof from - 1);
    return buf;
}

void smn_result_name(const socmon_metric_result_info *r, char *buf, size_t len)
{
    snprintf(buf, len, "%s%s%s", r->instance, *r->instance ? "." : "", r->def->name);
}

void smn_row_flags(const smn_output *o, const socmon_row *row, char *buf, size_t len)
{
    unsigned used = 0;
    smn_row_flags_used(o, row, buf, len, &used);
}
