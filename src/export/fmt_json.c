/* The JSON format (--json): one document per run, built with jansson and written at end(), so
 * what a program parses is always complete; a timeline's rows are the exception, written as they
 * come (so a recording of any length costs a row of memory), in exactly the bytes jansson's dump
 * of the whole document gives. Totals: {kind, target, workload, elapsed_ns,
 * counters, metrics, hotspots}, every counter included (zeros too); repeated runs (stat -r) add
 * "runs" and, to each counter and metric, "stddev" (of the mean, in its unit), "stddev_pct", "mean"
 * (unrounded), "sd" (of the runs) and "ci95" ([low, high], Student t); a timeline: {target, device, interval_ns, intervals: [...]}.
 * Numbers keep their types: counter values and deltas are integers, metric values reals, an
 * undefined metric is null. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/fmt_profile.h"
#include "export/fmt_diff.h"
#include "export/fmt_sweep.h"
#include "export/output_format.h"

typedef struct json_state {
    json_t *doc;    /* a timeline's: its members before "intervals" (written at begin_intervals) */
    int streaming;  /* the rows are being written: "intervals": [ is out */
    size_t nrows;
} json_state;

/* text, every line after the first indented by pad more spaces: a value dumped on its own as it
 * reads nested in a document dumped with JSON_INDENT(2). */
static socmon_status put_nested(smn_sink *k, const char *text, const char *pad)
{
    socmon_status st = SOCMON_OK;
    for (const char *p = text, *nl; st == SOCMON_OK && *p; p = nl + 1) {
        nl = strchr(p, '\n');
        if (!nl)
            return smn_sink_puts(k, p);
        st = smn_sink_printf(k, "%.*s\n%s", (int)(nl - p), p, pad);
    }
    return st;
}

static socmon_status nomem(const char *what)
{
    return socmon_fail(SOCMON_ENOMEM, "json: out of memory for %s", what);
}

static socmon_status json_begin(smn_output *o)
{
    const smn_run_info *r = &o->run;
    json_state *js = calloc(1, sizeof *js);
    if (!js)
        return nomem("the document");
    o->state = js;
    if (r->doc == SOCMON_DOC_FUNCTIONS)
        return SOCMON_OK;   /* written as it comes (json_functions) */
    if (r->doc == SOCMON_DOC_TOTALS) {
        js->doc = json_pack("{s:s?, s:s, s:s?, s:I}", "kind", r->title, "target", r->target, "workload", r->workload,
                            "elapsed_ns", (json_int_t)r->elapsed_ns);
        if (js->doc && r->runs > 1)
            json_object_set_new(js->doc, "runs", json_integer((json_int_t)r->runs));
        if (js->doc && r->recording) {
            json_object_set_new(js->doc, "samples", json_integer((json_int_t)r->samples));
            json_object_set_new(js->doc, "missed", json_integer((json_int_t)r->missed));
        }
        if (js->doc && r->implausible_intervals) {
            json_object_set_new(js->doc, "implausible_intervals", json_integer((json_int_t)r->implausible_intervals));
            if (r->implausible && *r->implausible)
                json_object_set_new(js->doc, "implausible", json_string(r->implausible));
            if (r->dead_bus && *r->dead_bus)
                json_object_set_new(js->doc, "dead_bus", json_string(r->dead_bus));
        }
    } else {
        js->doc = json_pack("{s:s, s:s?, s:I}", "target", r->target, "device", r->device, "interval_ns",
                            (json_int_t)r->interval_ns);
    }
    return js->doc ? SOCMON_OK : nomem("the document");
}

/* Adds arr to the document under key; arr is released on every failure (jansson's _new calls
 * take their argument even when they fail). */
static socmon_status put(smn_output *o, const char *key, json_t *arr, int ok)
{
    json_state *js = o->state;
    if (!ok || !arr) {
        json_decref(arr);
        return nomem(key);
    }
    return json_object_set_new(js->doc, key, arr) == 0 ? SOCMON_OK : nomem(key);
}

static json_t *real_or_null(double v)
{
    return isfinite(v) ? json_real(v) : json_null();
}

/* A repeated run's spread on j: "stddev" (of the mean, as perf) and "stddev_pct", and the
 * statistics socmon diff reads: "mean" (unrounded), "sd" (of the runs) and "ci95", the mean's
 * 95 % confidence interval (Student t with runs - 1 degrees of freedom); 1 if fine. */
static int add_spread(const smn_output *o, json_t *j, const double *sd, size_t i, double mean)
{
    if (!j || o->run.runs < 2 || !sd)
        return j != NULL;
    double n = o->run.runs, half = socmon_t95(n - 1) * sd[i];
    int defined = isfinite(mean) && isfinite(sd[i]);
    json_t *ci = defined ? json_pack("[f, f]", mean - half, mean + half) : json_null();
    return json_object_set_new(j, "stddev", real_or_null(sd[i])) == 0 &&
           json_object_set_new(j, "stddev_pct", isfinite(mean) ? json_real(smn_stddev_pct(mean, sd[i]))
                                                                : json_null()) == 0 &&
           json_object_set_new(j, "mean", real_or_null(mean)) == 0 &&
           json_object_set_new(j, "sd", defined ? json_real(sd[i] * sqrt(n)) : json_null()) == 0 &&
           json_object_set_new(j, "ci95", ci) == 0;
}

static socmon_status json_counters(smn_output *o, const smn_counter_rows *r)
{
    json_t *arr = json_array();
    int ok = arr != NULL;
    for (size_t j = 0; ok && j < r->n; j++) {
        size_t i = r->idx[j];
        const socmon_counter *c = &r->list->c[i];
        json_t *e = json_pack("{s:s, s:s, s:I, s:s}", "name", r->list->names[i], "instance", c->instance, "value",
                              (json_int_t)r->values[i], "unit", c->unit);
        ok = add_spread(o, e, o->run.counter_stddev, i,
                        smn_counter_spread_mean(o, r->values, i));
        /* perf_event counts: perf -j's "pcnt-running"; a count that never ran is null */
        const double *run = r->list->running;
        if (ok && run && (json_object_set_new(e, "pcnt-running", json_real(isnan(run[i]) ? 0.0 : run[i])) != 0 ||
                          (isnan(run[i]) && json_object_set_new(e, "value", json_null()) != 0)))
            ok = 0;
        if (json_array_append_new(arr, e) != 0)
            ok = 0;
    }
    for (size_t k = 0; ok && k < r->list->nunsupported; k++) {
        json_t *e = json_pack("{s:s, s:s, s:n, s:s, s:b}", "name", r->list->unsupported[k], "instance", "", "value",
                              "unit", "", "supported", 0);
        if (!e || json_array_append_new(arr, e) != 0)
            ok = 0;
    }
    return put(o, "counters", arr, ok);
}

static socmon_status json_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                  const double *values)
{
    json_t *arr = json_array();
    int ok = arr != NULL;
    for (size_t i = 0; ok && i < socmon_metrics_nresults(m); i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(m, i);
        json_t *j = json_pack("{s:s, s:s, s:s}", "name", r->def->name, "instance", r->instance, "unit",
                              r->def->unit ? r->def->unit : "");
        const char *label = smn_metric_label(r->def, values[i]);
        ok = j && json_object_set_new(j, "value", real_or_null(values[i])) == 0 &&
             (!label || json_object_set_new(j, "label", json_string(label)) == 0) &&
             add_spread(o, j, o->run.metric_stddev, i, values[i]);
        if (json_array_append_new(arr, j) != 0)
            ok = 0;
    }
    return put(o, "metrics", arr, ok);
}

static socmon_status json_hotspots(smn_output *o, const smn_counter_rows *r)
{
    json_t *arr = json_array();
    int ok = arr != NULL;
    for (size_t j = 0; ok && j < r->n; j++) {
        size_t i = r->idx[j];
        ok = json_array_append_new(arr, json_pack("{s:s, s:I, s:s}", "name", r->list->names[i], "value",
                                                  (json_int_t)r->values[i], "unit", r->list->c[i].unit)) == 0;
    }
    return put(o, "hotspots", arr, ok);
}

/* The document's members so far, and "intervals": [ after them: the rows follow as they come. */
static socmon_status json_begin_intervals(smn_output *o)
{
    json_state *js = o->state;
    char *text = json_dumps(js->doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    size_t n = text ? strlen(text) : 0;
    if (!text || n < 2 || text[n - 1] != '}') {
        free(text);
        return nomem("the document");
    }
    /* "{\n  ...members\n}" or "{}": the members, then the array's key */
    text[n - 1] = '\0';
    while (n > 1 && (text[n - 2] == '\n'))
        text[--n - 1] = '\0';
    socmon_status st = smn_sink_printf(o->sink, "%s%s\n  \"intervals\": [", text, n > 2 ? "," : "");
    free(text);
    js->streaming = st == SOCMON_OK;
    return st;
}

/* One row, dumped as jansson would nest it in the document. */
static socmon_status json_put_row(smn_output *o, json_t *j)
{
    json_state *js = o->state;
    char *text = json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(j);
    if (!text)
        return nomem("an interval");
    socmon_status st = smn_sink_puts(o->sink, js->nrows++ ? ",\n    " : "\n    ");
    if (st == SOCMON_OK)
        st = put_nested(o->sink, text, "    ");
    free(text);
    return st;
}

/* The row's members after its times and flags, in the order they print. */
static socmon_status json_row_members(smn_output *o, const socmon_row *row, json_t *j)
{
    const smn_interval_cols *c = &o->cols;
    const char *phase = smn_output_row_phase(o, row);
    char bad[128], dead[128];
    const char *implausible = row->value_flags & SOCMON_VALUE_IMPLAUSIBLE
                                  ? smn_row_bad_names(o, row, SOCMON_VALUE_IMPLAUSIBLE, bad, sizeof bad) : NULL;
    const char *dead_bus = row->value_flags & SOCMON_VALUE_DEAD_BUS
                               ? smn_row_bad_names(o, row, SOCMON_VALUE_DEAD_BUS, dead, sizeof dead) : NULL;
    /* the flags as data too, only when set: a row without them reads as before */
    if (((row->value_flags & SOCMON_VALUE_SCALED) &&
         json_object_set_new(j, "running_pct", real_or_null(row->min_running)) != 0) ||
        ((row->value_flags & SOCMON_VALUE_LOST) && json_object_set_new(j, "lost", json_integer((json_int_t)row->lost)) != 0) ||
        (phase && json_object_set_new(j, "phase", json_string(phase)) != 0) ||
        (implausible && json_object_set_new(j, "implausible", json_string(implausible)) != 0) ||
        (dead_bus && json_object_set_new(j, "dead_bus", json_string(dead_bus)) != 0))
        return nomem("an interval's flags");
    json_t *mo = json_object();
    if (!mo || json_object_set_new(j, "metrics", mo) != 0)
        return nomem("an interval's metrics");
    size_t nm = c->metrics ? socmon_metrics_nresults(c->metrics) : 0;
    for (size_t k = 0; k < nm; k++) {
        char h[160];
        smn_result_name(socmon_metrics_result(c->metrics, k), h, sizeof h);
        if (json_object_set_new(mo, h, real_or_null(row->metrics ? row->metrics[k] : NAN)) != 0)
            return nomem("an interval's metrics");
    }
    if (!o->opts.deltas)
        return SOCMON_OK;
    json_t *co = json_object();
    if (!co || json_object_set_new(j, "deltas", co) != 0)
        return nomem("an interval's deltas");
    for (size_t i = 0; i < c->counters->n; i++)
        if (json_object_set_new(co, c->counters->names[i], json_integer((json_int_t)row->deltas[smn_col(o, i)])) != 0)
            return nomem("an interval's deltas");
    return SOCMON_OK;
}

static socmon_status json_row(smn_output *o, const socmon_row *row)
{
    char flags[400];
    smn_row_flags(o, row, flags, sizeof flags);
    json_t *j = json_pack("{s:I, s:I, s:s}", "t_ns", (json_int_t)row->t_ns, "interval_ns", (json_int_t)row->dt_ns,
                          "flags", flags);
    if (!j)
        return nomem("an interval");
    socmon_status st = json_row_members(o, row, j);
    if (st != SOCMON_OK) {
        json_decref(j);
        return st;
    }
    return json_put_row(o, j);
}

/* A program's functions: written by hand, as they always were, so every row is one line and
 * the reals are %.6g (each row on a line of its own, the total's too): {"kind": "by-symbol", "functions": [rows], "total", "whole_program",
 * "total_matches"}; a row has the columns the source has, "cpi" (0 without instructions) and
 * "cycle_share". */
static socmon_status fn_row(smn_output *o, const socmon_function_row *r)
{
    json_t *j = json_string(r->name);   /* escaped as a JSON string */
    char *name = j ? json_dumps(j, JSON_ENCODE_ANY) : NULL;
    json_decref(j);
    if (!name)
        return socmon_fail(SOCMON_EINVAL, "json: a function's name is not UTF-8");
    smn_sink_printf(o->sink, "\n    {\"function\": %s", name);
    free(name);
    for (size_t k = 0; k < SOCMON_FUNCTION_COLS; k++)
        if (r->has & (1u << k))
            smn_sink_printf(o->sink, ", \"%s\": %lld", socmon_function_col(k), (long long)r->v[k]);
    return smn_sink_printf(o->sink, ", \"cpi\": %.6g, \"cycle_share\": %.6g}", isnan(r->cpi) ? 0 : r->cpi,
                              r->share);
}

static socmon_status json_functions(smn_output *o, const socmon_functions *f)
{
    smn_sink_puts(o->sink, "{\"kind\": \"by-symbol\", \"functions\": [");
    for (size_t i = 0; i < f->n; i++) {
        if (i)
            smn_sink_putc(o->sink, ',');
        fn_row(o, &f->rows[i]);
    }
    smn_sink_puts(o->sink, "\n  ],\n  \"total\": ");
    fn_row(o, &f->total);
    smn_sink_puts(o->sink, ",\n  \"whole_program\": ");
    fn_row(o, &f->whole);
    return smn_sink_printf(o->sink, ",\n  \"total_matches\": %s\n}\n", f->mismatch ? "false" : "true");
}

/* Counters the program stopped: "inhibited": [{counter, register, inhibited_cycles, run_cycles,
 * counted_share}] in the document. */
static socmon_status json_inhibited(smn_output *o, const socmon_inhibited *x, size_t n)
{
    json_state *js = o->state;
    if (!js || !js->doc)
        return SOCMON_OK;
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        double share = x[i].run_cycles ? (double)(x[i].run_cycles - x[i].inhibited_cycles) / (double)x[i].run_cycles
                                       : 0;
        json_array_append_new(a, json_pack("{s:s, s:s, s:I, s:I, s:f}", "counter", x[i].counter, "register",
                                           x[i].reg, "inhibited_cycles", (json_int_t)x[i].inhibited_cycles,
                                           "run_cycles", (json_int_t)x[i].run_cycles, "counted_share", share));
    }
    if (!a || json_object_set_new(js->doc, "inhibited", a) != 0)
        return nomem("the inhibited counters");
    return SOCMON_OK;
}

/* The run's results: "results": [{name, value, unit, description}], whole values as integers. */
static socmon_status json_results(smn_output *o, const socmon_result *x, size_t n)
{
    json_state *js = o->state;
    if (!js || !js->doc)
        return SOCMON_OK;
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++) {
        double v = x[i].value;
        json_t *jv = v == floor(v) && fabs(v) < 0x1p53 ? json_integer((json_int_t)v) : json_real(v);
        json_array_append_new(a, json_pack("{s:s, s:o, s:s, s:s}", "name", x[i].name, "value", jv, "unit",
                                           x[i].unit ? x[i].unit : "", "description", x[i].desc ? x[i].desc : ""));
    }
    if (!a || json_object_set_new(js->doc, "results", a) != 0)
        return nomem("the run's results");
    return SOCMON_OK;
}

/* A timeline's end: the rows' array closed, then what follows it in the document (findings). */
static socmon_status json_end_stream(smn_output *o)
{
    json_state *js = o->state;
    socmon_status st = smn_sink_puts(o->sink, js->nrows ? "\n  ]" : "]");
    if (st == SOCMON_OK && o->findings) {
        json_t *f = smn_json_findings(o->findings);
        char *text = f ? json_dumps(f, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
        json_decref(f);
        if (!text)
            return nomem("findings");
        st = smn_sink_puts(o->sink, ",\n  \"findings\": ");
        if (st == SOCMON_OK)
            st = put_nested(o->sink, text, "  ");
        free(text);
    }
    return st == SOCMON_OK ? smn_sink_puts(o->sink, "\n}\n") : st;
}

static socmon_status json_end(smn_output *o)
{
    json_state *js = o->state;
    if (o->run.doc == SOCMON_DOC_FUNCTIONS)
        return SOCMON_OK;
    if (js && js->streaming)
        return json_end_stream(o);
    if (js && js->doc && o->findings && put(o, "findings", smn_json_findings(o->findings), 1) != SOCMON_OK)
        return SOCMON_ENOMEM;
    char *text = js ? json_dumps(js->doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    if (!text)
        return socmon_fail(SOCMON_ENOMEM, "json: could not serialise the document");
    smn_sink_puts(o->sink, text);
    free(text);
    return smn_sink_putc(o->sink, '\n');
}

static void json_release(smn_output *o)
{
    json_state *js = o->state;
    if (js)
        json_decref(js->doc);
    free(js);
    o->state = NULL;
}

/* What a recording file holds (report --stats): one object. */
static socmon_status json_file_facts(smn_output *o, const smn_file_facts *f)
{
    const socmon_recording_info *in = &f->info;
    json_t *j = json_pack("{s:s, s:i, s:I, s:I, s:I, s:I, s:f, s:b, s:I, s:I, s:I, s:b, s:I, s:I, s:I, s:I, s:I, "
                          "s:s, s:s, s:I, s:I}",
                          "file", f->file, "version", (int)in->version, "samples", (json_int_t)f->samples,
                          "counters", (json_int_t)f->counters, "blocks", (json_int_t)in->blocks,
                          "file_bytes", (json_int_t)in->file_bytes, "bytes_per_value", f->bytes_per_value,
                          "complete", in->complete, "blocks_lost", (json_int_t)in->blocks_lost,
                          "bytes_lost", (json_int_t)in->bytes_lost, "samples_lost", (json_int_t)in->samples_lost,
                          "samples_lost_known", in->samples_lost_known, "ns_lost", (json_int_t)in->ns_lost,
                          "flush_ns", (json_int_t)in->flush_ns, "gaps", (json_int_t)in->gaps,
                          "gap_samples", (json_int_t)in->gap_samples, "gap_ns", (json_int_t)in->gap_ns,
                          "lost", in->what, "clock", f->clock, "attachments", (json_int_t)f->attachments,
                          "attachment_bytes", (json_int_t)f->attachment_bytes);
    char *text = j ? json_dumps(j, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
    json_decref(j);
    if (!text) /* a file name that is not UTF-8 cannot be a JSON string */
        return socmon_fail(SOCMON_EINVAL, "json: cannot write the facts of '%s'", f->file);
    smn_sink_puts(o->sink, text);
    free(text);
    return smn_sink_putc(o->sink, '\n');
}

/* How the program ended: "program": {end, exit_code, message, output}. The output is bytes, not
 * necessarily UTF-8: each byte is the character of its value (U+0000..U+00FF), so a reader gets
 * them back exactly (Python: .encode("latin-1")). */
static socmon_status json_program(smn_output *o, const smn_program_run *r)
{
    json_state *js = o->state;
    if (!js || !js->doc)
        return SOCMON_OK;
    char *text = malloc(2 * r->output_len + 1);
    size_t n = 0;
    for (size_t i = 0; text && i < r->output_len; i++) {
        uint8_t b = r->output[i];
        if (b < 0x80) {
            text[n++] = (char)b;
        } else {
            text[n++] = (char)(0xc0 | (b >> 6));
            text[n++] = (char)(0x80 | (b & 0x3f));
        }
    }
    json_t *out = text ? json_stringn(text, n) : NULL;
    free(text);
    json_t *prog = out ? json_pack("{s:s, s:i, s:s, s:o}", "end", r->end, "exit_code", r->exit_code, "message",
                                   r->message ? r->message : "", "output", out)
                       : NULL;
    if (!prog || json_object_set_new(js->doc, "program", prog) != 0)
        return nomem("the program's end");
    return SOCMON_OK;
}

static const smn_timeline_ops json_timeline = {
    .begin_intervals = json_begin_intervals, .row = json_row,
};

static const smn_document_ops json_documents = {
    .file_facts = json_file_facts, .diff = smn_json_diff, .sweep = smn_json_sweep,
    .profile = smn_json_profile,
};

const smn_output_format smn_format_json = {
    .name = "json", .begin = json_begin, .counters = json_counters, .metrics = json_metrics,
    .hotspots = json_hotspots, .functions = json_functions, .end = json_end,
    .release = json_release, .inhibited = json_inhibited, .results = json_results,
    .program = json_program, .timeline = &json_timeline, .documents = &json_documents,
};
