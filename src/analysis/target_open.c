/* Opening a plan's target from what the user asked for (analysis/target_open.h). */
#include <stdio.h>
#include <string.h>

#include "analysis/target_open.h"

static int has_option(const socmon_target_ops *ops, const char *name)
{
    for (const socmon_option *op = ops ? ops->options : NULL; op && op->name; op++)
        if (strcmp(op->name, name) == 0)
            return 1;
    return 0;
}

/* The target spec with what the want adds to it, as typed options (a program's path is never
 * pasted into the text); NULL (with a message) on failure. */
static socmon_spec *build_spec(const char *text, const smn_target_want *w, socmon_status *st)
{
    socmon_spec *s = NULL;
    if ((*st = socmon_spec_parse(text, &s)) != SOCMON_OK)
        return NULL;
    const socmon_target_ops *ops = socmon_spec_target(s);
    const char *name = socmon_spec_name(s);
    char cycles[32];
    snprintf(cycles, sizeof cycles, "%llu", (unsigned long long)w->max_cycles);
    if (ops && w->program && !has_option(ops, "program"))
        *st = socmon_fail(SOCMON_EINVAL, "target '%s' runs no program: '-- %s' counts a command on -t host, or "
                          "runs a program on a target that runs one (ibex)", name, w->program);
    else if (ops && w->max_cycles_set && !has_option(ops, "max_cycles"))
        *st = socmon_fail(SOCMON_EINVAL, "target '%s' has no cycle limit: --max-cycles is for targets that run "
                          "a program (ibex)", name);
    else if (w->program)
        *st = socmon_spec_set(s, "program", w->program);
    if (*st == SOCMON_OK && w->max_cycles_set)
        *st = socmon_spec_set(s, "max_cycles", cycles);
    if (*st == SOCMON_OK && w->symbols && has_option(ops, "symbols") && !socmon_spec_get(s, "symbols") &&
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

/* Opens the one target `text` into *t; *events_out: the globs the set then selects by (NULL for
 * a target that runs a command, the host, which takes the events as the perf events it opens). */
static socmon_status open_one(const char *text, const smn_target_want *w, socmon_target **t, const char **events_out)
{
    socmon_status st = SOCMON_OK;
    socmon_spec *spec = build_spec(text, w, &st);
    *events_out = NULL;
    if (!spec)
        return st;
    const socmon_target_ops *ops = socmon_spec_target(spec);
    const char *events = w->events;
    if (ops && (ops->caps & SOCMON_TARGET_RUNS_COMMAND)) {
        /* the host target opens the events -e names (perf event names, not globs over its
         * counters), on the command after '--' or on the CPUs of -a / -C */
        if (w->events)
            st = socmon_spec_set_extra(spec, "events", w->events);
        if (st == SOCMON_OK && w->cpus)
            st = socmon_spec_set_extra(spec, "cpus", w->cpus);
        if (st == SOCMON_OK && w->all_cpus)
            st = socmon_spec_set_extra(spec, "all", "1");
        if (st == SOCMON_OK)
            st = socmon_spec_set_argv(spec, w->command);
        events = NULL;
    } else if (w->cpus || w->command) {
        st = socmon_fail(SOCMON_EINVAL, "target '%s': %s is for the %s target (-t %s)", socmon_spec_name(spec),
                         w->cpus ? "-C" : "a command after '--'", runner_name(), runner_name());
    } else if (w->trace_bus) {
        /* the trace's path goes in whole, as a typed option: a ',' or '=' in it splits nothing */
        st = socmon_spec_set_extra(spec, "trace_bus", w->trace_bus);
    }
    if (st == SOCMON_OK)
        st = socmon_target_open_spec(spec, t);
    socmon_spec_free(spec);
    *events_out = events;
    return st;
}

/* Several specs: each member opened as it would be alone (the target that runs commands, the
 * host, takes the command and the events; the others every counter), then combined on one
 * clock (socmon_target_combine). */
static socmon_status open_combined(const smn_target_want *w, socmon_target **t)
{
    socmon_target *m[16] = {0};
    socmon_status st = w->nspecs > 16 ? socmon_fail(SOCMON_EINVAL, "%zu targets: 16 at most", w->nspecs) : SOCMON_OK;
    int hosts = 0;
    for (size_t i = 0; i < w->nspecs && st == SOCMON_OK; i++) {
        smn_target_want one = *w;
        int host = runs_command(w->specs[i]);
        hosts += host;
        if (!host) {
            one.command = NULL;
            one.cpus = NULL;
            one.events = NULL;
        }
        const char *ev;
        if ((st = open_one(w->specs[i], &one, &m[i], &ev)) != SOCMON_OK)
            socmon_fail_prefix(st, "-t %s: ", w->specs[i]);
    }
    if (st == SOCMON_OK && hosts > 1)
        st = socmon_fail(SOCMON_EINVAL, "-t %s given %d times: one %s member at most", runner_name(), hosts,
                         runner_name());
    if (st == SOCMON_OK && w->command && !hosts)
        st = socmon_fail(SOCMON_EINVAL, "a command after '--' needs -t %s among the targets", runner_name());
    if (st == SOCMON_OK)
        st = socmon_target_combine(m, w->nspecs, t);
    if (st != SOCMON_OK)
        for (size_t i = 0; i < w->nspecs && i < 16; i++)
            socmon_target_close(m[i]);
    return st;
}

/* -e without -t names no counter of the default target: perhaps events of the target that opens
 * the events -e names (SOCMON_TARGET_RUNS_COMMAND: the host, `stat -e cache-misses -d 1s` as perf
 * users write it; issue 37 item 10). The target itself says whether it knows them: opened with
 * them, it refuses a name it does not know (SOCMON_ENOENT, or SOCMON_EPARSE for a malformed one),
 * and then the default target's error stands, naming the pattern and -t runner. Any other outcome
 * (counting, or an error about the events, such as none being countable here) is the runner's.
 * Returns SOCMON_OK with *t open (and *events_out its set's patterns), or the first error. */
static socmon_status try_runner_events(const smn_target_want *w, socmon_status first, socmon_target **t,
                                       const char **events_out)
{
    const socmon_target_ops *runner = socmon_target_with_caps(SOCMON_TARGET_RUNS_COMMAND);
    /* -w and --trace-bus are a model's: with them the user means the default target */
    if (first != SOCMON_ENOENT || !runner || w->spec_given || w->nspecs > 1 || !w->events || w->command ||
        w->workload || w->trace_bus)
        return first;
    char msg[1024];
    snprintf(msg, sizeof msg, "%s", socmon_errmsg());
    socmon_status st = open_one(runner->name, w, t, events_out);
    if (st == SOCMON_ENOENT || st == SOCMON_EPARSE)
        return socmon_fail(first, "%s; nor is it an event -t %s counts (`socmon list %s`)", msg, runner->name,
                           runner->name);
    return st;
}

socmon_status smn_target_open_want(const smn_target_want *w, socmon_target **t, socmon_set **set)
{
    *t = NULL;
    *set = NULL;
    const char *events = w->ops ? w->events : NULL;
    const char *text = w->nspecs ? w->specs[0] : SMN_DEFAULT_TARGET;
    socmon_status st = w->ops ? socmon_target_open_ops(w->ops, NULL, 0, t)
                       : w->nspecs > 1 ? open_combined(w, t) : open_one(text, w, t, &events);
    if (st != SOCMON_OK)
        return st;
    if ((st = socmon_set_new(socmon_target_device(*t), events, set)) == SOCMON_OK)
        return SOCMON_OK;
    socmon_target_close(*t);
    *t = NULL;
    if ((st = try_runner_events(w, st, t, &events)) == SOCMON_OK &&
        (st = socmon_set_new(socmon_target_device(*t), events, set)) == SOCMON_OK)
        return SOCMON_OK;
    socmon_target_close(*t);
    *t = NULL;
    return st;
}
