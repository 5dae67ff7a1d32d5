/* Rules of `socmon check` (socmon/check.h): one `PATTERN LIMIT` a line, `#` comments. A
 * syntax error names the file, the line and the word at fault. */
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "core/grow.h"
#include "core/text.h"
#include "socmon/check.h"

#define RULES_MAX_BYTES (1u << 20)
#define RULES_MAX 10000

struct socmon_rules {
    char *name;
    size_t n, cap;
    socmon_rule *r;
};

const char *socmon_rules_name(const socmon_rules *r)
{
    return r ? r->name : NULL;
}

/* A word of the file for a message: escaped (a rules file may hold any byte). */
static socmon_status syntax(const socmon_rules *rs, unsigned line, const char *fmt, const char *word)
{
    char *w = smn_text_escape_dup(word ? word : "");
    socmon_status st = socmon_fail(SOCMON_EINVAL, "%s:%u: %s%s%s%s", rs->name, line, fmt, w ? " '" : "",
                                   w ? w : "", w ? "'" : "");
    free(w);
    return st;
}

/* "+250", "-2%", "±1%", "+-0.5%" */
static socmon_status parse_limit(const socmon_rules *rs, unsigned line, const char *s, socmon_rule *r)
{
    const char *p = s;
    if (strncmp(p, "\xc2\xb1", 2) == 0 || strncmp(p, "+-", 2) == 0) {
        r->dir = SOCMON_LIMIT_BOTH;
        p += 2;
    } else if (*p == '+' || *p == '-') {
        r->dir = *p == '+' ? SOCMON_LIMIT_RISE : SOCMON_LIMIT_FALL;
        p++;
    } else {
        return syntax(rs, line, "a limit starts with +, - or \xc2\xb1 (+250, -2%, \xc2\xb1" "1%), not", s);
    }
    if (!(*p >= '0' && *p <= '9') && *p != '.')
        return syntax(rs, line, "the limit needs a number after its sign:", s);
    char *end;
    errno = 0;
    double v = strtod(p, &end);
    r->percent = *end == '%';
    if (r->percent)
        end++;
    if (end == p || *end || errno || !isfinite(v) || v < 0)
        return syntax(rs, line, "not a limit (a number, optionally with %):", s);
    r->amount = v;
    return SOCMON_OK;
}

static socmon_status add_rule(socmon_rules *rs, const socmon_rule *r)
{
    if (rs->n == RULES_MAX)
        return socmon_fail(SOCMON_EINVAL, "%s:%u: more than %d rules", rs->name, r->line, RULES_MAX);
    if (SOCMON_GROW(rs->r, rs->cap, rs->n, 16) != 0)
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", rs->name);
    socmon_rule c = *r;
    c.pattern = strdup(r->pattern);
    c.limit = strdup(r->limit);
    if (!c.pattern || !c.limit) {
        free((char *)c.pattern);
        free((char *)c.limit);
        return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", rs->name);
    }
    rs->r[rs->n++] = c;
    return SOCMON_OK;
}

/* One line (NUL-terminated, without its newline). */
static socmon_status parse_line(socmon_rules *rs, unsigned line, char *s)
{
    char *hash = strchr(s, '#');
    if (hash)
        *hash = 0;
    char *words[3] = {0};
    int n = 0;
    for (char *save = NULL, *w = strtok_r(s, " \t\r\v\f", &save); w; w = strtok_r(NULL, " \t\r\v\f", &save)) {
        if (n == 2)
            return syntax(rs, line, "a rule is PATTERN LIMIT; this word is one too many:", w);
        words[n++] = w;
    }
    if (n == 0)
        return SOCMON_OK;
    if (n == 1)
        return syntax(rs, line, "a rule is PATTERN LIMIT (e.g. 'fn.*.cycles +0'); no limit after", words[0]);
    /* a glob fnmatch cannot read matches nothing ever: say so (an unclosed '[') */
    const char *open = strchr(words[0], '[');
    if (open && !strchr(open, ']'))
        return syntax(rs, line, "the pattern has a '[' without its ']':", words[0]);
    socmon_rule r = {.line = line, .pattern = words[0], .limit = words[1]};
    socmon_status st = parse_limit(rs, line, words[1], &r);
    return st == SOCMON_OK ? add_rule(rs, &r) : st;
}

socmon_status socmon_rules_parse(const char *text, size_t len, const char *name, socmon_rules **out)
{
    if (!text || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_rules_parse: NULL argument");
    *out = NULL;
    socmon_rules *rs = calloc(1, sizeof *rs);
    if (rs)
        rs->name = strdup(name ? name : "rules");
    if (!rs || !rs->name) {
        socmon_rules_free(rs);
        return socmon_fail(SOCMON_ENOMEM, "socmon_rules_parse: out of memory");
    }
    socmon_status st = SOCMON_OK;
    unsigned line = 1;
    for (size_t at = 0; at < len && st == SOCMON_OK; line++) {
        const char *nl = memchr(text + at, '\n', len - at);
        size_t n = nl ? (size_t)(nl - (text + at)) : len - at;
        char *buf = malloc(n + 1);
        if (!buf) {
            st = socmon_fail(SOCMON_ENOMEM, "%s: out of memory", rs->name);
            break;
        }
        memcpy(buf, text + at, n);
        buf[n] = 0;
        if (strlen(buf) != n)
            st = socmon_fail(SOCMON_EINVAL, "%s:%u: a NUL byte: not a text file", rs->name, line);
        else
            st = parse_line(rs, line, buf);
        free(buf);
        at += n + 1;
    }
    if (st == SOCMON_OK && rs->n == 0)
        st = socmon_fail(SOCMON_EINVAL, "%s: no rules (a rule is PATTERN LIMIT, e.g. 'fn.*.cycles +0')", rs->name);
    if (st != SOCMON_OK) {
        socmon_rules_free(rs);
        return st;
    }
    *out = rs;
    return SOCMON_OK;
}

socmon_status socmon_rules_load(const char *path, socmon_rules **out)
{
    if (!path || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_rules_load: NULL argument");
    *out = NULL;
    char *buf;
    size_t len;
    socmon_status st = smn_file_read(path, RULES_MAX_BYTES, "rules file", &buf, &len);
    if (st == SOCMON_OK)
        st = socmon_rules_parse(buf, len, path, out);
    free(buf);
    return st;
}

void socmon_rules_free(socmon_rules *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        free((char *)r->r[i].pattern);
        free((char *)r->r[i].limit);
    }
    free(r->r);
    free(r->name);
    free(r);
}

size_t socmon_rules_count(const socmon_rules *r)
{
    return r ? r->n : 0;
}

const socmon_rule *socmon_rules_at(const socmon_rules *r, size_t i)
{
    return r && i < r->n ? &r->r[i] : NULL;
}
