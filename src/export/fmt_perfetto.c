/* The "perfetto" format: a timeline as a Chrome trace-event JSON file that the Perfetto UI
 * (ui.perfetto.dev) and chrome://tracing open (socmon report --perfetto OUT.json). What the
 * trace holds and why is in docs/perfetto.md; in short:
 *
 *   {"displayTimeUnit":"ns", "otherData":{target, device, ...}, "traceEvents":[
 *     M events: process 1 "<device> metrics" with thread 1 "recording", and one process per
 *               counter instance ("tile0 counters", ...), sorted in that order;
 *     C events: one counter track per counter (its delta over each interval, the key naming the
 *               unit: "tile0.l2_hits [events/interval]") and per metric result ("ps_ipc
 *               [inst/cycle]"), each at the START of its interval, since a Perfetto counter holds
 *               its value until the next event; written only when the value changes;
 *     X events: "gap" over an interval that spans missed samples, its counts in args; every track
 *               reads 0 over it, so no measured value spans the gap;
 *     i event:  "end" at the last sample, so the last interval shows whole;
 *     with a program's profile (run.profile): X events, one per function slice (entry to exit,
 *               nested by depth) on thread 2 "hart 0" of process 1, and an i event "slices
 *               dropped" at the last slice kept when the profile kept no more]}
 *
 * Timestamps are microseconds since the first sample (the spec's unit; three decimals keep
 * nanoseconds). The file is streamed row by row: memory is one value per track, however long
 * the recording. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "export/table.h"
#include "export/output_format.h"
#include "socmon/sample.h"
#include "socmon/version.h"

typedef struct pf_state {
    size_t nc, nm;
    unsigned *pid;          /* per counter: its instance's process */
    uint64_t *last_d;       /* per counter: the value its track shows now */
    double *last_m;         /* per metric result: the same */
    unsigned char *have;    /* per track (counters, then metrics): an event was written */
    int any_row;
    uint64_t end_ns;        /* the last sample, since the first */
    uint64_t first_ns;      /* the first sample, on the recording's clock (the profile's too) */
    size_t k;               /* intervals merged into one row (smn_perfetto_merge) */
} pf_state;

size_t smn_perfetto_merge(size_t samples, size_t tracks)
{
    uint64_t nin = samples > 1 ? samples - 1 : 0, points = (uint64_t)nin * (tracks ? tracks : 1);
    return points > SMN_PERFETTO_MAX_POINTS ? (size_t)((points + SMN_PERFETTO_MAX_POINTS - 1) / SMN_PERFETTO_MAX_POINTS)
                                            : 1;
}

/* The hart's thread under process 1, where a profile's function slices go. */
#define HART_TID 2
/* The thread of the workload's phase slices. */
#define PHASE_TID 3

static socmon_status nomem(void)
{
    return socmon_fail(SOCMON_ENOMEM, "perfetto: out of memory");
}

/* s as a JSON string (quotes included). Names can come from a remote agent's
 * HELLO, so any bytes: those that are not UTF-8 become U+FFFD, then jansson
 * does the escaping, so the trace is always valid JSON. Not a hot path: once
 * per name (track metadata), not per sample. */
static socmon_status put_str(smn_sink *k, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t len = strlen((const char *)p), o = 0;
    char *clean = malloc(len * 3 + 1);
    if (!clean)
        return nomem();
    while (*p) {
        size_t n = smn_utf8_len(p);
        if (n) {
            memcpy(clean + o, p, n);
            o += n;
        } else {
            memcpy(clean + o, "\xef\xbf\xbd", 3);
            o += 3;
        }
        p += n ? n : 1;
    }
    json_t *j = json_stringn_nocheck(clean, o);
    free(clean);
    size_t need = j ? json_dumpb(j, NULL, 0, JSON_ENCODE_ANY) : 0;
    char *text = need ? malloc(need) : NULL;
    if (!text) {
        json_decref(j);
        return nomem();
    }
    json_dumpb(j, text, need, JSON_ENCODE_ANY);
    json_decref(j);
    socmon_status st = smn_sink_write(k, text, need);
    free(text);
    return st;
}

/* A time in the trace's microseconds. */
static socmon_status put_us(smn_sink *k, uint64_t ns)
{
    return smn_sink_printf(k, "%llu.%03u", (unsigned long long)(ns / 1000), (unsigned)(ns % 1000));
}

static socmon_status pf_begin(smn_output *o)
{
    const smn_run_info *r = &o->run;
    if (r->doc != SOCMON_DOC_INTERVALS)
        return socmon_fail(SOCMON_EINVAL, "perfetto: a trace shows a timeline, not totals (socmon report -i FILE "
                                          "--perfetto OUT.json)");
    o->state = calloc(1, sizeof(pf_state));
    if (!o->state)
        return nomem();
    smn_sink *k = o->sink;
    socmon_status st = smn_sink_puts(k, "{\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"generator\":\"socmon "
                                           SOCMON_VERSION_STR(SOCMON_VERSION_MAJOR) "."
                                           SOCMON_VERSION_STR(SOCMON_VERSION_MINOR) "."
                                           SOCMON_VERSION_STR(SOCMON_VERSION_PATCH) "\",\"target\":");
    if (st == SOCMON_OK)
        st = put_str(k, r->target);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"device\":");
    if (st == SOCMON_OK)
        st = put_str(k, r->device);
    if (st == SOCMON_OK)
        st = smn_sink_printf(k, ",\"interval_ns\":%llu,\"samples\":%zu,\"clock\":\"%s\"",
                                (unsigned long long)r->interval_ns, r->samples, r->simulated ? "simulated" : "real");
    if (st == SOCMON_OK && r->profile)
        st = smn_sink_printf(k, ",\"slices\":%zu,\"slices_dropped\":%llu", r->profile->nslices,
                                (unsigned long long)r->profile->slices_dropped);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"ts\":\"microseconds since the first sample\"},\n\"traceEvents\":[\n");
    return st;
}

/* A process's name and place (M events). */
static socmon_status put_process(smn_sink *k, unsigned pid, const char *a, const char *b)
{
    socmon_status st = smn_sink_printf(k, "{\"ph\":\"M\",\"pid\":%u,\"name\":\"process_sort_index\","
                                             "\"args\":{\"sort_index\":%u}},\n{\"ph\":\"M\",\"pid\":%u,\"name\":"
                                             "\"process_name\",\"args\":{\"name\":", pid, pid, pid);
    char name[320];
    snprintf(name, sizeof name, "%s%s%s", a, *a && *b ? " " : "", b);
    if (st == SOCMON_OK)
        st = put_str(k, name);
    return st == SOCMON_OK ? smn_sink_puts(k, "}},\n") : st;
}

static socmon_status pf_begin_intervals(smn_output *o)
{
    pf_state *s = o->state;
    const smn_counter_list *cl = o->cols.counters;
    s->nc = cl ? cl->n : 0;
    s->nm = o->cols.metrics ? socmon_metrics_nresults(o->cols.metrics) : 0;
    s->pid = calloc(s->nc + 1, sizeof *s->pid);
    s->last_d = calloc(s->nc + 1, sizeof *s->last_d);
    s->last_m = calloc(s->nm + 1, sizeof *s->last_m);
    s->have = calloc(s->nc + s->nm + 1, 1);
    if (!s->pid || !s->last_d || !s->last_m || !s->have)
        return nomem();
    smn_sink *k = o->sink;
    const char *dev = o->run.device ? o->run.device : "";
    s->k = smn_perfetto_merge(o->run.samples, s->nc + s->nm);
    socmon_status st = put_process(k, 1, dev, "metrics");
    /* a long recording is thinned, and the trace says so where the UI shows it: a global instant */
    if (st == SOCMON_OK && s->k > 1)
        st = smn_sink_printf(k, "{\"ph\":\"i\",\"s\":\"g\",\"pid\":1,\"tid\":1,\"name\":\"intervals merged\",\"ts\":0,"
                                "\"args\":{\"merge\":%zu,\"intervals\":%zu,\"note\":\"a long recording: every %zu "
                                "intervals are one (deltas summed, metrics over the merged time); socmon report -x, "
                                "has every interval\"}},\n", s->k, o->run.samples > 1 ? o->run.samples - 1 : 0, s->k);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "{\"ph\":\"M\",\"pid\":1,\"tid\":1,\"name\":\"thread_name\",\"args\":{\"name\":"
                                 "\"recording\"}},\n");
    if (st == SOCMON_OK && o->run.profile)
        st = smn_sink_printf(k, "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\",\"args\":{\"name\":"
                                   "\"hart 0\"}},\n{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_sort_index\","
                                   "\"args\":{\"sort_index\":%d}},\n", HART_TID, HART_TID, HART_TID);
    /* one process per counter instance, numbered in order of first appearance */
    unsigned next = 2;
    for (size_t i = 0; st == SOCMON_OK && i < s->nc; i++) {
        const char *inst = cl->c[i].instance ? cl->c[i].instance : "";
        for (size_t j = 0; j < i && !s->pid[i]; j++)
            if (strcmp(cl->c[j].instance ? cl->c[j].instance : "", inst) == 0)
                s->pid[i] = s->pid[j];
        if (!s->pid[i]) {
            s->pid[i] = next++;
            st = put_process(k, s->pid[i], *inst ? inst : dev, "counters");
        }
    }
    return st;
}

/* One counter event: track `name`, the key naming its unit (per_interval: its value is a delta over
 * that many intervals, 0 for a metric). */
static socmon_status put_counter(smn_sink *k, unsigned pid, const char *name, const char *unit, size_t per_interval,
                                 uint64_t at_ns, const char *value)
{
    socmon_status st = smn_sink_printf(k, "{\"ph\":\"C\",\"pid\":%u,\"ts\":", pid);
    if (st == SOCMON_OK)
        st = put_us(k, at_ns);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"name\":");
    if (st == SOCMON_OK)
        st = put_str(k, name);
    char key[96];
    char per[40] = "";
    if (per_interval > 1)
        snprintf(per, sizeof per, "%zu intervals", per_interval);
    else if (per_interval)
        snprintf(per, sizeof per, "interval");
    if (unit && *unit)
        snprintf(key, sizeof key, "[%s%s%s]", unit, *per ? "/" : "", per);
    else if (*per)
        snprintf(key, sizeof key, "[per %s]", per);
    else
        snprintf(key, sizeof key, "value");
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"args\":{");
    if (st == SOCMON_OK)
        st = put_str(k, key);
    return st == SOCMON_OK ? smn_sink_printf(k, ":%s}},\n", value) : st;
}

/* The gap slice over [start, start + dt): what was counted over it, in args. */
static socmon_status put_gap(smn_output *o, const socmon_row *row, uint64_t start)
{
    pf_state *s = o->state;
    smn_sink *k = o->sink;
    socmon_status st = smn_sink_puts(k, "{\"ph\":\"X\",\"pid\":1,\"tid\":1,\"name\":\"gap\",\"ts\":");
    if (st == SOCMON_OK)
        st = put_us(k, start);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"dur\":");
    if (st == SOCMON_OK)
        st = put_us(k, row->dt_ns);
    if (st == SOCMON_OK)
        st = smn_sink_printf(k, ",\"args\":{\"missed_intervals\":%u,\"span_ns\":%llu,\"deltas\":{", row->missed,
                                (unsigned long long)row->dt_ns);
    for (size_t i = 0; st == SOCMON_OK && i < s->nc; i++) {
        st = i ? smn_sink_putc(k, ',') : SOCMON_OK;
        if (st == SOCMON_OK)
            st = put_str(k, o->cols.counters->names[i]);
        if (st == SOCMON_OK)
            st = smn_sink_printf(k, ":%llu", (unsigned long long)row->deltas[smn_col(o, i)]);
    }
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "},\"metrics\":{");
    for (size_t m = 0, n = 0; st == SOCMON_OK && row->metrics && m < s->nm; m++) {
        if (!isfinite(row->metrics[m]))
            continue;
        char h[160];
        smn_result_name(socmon_metrics_result(o->cols.metrics, m), h, sizeof h);
        st = n++ ? smn_sink_putc(k, ',') : SOCMON_OK;
        if (st == SOCMON_OK)
            st = put_str(k, h);
        if (st == SOCMON_OK)
            st = smn_sink_printf(k, ":%.12g", row->metrics[m]);
    }
    return st == SOCMON_OK ? smn_sink_puts(k, "}}},\n") : st;
}

static socmon_status pf_row(smn_output *o, const socmon_row *row)
{
    pf_state *s = o->state;
    smn_sink *k = o->sink;
    const smn_counter_list *cl = o->cols.counters;
    /* the interval [since - dt, since), on the trace's clock (since the first sample) */
    uint64_t since = row->since_ns, start = since >= row->dt_ns ? since - row->dt_ns : 0;
    int gap = (row->flags & SOCMON_SAMPLE_MISSED) != 0;
    socmon_status st = gap ? put_gap(o, row, start) : SOCMON_OK;
    char num[32];
    for (size_t i = 0; st == SOCMON_OK && i < s->nc; i++) {
        uint64_t d = gap ? 0 : row->deltas[smn_col(o, i)];
        if (s->have[i] && s->last_d[i] == d)
            continue;
        snprintf(num, sizeof num, "%llu", (unsigned long long)d);
        st = put_counter(k, s->pid[i], cl->names[i], cl->c[i].unit, s->k > 1 ? s->k : 1, start, num);
        s->have[i] = 1;
        s->last_d[i] = d;
    }
    for (size_t m = 0; st == SOCMON_OK && m < s->nm; m++) {
        /* JSON has no NaN and a Perfetto counter no "no value": an undefined result reads 0 */
        double v = gap || !row->metrics || !isfinite(row->metrics[m]) ? 0 : row->metrics[m];
        if (s->have[s->nc + m] && s->last_m[m] == v)
            continue;
        const socmon_metric_result_info *r = socmon_metrics_result(o->cols.metrics, m);
        char h[160];
        smn_result_name(r, h, sizeof h);
        snprintf(num, sizeof num, "%.12g", v);
        st = put_counter(k, 1, h, r->def->unit, 0, start, num);
        s->have[s->nc + m] = 1;
        s->last_m[m] = v;
    }
    if (!s->any_row)
        s->first_ns = row->t_ns - row->since_ns;
    s->any_row = 1;
    s->end_ns = since;
    return st;
}

/* A time of the recording's clock on the trace's (since the first sample; before it: 0). */
static uint64_t since_first(const pf_state *s, uint64_t t_ns)
{
    return t_ns > s->first_ns ? t_ns - s->first_ns : 0;
}


/* A complete event from t0 to t1 (us since the first sample) on thread tid, its closing brace
 * left to the caller (which may add "args"). */
static socmon_status put_span(smn_sink *k, int tid, const char *cat, const char *name, uint64_t t0, uint64_t t1)
{
    socmon_status st = smn_sink_printf(k, "{\"ph\":\"X\",\"pid\":1,\"tid\":%d,\"cat\":\"%s\",\"name\":", tid, cat);
    if (st == SOCMON_OK)
        st = put_str(k, name);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"ts\":");
    if (st == SOCMON_OK)
        st = put_us(k, t0);
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ",\"dur\":");
    return st == SOCMON_OK ? put_us(k, t1 > t0 ? t1 - t0 : 0) : st;
}

/* The profile's function slices on the hart's thread, as complete events in entry order (a
 * frame before the frames it called), and what was dropped. */
static socmon_status put_slices(smn_output *o)
{
    pf_state *s = o->state;
    smn_sink *k = o->sink;
    const socmon_profile *p = o->run.profile;
    socmon_status st = SOCMON_OK;
    for (size_t i = 0; st == SOCMON_OK && i < p->nslices; i++) {
        const socmon_profile_slice *sl = &p->slices[i];
        st = put_span(k, HART_TID, "function", sl->func < p->nfuncs ? p->funcs[sl->func].name : "?",
                      since_first(s, sl->t0_ns), since_first(s, sl->t1_ns));
        if (st == SOCMON_OK)
            st = smn_sink_printf(k, ",\"args\":{\"depth\":%u}},\n", sl->depth);
    }
    if (st == SOCMON_OK && p->slices_dropped) {
        uint64_t at = p->nslices ? since_first(s, p->slices[p->nslices - 1].t0_ns) : 0;
        st = smn_sink_printf(k, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":%d,\"name\":\"slices dropped\","
                                   "\"ts\":", HART_TID);
        if (st == SOCMON_OK)
            st = put_us(k, at);
        if (st == SOCMON_OK)
            st = smn_sink_printf(k, ",\"args\":{\"dropped\":%llu,\"kept\":%zu,\"why\":\"the profile keeps at most "
                                       "that many function entries (record with -t ibex:slices=N)\"}},\n",
                                    (unsigned long long)p->slices_dropped, p->nslices);
    }
    return st;
}

/* The workload's phases (run.phases) as complete events on a thread "phases" of their own, one
 * per phase, so the trace shows which stretch of the counter tracks is which mode. */
static socmon_status put_phases(smn_output *o)
{
    pf_state *s = o->state;
    smn_sink *k = o->sink;
    socmon_status st = smn_sink_printf(k, "{\"ph\":\"M\",\"pid\":1,\"tid\":%d,\"name\":\"thread_name\","
                                          "\"args\":{\"name\":\"phases\"}},\n", PHASE_TID);
    for (size_t i = 0; st == SOCMON_OK && i < o->run.nphases; i++) {
        const socmon_phase *ph = &o->run.phases[i];
        st = put_span(k, PHASE_TID, "phase", ph->name, since_first(s, ph->t0_ns), since_first(s, ph->t1_ns));
        if (st == SOCMON_OK)
            st = smn_sink_puts(k, "},\n");
    }
    return st;
}

static socmon_status pf_end(smn_output *o)
{
    pf_state *s = o->state;
    smn_sink *k = o->sink;
    socmon_status st = SOCMON_OK;
    if (s && s->any_row) {
        st = smn_sink_puts(k, "{\"ph\":\"i\",\"s\":\"t\",\"pid\":1,\"tid\":1,\"name\":\"end\",\"ts\":");
        if (st == SOCMON_OK)
            st = put_us(k, s->end_ns);
        if (st == SOCMON_OK)
            st = smn_sink_puts(k, "},\n");
        if (st == SOCMON_OK && o->run.profile)
            st = put_slices(o);
        if (st == SOCMON_OK && o->run.nphases)
            st = put_phases(o);
    }
    /* every event ends with ",\n": a last metadata event closes the array without a dangling comma */
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "{\"ph\":\"M\",\"pid\":1,\"name\":\"process_labels\",\"args\":{\"labels\":"
                                 "\"socmon\"}}\n]}\n");
    return st;
}

static size_t pf_merge(const smn_output *o)
{
    const pf_state *s = o->state;
    return s && s->k ? s->k : 1;
}

static void pf_release(smn_output *o)
{
    pf_state *s = o->state;
    if (s) {
        free(s->pid);
        free(s->last_d);
        free(s->last_m);
        free(s->have);
    }
    free(s);
    o->state = NULL;
}

static const smn_timeline_ops pf_timeline = {
    .begin_intervals = pf_begin_intervals, .merge = pf_merge, .row = pf_row,
};

const smn_output_format smn_format_perfetto = {
    .name = "perfetto", .begin = pf_begin, .end = pf_end, .release = pf_release,
    .timeline = &pf_timeline,
};
