/* Findings: "where the time went", one line per finding with the numbers behind it.
 *
 * A findings file (JSON, docs/findings.md) holds rules; each is a condition and named evidence,
 * all expressions of the metric language (socmon/metrics.h) over a run's totals, and a line of
 * text to say when the condition holds:
 *
 *   {"target": "ibex", "findings": [
 *     {"name": "cpi_top", "when": "cycles > 0",
 *      "evidence": {"lsu": "lsu_wait_share", "div": "div_wait_share", "other": "other_share"},
 *      "argmax": ["lsu", "div", "other"], "labels": ["data memory", "divides", "issue"],
 *      "text": "most cycles go to {argmax}: {lsu}% memory, {div}% divides, {other}% issue"}]}
 *
 * Names in expressions are the counters (summed over instances, or "tile2.x"), the device's
 * parameters, interval_s (the run's length) and every metric of the run's metric file, by its
 * value over the whole run. A rule with "per": "instance" is evaluated for each instance of the
 * counters (tiles, APM slots, cores, functions): its names are then that instance's counters
 * and per-instance metrics. "order" (an evidence key, largest first) and "max" keep the few
 * lines that matter. Numbers are rounded to 3 significant digits, in the text and in the
 * evidence alike, so a finding's evidence holds exactly the numbers its line prints.
 *
 * The built-in rules of a target are metrics/<target>.findings.json, compiled into the library
 * (socmon_builtin_findings); a user adds rules with socmon_findingset_add_file. */
#ifndef SOCMON_FINDINGS_H
#define SOCMON_FINDINGS_H

#include "socmon/export.h"

#include <stddef.h>
#include "socmon/analysis.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_findingset socmon_findingset;

/* The text of the built-in findings file of a target's metrics ("esp", "zynq", "tensix",
 * "ibex", "host"), or NULL when it has none. */
const char *socmon_builtin_findings(const char *name);

/* An empty set of rules. */
socmon_status socmon_findingset_new(socmon_findingset **out);
void socmon_findingset_free(socmon_findingset *fs);
/* Adds the rules of a findings file's text; srcname names it in messages. A fault is
 * SOCMON_EPARSE "SRC: finding 'NAME' (findings[i]): ..." naming the key or word at fault; the
 * set is then as before. */
socmon_status socmon_findingset_add_string(socmon_findingset *fs, const char *text, const char *srcname);
socmon_status socmon_findingset_add_file(socmon_findingset *fs, const char *path);
/* Rules in the set. */
size_t socmon_findingset_count(const socmon_findingset *fs);

/* One finding. Its strings and arrays belong to the findings it came in. */
typedef struct socmon_finding {
    const char *target;           /* the rules' target ("esp"): the file's "target" */
    const char *rule;             /* the rule's name */
    const char *instance;         /* the instance a per-instance rule spoke of, or "" */
    const char *text;             /* the line, numbers filled in */
    const char *choice;           /* an argmax rule: the label of the largest, else NULL */
    size_t nevidence;
    const char *const *keys;      /* evidence names, in the file's order */
    const double *values;         /* their values rounded to 3 significant digits (NaN: undefined) */
    const char *const *labels;    /* per evidence: the label its value stands for, or NULL */
} socmon_finding;

typedef struct socmon_findings socmon_findings;

/* The findings of a run's totals t, under the schema and metrics of a (its metrics and their
 * values in t may be absent). A rule whose names the run lacks gives nothing. */
socmon_status socmon_findings_eval(const socmon_findingset *fs, const socmon_analysis_info *a,
                                   const socmon_totals *t, socmon_findings **out);
size_t socmon_findings_count(const socmon_findings *f);
const socmon_finding *socmon_findings_at(const socmon_findings *f, size_t i);
void socmon_findings_free(socmon_findings *f);

SOCMON_END_DECLS

#endif
