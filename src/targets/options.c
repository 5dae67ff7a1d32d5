/* Target options declared as tables (socmon_option, include/socmon/target.h):
 * the one parser every target uses, and the help text `socmon list` prints
 * from the same table. Keeping both on one table is what keeps the help, the
 * validation and the defaults from drifting apart. */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/target.h"

/* Appends to a bounded buffer, counting what did not fit like snprintf. */
typedef struct strbuf {
    char *p;
    size_t len, used;
} strbuf;

static void put(strbuf *b, const char *fmt, ...) SOCMON_PRINTF(2, 3);

static void put(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    size_t room = b->used < b->len ? b->len - b->used : 0;
    int n = vsnprintf(room ? b->p + b->used : NULL, room, fmt, ap);
    va_end(ap);
    if (n > 0)
        b->used += (size_t)n;
}

static int has_range(const socmon_option *o)
{
    return o->lo != 0 || o->hi != 0;
}

/* "1 or 64", "one of LoFi, HiFi2, HiFi3" */
static void choice_list(const socmon_option *o, strbuf *b)
{
    size_t n = 0;
    while (o->choices && o->choices[n])
        n++;
    if (n == 2) {
        put(b, "%s or %s", o->choices[0], o->choices[1]);
        return;
    }
    put(b, "one of");
    for (size_t i = 0; i < n; i++)
        put(b, "%s %s", i ? "," : "", o->choices[i]);
}

static socmon_status parse_uint(const char *who, const socmon_option *o, const char *v, uint64_t *out)
{
    char *end = NULL;
    errno = 0;
    unsigned long long u = strtoull(v, &end, 0);
    int neg = v[strspn(v, " \t")] == '-';
    if (!*v || *end || errno || neg) {
        /* Also a whole number written as a float ("1e3"), as the targets
         * accepted before they shared this parser. */
        errno = 0;
        double d = strtod(v, &end);
        if (!*v || *end || errno || !isfinite(d) || d != floor(d))
            return socmon_fail(SOCMON_EINVAL, "%s: %s=%s is not a whole number", who, o->name, v);
        if (d < 0 || d >= 18446744073709551616.0)
            return socmon_fail(SOCMON_ERANGE, "%s: %s=%s out of range %.17g..%.17g", who, o->name, v,
                               has_range(o) ? o->lo : 0.0, has_range(o) ? o->hi : 18446744073709551615.0);
        u = (unsigned long long)d;
    }
    if (has_range(o) && ((double)u < o->lo || (double)u > o->hi))
        return socmon_fail(SOCMON_ERANGE, "%s: %s=%s out of range %.17g..%.17g", who, o->name, v, o->lo,
                           o->hi);
    *out = u;
    return SOCMON_OK;
}

static socmon_status parse_double(const char *who, const socmon_option *o, const char *v, double *out)
{
    char *end = NULL;
    errno = 0;
    double d = strtod(v, &end);
    if (!*v || *end || errno || !isfinite(d))
        return socmon_fail(SOCMON_EINVAL, "%s: %s=%s is not a number", who, o->name, v);
    if (has_range(o) && (d < o->lo || d > o->hi))
        return socmon_fail(SOCMON_ERANGE, "%s: %s=%s out of range %g..%g", who, o->name, v, o->lo, o->hi);
    *out = d;
    return SOCMON_OK;
}

static socmon_status parse_choice(const char *who, const socmon_option *o, const char *v, unsigned *out)
{
    for (unsigned i = 0; o->choices && o->choices[i]; i++)
        if (strcmp(o->choices[i], v) == 0) {
            *out = i;
            return SOCMON_OK;
        }
    char list[256];
    strbuf b = {list, sizeof list, 0};
    choice_list(o, &b);
    return socmon_fail(SOCMON_EINVAL, "%s: %s=%s must be %s", who, o->name, v, list);
}

static socmon_status check_list(const char *who, const socmon_option *o, const char *v)
{
    size_t items = 0;
    for (const char *p = v; *p;) {
        size_t len = strcspn(p, "+");
        items += len > 0;
        p += len + (p[len] == '+');
    }
    if (!items)
        return socmon_fail(SOCMON_EINVAL, "%s: %s=%s is empty (items joined by '+')", who, o->name, v);
    if (o->hi > 0 && (double)items > o->hi)
        return socmon_fail(SOCMON_ERANGE, "%s: %s=%s: more than %g items", who, o->name, v, o->hi);
    return SOCMON_OK;
}

static socmon_status set_one(const char *who, const socmon_option *o, const char *v, void *out)
{
    void *field = (char *)out + o->offset;
    if (o->parse) {
        socmon_status st = o->parse(o, v, out);
        return st == SOCMON_OK ? st : socmon_fail_prefix(st, "%s: ", who);
    }
    switch (o->type) {
    case SOCMON_OPT_BOOL:
        if (strcmp(v, "0") != 0 && strcmp(v, "1") != 0)
            return socmon_fail(SOCMON_EINVAL, "%s: %s=%s must be 0 or 1", who, o->name, v);
        *(int *)field = v[0] == '1';
        return SOCMON_OK;
    case SOCMON_OPT_UINT:
        return parse_uint(who, o, v, field);
    case SOCMON_OPT_DOUBLE:
        return parse_double(who, o, v, field);
    case SOCMON_OPT_CHOICE:
        return parse_choice(who, o, v, field);
    case SOCMON_OPT_PATH:
        if (!*v)
            return socmon_fail(SOCMON_EINVAL, "%s: %s= needs a file name", who, o->name);
        break;
    case SOCMON_OPT_LIST: {
        socmon_status st = check_list(who, o, v);
        if (st != SOCMON_OK)
            return st;
        break;
    }
    case SOCMON_OPT_STRING:
        break;
    default:
        return socmon_fail(SOCMON_EINVAL, "%s: option '%s' has an unknown type %d", who, o->name, (int)o->type);
    }
    *(const char **)field = v;
    return SOCMON_OK;
}

socmon_status socmon_options_check_key(const char *who, const socmon_option *table, const char *key)
{
    char valid[256];
    strbuf b = {valid, sizeof valid, 0};
    valid[0] = '\0';
    for (const socmon_option *o = table; o && o->name; o++) {
        if (key && strcmp(o->name, key) == 0)
            return SOCMON_OK;
        put(&b, "%s%s", o == table ? "" : ", ", o->name);
    }
    return socmon_fail(SOCMON_EINVAL, "target '%s': unknown option '%s' (valid: %s)", who ? who : "?",
                       key ? key : "(null)", *valid ? valid : "none");
}

socmon_status socmon_options_parse(const char *who, const socmon_option *table, const socmon_kv *kv,
                                   size_t nkv, void *out, uint64_t *given)
{
    if (!who)
        who = "?";
    if ((!kv && nkv) || (!out && table && table->name))
        return socmon_fail(SOCMON_EINVAL, "socmon_options_parse: NULL argument");
    uint64_t mask = 0;
    size_t n = 0;
    for (const socmon_option *o = table; o && o->name; o++, n++) {
        if (n == 64)
            return socmon_fail(SOCMON_ERANGE, "%s: option table holds more than 64 options", who);
        socmon_status st = o->def ? set_one(who, o, o->def, out) : SOCMON_OK;
        if (st != SOCMON_OK)   /* a bad default is the target's bug: name it */
            return socmon_fail_prefix(st, "%s: default of '%s': ", who, o->name);
    }
    for (size_t i = 0; i < nkv; i++) {
        if (!kv[i].key || !kv[i].value)
            return socmon_fail(SOCMON_EINVAL, "%s: option %zu has no key or value", who, i);
        socmon_status st = socmon_options_check_key(who, table, kv[i].key);
        if (st != SOCMON_OK)
            return st;
        size_t k = 0;
        while (strcmp(table[k].name, kv[i].key) != 0)
            k++;
        if ((st = set_one(who, &table[k], kv[i].value, out)) != SOCMON_OK)
            return st;
        mask |= 1ull << k;
    }
    if (given)
        *given = mask;
    return SOCMON_OK;
}

static const char *placeholder(const socmon_option *o)
{
    if (o->arg)
        return o->arg;
    switch (o->type) {
    case SOCMON_OPT_BOOL: return "0|1";
    case SOCMON_OPT_UINT:
    case SOCMON_OPT_DOUBLE: return "N";
    case SOCMON_OPT_PATH: return "FILE";
    case SOCMON_OPT_CHOICE: return "NAME";
    case SOCMON_OPT_LIST: return "A+B";
    default: return "TEXT";
    }
}

/* What the help adds after the text: valid values and the default. */
static void help_suffix(const socmon_option *o, strbuf *b)
{
    int range = (o->type == SOCMON_OPT_UINT || o->type == SOCMON_OPT_DOUBLE) && has_range(o);
    int choices = o->type == SOCMON_OPT_CHOICE && o->choices;
    if (!range && !choices && !o->def)
        return;
    put(b, " (");
    if (range)
        put(b, o->type == SOCMON_OPT_UINT ? "%.17g..%.17g" : "%g..%g", o->lo, o->hi);
    if (choices)
        choice_list(o, b);
    if (o->def)
        put(b, "%sdefault %s", range || choices ? "; " : "", o->def);
    put(b, ")");
}

size_t socmon_options_help(const socmon_option *table, const char *indent, char *buf, size_t len)
{
    strbuf b = {buf, buf ? len : 0, 0};
    if (buf && len)
        buf[0] = '\0';
    int width = 0;
    for (const socmon_option *o = table; o && o->name; o++) {
        int w = (int)(strlen(o->name) + 1 + strlen(placeholder(o)));
        width = w > width ? w : width;
    }
    for (const socmon_option *o = table; o && o->name; o++) {
        int w = (int)(strlen(o->name) + 1 + strlen(placeholder(o)));
        put(&b, "%s%s=%s%*s  %s", indent ? indent : "", o->name, placeholder(o), width - w, "",
            o->help ? o->help : "");
        help_suffix(o, &b);
        put(&b, "\n");
    }
    return b.used;
}
