/* Printing counter values and metrics as a table, CSV or JSON. */
#ifndef SOCMON_CLI_OUTPUT_H
#define SOCMON_CLI_OUTPUT_H

#include <jansson.h>
#include "cli/cli.h"

typedef struct cli_out {
    out_format fmt;
    char sep;
    int all;             /* show zero counters too */
    json_t *json;        /* the document being built in JSON mode */
    const socmon_metricset *ms;  /* the definitions behind the metrics, for notes; may be NULL */
} cli_out;

void cli_out_begin(cli_out *o, const char *kind, const char *target, const char *workload,
                   uint64_t elapsed_ns);
/* A list of counters with their full names: from a live set or a recording. */
typedef struct cli_schema {
    size_t n;
    const socmon_counter *c;
    const char *const *names;
} cli_schema;

/* values[i] belongs to counter i of the schema. */
void cli_out_counters(cli_out *o, const cli_schema *s, const uint64_t *values);
void cli_out_metrics(cli_out *o, const socmon_metrics *m, const double *values);
/* The n largest nonzero values among counters matching pattern. */
void cli_out_hotspots(cli_out *o, const cli_schema *s, const uint64_t *values, const char *pattern,
                      size_t n);
int cli_out_end(cli_out *o);

/* The label a metric value stands for, or NULL. */
const char *cli_metric_label(const socmon_metric_def *d, double v);

#endif
