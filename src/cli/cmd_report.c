/* socmon report: a recording shown per interval or summed, or written as a Perfetto trace
 * (--perfetto); what the file holds (--stats) and what it lost: analysis/recording_facts.h. */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/help.h"
#include "cli/pick_rules.h"
#include "cli/print.h"
#include "cli/report_profile.h"
#include "export/perfetto_notes.h"
#include "export/table.h"
#include "export/web_assets.h"

#define REPORT_OPTS (OPT_INPUT | OPT_FORMAT | OPT_EXPOSITION | OPT_SUMMARY | OPT_DELTAS | OPT_METRICS | OPT_BY_SYMBOL | \
                     OPT_BIG_NUM | OPT_METRIC_FILE | OPT_STATS | OPT_PERFETTO | OPT_FORCE | \
                     OPT_HTML | OPT_PROFILE | OPT_FINDINGS)
#define TABLE_METRICS 8
#define TABLE_METRICS_MAX 64

static void help(FILE *fp)
{
    cli_help_intro(fp, "report");
    cli_help_opts(fp, REPORT_OPTS);
}

/* One row per interval, in the options' format on stdout, or in `format` to fp (named name). */
static int per_interval(cli_source *src, const cli_opts *o, const char *format, FILE *fp, const char *name,
                        size_t *nmetrics, const socmon_profile *prof)
{
    cli_doc d = {0};
    smn_feed_opts fo = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .profile = prof};
    size_t pick[TABLE_METRICS_MAX];
    socmon_phase *phases = NULL;
    socmon_status st = cli_report_phases(src, &phases, &fo.nphases);
    fo.phases = phases;
    int rc = st == SOCMON_OK ? cli_source_read(src, o, SMN_TOTALS_NEVER) : cli_error("report", st);
    if (rc) {
        free(phases);
        return rc;
    }
    const socmon_metrics *m = smn_session_metrics(src->sess);
    size_t nm = m ? socmon_metrics_nresults(m) : 0;
    if (nmetrics)
        *nmetrics = nm;
    if (o->metrics && cli_check_metric_patterns("report", src->ms, m, o->metrics, "this recording lacks")) {
        free(phases);
        return 2;
    }
    socmon_findingset *fs = NULL;
    st = cli_findings_load(o, src->info, &fs);
    fo.findings = fs;
    if (st == SOCMON_OK && fp) {   /* a file of its own: every counter's deltas */
        smn_output_opts oo = {.sep = o->sep, .deltas = 1, .no_big_num = o->no_big_num, .zeros = o->zeros};
        st = smn_sink_file(fp, name, &d.co.sink);
        if (st == SOCMON_OK)
            st = smn_output_open(format, d.co.sink, &oo, &d.co.out);
        if (st == SOCMON_OK)
            st = smn_feed_new(d.co.out, &fo, &d.feed);
    } else if (st == SOCMON_OK) {
        st = cli_doc_open(&d, o, NULL, &fo);
    }
    /* Human formats show some metrics (the -M choice); machine formats all of them. */
    if (st == SOCMON_OK && smn_output_selects_metrics(d.co.out) && m) {
        fo.nshown = cli_pick_metrics(m, o->metrics, pick, o->metrics ? TABLE_METRICS_MAX : TABLE_METRICS);
        fo.shown = pick;
        smn_feed_free(d.feed);
        st = smn_feed_new(d.co.out, &fo, &d.feed);
    }
    socmon_consumer c = d.feed ? cli_doc_consumer(&d) : (socmon_consumer){0};
    if (st == SOCMON_OK)
        st = smn_session_add(src->sess, &c);
    if (st == SOCMON_OK)
        st = smn_session_run(src->sess);
    if (st == SOCMON_OK && !o->metrics && nm > fo.nshown) {
        char note[160];
        snprintf(note, sizeof note, "%zu of %zu metric results shown; choose with -M 'name*', or use -x, / --json for all",
                 fo.nshown, nm);
        st = smn_output_note(d.co.out, note);
    }
    rc = cli_doc_close(&d, "report", st);
    socmon_findingset_free(fs);
    free(phases);
    return rc;
}

static void say(void *user, const char *line)
{
    (void)user;
    fprintf(stderr, "socmon report: %s\n", line);
}

/* report --perfetto OUT: the trace is written to a file no one sees until it is whole (the
 * scheme of record -o, a publishing sink: export/sink.h), then published as OUT (an existing OUT moves to OUT.old
 * unless --force), so a failure never leaves half a JSON document under the name. */
static int perfetto(cli_source *r, const cli_opts *o, const socmon_profile *prof)
{
    const char *path = o->perfetto;
    smn_sink *file;
    socmon_status st = smn_sink_path(path, SOCMON_PATH_PUBLISH, o->force, &file);
    if (st != SOCMON_OK)
        return cli_error("report", st);
    int fd = dup(smn_sink_fd(file)), moved = 0;
    FILE *fp = fd >= 0 ? fdopen(fd, "wb") : NULL;
    if (!fp) {
        if (fd >= 0)
            close(fd);
        smn_sink_close(file);
        return cli_error("report", socmon_fail(SOCMON_EIO, "--perfetto %s: %s", path, strerror(errno)));
    }
    size_t nm = 0;
    int rc = per_interval(r, o, "perfetto", fp, path, &nm, prof);
    errno = 0;
    if (fclose(fp) != 0 && !rc)
        rc = cli_error("report", socmon_fail(SOCMON_EIO, "writing %s: %s", path, strerror(errno ? errno : EIO)));
    if (!rc && (st = smn_sink_publish(file, &moved)) != SOCMON_OK)
        rc = cli_error("report", st);
    st = smn_sink_close(file);
    if (!rc && st != SOCMON_OK)
        rc = cli_error("report", st);
    if (rc)
        return rc;
    if (moved)
        fprintf(stderr, "socmon report: moved the existing '%s' to '%s.old'\n", path, path);
    smn_perfetto_notes(path, r->info->samples, r->info->ncounters, nm, prof, !o->no_big_num, say, NULL);
    return 0;
}

/* The totals of the whole recording (--summary), or per function (--by-symbol). */
static int summary(cli_source *src, const cli_opts *o, int by_symbol, const char *file, const socmon_profile *prof)
{
    cli_doc d = {0};
    smn_feed_opts fo = {.doc = SOCMON_DOC_TOTALS, .title = "Recording summary"};
    socmon_findingset *fs = NULL;
    int rc = cli_source_read(src, o, by_symbol ? SMN_TOTALS_NEVER : SMN_TOTALS_ALWAYS);
    if (rc)
        return rc;
    socmon_status st = SOCMON_OK;
    if (!by_symbol)
        st = cli_findings_load(o, src->info, &fs);
    fo.findings = fs;
    if (st == SOCMON_OK && !by_symbol)
        st = cli_doc_open(&d, o, NULL, &fo);
    socmon_consumer c = d.feed ? cli_doc_consumer(&d) : (socmon_consumer){0};
    if (st == SOCMON_OK && d.feed)
        st = smn_session_add(src->sess, &c);
    if (st == SOCMON_OK)
        st = smn_session_run(src->sess);
    if (st == SOCMON_OK && !by_symbol && prof)   /* counters the program stopped: in the summary's document */
        st = cli_say_inhibited(d.co.out, prof->inhibited, prof->ninhibited, "report", file);
    socmon_functions *fns = NULL;
    cli_output co = {0};
    if (by_symbol) {   /* the functions' counters as they were counted: unscaled */
        if (st == SOCMON_OK)
            st = socmon_functions_from_totals(src->info, smn_session_totals(src->sess), o->old_all, &fns);
        smn_run_info run = {.doc = SOCMON_DOC_FUNCTIONS, .target = src->info->target};
        if (st == SOCMON_OK && (st = cli_output_open(&co, o, NULL)) == SOCMON_OK)
            st = smn_output_begin(co.out, &run);
        if (st == SOCMON_OK)
            st = smn_output_functions(co.out, fns);
        rc = co.sink ? cli_output_close(&co, "report", st) : st != SOCMON_OK ? cli_error("report", st) : 0;
        if (rc == 0 && fns->mismatch) {
            rc = 1;
            fprintf(stderr, "socmon report: --by-symbol: the functions' total differs from the whole-program "
                            "counters\n");
        }
        socmon_functions_free(fns);
    } else {
        rc = cli_doc_close(&d, "report", st);
    }
    socmon_findingset_free(fs);
    return rc;
}

/* --html FILE: the intervals through the "html" format into FILE ('-': stdout), and a line
 * saying where. */
static int write_html(cli_source *r, const cli_opts *o, const socmon_profile *prof)
{
    cli_opts ho = *o;
    int to_stdout = strcmp(o->html, "-") == 0;
    ho.print_path = to_stdout ? NULL : o->html;
    ho.append = 0;
    ho.format = "html";
    ho.to_stderr = 0;
    int rc = per_interval(r, &ho, NULL, NULL, NULL, NULL, prof);
    struct stat sb;
    if (rc == 0 && !to_stdout && stat(o->html, &sb) == 0) {
        char size[32];
        smn_format_count(size, sizeof size, (uint64_t)sb.st_size, !o->no_big_num);
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
    socmon_status web = o.html ? smn_web_require("--html") : SOCMON_OK;   /* before any file is made */
    if (web != SOCMON_OK)
        return cli_error("report", web);
    if (o.perfetto && (o.stats || o.summary || o.by_symbol || strcmp(o.format, "table") != 0)) {
        fprintf(stderr, "socmon report: --perfetto writes the intervals to its file and cannot be combined with "
                        "%s\n", o.stats ? "--stats" : o.summary ? "--summary" : o.by_symbol ? "--by-symbol"
                                                                           : "-x/--json (they format stdout)");
        return 2;
    }
    /* the profile's views are documents of their own */
    if (o.profile_view && (o.stats || o.summary || o.by_symbol || o.html || o.perfetto || o.metrics || o.deltas)) {
        fprintf(stderr, "socmon report: --children, --call-tree, --by-line, --annotate and --folded are views of "
                        "a program's profile and cannot be combined with %s\n",
                o.stats ? "--stats" : o.summary ? "--summary" : o.by_symbol ? "--by-symbol" : o.html ? "--html"
                : o.perfetto ? "--perfetto" : o.metrics ? "-M" : "--deltas");
        return 2;
    }
    if ((o.event || o.elf) && !o.profile_view) {
        fprintf(stderr, "socmon report: %s applies to the profile's views (--children, --call-tree, --by-line, "
                        "--annotate, --folded)\n", o.event ? "--event" : "--elf");
        return 2;
    }
    if (o.force && !o.perfetto) {
        fprintf(stderr, "socmon report: --force applies to --perfetto OUT.json only\n");
        return 2;
    }
    cli_source r;
    const char *path = o.input ? o.input : "socmon.rec";
    socmon_status st = cli_source_open_file(&r, path, o.metric_file);
    if (st != SOCMON_OK)
        rc = cli_error("report", st);
    else if (o.stats)
        rc = cli_print_file_facts("report", &o, r.rec, strcmp(path, "-") == 0 ? "stdin" : path);
    else {
        const char *file = strcmp(path, "-") == 0 ? "stdin" : path;
        cli_source_say_lost(&r, "report", file);
        /* the program's profile, read once: counters it stopped for part of its run (--summary
         * shows them in its document, every other view on stderr, like what the file lost), the
         * flame graph, the slices, the profile's views */
        socmon_profile *prof = NULL;
        cli_report_load_profile(&r, file, &prof);
        if (prof && !o.summary)
            cli_say_inhibited(NULL, prof->inhibited, prof->ninhibited, "report", file);
        rc = o.profile_view ? cli_report_profile(&r, &o, file, prof)
             : o.perfetto ? perfetto(&r, &o, prof) : o.html ? write_html(&r, &o, prof)
             : o.summary || o.by_symbol ? summary(&r, &o, o.by_symbol, file, prof)
             : per_interval(&r, &o, NULL, NULL, NULL, NULL, NULL);
        socmon_profile_free(prof);
    }
    cli_source_close(&r);
    return rc;
}
