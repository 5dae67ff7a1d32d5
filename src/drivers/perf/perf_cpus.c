/* CPU lists: "0-3,6" as perf's -C and the kernel's cpu/online file write them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "drivers/perf/perf_cpus.h"

static socmon_status parse(const char *list, const char *what, int **cpus, size_t *n)
{
    unsigned char *set = calloc(PERF_MAX_CPUS, 1);
    if (!set)
        return socmon_fail(SOCMON_ENOMEM, "perf: out of memory");
    const char *p = list;
    socmon_status st = SOCMON_OK;
    if (!*p)
        st = socmon_fail(SOCMON_EPARSE, "%s: empty CPU list", what);
    while (st == SOCMON_OK && *p) {
        const char *item = p;
        char *end;
        if (!isdigit((unsigned char)*p)) {
            st = socmon_fail(SOCMON_EPARSE, "%s '%s': '%.*s' is not a CPU number or range", what, list,
                             (int)strcspn(item, ","), item);
            break;
        }
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (*end == '-') {
            p = end + 1;
            if (!isdigit((unsigned char)*p)) {
                st = socmon_fail(SOCMON_EPARSE, "%s '%s': range '%.*s' has no end", what, list,
                                 (int)strcspn(item, ","), item);
                break;
            }
            hi = strtoul(p, &end, 10);
        }
        if ((*end && *end != ',') || hi < lo || hi >= PERF_MAX_CPUS) {
            st = socmon_fail(SOCMON_EPARSE, "%s '%s': '%.*s' is not a CPU number or range (0..%d, low-high)", what,
                             list, (int)strcspn(item, ","), item, PERF_MAX_CPUS - 1);
            break;
        }
        for (unsigned long c = lo; c <= hi; c++)
            set[c] = 1;
        p = end;
        if (*p == ',') {
            p++;
            if (!*p)
                st = socmon_fail(SOCMON_EPARSE, "%s '%s' ends with ','", what, list);
        }
    }
    size_t count = 0;
    for (int c = 0; c < PERF_MAX_CPUS; c++)
        count += set[c];
    int *v = st == SOCMON_OK ? malloc(count * sizeof *v) : NULL;
    if (st == SOCMON_OK && !v)
        st = socmon_fail(SOCMON_ENOMEM, "perf: out of memory");
    if (st == SOCMON_OK) {
        size_t k = 0;
        for (int c = 0; c < PERF_MAX_CPUS; c++)
            if (set[c])
                v[k++] = c;
        *cpus = v;
        *n = count;
    }
    free(set);
    return st;
}

socmon_status smn_perf_cpu_list(const char *list, int **cpus, size_t *n)
{
    if (list)
        return parse(list, "CPU list", cpus, n);
    char buf[1024];
    FILE *f = fopen("/sys/devices/system/cpu/online", "r");
    if (f) {
        char *ok = fgets(buf, sizeof buf, f);
        fclose(f);
        if (ok) {
            buf[strcspn(buf, "\n")] = 0;
            return parse(buf, "/sys/devices/system/cpu/online", cpus, n);
        }
    }
    long nc = sysconf(_SC_NPROCESSORS_ONLN);
    snprintf(buf, sizeof buf, "0-%ld", nc > 0 ? nc - 1 : 0);
    return parse(buf, "online CPUs", cpus, n);
}
