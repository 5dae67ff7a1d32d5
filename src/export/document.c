/* Documents in memory (socmon/document.h): a run plan's session (analysis/session.h) and one
 * output format into a memory sink, without what only a terminal needs (live lines, signals, a
 * program's output on stdout). The session opens and runs the source; this file only says what
 * to run and where its rows go. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/session.h"
#include "export/feed.h"
#include "export/output.h"
#include "export/profile_view.h"
#include "socmon/document.h"
#include "socmon/profile.h"
#include "socmon/recording.h"

typedef struct doc {
    smn_sink *sink;
    smn_output *out;
    smn_feed *feed;
    smn_session *sess;        /* the run (analysis/session.h); NULL for a profile's view */
    socmon_recording *rec;    /* a profile's recording */
} doc;

static void doc_free(doc *d)
{
    smn_session_close(d->sess);   /* before the feed: its pipeline holds the feed as a consumer */
    smn_feed_free(d->feed);
    smn_output_free(d->out);
    smn_sink_close(d->sink);
    socmon_recording_free(d->rec);
}

static const socmon_document_opts *opts_of(const socmon_document_opts *o)
{
    static const socmon_document_opts none = {0};
    return o ? o : &none;
}

/* The plan's session and the output on a memory sink. */
static socmon_status doc_open(doc *d, const smn_run_plan *plan, const socmon_document_opts *o, int deltas)
{
    socmon_status st = smn_session_open(plan, &d->sess);
    if (st == SOCMON_OK)
        st = smn_sink_memory(&d->sink);
    smn_output_opts oo = {.sep = ',', .deltas = deltas};
    if (st == SOCMON_OK)
        st = smn_output_open(o->format ? o->format : "json", d->sink, &oo, &d->out);
    return st;
}

/* Ends the document and hands its bytes over. */
static socmon_status doc_take(doc *d, socmon_status st, char **out, size_t *len)
{
    if (st == SOCMON_OK)
        st = smn_output_end(d->out);
    size_t n = 0;
    const char *data = st == SOCMON_OK ? smn_sink_memory_data(d->sink, &n) : NULL;
    if (st == SOCMON_OK && !(*out = malloc(n + 1)))
        st = socmon_fail(SOCMON_ENOMEM, "document: out of memory (%zu bytes)", n);
    if (st == SOCMON_OK) {
        memcpy(*out, data, n);
        (*out)[n] = '\0';
        if (len)
            *len = n;
    }
    doc_free(d);
    return st;
}

/* The output as the pipeline's consumer, through a feed (export/feed.h). */
static socmon_status doc_feed(doc *d, const smn_feed_opts *fo)
{
    socmon_status st = smn_feed_new(d->out, fo, &d->feed);
    socmon_consumer c = st == SOCMON_OK ? smn_feed_consumer(d->feed) : (socmon_consumer){0};
    return st == SOCMON_OK ? smn_session_add(d->sess, &c) : st;
}

static socmon_status check_args(const char *what, const void *a, char **out)
{
    if (out)
        *out = NULL;
    return a && out ? SOCMON_OK : socmon_fail(SOCMON_EINVAL, "%s: NULL argument", what);
}

socmon_status socmon_document_recording(const char *path, const socmon_document_opts *o, char **out, size_t *len)
{
    socmon_status st = check_args("socmon_document_recording", path, out);
    if (st != SOCMON_OK)
        return st;
    o = opts_of(o);
    doc d = {0};
    smn_run_plan plan = {.recording = path, .metric_file = o->metric_file};
    st = doc_open(&d, &plan, o, o->deltas);
    smn_feed_opts fo = {.doc = SOCMON_DOC_INTERVALS, .title = "recording"};
    if (st == SOCMON_OK)
        st = doc_feed(&d, &fo);
    if (st == SOCMON_OK)
        st = smn_session_run(d.sess);
    return doc_take(&d, st, out, len);
}

socmon_status socmon_document_functions(const char *path, const socmon_document_opts *o, char **out, size_t *len)
{
    socmon_status st = check_args("socmon_document_functions", path, out);
    if (st != SOCMON_OK)
        return st;
    o = opts_of(o);
    doc d = {0};
    socmon_functions *fns = NULL;
    smn_run_plan plan = {.recording = path, .metric_file = o->metric_file};
    st = doc_open(&d, &plan, o, 0);
    if (st == SOCMON_OK)
        st = smn_session_run(d.sess);
    const socmon_source_info *info = d.sess ? smn_session_info(d.sess) : NULL;
    if (st == SOCMON_OK)   /* as report --by-symbol: the functions' counters as counted, unscaled */
        st = socmon_functions_from_totals(info, smn_session_totals(d.sess), 0, &fns);
    smn_run_info run = {.doc = SOCMON_DOC_FUNCTIONS, .target = info ? info->target : NULL};
    if (st == SOCMON_OK)
        st = smn_output_begin(d.out, &run);
    if (st == SOCMON_OK)
        st = smn_output_functions(d.out, fns);
    st = doc_take(&d, st, out, len);
    socmon_functions_free(fns);
    return st;
}

/* A program's console bytes as the model produces them (the CLI sends them to stdout). */
typedef struct prog_output {
    uint8_t *buf;
    size_t len, cap;
    int oom;
} prog_output;

static void collect_output(void *ctx, uint8_t byte)
{
    prog_output *po = ctx;
    if (po->oom)
        return;
    if (po->len == po->cap) {
        size_t cap = po->cap ? 2 * po->cap : 256;
        uint8_t *b = realloc(po->buf, cap);
        if (!b) {
            po->oom = 1;
            return;
        }
        po->buf = b;
        po->cap = cap;
    }
    po->buf[po->len++] = byte;
}

/* How the program ended, as the document says it: the session's words and exit status. */
static socmon_status program_end(doc *d, const prog_output *po)
{
    if (po->oom)
        return socmon_fail(SOCMON_ENOMEM, "document: out of memory for the program's output (%zu bytes)", po->len);
    smn_session_end e;
    smn_session_exit(d->sess, &e);
    smn_program_run r = {.message = e.message, .output = po->buf, .output_len = po->len, .end = e.end,
                         .exit_code = e.exit_code};
    return smn_output_program(d->out, &r);
}

socmon_status socmon_document_stat(const char *spec, const char *workload, const char *program,
                                   const socmon_document_opts *o, char **out, size_t *len)
{
    socmon_status st = check_args("socmon_document_stat", spec, out);
    if (st != SOCMON_OK)
        return st;
    o = opts_of(o);
    doc d = {0};
    prog_output po = {0};
    const char *specs[] = {spec};
    smn_run_plan plan = {.target = {.specs = specs, .nspecs = 1, .spec_given = 1, .program = program},
                         .workload = workload, .sampling = {.duration_ns = o->duration_ns},
                         .metric_file = o->metric_file};
    st = doc_open(&d, &plan, o, 0);
    int has_program = st == SOCMON_OK && smn_session_program_output(d.sess, collect_output, &po);
    smn_feed_opts fo = {.doc = SOCMON_DOC_TOTALS, .title = "Performance counter stats",
                           .workload = d.sess ? smn_session_workload(d.sess) : NULL};
    if (st == SOCMON_OK)
        st = doc_feed(&d, &fo);
    if (st == SOCMON_OK)
        st = smn_session_run(d.sess);
    if (st == SOCMON_OK && has_program)
        st = program_end(&d, &po);
    st = doc_take(&d, st, out, len);
    free(po.buf);
    return st;
}

socmon_status socmon_document_profile(const char *path, const char *view, const char *event, const char *elf,
                                      const socmon_document_opts *o, char **out, size_t *len)
{
    socmon_status st = check_args("socmon_document_profile", path, out);
    if (st == SOCMON_OK && !view)
        st = socmon_fail(SOCMON_EINVAL, "socmon_document_profile: NULL view");
    if (st != SOCMON_OK)
        return st;
    o = opts_of(o);
    smn_profile_view_kind kind;
    if (strcmp(view, "children") == 0)
        kind = SMN_PV_CHILDREN;
    else if (strcmp(view, "call-tree") == 0)
        kind = SMN_PV_CALL_TREE;
    else if (strcmp(view, "by-line") == 0)
        kind = SMN_PV_LINES;
    else if (strcmp(view, "folded") == 0)
        kind = SMN_PV_FOLDED;
    else
        return socmon_fail(SOCMON_EINVAL, "profile view '%s' unknown (valid: children, call-tree, by-line, folded)",
                           view);
    doc d = {0};
    socmon_profile *p = NULL;
    smn_profile_view_data pv = {0};
    const void *data = NULL;
    size_t n = 0;
    st = socmon_recording_open(path, &d.rec);
    if (st == SOCMON_OK) {
        st = socmon_recording_attachment(d.rec, "profile", &data, &n);
        if (st == SOCMON_ENOENT)
            st = socmon_fail(SOCMON_ENOENT, "%s: the recording has no program profile; record a program with "
                             "'socmon record -t ibex -- prog.elf'", path);
    }
    if (st == SOCMON_OK && (st = socmon_profile_from_json(data, n, &p)) != SOCMON_OK) {
        char why[512];
        snprintf(why, sizeof why, "%s", socmon_errmsg());
        st = socmon_fail(st, "%s: the program profile cannot be read (%s)", path, why);
    }
    if (st == SOCMON_OK)
        st = smn_profile_view_compute(&pv, p, kind, event, NULL, elf, path);
    if (st == SOCMON_OK && pv.calls && pv.calls->mismatch)
        st = socmon_fail(SOCMON_ESTATE, "%s: the call tree's totals differ from the whole-program counters: "
                         "the profile does not add up", path);
    if (st == SOCMON_OK)
        st = smn_sink_memory(&d.sink);
    smn_output_opts oo = {.sep = ','};
    if (st == SOCMON_OK)
        st = smn_output_open(o->format ? o->format : "json", d.sink, &oo, &d.out);
    if (st == SOCMON_OK)
        st = smn_output_profile(d.out, &pv.v);
    st = doc_take(&d, st, out, len);
    smn_profile_view_done(&pv);
    socmon_profile_free(p);
    return st;
}

void socmon_document_free(char *text)
{
    free(text);
}
