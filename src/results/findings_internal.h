/* Internal: a loaded set of finding rules (socmon/findings.h), shared by the file reader
 * (findings_file.c) and the evaluator (findings.c). */
#ifndef SOCMON_ANALYSIS_FINDINGS_INTERNAL_H
#define SOCMON_ANALYSIS_FINDINGS_INTERNAL_H

#include "socmon/findings.h"
#include "socmon/metrics.h"

/* A rule's expressions live in a metric set of their own, so the metric language's parser and
 * binder are the only ones: metric 0 is the condition ("1" without "when"), metric 1 + k the
 * evidence k. Their names start with "__", which no name of a metric file shadows in practice. */
typedef struct frule {
    char *target;               /* the file's "target" */
    char *name;
    char *text;
    int per_instance;
    size_t nev;
    char **keys;                /* evidence names */
    char **exprs;               /* their expressions, as written */
    char **units;               /* the units "units" gives them (NULL: from the expression) */
    size_t nargmax;
    size_t *argmax;             /* evidence indices the largest is chosen among */
    char **labels;              /* what each argmax choice is called in the text */
    long order;                 /* evidence index the lines are ranked by (largest first), or -1 */
    size_t max;                 /* most lines the rule gives (0: every one) */
    socmon_metricset *ms;
} frule;

struct socmon_findingset {
    size_t n, cap;
    frule *r;
};

void smn_frule_free(frule *r);

#endif
