/* Helpers shared by the subcommands: errors, durations, opening a session. */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

int cli_run_error(const char *what, socmon_status st, const char *workload)
{
    int rc = cli_error(what, st);
    return workload && st == SOCMON_EPARSE ? 2 : rc;
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

static int has_option(const socmon_target_ops *ops, const char *name)
{
    for (const socmon_option *op = ops ? ops->options : NULL; op && op->name; op++)
        if (strcmp(op->name, name) == 0)
            return 1;
    return 0;
}

/* The target spec with what the command line adds to it, as typed options (a program's path is
 * never pasted into the text); NULL (with a message) on failure. */
static socmon_spec *build_spec(const cli_opts *o, socmon_status *st)
{
    socmon_spec *s = NULL;
    if ((*st = socmon_spec_parse(o->target ? o->target : SOCMON_DEFAULT_TARGET, &s)) != SOCMON_OK)
        return NULL;
    const socmon_target_ops *ops = socmon_spec_target(s);
    const char *name = socmon_spec_name(s);
    char cycles[32];
    snprintf(cycles, sizeof cycles, "%llu", (unsigned long long)o->max_cycles);
    if (ops && o->program && !has_option(ops, "program"))
        *st = socmon_fail(SOCMON_EINVAL, "target '%s' runs no program: '-- %s' counts a command on -t host, or "
                          "runs a program on a target that runs one (ibex)", name, o->program);
    else if (ops && o->max_cycles_set && !has_option(ops, "max_cycles"))
        *st = socmon_fail(SOCMON_EINVAL, "target '%s' has no cycle limit: --max-cycles is for targets that run "
                          "a program (ibex)", name);
    else if (o->program)
        *st = socmon_spec_set(s, "program", o->program);
    if (*st == SOCMON_OK && o->max_cycles_set)
        *st = socmon_spec_set(s, "max_cycles", cycles);
    if (*st == SOCMON_OK && o->symbols && has_option(ops, "symbols") && !socmon_spec_get(s, "symbols") &&
        socmon_spec_get(s, "program"))
        *st = socmon_spec_set(s, "symbols", "1");
    if (*st != SOCMON_OK) {
        socmon_spec_free(s);
        return NULL;
    }
    return s;
}

/* 1 if spec's target runs the command after '--' (the host), as it declares. */
static int runs_command(const char *spec)
{
    const socmon_target_ops *ops = socmon_spec_ops_of(spec);
    return ops && (ops->caps & SOCMON_TARGET_RUNS_COMMAND);
}

/* The name of the target that runs commands, for messages. */
static const char *runner_name(void)
{
    const socmon_target_ops *ops = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
    return ops ? ops->name : "host";
}

/* Opens o's one target into *t; *events_out: the -e globs the set then selects by (NULL for a
 * target that runs a command, the host, which takes -e as the perf events it opens). */
static socmon_status open_one(const cli_opts *o, socmon_target **t, const char **events_out)
{
    socmon_status st = SOCMON_OK;
    socmon_spec *spec = build_spec(o, &st);
    if (!spec)
        return st;
    const socmon_target_ops *ops = socmon_spec_target(spec);
    const char *events = o->events;
    if (ops && (ops->caps & SOCMON_TARGET_RUNS_COMMAND)) {
        /* the host target opens the events -e names (perf event names, not globs over its
         * counters), on the command after '--' or on the CPUs of -a / -C */
        if (o->events)
            st = socmon_spec_set_extra(spec, "events", o->events);
        if (st == SOCMON_OK && o->cpus)
            st = socmon_spec_set_extra(spec, "cpus", o->cpus);
        if (st == SOCMON_OK && o->all_cpus)
            st = socmon_spec_set_extra(spec, "all", "1");
        if (st == SOCMON_OK)
            st = socmon_spec_set_argv(spec, o->command);
        events = NULL;
    } else if (o->cpus || o->command) {
        st = socmon_fail(SOCMON_EINVAL, "target '%s': %s is for the %s target (-t %s)", socmon_spec_name(spec),
                         o->cpus ? "-C" : "a command after '--'", runner_name(), runner_name());
    } else if (o->trace) {
        /* --trace-bus's path goes in whole, as a typed option: a ',' or '=' in it splits nothing */
        st = socmon_spec_set_extra(spec, "trace_bus", o->trace);
    }
    if (st == SOCMON_OK)
        st = socmon_target_open_spec(spec, t);
    socmon_spec_free(spec);
    *events_out = events;
    return st;
}

/* Several -t: each member opened as it would be alone (the target that runs commands, the host,
 * takes the command and -e; the others every counter), then combined on one clock
 * (socmon_target_combine). */
static socmon_status open_combined(const cli_opts *o, socmon_target **t, const char **events_out)
{
    socmon_target *m[CLI_MAX_TARGETS] = {0};
    socmon_status st = SOCMON_OK;
    int hosts = 0;
    for (int i = 0; i < o->ntargets && st == SOCMON_OK; i++) {
        cli_opts one = *o;
        one.target = o->targets[i];
        int host = runs_command(one.target);
        hosts += host;
        if (!host) {
            one.command = NULL;
            one.cpus = NULL;
            one.events = NULL;
        }
        const char *ev;
        if ((st = open_one(&one, &m[i], &ev)) != SOCMON_OK)
            socmon_fail_prefix(st, "-t %s: ", one.target);
    }
    if (st == SOCMON_OK && hosts > 1)
        st = socmon_fail(SOCMON_EINVAL, "-t %s given %d times: one %s member at most", runner_name(), hosts,
                         runner_name());
    if (st == SOCMON_OK && o->command && !hosts)
        st = socmon_fail(SOCMON_EINVAL, "a command after '--' needs -t %s among the targets", runner_name());
    if (st == SOCMON_OK)
        st = socmon_target_combine(m, (size_t)o->ntargets, t);
    if (st != SOCMON_OK)
        for (int i = 0; i < o->ntargets; i++)
            socmon_target_close(m[i]);
    *events_out = NULL;
    return st;
}

/* -e without -t names no counter of the default target: perhaps events of the target that opens
 * the events -e names (SOCMON_TARGET_RUNS_COMMAND: the host, `stat -e cache-misses -d 1s` as perf
 * users write it; issue 37 item 10). The target itself says whether it knows them: opened with
 * them, it refuses a name it does not know (SOCMON_ENOENT, or SOCMON_EPARSE for a malformed one),
 * and then the default target's error stands, naming the pattern and -t runner. Any other outcome
 * (counting, or an error about the events, such as none being countable here) is the runner's.
 * Returns SOCMON_OK with *t open (and *events_out its set's patterns), or the first error. */
static socmon_status try_runner_events(const cli_opts *o, socmon_status first, socmon_target **t,
                                       const char **events_out)
{
    const socmon_target_ops *runner = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
    /* -w and --trace-bus are a model's: with them the user means the default target */
    if (first != SOCMON_ENOENT || !runner || o->target_set || o->ntargets > 1 || !o->events || o->command ||
        o->workload || o->trace)
        return first;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", socmon_errmsg());
    cli_opts r = *o;
    r.target = runner->name;
    socmon_status st = open_one(&r, t, events_out);
    if (st == SOCMON_ENOENT || st == SOCMON_EPARSE)
        return socmon_fail(first, "%s; nor is it an event -t %s counts (`socmon list %s`)", msg, runner->name,
                           runner->name);
    return st;
}

socmon_status cli_session_open(cli_session *cs, const cli_opts *o)
{
    memset(cs, 0, sizeof *cs);
    const char *events = NULL;
    socmon_status st = o->ntargets > 1 ? open_combined(o, &cs->target, &events) : open_one(o, &cs->target, &events);
    if (st != SOCMON_OK)
        return st;
    socmon_device *dev = socmon_target_device(cs->target);
    if ((st = socmon_set_new(dev, events, &cs->set)) != SOCMON_OK) {
        socmon_target_close(cs->target);
        cs->target = NULL;
        if ((st = try_runner_events(o, st, &cs->target, &events)) != SOCMON_OK)
            return st;
        if ((st = socmon_set_new(socmon_target_device(cs->target), events, &cs->set)) != SOCMON_OK)
            return st;
    }
    size_t n = socmon_set_size(cs->set);
    cs->schema = calloc(n, sizeof *cs->schema);
    cs->names = calloc(n, sizeof *cs->names);
    if (!cs->schema || !cs->names)
        return SOCMON_ENOMEM;
    for (size_t i = 0; i < n; i++) {
        cs->schema[i] = *socmon_set_counter(cs->set, i);
        cs->names[i] = socmon_set_full_name(cs->set, i);
    }
    return SOCMON_OK;
}

int cli_run_session(int argc, char **argv, cli_optmask allowed, void (*help)(FILE *), const char *cmd,
                    int (*body)(cli_session *cs, const cli_opts *o))
{
    cli_opts o;
    int rc = cli_parse_opts(argc, argv, allowed, help, &o);
    if (rc >= 0)
        return rc;
    return cli_run_parsed(&o, cmd, body);
}

int cli_run_parsed(const cli_opts *o, const char *cmd, int (*body)(cli_session *cs, const cli_opts *o))
{
    cli_session cs;
    socmon_status st = cli_session_open(&cs, o);
    int rc = st == SOCMON_OK ? body(&cs, o) : cli_error(cmd, st);
    cli_session_close(&cs);
    return rc;
}

void cli_session_close(cli_session *cs)
{
    free(cs->schema);
    free(cs->names);
    socmon_set_free(cs->set);
    socmon_target_close(cs->target);
    memset(cs, 0, sizeof *cs);
}

socmon_status cli_trace_flush(cli_session *cs)
{
    return socmon_target_trace_flush(cs->target);
}

uint64_t cli_interval(const socmon_target *t, uint64_t given_ns, int given)
{
    const socmon_target_ops *ops = socmon_target_ops_of(t);
    if (given || !ops || !ops->default_interval_ns)
        return given_ns;
    return ops->default_interval_ns;
}

/* Without -I a model takes the longest step no counter can wrap twice in, at most
 * SMN_RUN_MAX_STEP_NS (a longer run just takes more steps; analysis/target_run.h says why the
 * totals do not depend on it). Hardware and --realtime keep the target's default interval (the
 * host's wake-ups are late now and then), shortened if a counter would wrap twice in it. */
uint64_t cli_stat_interval(const socmon_target *t, const socmon_set *set, const struct cli_opts *o)
{
    if (o->interval_set)
        return o->interval_ns;
    int paced = o->realtime || socmon_target_is_hardware(t);
    return smn_step_for(set, paced ? cli_interval(t, o->interval_ns, 0) : SMN_RUN_MAX_STEP_NS);
}
