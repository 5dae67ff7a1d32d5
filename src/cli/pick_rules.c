/* Which findings rules a command uses (cli/pick_rules.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/pick_rules.h"
#include "socmon/target.h"

/* Each member of a spec ("esp:soc=x;host"): its target's built-in rules. */
static socmon_status builtin(socmon_findingset *fs, const char *spec)
{
    socmon_status st = SOCMON_OK;
    char member[512];
    for (size_t m = 0; st == SOCMON_OK && socmon_spec_member(spec, m, member, sizeof member); m++) {
        const socmon_target_ops *ops = socmon_spec_ops_of(member);
        const char *text = ops && ops->metrics ? socmon_builtin_findings(ops->metrics) : NULL;
        char src[96];
        snprintf(src, sizeof src, "metrics/%s.findings.json", ops && ops->metrics ? ops->metrics : "");
        if (text)
            st = socmon_findingset_add_string(fs, text, src);
        if (st == SOCMON_EPARSE)   /* another member had these rules already (esp;esp) */
            st = strstr(socmon_errmsg(), "duplicate name") ? SOCMON_OK : st;
    }
    return st;
}

socmon_status cli_findings_load(const cli_opts *o, const socmon_source_info *info, socmon_findingset **out)
{
    *out = NULL;
    socmon_findingset *fs = NULL;
    socmon_status st = socmon_findingset_new(&fs);
    if (st == SOCMON_OK && info && info->target)
        st = builtin(fs, info->target);
    size_t len = o->metric_file ? strlen(o->metric_file) : 0;
    if (st == SOCMON_OK && len > 5 && strcmp(o->metric_file + len - 5, ".json") == 0) {
        char beside[4096];
        snprintf(beside, sizeof beside, "%.*s.findings.json", (int)(len - 5), o->metric_file);
        if (access(beside, F_OK) == 0)
            st = socmon_findingset_add_file(fs, beside);
    }
    if (st == SOCMON_OK && o->findings)
        st = socmon_findingset_add_file(fs, o->findings);
    if (st != SOCMON_OK || socmon_findingset_count(fs) == 0) {
        socmon_findingset_free(fs);
        return st;
    }
    *out = fs;
    return SOCMON_OK;
}
