/* Event names to kernel attributes: one name (socmon_perf_event_parse) and a
 * -e list with {groups} (socmon_perf_event_list_parse). The order of lookup:
 * the generic names (perf_generic.c), raw rNNNN, pmu/terms/ (perf_sysfs.c),
 * then libpfm4 (perf_pfm.c). A name nobody knows gets up to three close
 * matches; a malformed one an error naming the bad part. Modifiers :u :k :h
 * (any combination) keep only those privilege levels, as perf's do. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/perf/perf_names.h"

size_t smn_perf_edit_distance(const char *a, const char *b, size_t cap)
{
    size_t la = strlen(a), lb = strlen(b);
    if (la > 127 || lb > 127)
        return cap + 1;
    if ((la > lb ? la - lb : lb - la) > cap)
        return cap + 1;
    size_t row[128];
    for (size_t j = 0; j <= lb; j++)
        row[j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t diag = row[0], best = row[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            size_t up = row[j];
            size_t sub = diag + (tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]));
            size_t v = sub < up + 1 ? sub : up + 1;
            row[j] = v < row[j - 1] + 1 ? v : row[j - 1] + 1;
            diag = up;
            if (row[j] < best)
                best = row[j];
        }
        if (best > cap)
            return cap + 1;
    }
    return row[lb];
}

void smn_perf_suggest_add(const char *name, const char *cand, char *sugg, size_t len, int *count, int max)
{
    size_t n = strlen(name), cap = n < 6 ? 2 : n / 3;
    if (*count >= max || smn_perf_edit_distance(name, cand, cap) > cap)
        return;
    char quoted[160];
    snprintf(quoted, sizeof quoted, "'%s'", cand);
    if (strstr(sugg, quoted))
        return;
    size_t used = strlen(sugg);
    snprintf(sugg + used, len - used, "%s%s", *count ? ", " : "", quoted);
    (*count)++;
}

/* mods: any of u, k, h, each at most once; keeps only the levels named. */
static socmon_status apply_mods(const char *full, const char *mods, socmon_perf_attr *out)
{
    int u = 0, k = 0, h = 0;
    for (const char *p = mods; *p; p++) {
        int *f = *p == 'u' ? &u : *p == 'k' ? &k : *p == 'h' ? &h : NULL;
        if (!f || *f)
            return socmon_fail(SOCMON_EPARSE, "event '%s': modifier '%c' %s (u: user, k: kernel, h: hypervisor)",
                               full, *p, f ? "given twice" : "not supported");
        *f = 1;
    }
    if (*mods) {
        out->exclude_user = !u;
        out->exclude_kernel = !k;
        out->exclude_hv = !h;
    }
    return SOCMON_OK;
}

static int is_raw(const char *s, uint64_t *config)
{
    if (s[0] != 'r' || !s[1] || strlen(s + 1) > 16)
        return 0;
    uint64_t v = 0;
    for (const char *p = s + 1; *p; p++) {
        if (!isxdigit((unsigned char)*p))
            return 0;
        v = v << 4 | (uint64_t)(isdigit((unsigned char)*p) ? *p - '0' : tolower((unsigned char)*p) - 'a' + 10);
    }
    *config = v;
    return 1;
}

static socmon_status not_found(const char *name, const socmon_perf_names *names)
{
    char sugg[512] = "", buf[96];
    int count = 0;
    for (size_t i = 0; smn_perf_generic_name(i, buf, sizeof buf); i++)
        smn_perf_suggest_add(name, buf, sugg, sizeof sugg, &count, 3);
    if (count < 3)
        smn_perf_sysfs_suggest(NULL, name, names, sugg, sizeof sugg, &count, 3);
    if (count)
        return socmon_fail(SOCMON_ENOENT, "no event '%s' (did you mean %s?)", name, sugg);
    return socmon_fail(SOCMON_ENOENT, "no event '%s' (`socmon list host` lists the events; raw events are "
                       "rNNNN, PMU events pmu/event=...,umask=.../%s)", name,
                       socmon_perf_have_pfm() ? "" : "; socmon was built without libpfm4, so CPU-specific names "
                                                     "are unknown");
}

static socmon_status parse_pmu_form(const char *name, const socmon_perf_names *names, socmon_perf_attr *out)
{
    const char *s1 = strchr(name, '/'), *s2 = strrchr(name, '/');
    if (s1 == s2)
        return socmon_fail(SOCMON_EPARSE, "event '%s': a PMU event is pmu/terms/ (the closing '/' is missing)", name);
    if (s1 == name)
        return socmon_fail(SOCMON_EPARSE, "event '%s': no PMU name before '/'", name);
    char pmu[64], body[128];
    if ((size_t)(s1 - name) >= sizeof pmu || (size_t)(s2 - s1 - 1) >= sizeof body)
        return socmon_fail(SOCMON_EPARSE, "event '%s': too long", name);
    memcpy(pmu, name, (size_t)(s1 - name));
    pmu[s1 - name] = 0;
    memcpy(body, s1 + 1, (size_t)(s2 - s1 - 1));
    body[s2 - s1 - 1] = 0;
    socmon_status st = smn_perf_sysfs_parse(pmu, body, names, out);
    if (st)
        return st;
    const char *mods = s2 + 1;
    if (*mods == ':')
        mods++;
    return apply_mods(name, mods, out);
}

socmon_status socmon_perf_event_parse(const char *name, const socmon_perf_names *names, socmon_perf_attr *out)
{
    if (!name || !out)
        return socmon_fail(SOCMON_EINVAL, "perf event: NULL argument");
    memset(out, 0, sizeof *out);
    out->group = -1;
    size_t n = strlen(name);
    if (n == 0)
        return socmon_fail(SOCMON_EPARSE, "perf event: empty name");
    if (n >= sizeof out->name)
        return socmon_fail(SOCMON_EPARSE, "perf event '%.40s...': name longer than %zu characters", name,
                           sizeof out->name - 1);
    for (const char *p = name; *p; p++)
        if (!isgraph((unsigned char)*p) || strchr("{}\"'", *p))
            return socmon_fail(SOCMON_EPARSE, "perf event '%s': character %s not allowed in an event name", name,
                               isgraph((unsigned char)*p) ? (char[]){'\'', *p, '\'', 0} : "(space or control)");
    snprintf(out->name, sizeof out->name, "%s", name);
    snprintf(out->unit, sizeof out->unit, "events");
    if (strchr(name, '/'))
        return parse_pmu_form(name, names, out);
    /* base[:mods] for generic and raw names */
    char base[128];
    snprintf(base, sizeof base, "%s", name);
    char *colon = strrchr(base, ':');
    const char *mods = "";
    if (colon) {
        *colon = 0;
        mods = colon + 1;
    }
    uint64_t raw;
    if (smn_perf_generic_lookup(base, out) || (is_raw(base, &raw) && (out->type = 4 /* PERF_TYPE_RAW */, out->config = raw,
                                                                  snprintf(out->pmu, sizeof out->pmu, "cpu"), 1)))
        return apply_mods(name, mods, out);
    if (colon)
        *colon = ':';
    if (base[0] == 'r' && base[1] == '0' && (base[2] == 'x' || base[2] == 'X'))
        return socmon_fail(SOCMON_EPARSE, "event '%s': a raw event is r followed by hex digits, without 0x "
                           "(r%s)", name, base + 3);
    int pf = names && names->no_pfm ? 0 : smn_perf_pfm_lookup(name, out);
    if (pf < 0)
        return SOCMON_EPARSE;
    if (pf > 0) {
        snprintf(out->name, sizeof out->name, "%s", name);
        return SOCMON_OK;
    }
    memset(out, 0, sizeof *out);
    return not_found(name, names);
}

/* One item of a list: [{]name[}], with the braces' effect on the group. */
socmon_status socmon_perf_event_list_parse(const char *list, const socmon_perf_names *names, socmon_perf_attr **out,
                                           size_t *n)
{
    if (!list || !out || !n)
        return socmon_fail(SOCMON_EINVAL, "perf events: NULL argument");
    *out = NULL;
    *n = 0;
    size_t len = strlen(list), cap = 1;
    for (const char *p = list; *p; p++)
        cap += *p == ',';
    if (len == 0)
        return socmon_fail(SOCMON_EPARSE, "perf events: empty list");
    socmon_perf_attr *v = calloc(cap, sizeof *v);
    if (!v)
        return socmon_fail(SOCMON_ENOMEM, "perf events: out of memory");
    int group = -1, ngroups = 0;
    size_t count = 0;
    const char *p = list;
    socmon_status st = SOCMON_OK;
    while (st == SOCMON_OK) {
        /* an item ends at a ',' outside pmu/.../ */
        const char *e = p;
        int slashes = 0;
        while (*e && !(*e == ',' && slashes % 2 == 0))
            slashes += *e++ == '/';
        char item[160];
        size_t il = (size_t)(e - p);
        if (il >= sizeof item) {
            st = socmon_fail(SOCMON_EPARSE, "perf events: item '%.40s...' too long", p);
            break;
        }
        memcpy(item, p, il);
        item[il] = 0;
        char *name = item;
        int opens = 0, closes = 0;
        if (*name == '{') {
            if (group >= 0) {
                st = socmon_fail(SOCMON_EPARSE, "perf events: '%s': groups do not nest", item);
                break;
            }
            group = ngroups++;
            name++;
            opens = 1;
        }
        size_t nl = strlen(name);
        if (nl && name[nl - 1] == '}') {
            if (group < 0) {
                st = socmon_fail(SOCMON_EPARSE, "perf events: '%s': '}' without '{'", item);
                break;
            }
            name[--nl] = 0;
            closes = 1;
        }
        if (!*name) {
            st = socmon_fail(SOCMON_EPARSE, "perf events: empty item in '%s'%s", list,
                             opens || closes ? " (an empty group)" : "");
            break;
        }
        st = socmon_perf_event_parse(name, names, &v[count]);
        if (st)
            break;
        v[count].group = group;
        for (size_t j = 0; j < count; j++)
            if (strcmp(v[j].name, v[count].name) == 0) {
                st = socmon_fail(SOCMON_EINVAL, "perf events: '%s' given twice", v[count].name);
                break;
            }
        count++;
        if (closes)
            group = -1;
        if (!*e)
            break;
        p = e + 1;
        if (!*p)
            st = socmon_fail(SOCMON_EPARSE, "perf events: '%s' ends with ','", list);
    }
    if (st == SOCMON_OK && group >= 0)
        st = socmon_fail(SOCMON_EPARSE, "perf events: '%s': '{' without '}'", list);
    if (st) {
        free(v);
        return st;
    }
    *out = v;
    *n = count;
    return SOCMON_OK;
}
