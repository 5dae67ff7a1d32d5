/* Output for the subcommands: the chosen format on stdout (stderr or a file when a program owns
 * stdout), and the totals sequence. */
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <unistd.h>

#include "cli/print.h"

smn_dest cli_dest(const cli_opts *o, const char *format)
{
    return (smn_dest){.format = format ? format : o->format, .path = o->print_path, .append = o->append,
                      .to_stderr = o->to_stderr,
                      .opts = {.sep = o->sep, .deltas = o->deltas, .no_big_num = o->no_big_num, .zeros = o->zeros}};
}

socmon_status cli_output_open(cli_output *co, const cli_opts *o, const char *format)
{
    smn_dest d = cli_dest(o, format);
    return smn_dest_open(co, &d);
}

socmon_status cli_output_open_whole(cli_output *co, const cli_opts *o, const char *format, const char *path)
{
    smn_dest d = cli_dest(o, format);
    d.path = path;
    return smn_dest_open_whole(co, &d);
}

int cli_output_close(cli_output *co, const char *cmd, socmon_status st)
{
    st = smn_dest_finish(co, st);
    return st == SOCMON_OK ? 0 : cli_error(cmd, st);
}

socmon_status cli_doc_open(cli_doc *d, const cli_opts *o, const char *format, smn_feed_opts *fo)
{
    smn_dest dest = cli_dest(o, format);
    return smn_dest_doc_open(d, &dest, fo);
}

int cli_doc_close(cli_doc *d, const char *cmd, socmon_status st)
{
    st = smn_dest_doc_finish(d, st);
    return st == SOCMON_OK ? 0 : cli_error(cmd, st);
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
