/* Which findings rules a run uses (findings_pick.h). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "results/findings_pick.h"
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

socmon_status smn_findings_pick(const char *target, const char *metric_file, const char *findings_file,
                                socmon_findingset **out)
{
    *out = NULL;
    socmon_findingset *fs = NULL;
    socmon_status st = socmon_findingset_new(&fs);
    if (st == SOCMON_OK && target)
        st = builtin(fs, target);
    size_t len = metric_file ? strlen(metric_file) : 0;
    if (st == SOCMON_OK && len > 5 && strcmp(metric_file + len - 5, ".json") == 0) {
        char beside[4096];
        snprintf(beside, sizeof beside, "%.*s.findings.json", (int)(len - 5), metric_file);
        if (access(beside, F_OK) == 0)
            st = socmon_findingset_add_file(fs, beside);
    }
    if (st == SOCMON_OK && findings_file)
        st = socmon_findingset_add_file(fs, findings_file);
    if (st != SOCMON_OK || socmon_findingset_count(fs) == 0) {
        socmon_findingset_free(fs);
        return st;
    }
    *out = fs;
    return SOCMON_OK;
}
