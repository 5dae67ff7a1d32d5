/* Running a program on a target (ibex): the program's SimCtrl output goes to stdout byte for
 * byte as the model produces it (socmon's own results then go to stderr or -o FILE, as perf
 * stat does), and how the program ended becomes the exit status:
 *   0 halted (or stopped by -d), 3 trapped out, 4 did not halt within --max-cycles,
 *   5 hangs (sleeps forever in WFI, or `j .` with interrupts off and no exception). */
#include <stdio.h>

#include "cli/program.h"
#include "targets/ibex_target.h"

static void to_stdout(void *ctx, uint8_t byte)
{
    (void)ctx;
    putchar(byte);
    if (byte == '\n')
        fflush(stdout);
}

void cli_program_attach(cli_session *cs)
{
    socmon_ibex_target_set_output(cs->target, to_stdout, NULL);
}

int cli_program_exit(const cli_session *cs, const char *cmd)
{
    char msg[256];
    ibex_outcome oc = socmon_ibex_target_outcome(cs->target, msg, sizeof msg);
    switch (oc) {
    case IBEX_OUTCOME_TRAPPED:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_TRAPPED;
    case IBEX_OUTCOME_LIMIT:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_LIMIT;
    case IBEX_OUTCOME_HANG:
        fprintf(stderr, "socmon %s: %s\n", cmd, msg);
        return CLI_EXIT_HANG;
    default:
        return 0;
    }
}
