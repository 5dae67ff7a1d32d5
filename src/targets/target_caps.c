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
    char name[64];
    snprintf(name, sizeof name, "%.*s", (int)strcspn(spec, ":"), spec);
    const socmon_target_ops *ops = socmon_target_lookup(name);
    if (ops && !(ops->caps & SOCMON_TARGET_RUNS_COMMAND))
        return socmon_fail(SOCMON_EINVAL, "socmon_target_open_command: target '%s' runs no command", name);
    size_t len = 1;
    for (size_t i = 0; argv && argv[i]; i++) {
        if (strchr(argv[i], SOCMON_TARGET_CMD_SEP))
            return socmon_fail(SOCMON_EINVAL, "%s: command word %zu holds the byte 0x1f, which separates words",
                               name, i);
        len += strlen(argv[i]) + 1;
    }
    char *cmd = calloc(len, 1);
    socmon_kv *kv = calloc(nextra + 1, sizeof *kv);
    if (!cmd || !kv) {
        free(cmd);
        free(kv);
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name);
    }
    for (size_t i = 0, k = 0; argv && argv[i]; i++) {
        if (i)
            cmd[k++] = SOCMON_TARGET_CMD_SEP;
        memcpy(cmd + k, argv[i], strlen(argv[i]));
        k += strlen(argv[i]);
    }
    if (nextra)
        memcpy(kv, extra, nextra * sizeof *kv);
    size_t nkv = nextra;
    if (argv && argv[0])
        kv[nkv++] = (socmon_kv){.key = "command", .value = cmd};
    socmon_status st = socmon_target_open_kv(spec, kv, nkv, out);
    free(cmd);
    free(kv);
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
