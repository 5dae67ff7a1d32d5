/* The output interface: one set of calls through which every command emits its results, and
 * which every output format (table, CSV, JSON, the live lines of `socmon record`) implements.
 *
 * A command produces its data once and calls, in order:
 *   begin(run)  [counters] [metrics] [hotspots]        a document of totals (stat, read, summary)
 *   begin(run)  begin_intervals(cols) row()... end_intervals   a timeline (report, record)
 *   begin(run)  functions(rows)                        per function of a program (report --by-symbol)
 *   [note(text)] ... end()
 *   file_facts(facts) end()                               what a recording file holds (report --stats)
 *   diff(d) end()                                          two runs compared (socmon diff)
 *   check(c) end()                                         rules over a diff (socmon check)
 *   sweep(s) end()                                         a sweep's table of points (socmon sweep)
 *   profile(view) end()                                    a program's exact profile (report --children,
 *                                                          --call-tree, --by-line, --annotate, --folded)
 * The format decides how each piece looks and where it goes (its byte sink); the caller never
 * asks which format it talks to. A format is found by name (smn_output_format_find), so adding
 * one is a file with its ops table and one line in the registry (export/output.c). A format
 * renders a timeline or a document of its own only if it has their ops (export/output_format.h):
 * a new kind of document adds its ops there, beside diff's and check's, not to every format.
 *
 * Strings and arrays passed to begin and begin_intervals are borrowed until end and
 * end_intervals return. */
#ifndef SOCMON_EXPORT_OUTPUT_H
#define SOCMON_EXPORT_OUTPUT_H

#include <stddef.h>
#include <stdint.h>
#include "analysis/recording_facts.h"
#include "export/sink.h"
#include "socmon/analysis.h"
#include "socmon/check.h"
#include "socmon/compare.h"
#include "socmon/device.h"
#include "socmon/findings.h"
#include "socmon/metrics.h"
#include "socmon/phase.h"
#include "socmon/profile.h"
#include "socmon/sample.h"
#include "socmon/sweep.h"
#include "socmon/target.h"

typedef struct smn_output smn_output;

typedef enum smn_doc {
    SOCMON_DOC_TOTALS,     /* counts over a whole run: counters, metrics, hot spots */
    SOCMON_DOC_INTERVALS,  /* a timeline: one row per sampling interval */
    SOCMON_DOC_FUNCTIONS   /* a program's functions (smn_output_functions) */
} smn_doc;

/* What the document describes. Fields a document kind does not use are ignored. */
typedef struct smn_run_info {
    smn_doc doc;
    const char *title;      /* "Performance counter stats", "recording", ...: table heading, JSON "kind" */
    const char *target;     /* the target spec */
    const char *device;     /* the device name, or NULL */
    const char *workload;   /* or NULL */
    uint64_t elapsed_ns;    /* TOTALS: how long the run lasted (0: human formats do not show it);
                               human formats say "simulated" beside it when `simulated` is set */
    uint64_t interval_ns;   /* INTERVALS: the sampling interval */
    size_t ncounters;       /* INTERVALS: counters sampled */
    int simulated;          /* time is a model's simulated time, not the wall clock */
    int recording;          /* read back from a recording: samples and missed are known */
    size_t samples;
    uint64_t missed;        /* intervals the sampler missed over the run */
    /* TOTALS: intervals whose deltas were implausible (SOCMON_VALUE_IMPLAUSIBLE/DEAD_BUS), and
     * the counters and blocks that were ("a,b+N", smn_value_names; NULL: none) */
    uint64_t implausible_intervals;
    const char *implausible;
    const char *dead_bus;
    /* TOTALS of repeated runs (stat -r N), all optional: 0 and NULL mean one run, no spread.
     * Values given to counters() and metrics() are then the means over the runs, and the
     * arrays (borrowed until end) give, per counter of counters() and per metric result, the
     * standard deviation of that mean (perf stat's "+-": sample stddev / sqrt(runs)). */
    unsigned runs;
    const double *counter_stddev;
    const double *metric_stddev;
    const double *counter_mean;     /* optional: per counter of counters(), the unrounded mean */
    /* A timeline's device parameters and target declaration (the html format draws the target's
     * grid and places its heat map by them) are its source's, cols.src: not copied here. */
    /* INTERVALS, optional: the program's exact profile the recording carries (its attachment
     * "profile"): the html format adds a flame graph of its call tree, the perfetto format its
     * function slices on a track per hart. NULL: no profile, and the document is as without. */
    const socmon_profile *profile;
    /* INTERVALS, optional: the workload's phases the recording carries (its attachment "phases",
     * socmon/phase.h): table, CSV and JSON rows get a phase column, the perfetto format a track
     * of phase slices, the html page bands. NULL / 0: no phases, and documents are as without. */
    const socmon_phase *phases;
    size_t nphases;
} smn_run_info;

/* Counters with their full names ("tile0.l2_hits"): from a live set or a recording. */
typedef struct smn_counter_list {
    size_t n;
    const socmon_counter *c;
    const char *const *names;
    /* Optional (perf_event counts, socmon/scaling.h): per counter, the percentage of its
     * enabled time it was counting; below 100 the value is a multiplexed estimate and formats
     * show the share as perf does ("(50.00%)"); NaN: it never counted ("<not counted>").
     * NULL: every value is an exact count. */
    const double *running;
    /* Optional: events the machine could not count, shown as "<not supported>" after the
     * counters. */
    size_t nunsupported;
    const char *const *unsupported;
} smn_counter_list;

/* The columns of a timeline. */
typedef struct smn_interval_cols {
    const socmon_metrics *metrics;  /* bound metrics, or NULL: rows then carry no metric values */
    const size_t *shown;            /* the metric results a human format shows (the -M choice or the
                                       first device-wide ones); machine formats show them all */
    size_t nshown;
    const smn_counter_list *counters; /* whose deltas rows carry (machine formats list them with
                                            the `deltas` option) */
    size_t show_counts;             /* human formats also show the deltas of the first this many
                                       counters (stat -I on a command: its perf events) */
    /* Rows and totals are the pipeline's own (socmon_row, socmon_totals), a value per counter
     * of the source: from[i] is counters' counter i's index among them (NULL: i itself). */
    const size_t *from;
    const socmon_source_info *src;  /* the source, naming the counters and blocks a row's
                                       implausible bits mark, with the device's parameters and
                                       the target's declaration (NULL: none of them known) */
} smn_interval_cols;

/* The names of bad's counters (bit set in bad[i], and not in a dead block) as "a,b,c+N" into buf: with
 * SOCMON_VALUE_DEAD_BUS the instances of those counters, each once. */
void smn_value_names(const socmon_source_info *info, const unsigned char *bad, unsigned bit, char *buf, size_t len);

/* The phase an interval ending at t_ns belongs to: the one holding its last nanosecond
 * (t_ns - 1), so the row that ends exactly when a phase ends is that phase's; "" when none
 * holds it, NULL when there are no phases (the formats then add no column). */
const char *smn_row_phase(const socmon_phase *p, size_t n, uint64_t t_ns);

/* One line per flag word used in a table ("  scaled=P%: ..."), after the table; nothing if none. */
socmon_status smn_row_footnotes(smn_sink *s, unsigned used);

typedef struct smn_output_opts {
    char sep;               /* CSV field separator */
    int deltas;             /* machine formats' timelines carry every counter's delta (report
                               --deltas). Counters that read 0 are always shown, as perf does. */
    int no_big_num;         /* human formats print 1234567, not 1,234,567 (--no-big-num); machine
                               formats (CSV, JSON) never group digits */
    int zeros;              /* tables list every counter that stayed 0 (--zeros); without it a table
                               of totals folds ZERO_FOLD_MIN or more of them into one line. Machine
                               formats (CSV, JSON, Prometheus) always carry every counter. */
} smn_output_opts;

/* The spread of a repeated run's value as perf prints it: 100 * stddev / |mean| (0 for a mean of
 * 0 or a NaN). */
double smn_stddev_pct(double mean, double stddev);
/* The mean a counter's spread is relative to: the unrounded mean over the runs, as a metric's
 * is, never the rounded count shown (three runs counting 0, 0, 1 show 0 with +- 100 %, as
 * the rate over them does, not +- 0 %). values: the counts shown, when there is no mean. */
double smn_counter_spread_mean(const smn_output *o, const uint64_t *values, size_t i);

/* Looks up a format by name ("table", "csv", "json", "live", "html"); NULL if none has that name. */
const struct smn_output_format *smn_output_format_find(const char *name);
/* The name of registered format i, or NULL past the last (for listings). */
const char *smn_output_format_name(size_t i);

/* An output writing format `name` to sink (borrowed: the caller closes it after free). */
socmon_status smn_output_open(const char *name, smn_sink *sink, const smn_output_opts *opts,
                                 smn_output **out);
void smn_output_free(smn_output *o);
/* 1 if the format shows only the chosen metric results (cols.shown) rather than all of them:
 * a command checks its choice only where it is used. */
int smn_output_selects_metrics(const smn_output *o);

socmon_status smn_output_begin(smn_output *o, const smn_run_info *run);
/* values[i] belongs to counter i; every counter is shown, those that read 0 too. */
socmon_status smn_output_counters(smn_output *o, const smn_counter_list *s, const uint64_t *values);
/* ms (may be NULL) names metrics a counter selection left uncomputed; m NULL: nothing to show. */
socmon_status smn_output_metrics(smn_output *o, const socmon_metricset *ms, const socmon_metrics *m,
                                    const double *values);
/* The n largest nonzero values among counters whose full name matches pattern (fnmatch). Nothing
 * is shown when pattern is NULL or no counter of s matches it. */
socmon_status smn_output_hotspots(smn_output *o, const smn_counter_list *s, const uint64_t *values,
                                     const char *pattern, size_t n);
socmon_status smn_output_begin_intervals(smn_output *o, const smn_interval_cols *cols);
/* After begin_intervals: how many intervals the format wants merged into one row (a page of a
 * long recording), 1 for every interval as it is. The analysis pipeline does the merging
 * (socmon/analysis.h: socmon_row_policy), the format only writes what it gets. */
size_t smn_output_merge(const smn_output *o);
/* One row of the pipeline's (merged as smn_output_merge asked), its values per counter of
 * the source: cols.from picks the columns' counters. */
socmon_status smn_output_row(smn_output *o, const socmon_row *row);
socmon_status smn_output_end_intervals(smn_output *o);
/* A timeline's run as a whole: the pipeline's totals of it (its elapsed time, the values per
 * counter of the source, cols.from picking the columns', and the metrics), the same numbers a
 * document of totals of the run gives (report --summary), so a page never sums or averages its
 * rows into a figure that disagrees with them. Borrowed for the call. Inside a timeline (before
 * end_intervals), at most once. html: the page data's "run" (its summary's tables); other
 * formats show nothing (their rows are the document). */
socmon_status smn_output_run_totals(smn_output *o, const socmon_totals *t);
/* The rows of a program's functions and their total, checked against the whole-program counters
 * (a FUNCTIONS document; table, CSV and JSON show them, other formats fail with SOCMON_ENOTSUP). */
socmon_status smn_output_functions(smn_output *o, const socmon_functions *f);
/* A remark for people (a hint about options): human formats print it, machine formats omit it. */
socmon_status smn_output_note(smn_output *o, const char *text);
/* A document of its own, instead of begin: what a recording file holds and what of it was lost
 * (report --stats), then end. The table, csv and json formats write it; others refuse it. */
socmon_status smn_output_file_facts(smn_output *o, const smn_file_facts *f);
/* A document of its own, instead of begin: two runs compared (socmon diff), then end. The table,
 * csv, json and html formats write it. */
socmon_status smn_output_diff(smn_output *o, const socmon_diff *d);
/* A document of its own: the verdicts of rules over a diff (socmon check), then end. The table,
 * junit and markdown formats write it. */
socmon_status smn_output_check(smn_output *o, const socmon_check *c);
/* After a document's totals, before end: the counters the program stopped for part of its run
 * (socmon_target_inhibited, a recording's profile). Table: a note each; JSON: "inhibited", data;
 * a format without the op (csv) shows nothing: the caller says it elsewhere (stderr). */
socmon_status smn_output_inhibited(smn_output *o, const socmon_inhibited *x, size_t n);
/* Inside a document of totals or a timeline (before end_intervals): its findings, "where the
 * time went" (socmon/findings.h), which the output takes and frees. Table: a section at the end
 * (fmt_findings.c); JSON: "findings"; html: the page data's "findings"; others show nothing. */
socmon_status smn_output_findings(smn_output *o, socmon_findings *f);
/* After a document's totals, before end: the run's results that no counter holds
 * (socmon_target_results: a NoC trace's drain cycle and latency). Table: a section "Run
 * results"; JSON: "results", [{name, value, unit, description}]; CSV: "result" records. */
socmon_status smn_output_results(smn_output *o, const socmon_result *x, size_t n);
/* How a program the run ran ended, and what it printed (a library document of stat,
 * socmon_document_stat; the CLI says these on stdout, stderr and in its exit status instead). */
typedef struct smn_program_run {
    const char *end;        /* "halt", "trap", "cycle_limit", "hang" or "timeout" */
    const char *message;    /* the target's line saying how it ended */
    int exit_code;          /* what socmon stat exits with for it: 0, 3, 4 or 5 */
    const uint8_t *output;  /* the program's console bytes */
    size_t output_len;
} smn_program_run;
/* After a document's totals, before end: how its program ended. JSON: "program", {end,
 * exit_code, message, output}, output one character U+0000..U+00FF per byte; others show
 * nothing. */
socmon_status smn_output_program(smn_output *o, const smn_program_run *r);
/* 1 when the format shows them (smn_output_inhibited does something). */
int smn_output_shows_inhibited(const smn_output *o);

/* A view of a program's exact profile: which one, and its data (the others NULL). */
typedef enum smn_profile_view_kind {
    SMN_PV_CHILDREN,      /* calls: per function, inclusive next to self (report --children) */
    SMN_PV_CALL_TREE,     /* calls: caller -> callee edges (report --call-tree) */
    SMN_PV_LINES,         /* lines: per source line (report --by-line) */
    SMN_PV_ANNOTATE,      /* ann: one function's instructions (report --annotate F) */
    SMN_PV_FOLDED,        /* folded: folded stacks, the same bytes in every format (report --folded) */
} smn_profile_view_kind;
typedef struct smn_profile_view {
    smn_profile_view_kind kind;
    const socmon_profile *p;
    size_t event;                               /* the event the human formats show first */
    const socmon_profile_calls *calls;
    const socmon_profile_lines *lines;
    const socmon_profile_annotation *ann;
    const char *folded;
} smn_profile_view;
/* A document of its own: a view of a program's profile (table, csv, json), then end. */
socmon_status smn_output_profile(smn_output *o, const smn_profile_view *v);

/* A document of its own: a sweep's table, one row per point (csv, json), then end. */
socmon_status smn_output_sweep(smn_output *o, const socmon_sweep *s);
/* Finishes the document and flushes the sink: any write error of the document is returned here. */
socmon_status smn_output_end(smn_output *o);

/* The label a metric value stands for (a "hot direction" index), or NULL. */
const char *smn_metric_label(const socmon_metric_def *d, double v);

#endif
