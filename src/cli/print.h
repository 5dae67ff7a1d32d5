/* The CLI's side of the output interface (export/dest.h): the options' format (table, csv with
 * -x, json with --json, ...) on the options' place (stdout, -o FILE, stderr when a program owns
 * stdout), and the errors said as "socmon: CMD: ...". No command knows which format it talks to. */
#ifndef SOCMON_CLI_PRINT_H
#define SOCMON_CLI_PRINT_H

#include "cli/opts.h"
#include "export/dest.h"

/* The options' place for a document in `format` (NULL: the options' own): -o FILE (print_path),
 * --append, stderr when a program owns stdout, -x's separator, --deltas, --no-big-num, --zeros. */
smn_dest cli_dest(const cli_opts *o, const char *format);
typedef smn_dest_output cli_output;
typedef smn_dest_doc cli_doc;
/* smn_dest_open / smn_dest_open_whole (on path) of cli_dest(o, format). */
socmon_status cli_output_open(cli_output *co, const cli_opts *o, const char *format);
socmon_status cli_output_open_whole(cli_output *co, const cli_opts *o, const char *format, const char *path);
#define cli_format_is_exposition smn_format_is_exposition
#define cli_output_finish smn_dest_finish
#define cli_output_discard smn_dest_discard
/* smn_dest_finish, reporting the first failure as "socmon: <cmd>: <message>": the exit code (0 or 1). */
int cli_output_close(cli_output *co, const char *cmd, socmon_status st);

/* 1 when fd is a pipe, FIFO or socket whose reader has gone (record | head): with SIGPIPE
 * ignored, writes there fail with EPIPE. A full disk or a broken terminal is not this. */
int cli_reader_gone(int fd);
/* stdout's reader has gone: stdout is pointed at /dev/null, so what stdio holds goes nowhere
 * instead of failing again at exit (main's check of stdout). */
void cli_drop_stdout(void);

/* A document through the pipeline (export/dest.h) at cli_dest(o, format). */
socmon_status cli_doc_open(cli_doc *d, const cli_opts *o, const char *format, smn_feed_opts *fo);
#define cli_doc_consumer(d) smn_feed_consumer((d)->feed)
/* smn_dest_doc_finish, reporting the first failure: the exit code (0 or 1). */
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
