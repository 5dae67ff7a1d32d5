/* Running a program on a target (ibex, through its program_output and program_end ops): the
 * program's SimCtrl output goes to stdout byte for byte as the model produces it (socmon's own
 * results then go to stderr or -o FILE, as perf stat does), and how the program ended becomes
 * the exit status:
 *   0 halted (or stopped by -d), 3 trapped out, 4 did not halt within --max-cycles,
 *   5 hangs (sleeps forever in WFI, or `j .` with interrupts off and no exception). */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "cli/program.h"

static void to_stdout(void *ctx, uint8_t byte)
{
    (void)ctx;
    putchar(byte);
    if (byte == '\n')
        fflush(stdout);
}

void cli_program_attach(cli_session *cs)
{
    socmon_target_program_output(cs->target, to_stdout, NULL);
}

/* The host's command: its own exit status, or 128+N when signal N ended it, as a shell reports
 * it; a command that could not be run: 127 (not found) or 126 (not executable), as a shell. */
static int host_exit(const socmon_target *t, const char *cmd)
{
    int e = socmon_host_target_exec_errno(t), ws;
    if (e)
        return e == ENOENT ? 127 : 126;
    if (socmon_host_target_status(t, &ws) != SOCMON_OK) {
        socmon_clear_error();
        return 0;
    }
    if (WIFSIGNALED(ws)) {
        fprintf(stderr, "socmon %s: the command was killed by signal %d (%s)\n", cmd, WTERMSIG(ws),
                strsignal(WTERMSIG(ws)));
        return 128 + WTERMSIG(ws);
    }
    return WIFEXITED(ws) ? WEXITSTATUS(ws) : 0;
}

/* The host target running a command: the session's own, or a member of a combined run. */
static const socmon_target *host_of(const cli_session *cs)
{
    if (socmon_host_target_pid(cs->target))
        return cs->target;
    for (size_t i = 0; socmon_target_member(cs->target, i); i++)
        if (socmon_host_target_pid(socmon_target_member(cs->target, i)))
            return socmon_target_member(cs->target, i);
    return NULL;
}

int cli_program_exit(const cli_session *cs, const char *cmd)
{
    const socmon_target *host = host_of(cs);
    if (host)
        return host_exit(host, cmd);
    char msg[256];
    socmon_program_end end = socmon_target_program_end(cs->target, msg, sizeof msg);
    switch (end) {
    case SOCMON_PROGRAM_TRAPPED:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_TRAPPED;
    case SOCMON_PROGRAM_LIMIT:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_LIMIT;
    case SOCMON_PROGRAM_HANG:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_HANG;
    default:
        return 0;
    }
}

int cli_program_failed(const cli_session *cs, int rc)
{
    const socmon_target *host = host_of(cs);
    int e = host ? socmon_host_target_exec_errno(host) : 0;
    return e ? (e == ENOENT ? 127 : 126) : rc;
}
