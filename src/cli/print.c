/* Output for the subcommands: the chosen format on stdout (stderr or a file when a program owns
 * stdout), and the totals sequence. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/print.h"
#include "socmon/target.h"

int cli_format_is_exposition(const char *format)
{
    return format && (strcmp(format, "prometheus") == 0 || strcmp(format, "openmetrics") == 0);
}

socmon_status cli_output_open(cli_output *co, const cli_opts *o, const char *format)
{
    co->sink = NULL;
    co->out = NULL;
    smn_output_opts oo = {.sep = o->sep, .deltas = o->deltas, .no_big_num = o->no_big_num, .zeros = o->zeros};
    /* an exposition file is read whenever a collector likes: replaced whole, never rewritten; a
     * Parquet file is read from its footer, at the end: half of one is no file at all */
    const char *f = format ? format : o->format;
    int whole = cli_format_is_exposition(f) || strcmp(f, "parquet") == 0;
    socmon_status st = o->print_path ? smn_sink_path(o->print_path, o->append ? SOCMON_PATH_APPEND : whole
                                                        ? SOCMON_PATH_REPLACE : SOCMON_PATH_PLAIN, 0, &co->sink)
                       : o->to_stderr ? smn_sink_file(stderr, "stderr", &co->sink)
                                      : smn_sink_file(stdout, "stdout", &co->sink);
    if (st == SOCMON_OK)
        st = smn_output_open(format ? format : o->format, co->sink, &oo, &co->out);
    return st;
}

socmon_status cli_output_open_whole(cli_output *co, const cli_opts *o, const char *format, const char *path)
{
    co->sink = NULL;
    co->out = NULL;
    smn_output_opts oo = {.sep = o->sep, .no_big_num = o->no_big_num, .zeros = o->zeros};
    socmon_status st = path ? smn_sink_path(path, SOCMON_PATH_REPLACE, 0, &co->sink)
                            : smn_sink_file(stdout, "stdout", &co->sink);
    if (st == SOCMON_OK)
        st = smn_output_open(format ? format : o->format, co->sink, &oo, &co->out);
    return st;
}

socmon_status cli_output_finish(cli_output *co, socmon_status st)
{
    if (st == SOCMON_OK && co->out)
        st = smn_output_end(co->out);
    char msg[512] = "";
    if (st != SOCMON_OK) {
        snprintf(msg, sizeof msg, "%s", socmon_errmsg());
        smn_sink_cancel(co->sink, st);   /* a file being replaced keeps its old content */
    }
    smn_output_free(co->out);
    socmon_status cst = smn_sink_close(co->sink);
    co->out = NULL;
    co->sink = NULL;
    /* closing may set a message of its own: the first failure's is the one to keep */
    return st != SOCMON_OK ? socmon_fail(st, "%s", msg) : cst;
}

int cli_output_close(cli_output *co, const char *cmd, socmon_status st)
{
    st = cli_output_finish(co, st);
    return st == SOCMON_OK ? 0 : cli_error(cmd, st);
}

void cli_output_discard(cli_output *co)
{
    smn_output_free(co->out);
    smn_sink_close(co->sink);
    co->out = NULL;
    co->sink = NULL;
}

static socmon_status doc_open_now(void *user, smn_output **out)
{
    cli_doc *d = user;
    socmon_status st = cli_output_open(&d->co, &d->o, d->format);
    *out = d->co.out;
    return st;
}

socmon_status cli_doc_open(cli_doc *d, const cli_opts *o, const char *format, smn_feed_opts *fo)
{
    memset(d, 0, sizeof *d);
    d->o = *o;
    d->format = format;
    socmon_status st = SOCMON_OK;
    if (fo->doc == SOCMON_DOC_TOTALS) {
        fo->open = doc_open_now;
        fo->open_user = d;
    } else {
        st = cli_output_open(&d->co, &d->o, format);
    }
    return st == SOCMON_OK ? smn_feed_new(d->co.out, fo, &d->feed) : st;
}

socmon_consumer cli_doc_consumer(cli_doc *d)
{
    return smn_feed_consumer(d->feed);
}

int cli_doc_close(cli_doc *d, const char *cmd, socmon_status st)
{
    smn_feed_free(d->feed);
    d->feed = NULL;
    if (!d->co.sink)
        return st == SOCMON_OK ? 0 : cli_error(cmd, st);
    return cli_output_close(&d->co, cmd, st);
}

socmon_status cli_say_inhibited(smn_output *out, const socmon_inhibited *x, size_t n, const char *cmd,
                                const char *file)
{
    if (out && smn_output_shows_inhibited(out))
        return smn_output_inhibited(out, x, n);
    for (size_t i = 0; i < n;) {
        char text[320];
        size_t k = socmon_inhibited_text(&x[i], n - i, text, sizeof text);
        fprintf(stderr, "socmon %s: %s%snote: %s\n", cmd, file ? file : "", file ? ": " : "", text);
        i += k;
    }
    return SOCMON_OK;
}

int cli_print_snapshot(const char *cmd, const cli_opts *o, const smn_run_info *run,
                       const smn_counter_list *counters, const uint64_t *values)
{
    cli_output co;
    socmon_status st = cli_output_open(&co, o, NULL);
    if (st == SOCMON_OK)
        st = smn_output_begin(co.out, run);
    if (st == SOCMON_OK)
        st = smn_output_counters(co.out, counters, values);
    return cli_output_close(&co, cmd, st);
}

int cli_print_file_facts(const char *cmd, const cli_opts *o, socmon_recording *rec, const char *name)
{
    smn_file_facts f;
    smn_recording_facts(rec, name, &f);
    cli_output co;
    socmon_status st = cli_output_open(&co, o, NULL);
    if (st == SOCMON_OK)
        st = smn_output_file_facts(co.out, &f);
    return cli_output_close(&co, cmd, st);
}

/* 1 when fd is a pipe, FIFO or socket whose reader has gone: a write there fails with EPIPE
 * (SIGPIPE is ignored) and poll says POLLERR (a pipe with no reader) or POLLHUP. A full disk or
 * a broken terminal is not this: those are write errors the command reports. */
int cli_reader_gone(int fd)
{
    struct pollfd p = {.fd = fd, .events = POLLOUT};
    return poll(&p, 1, 0) == 1 && (p.revents & (POLLERR | POLLHUP));
}

/* stdout's reader has gone: what stdio still holds for it goes nowhere, as the reader wanted,
 * instead of failing again at exit (main's check of stdout) after a recording that is whole. */
void cli_drop_stdout(void)
{
    fflush(stdout);
    int fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        dup2(fd, STDOUT_FILENO);
        close(fd);
    }
    clearerr(stdout);
}
