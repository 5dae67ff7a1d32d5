/* A program's output and exit status (cli/program.h). How it ended is the session's to say:
 *   0 halted (or stopped by -d), 3 trapped out, 4 did not halt within --max-cycles,
 *   5 hangs (sleeps forever in WFI, or `j .` with interrupts off and no exception);
 *   the host's command: its status, 128+N for signal N, 127/126 when it could not be run. */
#include <stdio.h>

#include "cli/program.h"

void cli_program_to_stdout(void *ctx, uint8_t byte)
{
    (void)ctx;
    putchar(byte);
    if (byte == '\n')
        fflush(stdout);
}

int cli_program_exit(const char *cmd, const smn_session_end *e)
{
    if (e->bad && *e->message)
        fprintf(stderr, "socmon %s: %s\n", cmd, e->message);
    return e->exit_code;
}
