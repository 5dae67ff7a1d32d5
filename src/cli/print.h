/* The CLI's side of the output interface (export/output.h): the format the options chose
 * (table, or csv with -x, or json with --json), written to stdout, and the one sequence every
 * command that prints totals uses. No command knows which format it talks to. */
#ifndef SOCMON_CLI_PRINT_H
#define SOCMON_CLI_PRINT_H

#include "cli/opts.h"
#include "export/feed.h"
#include "export/output.h"

typedef struct cli_output {
    smn_sink *sink;   /* stdout */
    smn_output *out;
} cli_output;

/* Opens `format` (NULL: the one the options chose) on stdout, with the options' separator and --all. */
socmon_status cli_output_open(cli_output *co, const cli_opts *o, const char *format);
/* Opens `format` (NULL: the options') on path, replaced whole when the document ends without
 * error (never half a file), or on stdout when path is NULL. */
socmon_status cli_output_open_whole(cli_output *co, const cli_opts *o, const char *format, const char *path);
/* 1 for the Prometheus formats ("prometheus", "openmetrics"): one document per file, written
 * with -o FILE beside it and renamed over it (smn_sink_path, SOCMON_PATH_REPLACE). */
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

/* A document a command writes through the analysis pipeline (export/feed.h): the options'
 * format on their output (stdout, -o FILE, stderr). Totals open the output only when they are
 * ready (feed opts' open); a timeline opens it at once. */
typedef struct cli_doc {
    cli_output co;
    cli_opts o;
    const char *format;      /* NULL: the options' */
    smn_feed *feed;
} cli_doc;
socmon_status cli_doc_open(cli_doc *d, const cli_opts *o, const char *format, smn_feed_opts *fo);
socmon_consumer cli_doc_consumer(cli_doc *d);
/* Ends the document if st is SOCMON_OK (and it was opened), closes and frees; reports the first
 * failure as "socmon: <cmd>: <message>". Returns the exit code (0 or 1). */
int cli_doc_close(cli_doc *d, const char *cmd, socmon_status st);
/* Counters the program stopped for part of its run: into out's document when its format shows
 * them (table: notes, JSON: data), else one line each on stderr ("socmon CMD: [FILE: ]note: ..."). */
socmon_status cli_say_inhibited(smn_output *out, const socmon_inhibited *x, size_t n, const char *cmd,
                                const char *file);

/* The totals of `read` (a snapshot, no run): counters and hot spots. Returns the exit code. */
int cli_print_snapshot(const char *cmd, const cli_opts *o, const smn_run_info *run,
                       const smn_counter_list *counters, const uint64_t *values);
/* What a recording file holds (report --stats), `name` as the user gave it. Returns the exit code. */
int cli_print_file_facts(const char *cmd, const cli_opts *o, socmon_recording *rec, const char *name);

#endif
