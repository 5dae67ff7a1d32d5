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
#include "targets/target_internal.h"

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

/* a * m + d, or -1 past UINT64_MAX */
static int mul_add(uint64_t *a, unsigned m, unsigned d)
{
    if (*a > (UINT64_MAX - d) / m)
        return -1;
    *a = *a * m + d;
    return 0;
}

static int digit(char c, int hex)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (hex && c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (hex && c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

int smn_option_read_u64(const char *v, uint64_t *out)
{
    uint64_t u = 0;
    int over = 0;
    if (v[0] == '0' && (v[1] == 'x' || v[1] == 'X')) {
        const char *p = v + 2;
        if (!*p)
            return -1;
        for (; *p; p++) {
            int d = digit(*p, 1);
            if (d < 0)
                return -1;
            over |= mul_add(&u, 16, (unsigned)d);
        }
        *out = u;
        return over ? -2 : 0;
    }
    /* DIGITS[.DIGITS][(e|E)[+|-]DIGITS], digit by digit, never through a double: a double
     * holds whole numbers exactly only up to 2^53, and seed= goes that far. Digit k of the
     * n read (nint before the point) stands for 10^(nint - 1 - k + e). */
    const char *p = v;
    size_t n = 0, nint = 0;
    int point = 0;
    for (; *p == '.' ? !point : digit(*p, 0) >= 0; p++) {
        if (*p == '.')
            point = 1, nint = n;
        else
            n++;
    }
    if (!point)
        nint = n;
    if (!n)
        return -1;
    const char *end = p;
    long long e = 0;
    if (*p == 'e' || *p == 'E') {
        int neg = p[1] == '-';
        p += 1 + (p[1] == '-' || p[1] == '+');
        const char *q = p;
        for (; *p >= '0' && *p <= '9'; p++)
            if (e < 1000000)   /* far past any whole uint64_t either way */
                e = e * 10 + (*p - '0');
        if (p == q)
            return -1;
        e = neg ? -e : e;
    }
    if (*p)
        return -1;
    /* first and last nonzero digits: the number is whole when the last stands for 10^0
     * or more, and too large when the first stands for 10^20 or more */
    long long first = -1, last = -1, k = 0;
    for (const char *c = v; c < end; c++) {
        if (*c == '.')
            continue;
        if (*c != '0') {
            if (first < 0)
                first = k;
            last = k;
        }
        k++;
    }
    if (first < 0) {
        *out = 0;
        return 0;
    }
    long long top = (long long)nint - 1 - first + e, low = (long long)nint - 1 - last + e;
    if (low < 0)
        return -1;
    if (top > 19)
        return -2;
    k = 0;
    for (const char *c = v; c < end; c++) {
        if (*c == '.')
            continue;
        if (k >= first && k <= last)
            over |= mul_add(&u, 10, (unsigned)(*c - '0'));
        k++;
    }
    for (; low > 0; low--)
        over |= mul_add(&u, 10, 0);
    *out = u;
    return over ? -2 : 0;
}

/* The range's whole numbers: lo rounded up, hi down (lo == hi == 0: all of uint64_t). */
static void uint_range(const socmon_option *o, uint64_t *lo, uint64_t *hi)
{
    *lo = 0;
    *hi = UINT64_MAX;
    if (!has_range(o))
        return;
    if (o->lo > 0)
        *lo = o->lo >= 18446744073709551616.0 ? UINT64_MAX : (uint64_t)ceil(o->lo);
    if (o->hi < 18446744073709551616.0)
        *hi = o->hi < 0 ? 0 : (uint64_t)floor(o->hi);
}

static socmon_status parse_uint(const char *who, const socmon_option *o, const char *v, uint64_t *out)
{
    uint64_t u = 0, lo, hi;
    uint_range(o, &lo, &hi);
    int r = smn_option_read_u64(v, &u);
    if (r == -1 && v[0] == '-' && smn_option_read_u64(v + 1, &u) != -1)
        r = -2;   /* a negative number: out of range rather than not a number */
    if (r == -1)
        return socmon_fail(SOCMON_EINVAL, "%s: %s=%s is not a whole number", who,
                           o->name, v);
    if (r == -2 || u < lo || u > hi)
        return socmon_fail(SOCMON_ERANGE, "%s: %s=%s out of range %llu..%llu", who, o->name, v,
                           (unsigned long long)lo, (unsigned long long)hi);
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
        if (mask & (1ull << k)) {   /* which one was meant is not ours to guess */
            size_t j = 0;
            while (strcmp(kv[j].key, kv[i].key) != 0)
                j++;
            return socmon_fail(SOCMON_EINVAL, "%s: option '%s' given twice (%s=%s, then %s=%s)", who,
                               kv[i].key, kv[j].key, kv[j].value, kv[i].key, kv[i].value);
        }
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
    if (range && o->type == SOCMON_OPT_UINT) {
        uint64_t lo, hi;
        uint_range(o, &lo, &hi);
        put(b, "%llu..%llu", (unsigned long long)lo, (unsigned long long)hi);
    } else if (range) {
        put(b, "%g..%g", o->lo, o->hi);
    }
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
