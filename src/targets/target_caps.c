/* The calls behind a target's declared capabilities (socmon_target_ops.caps and the optional
 * ops after it): what the CLI, the exports and the agent use instead of comparing a target's
 * name. Each forwards to the target's op, or answers "cannot" for a target without it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "targets/target_internal.h"

socmon_status socmon_target_open_command(const char *spec, const socmon_kv *extra, size_t nextra,
                                         char *const argv[], socmon_target **out)
{
    if (!out || !spec || (nextra && !extra))
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_command: NULL argument");
    *out = NULL;
    const socmon_target_ops *ops = socmon_spec_ops_of(spec);
    if (ops && !(ops->caps & SOCMON_TARGET_RUNS_COMMAND)) {
        char name[64];
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_command: target '%s' runs no command",
                           socmon_spec_name_of(spec, name, sizeof name));
    }
    socmon_spec *s = NULL;
    socmon_status st = socmon_spec_parse(spec, &s);
    for (size_t i = 0; st == SOCMON_OK && i < nextra; i++)
        st = !extra[i].key || !extra[i].value
                 ? socmon_fail(SOCMON_EINVAL, "socmon_target_open_command: extra option %zu has no key or value", i)
                 : socmon_spec_set_extra(s, extra[i].key, extra[i].value);
    if (st == SOCMON_OK)
        st = socmon_spec_set_argv(s, argv);
    if (st == SOCMON_OK)
        st = smn_target_open_spec_as(s, spec, out);
    socmon_spec_free(s);
    return st;
}

int socmon_target_program_output(socmon_target *t, void (*fn)(void *ctx, uint8_t byte), void *ctx)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    if (!ops || !ops->program_output)
        return -1;
    ops->program_output(smn_target_priv(t), fn, ctx);
    return 0;
}

socmon_program_end socmon_target_program_end(const socmon_target *t, char *msg, size_t len)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    if (ops && ops->program_end)
        return ops->program_end(smn_target_priv(t), msg, len);
    if (msg && len)
        snprintf(msg, len, "%s", "program still running");
    return SOCMON_PROGRAM_RUNNING;
}

socmon_status socmon_target_profile(socmon_target *t, socmon_profile **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_target_profile: NULL output pointer");
    *out = NULL;
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    if (!ops || !ops->profile)
        return socmon_fail(SOCMON_ENOENT, "target '%s' keeps no profile of a program", ops ? ops->name : "(none)");
    return ops->profile(smn_target_priv(t), out);
}

size_t socmon_target_inhibited(socmon_target *t, socmon_inhibited *out, size_t max)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    return ops && ops->inhibited && (out || !max) ? ops->inhibited(smn_target_priv(t), out, max) : 0;
}

size_t socmon_target_results(socmon_target *t, socmon_result *out, size_t max)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    return ops && ops->results && (out || !max) ? ops->results(smn_target_priv(t), out, max) : 0;
}

int socmon_target_has_workload(const socmon_target_ops *ops, const char *workload)
{
    for (const char *const *w = ops && workload ? ops->workloads : NULL; w && *w; w++) {
        const char *colon = strchr(*w, ':');
        if (colon ? strncmp(*w, workload, (size_t)(colon - *w) + 1) == 0 : strcmp(*w, workload) == 0)
            return 1;
    }
    return 0;
}

size_t socmon_target_phases(socmon_target *t, socmon_phase *out, size_t max)
{
    const socmon_target_ops *ops = t ? socmon_target_ops_of(t) : NULL;
    return ops && ops->phases && (out || !max) ? ops->phases(smn_target_priv(t), out, max) : 0;
}
