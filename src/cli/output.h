/* The CLI's side of the output interface (export/output.h): the format the options chose
 * (table, or csv with -x, or json with --json), written to stdout, and the one sequence every
 * command that prints totals uses. No command knows which format it talks to. */
#ifndef SOCMON_CLI_OUTPUT_H
#define SOCMON_CLI_OUTPUT_H

#include "cli/opts.h"
#include "export/output.h"

typedef struct cli_output {
    socmon_sink *sink;   /* stdout */
    socmon_output *out;
} cli_output;

/* Opens `format` (NULL: the one the options chose) on stdout, with the options' separator and --all. */
socmon_status cli_output_open(cli_output *co, const cli_opts *o, const char *format);
/* 1 for the Prometheus formats ("prometheus", "openmetrics"): one document per file, written
 * with -o FILE beside it and renamed over it (socmon_sink_replace_path). */
int cli_format_is_exposition(const char *format);
/* Ends the document if st is still SOCMON_OK, closes the sink and frees; reports the first
 * failure as "socmon: <cmd>: <message>". Returns the exit code (0 or 1). */
int cli_output_close(cli_output *co, const char *cmd, socmon_status st);
/* cli_output_close without the report: returns the first failure, its message kept. */
socmon_status cli_output_finish(cli_output *co, socmon_status st);
/* Frees an output that wrote nothing, without ending its document (a usage error came up). */
void cli_output_discard(cli_output *co);

/* 1 when fd is a pipe, FIFO or socket whose reader has gone (record | head): with SIGPIPE
 * ignored, writes there fail with EPIPE. A full disk or a broken terminal is not this. */
int cli_reader_gone(int fd);
/* stdout's reader has gone: stdout is pointed at /dev/null, so what stdio holds goes nowhere
 * instead of failing again at exit (main's check of stdout). */
void cli_drop_stdout(void);

/* 1 if a recording made on target `spec` holds a model's simulated time. A recording (v1)
 * does not say which clock stamped it, so this goes by the target: a model target is
 * simulated unless its spec turns it into real hardware (esp:devmem=1, zynq:hw=1). */
int cli_spec_simulated(const char *spec);

/* The totals of a run (stat, read, report --summary): counters, then metrics when m is given,
 * then hot spots among counters matching `hotspots` when given. Returns the exit code. */
typedef struct cli_totals {
    socmon_run_info run;
    socmon_counter_list counters;
    const uint64_t *values;
    const socmon_metricset *ms;
    const socmon_metrics *m;
    const double *mv;
    const char *hotspots;
} cli_totals;
int cli_print_totals(const char *cmd, const cli_opts *o, const cli_totals *t);

#endif
