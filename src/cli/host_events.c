/* `socmon list host`: the event names the host target takes (docs/perf.md): the generic ones,
 * each PMU of this machine with its event aliases, and whether libpfm4's names are there. */
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "drivers/perf/perf_names.h"

static void pmu_events(const char *pmu)
{
    char dir[512];
    snprintf(dir, sizeof dir, "/sys/bus/event_source/devices/%s/events", pmu);
    DIR *d = opendir(dir);
    if (!d) {
        printf("  %s/.../ (no named events; terms: /sys/bus/event_source/devices/%s/format)\n", pmu, pmu);
        return;
    }
    size_t col = 0;
    printf("  %s:", pmu);
    for (struct dirent *e; (e = readdir(d));) {
        if (e->d_name[0] == '.' || strchr(e->d_name, '.')) /* NAME.scale, NAME.unit are not events */
            continue;
        size_t len = strlen(pmu) + strlen(e->d_name) + 3;
        if (col + len > 90) {
            printf("\n   ");
            col = 0;
        }
        printf(" %s/%s/", pmu, e->d_name);
        col += len;
    }
    printf("\n");
    closedir(d);
}

void cli_list_host_events(void)
{
    char name[96];
    size_t col = 0;
    printf("\nevents (-e; modifiers :u :k :h; {a,b} groups; raw rNNNN; pmu/term=value,.../):\n  generic:");
    for (size_t i = 0; perf_generic_name(i, name, sizeof name); i++) {
        if (col + strlen(name) + 1 > 90) {
            printf("\n   ");
            col = 0;
        }
        printf(" %s", name);
        col += strlen(name) + 1;
    }
    printf("\n");
    DIR *d = opendir("/sys/bus/event_source/devices");
    for (struct dirent *e; d && (e = readdir(d));)
        if (e->d_name[0] != '.')
            pmu_events(e->d_name);
    if (d)
        closedir(d);
    printf("  libpfm4: %s\n", socmon_perf_have_pfm() ? "built in: the names of this CPU's event tables "
                                                     "(e.g. INST_RETIRED:ANY_P on Intel)"
                                                   : "not built in (install libpfm4-dev and rebuild for CPU-specific names)");
}
