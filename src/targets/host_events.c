/* The host target's list_events op (`socmon list host`): the event names it takes (docs/perf.md):
 * the generic ones, each PMU of this machine with its event aliases, and whether libpfm4's names
 * are there. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "drivers/perf/perf_names.h"
#include "socmon/perf.h"
#include "targets/host_events.h"

static void pmu_events(FILE *fp, const char *pmu)
{
    char dir[512];
    snprintf(dir, sizeof dir, "/sys/bus/event_source/devices/%s/events", pmu);
    DIR *d = opendir(dir);
    if (!d) {
        fprintf(fp, "  %s/.../ (no named events; terms: /sys/bus/event_source/devices/%s/format)\n", pmu, pmu);
        return;
    }
    size_t col = 0;
    fprintf(fp, "  %s:", pmu);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strchr(e->d_name, '.')) /* NAME.scale, NAME.unit are not events */
            continue;
        size_t len = strlen(pmu) + strlen(e->d_name) + 3;
        if (col + len > 90) {
            fprintf(fp, "\n   ");
            col = 0;
        }
        fprintf(fp, " %s/%s/", pmu, e->d_name);
        col += len;
    }
    fprintf(fp, "\n");
    closedir(d);
}

void smn_host_list_events(FILE *fp)
{
    char name[96];
    size_t col = 0;
    fprintf(fp, "\nevents (-e; modifiers :u :k :h; {a,b} groups; raw rNNNN; pmu/term=value,.../):\n  generic:");
    for (size_t i = 0; smn_perf_generic_name(i, name, sizeof name); i++) {
        if (col + strlen(name) + 1 > 90) {
            fprintf(fp, "\n   ");
            col = 0;
        }
        fprintf(fp, " %s", name);
        col += strlen(name) + 1;
    }
    fprintf(fp, "\n");
    DIR *d = opendir("/sys/bus/event_source/devices");
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            pmu_events(fp, e->d_name);
    if (d)
        closedir(d);
    fprintf(fp, "  libpfm4: %s\n", socmon_perf_have_pfm() ? "built in: the names of this CPU's event tables "
                                                     "(e.g. INST_RETIRED:ANY_P on Intel)"
                                                   : "not built in (install libpfm4-dev and rebuild for CPU-specific names)");
}
