/* socmon report: a recording shown per interval or summed, or written as a Perfetto trace
 * (--perfetto); what the file itself holds (--stats, loss notes) is report_file.c. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/dest.h"
#include "cli/opts.h"
#include "cli/scaled.h"
#include "cli/by_symbol.h"
#include "cli/output.h"
#include "cli/report_file.h"
#include "export/table.h"

#define REPORT_OPTS (OPT_INPUT | OPT_FORMAT | OPT_SUMMARY | OPT_DELTAS | OPT_METRICS | OPT_BY_SYMBOL | \
                     OPT_BIG_NUM | OPT_METRIC_FILE | OPT_STATS | OPT_PERFETTO | OPT_FORCE | \
                     OPT_HTML)
#define TABLE_METRICS 8
#define TABLE_METRICS_MAX 64

static void help(FILE *fp)
{
    fprintf(fp, "usage: socmon report [options]\n\n"
                "Reads a recording made by 'socmon record' (-i - : from stdin). By default prints one\n"
                "row per interval with the first device-wide metrics (choose others with -M; CSV and\n"
                "JSON hold every metric and, with --deltas, every counter delta); --summary prints\n"
                "totals, metrics and hot spots over the whole recording; --by-symbol, for a program's\n"
                "recording (record -t ibex -- prog.elf), one row per function with a total that equals\n"
                "the whole-program counters. --perfetto OUT.json writes the intervals as a trace for the\n"
                "Perfetto UI, --html FILE the charts of the recording as one page that opens offline\n"
                "in a browser, instead of rows on stdout.\n\n");
    cli_help_opts(fp, REPORT_OPTS);
}

typedef struct report {
    socmon_recording *rec;
    size_t n;                          /* the recording's counters */
    const socmon_counter *counters;    /* their strings escaped (safe_strings) */
    const char **names;
    char **owned;
    socmon_counter *safe;              /* what counters points to */
    char *target, *device;             /* the recording's, escaped */
    char **params;                     /* the parameter names, escaped */
    socmon_metricset *ms;
    socmon_metrics *m;
    const socmon_target_ops *ops;
} report;

static void report_free(report *r)
{
    for (size_t i = 0; r->owned && i < r->n; i++)
        free(r->owned[i]);
    for (size_t i = 0; r->safe && i < r->n; i++) {
        free((char *)r->safe[i].name);
        free((char *)r->safe[i].instance);
        free((char *)r->safe[i].unit);
        free((char *)r->safe[i].desc);
    }
    for (size_t i = 0; r->params && i < socmon_recording_nparams(r->rec); i++)
        free(r->params[i]);
    free(r->params);
    free(r->safe);
    free(r->target);
    free(r->device);
    free(r->owned);
    free(r->names);
    socmon_metrics_free(r->m);
    socmon_metricset_free(r->ms);
    socmon_recording_free(r->rec);
}

/* Whether the recording's timestamps are a model's simulated time: a v2 file
 * says so in its header; for a v1 file, guessed from the target spec. */
static int rec_simulated(const socmon_recording *rec)
{
    socmon_recording_info in;
    socmon_recording_get_info(rec, &in);
    return in.clock_known ? in.simulated : cli_spec_simulated(socmon_recording_target(rec));
}

/* All of stdin into memory (a pipe has no size to ask for), then parsed like a file. */
static socmon_status load_stdin(socmon_recording **out)
{
    size_t len = 0, cap = 1 << 16;
    unsigned char *buf = malloc(cap);
    if (!buf)
        return socmon_fail(SOCMON_ENOMEM, "reading the recording from stdin: out of memory");
    size_t got;
    while ((got = fread(buf + len, 1, cap - len, stdin)) > 0) {
        len += got;
        if (len == cap) {
            unsigned char *nb = cap <= SIZE_MAX / 2 ? realloc(buf, cap * 2) : NULL;
            if (!nb) {
                free(buf);
                return socmon_fail(SOCMON_ENOMEM, "reading the recording from stdin: out of memory after %zu bytes",
                                   len);
            }
            buf = nb;
            cap *= 2;
        }
    }
    socmon_status st;
    if (ferror(stdin))
        st = socmon_fail(SOCMON_EIO, "reading the recording from stdin: %s", strerror(errno ? errno : EIO));
    else if (len == 0)
        st = socmon_fail(SOCMON_EINVAL, "-i -: stdin is empty (pipe a recording in: socmon report -i - < run.rec)");
    else
        st = socmon_recording_parse(buf, len, out);
    free(buf);
    return st;
}

/* A recording file is input like any other (it may come from anywhere): its strings are shown
 * with control bytes escaped (core/text.h), so a counter's unit or the target's name cannot
 * clear the terminal or forge a line of the report. Everything report prints comes from here. */
static socmon_status safe_strings(report *r)
{
    const socmon_counter *c = socmon_recording_counters(r->rec);
    size_t np = socmon_recording_nparams(r->rec);
    const char *const *pn = socmon_recording_param_names(r->rec);
    const char *dev = socmon_recording_device(r->rec);
    int oom = !(r->safe = calloc(r->n + 1, sizeof *r->safe)) || !(r->params = calloc(np + 1, sizeof *r->params)) ||
              !(r->target = socmon_text_escape_dup(socmon_recording_target(r->rec))) ||
              (dev && !(r->device = socmon_text_escape_dup(dev)));
    for (size_t i = 0; !oom && i < r->n; i++) {
        socmon_counter *s = &r->safe[i];
        *s = c[i];
        s->name = socmon_text_escape_dup(c[i].name);
        s->instance = socmon_text_escape_dup(c[i].instance);
        s->unit = socmon_text_escape_dup(c[i].unit);
        s->desc = socmon_text_escape_dup(c[i].desc);
        oom = !s->name || !s->instance || !s->unit || !s->desc;
    }
    for (size_t i = 0; !oom && i < np; i++)
        oom = !(r->params[i] = socmon_text_escape_dup(pn[i]));
    r->counters = r->safe;
    return oom ? socmon_fail(SOCMON_ENOMEM, "report: out of memory") : SOCMON_OK;
}

static socmon_status report_open(report *r, const char *path, const char *metric_file)
{
    memset(r, 0, sizeof *r);
    socmon_status st = strcmp(path, "-") == 0 ? load_stdin(&r->rec) : socmon_recording_load(path, &r->rec);
    if (st != SOCMON_OK)
        return st;
    size_t n = r->n = socmon_recording_ncounters(r->rec);
    if ((st = safe_strings(r)) != SOCMON_OK)
        return st;
    r->names = calloc(n + 1, sizeof *r->names);
    r->owned = calloc(n + 1, sizeof *r->owned);
    if (!r->names || !r->owned)
        return SOCMON_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *c = &r->counters[i];
        size_t len = strlen(c->instance) + strlen(c->name) + 2;
        if (!(r->owned[i] = malloc(len)))
            return SOCMON_ENOMEM;
        snprintf(r->owned[i], len, "%s%s%s", c->instance, *c->instance ? "." : "", c->name);
        r->names[i] = r->owned[i];
    }
    char tname[64];
    const char *spec = r->target;
    snprintf(tname, sizeof tname, "%.*s", (int)strcspn(spec, ":"), spec);
    r->ops = socmon_target_lookup(tname);
    const char *text = r->ops ? socmon_builtin_metrics(r->ops->metrics) : NULL;
    if (metric_file) {
        st = socmon_metricset_load_file(metric_file, &r->ms);
    } else if (strchr(spec, ';')) { /* a combined run: its members' metric files, merged */
        st = socmon_metrics_for_spec(spec, &r->ms);
        if (st == SOCMON_ENOENT) {
            socmon_clear_error();
            return SOCMON_OK;
        }
    } else if (!text)
        return SOCMON_OK; /* counters only */
    else
        st = socmon_metricset_load_string(text, r->ops->metrics, &r->ms);
    if (st != SOCMON_OK)
        return st;
    return cli_bind_metrics(r->ms, r->counters, n, socmon_recording_nparams(r->rec),
                            (const char *const *)r->params, socmon_recording_param_values(r->rec), &r->m);
}

/* The interval rows of a recording: a -> b is one interval, d its deltas. */
typedef struct walk {
    socmon_sample a, b;
    uint64_t *d;
    double *mv;
    socmon_timeline_iter it;
} walk;

static void walk_free(walk *w)
{
    socmon_timeline_iter_free(&w->it);
    free(w->a.v), free(w->b.v), free(w->d), free(w->mv);
}

static socmon_status walk_init(walk *w, const report *r)
{
    size_t n = r->n, nm = r->m ? socmon_metrics_nresults(r->m) : 0;
    memset(w, 0, sizeof *w);
    w->a.n = w->b.n = n;
    w->a.v = calloc(n + 1, sizeof *w->a.v);
    w->b.v = calloc(n + 1, sizeof *w->b.v);
    w->d = calloc(n + 1, sizeof *w->d);
    w->mv = calloc(nm + 1, sizeof *w->mv);
    if (!w->a.v || !w->b.v || !w->d || !w->mv || socmon_timeline_iter_init(socmon_recording_timeline(r->rec), &w->it) != SOCMON_OK) {
        free(w->a.v), free(w->b.v), free(w->d), free(w->mv);
        return socmon_fail(SOCMON_ENOMEM, "out of memory");
    }
    return SOCMON_OK;
}

/* The next sample into w->b, with w->d its deltas from the one before (none for the first:
 * returns 0 after the last). w->a keeps the previous sample until the next call. */
static int walk_next(walk *w, const report *r, size_t idx)
{
    if (idx) {
        memcpy(w->a.v, w->b.v, w->a.n * sizeof *w->a.v);
        w->a.t_ns = w->b.t_ns;
    }
    if (socmon_timeline_iter_next(&w->it, &w->b) != SOCMON_OK)
        return 0;
    for (size_t i = 0; idx && i < w->b.n; i++)
        w->d[i] = socmon_delta(w->a.v[i], w->b.v[i], r->counters[i].width);
    return 1;
}

/* The length of the interval a -> b. A timestamp before the one before it (a damaged or old file:
 * report_loss_note says so) would wrap to ~584 years: that interval is 0 ns long instead, and an
 * interval of no length has no rates (NaN seconds make them undefined: "-" in a table). */
static uint64_t interval_ns(const walk *w)
{
    return w->b.t_ns > w->a.t_ns ? w->b.t_ns - w->a.t_ns : 0;
}

/* One row per interval, in the options' format on stdout, or in `format` to fp (named name). */
static int per_interval(report *r, const cli_opts *o, const char *format, FILE *fp, const char *name)
{
    size_t n = r->n, nm = r->m ? socmon_metrics_nresults(r->m) : 0;
    walk w;
    cli_output co = {0};
    socmon_status st = walk_init(&w, r);
    if (st != SOCMON_OK)
        return cli_error("report", st);
    if (fp) {
        socmon_output_opts oo = {.sep = o->sep, .deltas = 1, .no_big_num = o->no_big_num};
        st = socmon_sink_file(fp, name, &co.sink);
        if (st == SOCMON_OK)
            st = socmon_output_open(format, co.sink, &oo, &co.out);
    } else {
        st = cli_output_open(&co, o, NULL);
    }
    if (st != SOCMON_OK) {
        walk_free(&w);
        return cli_output_close(&co, "report", st);
    }
    /* Human formats show some metrics (the -M choice); machine formats all of them. */
    size_t pick[TABLE_METRICS_MAX], npick = 0;
    if (o->metrics && cli_check_metric_patterns("report", r->ms, r->m, o->metrics, "this recording lacks")) {
        walk_free(&w);
        cli_output_discard(&co);
        return 2;
    }
    if (socmon_output_selects_metrics(co.out))
        npick = cli_pick_metrics(r->m, o->metrics, pick, o->metrics ? TABLE_METRICS_MAX : TABLE_METRICS);
    socmon_counter_list sch = {n, r->counters, r->names, NULL, 0, NULL};
    socmon_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = r->target,
                           .device = r->device, .interval_ns = socmon_recording_interval_ns(r->rec), .ncounters = n,
                           .recording = 1, .samples = socmon_timeline_len(socmon_recording_timeline(r->rec)),
                           .simulated = rec_simulated(r->rec), .nparams = socmon_recording_nparams(r->rec),
                           .param_names = (const char *const *)r->params,
                           .param_values = socmon_recording_param_values(r->rec), .eval = r->m, .ops = r->ops};
    socmon_interval_cols cols = {r->m, pick, npick, &sch, 0};
    st = socmon_output_begin(co.out, &run);
    if (st == SOCMON_OK)
        st = socmon_output_begin_intervals(co.out, &cols);
    uint64_t since = 0;
    for (size_t idx = 0; st == SOCMON_OK && walk_next(&w, r, idx); idx++) {
        if (idx == 0)
            continue;
        uint64_t dt = interval_ns(&w);
        since += dt;   /* b - first sample's time, when no timestamp goes backwards */
        if (r->m)
            socmon_metrics_eval(r->m, w.d, dt ? (double)dt / 1e9 : NAN, w.mv);
        socmon_interval_row row = {w.b.t_ns, since, dt, w.b.flags, w.b.missed, r->m ? w.mv : NULL, w.d};
        st = socmon_output_row(co.out, &row);
    }
    if (st == SOCMON_OK)
        st = socmon_output_end_intervals(co.out);
    if (st == SOCMON_OK && !o->metrics && nm > npick) {
        char note[160];
        snprintf(note, sizeof note, "%zu of %zu metric results shown; choose with -M 'name*', or use -x, / --json for all",
                 npick, nm);
        st = socmon_output_note(co.out, note);
    }
    walk_free(&w);
    return cli_output_close(&co, "report", st);
}

/* report --perfetto OUT: the trace is written to a file no one sees until it is whole (the
 * scheme of record -o, cli/dest.h), then published as OUT (an existing OUT moves to OUT.old
 * unless --force), so a failure never leaves half a JSON document under the name. */
static int perfetto(report *r, const cli_opts *o)
{
    const char *path = o->perfetto;
    cli_dest d;
    socmon_status st = cli_dest_open(&d, path, o->force);
    if (st != SOCMON_OK) {
        int rc = cli_error("report", st);
        cli_dest_close(&d);
        return rc;
    }
    int fd = dup(d.fd);
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp) {
        if (fd >= 0)
            close(fd);
        cli_dest_close(&d);
        return cli_error("report", socmon_fail(SOCMON_EIO, "--perfetto %s: %s", path, strerror(errno)));
    }
    int rc = per_interval(r, o, "perfetto", fp, path);
    errno = 0;
    if (fclose(fp) != 0 && !rc)
        rc = cli_error("report", socmon_fail(SOCMON_EIO, "writing %s: %s", path, strerror(errno ? errno : EIO)));
    if (!rc && (st = cli_dest_publish(&d)) != SOCMON_OK)
        rc = cli_error("report", st);
    int moved = d.moved_old;
    st = cli_dest_close(&d);
    if (!rc && st != SOCMON_OK)
        rc = cli_error("report", st);
    if (rc)
        return rc;
    if (moved)
        fprintf(stderr, "socmon report: moved the existing '%s' to '%s.old'\n", path, path);
    size_t rows = socmon_timeline_len(socmon_recording_timeline(r->rec));
    fprintf(stderr, "socmon report: wrote %s: %zu intervals, %zu counter and %zu metric tracks (open it in "
                    "https://ui.perfetto.dev)\n", path, rows ? rows - 1 : 0, r->n,
            r->m ? socmon_metrics_nresults(r->m) : 0);
    return 0;
}

static int summary(report *r, const cli_opts *o, int by_symbol)
{
    size_t n = r->n;
    walk w;
    socmon_status st = walk_init(&w, r);
    uint64_t *acc = calloc(n + 1, sizeof *acc);
    if (st != SOCMON_OK || !acc) {
        if (st == SOCMON_OK)
            walk_free(&w);
        free(acc);
        return cli_error("report", st != SOCMON_OK ? st : socmon_fail(SOCMON_ENOMEM, "out of memory"));
    }
    uint64_t elapsed = 0, missed = 0;   /* the intervals' lengths summed: see interval_ns */
    for (size_t idx = 0; walk_next(&w, r, idx); idx++) {
        for (size_t i = 0; idx && i < n; i++)
            acc[i] += w.d[i];
        if (idx)
            elapsed += interval_ns(&w);
        missed += w.b.missed;
    }
    if (by_symbol) {
        socmon_sink *sink = NULL;
        int mismatch = 0;
        st = socmon_sink_file(stdout, "stdout", &sink);
        if (st == SOCMON_OK)
            st = cli_by_symbol_print(sink, o, r->counters, n, acc, &mismatch);
        socmon_status cst = socmon_sink_close(sink);
        walk_free(&w);
        free(acc);
        if (st == SOCMON_OK && cst != SOCMON_OK)
            st = cst;
        if (st != SOCMON_OK)
            return cli_error("report", st);
        if (mismatch)
            fprintf(stderr, "socmon report: --by-symbol: the functions' total differs from the whole-program "
                            "counters\n");
        return mismatch;
    }
    /* perf_event counts (host recordings): the estimates scaled by their time counters, shown
     * with their running share; the metrics see the estimates, as stat's do */
    socmon_scaling *sc = NULL;
    double *pct = calloc(n + 1, sizeof *pct);
    int scaled = 0;
    if (pct && socmon_scaling_new(r->counters, r->names, n, &sc) == SOCMON_OK) {
        for (size_t i = 0; i < n; i++)
            scaled |= socmon_scaling_is_time(sc, i);
        if (scaled && cli_scale_deltas(sc, n, acc, acc, pct) != 0)
            scaled = 0;
    }
    if (r->m)
        socmon_metrics_eval(r->m, acc, elapsed ? (double)elapsed / 1e9 : NAN, w.mv);
    cli_totals t = {{.doc = SOCMON_DOC_TOTALS, .title = "Recording summary", .target = r->target,
                     .elapsed_ns = elapsed, .recording = 1, .samples = socmon_timeline_len(socmon_recording_timeline(r->rec)),
                     .missed = missed, .simulated = rec_simulated(r->rec)},
                    {n, r->counters, r->names, NULL, 0, NULL}, acc, r->ms, r->m, w.mv, r->ops ? r->ops->hotspots : NULL};
    cli_scaled shown = {0};
    if (scaled && cli_scaled_view(&shown, r->counters, r->names, n, NULL, sc, acc, pct, NULL) == 0) {
        t.counters = shown.list;
        t.values = shown.values;
    }
    int rc = cli_print_totals("report", o, &t);
    cli_scaled_free(&shown);
    socmon_scaling_free(sc);
    free(pct);
    walk_free(&w);
    free(acc);
    return rc;
}

/* --html FILE: the intervals through the "html" format into FILE ('-': stdout), and a line
 * saying where. */
static int write_html(report *r, const cli_opts *o)
{
    cli_opts ho = *o;
    int to_stdout = strcmp(o->html, "-") == 0;
    ho.print_path = to_stdout ? NULL : o->html;
    ho.append = 0;
    ho.format = "html";
    ho.to_stderr = 0;
    int rc = per_interval(r, &ho, NULL, NULL, NULL);
    struct stat sb;
    if (rc == 0 && !to_stdout && stat(o->html, &sb) == 0) {
        char size[32];
        socmon_format_count(size, sizeof size, (uint64_t)sb.st_size, 1);
        fprintf(stderr, "socmon report: wrote %s (%s bytes): open it in a browser\n", o->html, size);
    }
    return rc;
}

int cmd_report(int argc, char **argv)
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, REPORT_OPTS, help, &o);
    if (rc >= 0)
        return rc;
    /* --stats describes the file, not its samples: options that choose what
     * of the samples to show have nothing to act on */
    if (o.stats && (o.summary || o.by_symbol || o.metrics || o.deltas || o.metric_file)) {
        fprintf(stderr, "socmon report: --stats cannot be combined with %s: it describes the file, not its "
                        "samples (-x and --json choose its format)\n",
                o.summary ? "--summary" : o.by_symbol ? "--by-symbol" : o.metrics ? "-M" : o.deltas ? "--deltas"
                                                                                                   : "--metric-file");
        return 2;
    }
    /* --html writes a page of the intervals: options for another view or format do not mix */
    if (o.html && (o.stats || o.summary || o.by_symbol || strcmp(o.format, "table") != 0)) {
        fprintf(stderr, "socmon report: --html cannot be combined with %s: the page shows every interval and "
                        "metric of the recording\n",
                o.stats ? "--stats" : o.summary ? "--summary" : o.by_symbol ? "--by-symbol" : o.format[0] == 'c' ? "-x"
                                                                                                               : "--json");
        return 2;
    }
    if (o.html && o.perfetto) {
        fprintf(stderr, "socmon report: --html and --perfetto write one file each: run report twice\n");
        return 2;
    }
    if (o.perfetto && (o.stats || o.summary || o.by_symbol || strcmp(o.format, "table") != 0)) {
        fprintf(stderr, "socmon report: --perfetto writes the intervals to its file and cannot be combined with "
                        "%s\n", o.stats ? "--stats" : o.summary ? "--summary" : o.by_symbol ? "--by-symbol"
                                                                           : "-x/--json (they format stdout)");
        return 2;
    }
    if (o.force && !o.perfetto) {
        fprintf(stderr, "socmon report: --force applies to --perfetto OUT.json only\n");
        return 2;
    }
    report r;
    const char *path = o.input ? o.input : "socmon.rec";
    socmon_status st = report_open(&r, path, o.metric_file);
    if (st == SOCMON_OK)
        cli_warn_metric_file("report", o.metric_file, r.ms, r.m);
    if (st != SOCMON_OK)
        rc = cli_error("report", st);
    else if (o.stats)
        rc = report_print_stats(r.rec, &o, strcmp(path, "-") == 0 ? "stdin" : path);
    else {
        report_loss_note(r.rec, strcmp(path, "-") == 0 ? "stdin" : path);
        rc = o.perfetto ? perfetto(&r, &o) : o.html ? write_html(&r, &o)
             : o.summary || o.by_symbol ? summary(&r, &o, o.by_symbol) : per_interval(&r, &o, NULL, NULL, NULL);
    }
    report_free(&r);
    return rc;
}
