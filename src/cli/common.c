/* Helpers shared by the subcommands: errors, durations, opening a session. */
#include <string.h>

#include "cli/opts.h"
#include "core/text.h"

int cli_error(const char *what, socmon_status st)
{
    /* A message can quote what a peer or a file said (an agent's ERROR, a recording's names):
     * it reaches the terminal as one line with its control bytes escaped. */
    char msg[4 * 4096];
    smn_text_escape(msg, sizeof msg, socmon_errmsg());
    fprintf(stderr, "socmon: %s: %s\n", what, *msg ? msg : socmon_status_str(st));
    return 1;
}

int cli_parse_sep(const char *s, char *sep)
{
    if (!s || strlen(s) != 1 || *s == '"' || *s == '\n' || *s == '\r')
        return -1;
    *sep = *s;
    return 0;
}

smn_target_want cli_target_want(const cli_opts *o)
{
    return (smn_target_want){.specs = o->ntargets > 1 ? o->targets : &o->target, .nspecs = o->ntargets > 1 ? (size_t)o->ntargets : 1,
                             .spec_given = o->target_set, .program = o->program, .command = o->command,
                             .events = o->events, .cpus = o->cpus, .all_cpus = o->all_cpus, .trace_bus = o->trace,
                             .max_cycles = o->max_cycles, .max_cycles_set = o->max_cycles_set, .symbols = o->symbols,
                             .workload = o->workload};
}
