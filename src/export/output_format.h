/* What an output format implements, and the helpers formats share.
 *
 * A format is an ops table (with a table of timeline ops and one of whole documents, for the
 * formats that render them); export/output.c checks the order of calls, picks the counters to
 * show (zero filtering, hot spot ranking) and then calls the format, so a format only renders.
 * Every op may be NULL: the format has nothing to write for that piece. */
#ifndef SOCMON_EXPORT_OUTPUT_FORMAT_H
#define SOCMON_EXPORT_OUTPUT_FORMAT_H

#include "export/output.h"

/* Counters already chosen for display, in display order. */
typedef struct smn_counter_rows {
    const smn_counter_list *list;
    const uint64_t *values;     /* values[i] belongs to list counter i */
    const size_t *idx;          /* the counters to show */
    size_t n;
    size_t hidden;              /* counters left out because they read 0 */
    const char *pattern;        /* hot spots: the pattern they were chosen by */
} smn_counter_rows;

/* A timeline's pieces (begin_intervals ... end_intervals), for a format that renders timelines.
 * A format without them (NULL) takes a timeline's calls and writes nothing for them. */
typedef struct smn_timeline_ops {
    socmon_status (*begin_intervals)(smn_output *o);   /* o->cols is set */
    size_t (*merge)(const smn_output *o);              /* intervals per row wanted; NULL: 1 */
    socmon_status (*row)(smn_output *o, const socmon_row *row);
    socmon_status (*end_intervals)(smn_output *o);
    /* a timeline's run totals (smn_output_run_totals); NULL: the format does not show them */
    socmon_status (*run_totals)(smn_output *o, const socmon_totals *t);
} smn_timeline_ops;

/* Documents of their own, each the whole document (called instead of begin, then only end). A
 * format points to these only if it renders one of them, and refuses the others (NULL), so a
 * new kind of document adds an op here and to the formats that render it, not to every format. */
typedef struct smn_document_ops {
    socmon_status (*file_facts)(smn_output *o, const smn_file_facts *f);
    socmon_status (*diff)(smn_output *o, const socmon_diff *d);
    socmon_status (*check)(smn_output *o, const socmon_check *c);
    socmon_status (*sweep)(smn_output *o, const socmon_sweep *s);
    socmon_status (*profile)(smn_output *o, const smn_profile_view *v);
} smn_document_ops;

/* A format: the pieces of a run's document (totals, functions and what follows them), and
 * through timeline and documents the other kinds it renders (NULL: none). */
typedef struct smn_output_format {
    const char *name;
    int selects_metrics;        /* shows only cols.shown of a timeline's metric results */
    int needs_page;             /* made from the embedded web page: refused without it (SOCMON_WEB=OFF) */
    socmon_status (*begin)(smn_output *o);             /* o->run is set */
    socmon_status (*counters)(smn_output *o, const smn_counter_rows *r);
    socmon_status (*metrics)(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                             const double *values);
    socmon_status (*hotspots)(smn_output *o, const smn_counter_rows *r);
    socmon_status (*functions)(smn_output *o, const socmon_functions *f);
    socmon_status (*note)(smn_output *o, const char *text);
    /* counters the program stopped for part of the run (a note for people, data in JSON) */
    socmon_status (*inhibited)(smn_output *o, const socmon_inhibited *x, size_t n);
    /* the run's results (smn_output_results) */
    socmon_status (*results)(smn_output *o, const socmon_result *x, size_t n);
    /* how a document's program ended (smn_output_program) */
    socmon_status (*program)(smn_output *o, const smn_program_run *r);
    socmon_status (*end)(smn_output *o);
    void (*release)(smn_output *o);                    /* frees o->state, also after a failure */
    const smn_timeline_ops *timeline;
    const smn_document_ops *documents;
} smn_output_format;

struct smn_output {
    const smn_output_format *fmt;
    smn_sink *sink;
    smn_output_opts opts;
    smn_run_info run;
    smn_interval_cols cols;
    int stage;                  /* where in the call order the output is (output.c) */
    void *state;                /* the format's own */
    socmon_findings *findings;  /* smn_output_findings's, owned, or NULL: formats show them where
                                   their document ends (smn_table_findings, smn_json_findings) */
};

/* Counter i of cols.counters: its index in the pipeline's rows and totals (cols.from). */
static inline size_t smn_col(const smn_output *o, size_t i)
{
    return o->cols.from ? o->cols.from[i] : i;
}

/* The formats (one file each) and their registry entries in output.c. */
extern const smn_output_format smn_format_table;
extern const smn_output_format smn_format_csv;
extern const smn_output_format smn_format_json;
extern const smn_output_format smn_format_live;
extern const smn_output_format smn_format_prometheus;   /* fmt_prom.c: text 0.0.4 */
extern const smn_output_format smn_format_openmetrics;  /* fmt_prom.c: OpenMetrics 1.0 */
extern const smn_output_format smn_format_perfetto;
/* Intervals the perfetto format merges into one row for a recording of `samples` samples and
 * `tracks` counter and metric tracks: 1, or as many as keep the trace within
 * SMN_PERFETTO_MAX_POINTS track values (a trace the Perfetto UI can open; about 1 GB of JSON at
 * most). report says so when it merges. */
#define SMN_PERFETTO_MAX_POINTS (UINT64_C(1) << 24)
size_t smn_perfetto_merge(size_t samples, size_t tracks);
extern const smn_output_format smn_format_html;
extern const smn_output_format smn_format_junit;     /* fmt_junit.c: JUnit XML of a check */
extern const smn_output_format smn_format_markdown;  /* fmt_markdown.c: a check for a pull request */
extern const smn_output_format smn_format_parquet;   /* fmt_parquet.c: the CSV's tables, typed */

/* The findings section of a table ("Where the time went:"), nothing without findings. */
socmon_status smn_table_findings(smn_output *o);
/* The findings as JSON, [{"target", "finding", "evidence": {...}, ...}], or NULL (out of memory). */
struct json_t *smn_json_findings(const socmon_findings *f);

/* A metric value as text: its label if it has one, else the number for humans ("-" for NaN).
 * *unit gets the unit to show beside it ("" beside a label). Returns buf. */
const char *smn_metric_text(const socmon_metric_def *d, double v, char *buf, size_t len,
                               const char **unit);
/* The same for people (table, live lines): a label, or the number with the metric's one
 * precision (smn_metric_decimals) and, unless opts.no_big_num, grouped digits. */
const char *smn_metric_human(const smn_output *o, const socmon_metric_def *d, double v, char *buf,
                                size_t len, const char **unit);
/* Decimals a metric shows in every row of a human format: its file's "precision", or its
 * unit's (smn_unit_decimals). */
int smn_metric_decimals(const socmon_metric_def *d);
/* A counter value for people: grouped unless opts.no_big_num. */
void smn_output_count(const smn_output *o, uint64_t v, char *buf, size_t len);
/* An elapsed time for people, "simulated" when the run's time is a model's: "5.000 ms time
 * elapsed" or "5.000 ms simulated time elapsed". */
void smn_output_elapsed(const smn_output *o, uint64_t ns, char *buf, size_t len);
/* The description of a metric as a document of totals shows it: a definition says what a
 * value means for one interval ("... in the interval"), and in totals the value is over the
 * whole run, so "the interval" reads "the run" there. Returns buf (or d->desc unchanged). */
const char *smn_metric_desc(const smn_output *o, const socmon_metric_def *d, char *buf, size_t len);

/* "instance.name", or "name" for a device-wide result. */
void smn_result_name(const socmon_metric_result_info *r, char *buf, size_t len);
/* A row's flags for machine formats and the table: "", "missed=3", "undef", "missed=3 undef". */
void smn_row_flags(const smn_output *o, const socmon_row *row, char *buf, size_t len);
/* A row's flags as words, "missed=2 short scaled=50.00% lost=3" (value_notes.c); the words
 * used set bits in *used (0 to start) for smn_row_footnotes. */
void smn_row_flags_used(const smn_output *o, const socmon_row *row, char *buf, size_t len, unsigned *used);
/* Only the words that say a row's values are wrong (implausible=, dead-bus=), "" when none: the
 * page's note on the row. */
void smn_row_value_note(const smn_output *o, const socmon_row *row, char *buf, size_t len);
/* The counters a row's implausible bits mark (bit SOCMON_VALUE_IMPLAUSIBLE) or the blocks
 * (SOCMON_VALUE_DEAD_BUS), as smn_value_names writes them, into buf; NULL when the row marks
 * none or the columns name no source (cols.src). */
const char *smn_row_bad_names(const smn_output *o, const socmon_row *row, unsigned bit, char *buf, size_t len);
/* The run's phase a row belongs to (smn_row_phase), NULL when the run has no phases. */
const char *smn_output_row_phase(const smn_output *o, const socmon_row *row);

#endif
