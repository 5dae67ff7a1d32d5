/* PMU-qualified events, pmu/term=value,.../, as the kernel describes each PMU in
 * sysfs (Documentation/ABI/testing/sysfs-bus-event_source-devices-format and
 * -events): devices/<pmu>/type is the attr.type; format/<term> says which bits
 * of config, config1 or config2 the term fills ("config:0-7,21"); events/<name>
 * is an alias holding terms ("event=0x3c,umask=0x00"). config=, config1= and
 * config2= set the words directly. The sysfs root can be moved (tests use a
 * fixture tree). */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/perf/perf_names.h"

static const char *root(const socmon_perf_names *names)
{
    return names && names->sysfs_root ? names->sysfs_root : "/sys";
}

/* The first line of a small sysfs file, without its newline; 0 on success. */
static int read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return -1;
    char *ok = fgets(buf, (int)len, f);
    fclose(f);
    if (!ok)
        return -1;
    buf[strcspn(buf, "\n")] = 0;
    return 0;
}

static int valid_component(const char *s)
{
    if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
        return 0;
    for (; *s; s++)
        if (*s == '/' || *s == ',' || *s == '=' || (unsigned char)*s < 0x21)
            return 0;
    return 1;
}

/* Puts value into the bits a format spec names ("config1:0-7,32-35"); fails if it does not fit. */
static socmon_status place(const char *ev, const char *term, const char *spec, uint64_t value, socmon_perf_attr *out)
{
    const char *colon = strchr(spec, ':');
    uint64_t *word = NULL;
    if (colon && (size_t)(colon - spec) == 6 && strncmp(spec, "config", 6) == 0)
        word = &out->config;
    else if (colon && (size_t)(colon - spec) == 7 && strncmp(spec, "config1", 7) == 0)
        word = &out->config1;
    else if (colon && (size_t)(colon - spec) == 7 && strncmp(spec, "config2", 7) == 0)
        word = &out->config2;
    if (!word)
        return socmon_fail(SOCMON_EPARSE, "event '%s': term '%s': format '%s' not understood", ev, term, spec);
    uint64_t left = value;
    unsigned used = 0;
    const char *p = colon + 1;
    while (*p) {
        char *end;
        unsigned long lo = strtoul(p, &end, 10), hi = lo;
        if (end == p)
            return socmon_fail(SOCMON_EPARSE, "event '%s': term '%s': format '%s' not understood", ev, term, spec);
        if (*end == '-') {
            p = end + 1;
            hi = strtoul(p, &end, 10);
            if (end == p)
                return socmon_fail(SOCMON_EPARSE, "event '%s': term '%s': format '%s' not understood", ev, term, spec);
        }
        if (hi < lo || hi > 63)
            return socmon_fail(SOCMON_EPARSE, "event '%s': term '%s': format '%s' has a bad bit range", ev, term, spec);
        for (unsigned long b = lo; b <= hi; b++, used++) {
            if (left & 1)
                *word |= 1ull << b;
            else
                *word &= ~(1ull << b);
            left >>= 1;
        }
        p = *end == ',' ? end + 1 : end;
        if (*end && *end != ',')
            return socmon_fail(SOCMON_EPARSE, "event '%s': term '%s': format '%s' not understood", ev, term, spec);
    }
    if (left)
        return socmon_fail(SOCMON_ERANGE, "event '%s': %s=0x%llx does not fit %s (%u bits)", ev, term,
                           (unsigned long long)value, spec, used);
    return SOCMON_OK;
}

static socmon_status parse_terms(const char *ev, const char *dir, const char *pmu, const char *body,
                                 const socmon_perf_names *names, socmon_perf_attr *out, int depth);

static socmon_status one_term(const char *ev, const char *dir, const char *pmu, char *term,
                              const socmon_perf_names *names, socmon_perf_attr *out, int depth)
{
    char *eq = strchr(term, '=');
    uint64_t value = 1; /* a bare format term is a flag ("edge") */
    if (eq) {
        *eq = 0;
        char *end;
        errno = 0;
        const char *v = eq + 1;
        if (!*v || *v == '-' || *v == '+')
            return socmon_fail(SOCMON_EPARSE, "event '%s': %s= needs a number", ev, term);
        value = strtoull(v, &end, 0);
        if (*end || errno)
            return socmon_fail(SOCMON_EPARSE, "event '%s': %s=%s is not a number", ev, term, v);
    }
    if (!valid_component(term))
        return socmon_fail(SOCMON_EPARSE, "event '%s': bad term '%s'", ev, term);
    if (strcmp(term, "config") == 0 || strcmp(term, "config1") == 0 || strcmp(term, "config2") == 0) {
        if (!eq)
            return socmon_fail(SOCMON_EPARSE, "event '%s': %s needs =value", ev, term);
        *(term[6] == '1' ? &out->config1 : term[6] == '2' ? &out->config2 : &out->config) = value;
        return SOCMON_OK;
    }
    char path[512], spec[128];
    snprintf(path, sizeof path, "%s/format/%s", dir, term);
    if (read_line(path, spec, sizeof spec) == 0)
        return place(ev, term, spec, value, out);
    snprintf(path, sizeof path, "%s/events/%s", dir, term);
    if (!eq && read_line(path, spec, sizeof spec) == 0) {
        if (depth > 0)
            return socmon_fail(SOCMON_EPARSE, "event '%s': alias '%s' refers to another alias", ev, term);
        return parse_terms(ev, dir, pmu, spec, names, out, depth + 1);
    }
    char sugg[384] = "";
    int count = 0;
    smn_perf_sysfs_suggest(pmu, term, names, sugg, sizeof sugg, &count, 3);
    return socmon_fail(SOCMON_ENOENT, "event '%s': PMU '%s' has no term or event '%s'%s%s%s", ev, pmu, term,
                       count ? " (did you mean " : "", sugg, count ? "?)" : "");
}

static socmon_status parse_terms(const char *ev, const char *dir, const char *pmu, const char *body,
                                 const socmon_perf_names *names, socmon_perf_attr *out, int depth)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", body);
    if (!*buf)
        return socmon_fail(SOCMON_EPARSE, "event '%s': no terms between the slashes", ev);
    char *save = NULL;
    for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        socmon_status st = one_term(ev, dir, pmu, t, names, out, depth);
        if (st)
            return st;
    }
    size_t bl = strlen(body);
    if (body[0] == ',' || body[bl - 1] == ',' || strstr(body, ",,"))
        return socmon_fail(SOCMON_EPARSE, "event '%s': empty term", ev);
    return SOCMON_OK;
}

socmon_status smn_perf_sysfs_parse(const char *pmu, const char *body, const socmon_perf_names *names,
                               socmon_perf_attr *out)
{
    const char *ev = out->name;
    if (!valid_component(pmu))
        return socmon_fail(SOCMON_EPARSE, "event '%s': bad PMU name '%s'", ev, pmu);
    char dir[384], path[512], line[64];
    snprintf(dir, sizeof dir, "%s/bus/event_source/devices/%s", root(names), pmu);
    snprintf(path, sizeof path, "%s/type", dir);
    if (read_line(path, line, sizeof line) != 0) {
        char sugg[384] = "";
        int count = 0;
        smn_perf_sysfs_suggest(NULL, pmu, names, sugg, sizeof sugg, &count, 3);
        return socmon_fail(SOCMON_ENOENT, "event '%s': no PMU '%s' here (%s%s%s)", ev, pmu,
                           count ? "did you mean " : "none under ", count ? sugg : dir, count ? "?" : "");
    }
    char *end;
    unsigned long type = strtoul(line, &end, 10);
    if (end == line || *end || type > 0xffffffffu)
        return socmon_fail(SOCMON_EPARSE, "event '%s': %s holds '%s', not a PMU type", ev, path, line);
    out->type = (uint32_t)type;
    snprintf(out->pmu, sizeof out->pmu, "%s", pmu);
    return parse_terms(ev, dir, pmu, body, names, out, 0);
}

static void suggest_dir(const char *dir, const char *name, char *sugg, size_t len, int *count, int max)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    for (struct dirent *e; (e = readdir(d)) && *count < max;)
        if (e->d_name[0] != '.')
            smn_perf_suggest_add(name, e->d_name, sugg, len, count, max);
    closedir(d);
}

void smn_perf_sysfs_suggest(const char *pmu, const char *name, const socmon_perf_names *names, char *sugg, size_t len,
                        int *count, int max)
{
    char dir[512];
    if (!pmu) {
        snprintf(dir, sizeof dir, "%s/bus/event_source/devices", root(names));
        suggest_dir(dir, name, sugg, len, count, max);
        return;
    }
    if (!valid_component(pmu))
        return;
    snprintf(dir, sizeof dir, "%s/bus/event_source/devices/%s/events", root(names), pmu);
    suggest_dir(dir, name, sugg, len, count, max);
    snprintf(dir, sizeof dir, "%s/bus/event_source/devices/%s/format", root(names), pmu);
    suggest_dir(dir, name, sugg, len, count, max);
}
