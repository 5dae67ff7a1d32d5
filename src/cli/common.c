/* Helpers shared by the subcommands: errors, durations, opening a session. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/target_open.h"
#include "analysis/target_run.h"
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

int cli_parse_duration(const char *s, uint64_t *ns)
{
    char *end = NULL;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    double v = strtod(s, &end);
    if (end == s || !(v > 0) || !isfinite(v))
        return -1;
    double scale;
    if (!*end || strcmp(end, "ms") == 0)
        scale = 1e6;
    else if (strcmp(end, "us") == 0)
        scale = 1e3;
    else if (strcmp(end, "ns") == 0)
        scale = 1;
    else if (strcmp(end, "s") == 0)
        scale = 1e9;
    else
        return -1;
    double r = v * scale;
    if (r < 1 || r > 1e18)
        return -1;
    *ns = (uint64_t)llround(r);
    return 0;
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
