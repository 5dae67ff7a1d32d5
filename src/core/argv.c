/* Command-line values by table (argv.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/argv.h"

int smn_parse_duration(const char *s, uint64_t *ns)
{
    char *end = NULL;
    if (!s || !*s || isspace((unsigned char)*s))
        return -1;
    double v = strtod(s, &end);
    if (end == s || !(v > 0) || !isfinite(v))
        return -1;
    double scale;
    if (!*end || strcmp(end, "ms") == 0)
        scale = 1e6;
    else if (strcmp(end, "us") == 0)
        scale = 1e3;
    else if (strcmp(end, "ns") == 0)
        scale = 1;
    else if (strcmp(end, "s") == 0)
        scale = 1e9;
    else
        return -1;
    double r = v * scale;
    if (r < 1 || r > 1e18)
        return -1;
    *ns = (uint64_t)llround(r);
    return 0;
}

static void store(void *out, size_t off, size_t size, unsigned long long v)
{
    char *f = (char *)out + off;
    if (size == sizeof(uint64_t)) {
        uint64_t x = v;
        memcpy(f, &x, sizeof x);
    } else {
        unsigned x = (unsigned)v;
        memcpy(f, &x, sizeof x);
    }
}

int smn_arg_apply(const smn_arg_action *actions, size_t n, void *out, int val, const char *arg, char *err,
                  size_t errlen)
{
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        const smn_arg_action *a = &actions[i];
        if (a->val != val)
            continue;
        any = 1;
        char *f = (char *)out + a->off, *end = NULL;
        unsigned long long v = 0;
        uint64_t ns = 0;
        switch (a->kind) {
        case SMN_ARG_STR: memcpy(f, &arg, sizeof arg); break;
        case SMN_ARG_FLAG: *(int *)f = 1; break;
        case SMN_ARG_CONST: memcpy(f, &a->value, sizeof a->value); break;
        case SMN_ARG_NUM:
            errno = 0;
            v = strtoull(arg, &end, a->base);
            if (*end || end == arg || arg[0] == '-' || errno || v < a->lo || v > a->hi) {
                snprintf(err, errlen, "%s, got '%s'", a->what, arg);
                return -1;
            }
            store(out, a->off, a->size, v);
            break;
        case SMN_ARG_DURATION:
            if (a->set_off)
                *(int *)((char *)out + a->set_off) = 1;
            if (smn_parse_duration(arg, &ns) != 0 || (a->hi && (ns < a->lo || ns > a->hi))) {
                snprintf(err, errlen, "bad %s '%s' (%s)", a->what, arg, a->expect);
                return -1;
            }
            store(out, a->off, a->size, ns);
            break;
        }
    }
    return any;
}

int smn_arg_list_check(const char *list, char *err, size_t errlen)
{
    size_t pos = 1;
    for (const char *p = list;; pos++) {
        size_t len = strcspn(p, ","), sp = strspn(p, " ");
        if (sp >= len) {
            snprintf(err, errlen, "item %zu is empty (%s)", pos,
                     !*list ? "nothing given" : pos == 1 ? "before the first comma"
                     : !p[len] ? "after the last comma" : "between two commas");
            return -1;
        }
        if (!p[len])
            return 0;
        p += len + 1;
    }
}
