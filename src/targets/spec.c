/* Target specs: the one parser of "NAME[:key=value,...]" and of a combined run's
 * "SPEC;SPEC" (socmon/target.h, "Target specs"). Every other file asks here for a spec's
 * name, options, target or members instead of cutting the text at ':', ',', '=' or ';'.
 * A parsed spec keeps its options as typed key/value pairs, so a value set later (a file
 * name holding ',' or '=') is never pasted into a string to be split again, and the
 * command or program a target runs is an argv of its own. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "targets/target_internal.h"

#define SPEC_MAX_OPTS 64

struct socmon_spec {
    char *name;
    socmon_kv kv[SPEC_MAX_OPTS];   /* keys and values each malloc'd */
    unsigned char extra[SPEC_MAX_OPTS];   /* 1: set for this opening only (socmon_spec_set_extra) */
    size_t nkv;
    char **argv;                   /* NULL, or NULL-terminated copies */
};

void socmon_spec_free(socmon_spec *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nkv; i++) {
        free((char *)s->kv[i].key);
        free((char *)s->kv[i].value);
    }
    for (size_t i = 0; s->argv && s->argv[i]; i++)
        free(s->argv[i]);
    free(s->argv);
    free(s->name);
    free(s);
}

static socmon_status add(socmon_spec *s, const char *key, size_t klen, const char *value, size_t vlen)
{
    if (s->nkv == SPEC_MAX_OPTS)
        return socmon_fail(SOCMON_ERANGE, "target '%s': more than %d options", s->name, SPEC_MAX_OPTS);
    char *k = strndup(key, klen), *v = strndup(value, vlen);
    if (!k || !v) {
        free(k);
        free(v);
        return socmon_fail(SOCMON_ENOMEM, "target spec: out of memory");
    }
    s->kv[s->nkv++] = (socmon_kv){.key = k, .value = v};
    return SOCMON_OK;
}

socmon_status socmon_spec_parse(const char *text, socmon_spec **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_spec_parse: out is NULL");
    *out = NULL;
    if (!text || !*text)
        return socmon_fail(SOCMON_EINVAL, "empty target spec (expected NAME or NAME:key=value,...)");
    if (strchr(text, ';'))
        return socmon_fail(SOCMON_EINVAL, "target spec '%s' names several targets (';'): open each member", text);
    socmon_spec *s = calloc(1, sizeof *s);
    size_t nl = strcspn(text, ":");
    if (!s || !(s->name = strndup(text, nl))) {
        free(s);
        return socmon_fail(SOCMON_ENOMEM, "target spec: out of memory");
    }
    socmon_status st = nl ? SOCMON_OK
                          : socmon_fail(SOCMON_EINVAL, "target spec '%s' has no target name before ':'", text);
    for (const char *p = text[nl] ? text + nl + 1 : NULL; st == SOCMON_OK && p && *p;) {
        size_t n = strcspn(p, ",");
        const char *eq = memchr(p, '=', n);
        if (!eq || eq == p)
            st = socmon_fail(SOCMON_EINVAL, "target '%s': option '%.*s' is not key=value", s->name, (int)n, p);
        else
            st = add(s, p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1);
        p = p[n] ? p + n + 1 : NULL;
    }
    if (st != SOCMON_OK) {
        socmon_spec_free(s);
        return st;
    }
    *out = s;
    return SOCMON_OK;
}

socmon_status socmon_spec_new(const char *name, socmon_spec **out)
{
    if (!out || !name || !*name || strpbrk(name, ":;,="))
        return socmon_fail(SOCMON_EINVAL, "socmon_spec_new: '%s' is not a target name", name ? name : "(null)");
    return socmon_spec_parse(name, out);
}

const char *socmon_spec_name(const socmon_spec *s)
{
    return s ? s->name : "";
}

const socmon_target_ops *socmon_spec_target(const socmon_spec *s)
{
    return s ? socmon_target_lookup(s->name) : NULL;
}

size_t socmon_spec_options(const socmon_spec *s, const socmon_kv **kv)
{
    if (kv)
        *kv = s ? s->kv : NULL;
    return s ? s->nkv : 0;
}

const char *socmon_spec_get(const socmon_spec *s, const char *key)
{
    for (size_t i = 0; s && key && i < s->nkv; i++)
        if (strcmp(s->kv[i].key, key) == 0)
            return s->kv[i].value;
    return NULL;
}

static socmon_status set(socmon_spec *s, const char *key, const char *value, int extra)
{
    if (!s || !key || !*key || !value)
        return socmon_fail(SOCMON_EINVAL, "socmon_spec_set: NULL or empty argument");
    for (size_t i = 0; i < s->nkv; i++)
        if (strcmp(s->kv[i].key, key) == 0) {
            char *v = strdup(value);
            if (!v)
                return socmon_fail(SOCMON_ENOMEM, "target spec: out of memory");
            free((char *)s->kv[i].value);
            s->kv[i].value = v;
            s->extra[i] = (unsigned char)extra;
            return SOCMON_OK;
        }
    socmon_status st = add(s, key, strlen(key), value, strlen(value));
    if (st == SOCMON_OK)
        s->extra[s->nkv - 1] = (unsigned char)extra;
    return st;
}

socmon_status socmon_spec_set(socmon_spec *s, const char *key, const char *value)
{
    return set(s, key, value, 0);
}

socmon_status socmon_spec_set_extra(socmon_spec *s, const char *key, const char *value)
{
    return set(s, key, value, 1);
}

socmon_status socmon_spec_set_argv(socmon_spec *s, char *const argv[])
{
    if (!s)
        return socmon_fail(SOCMON_EINVAL, "socmon_spec_set_argv: spec is NULL");
    size_t n = 0;
    while (argv && argv[n])
        n++;
    char **a = n ? calloc(n + 1, sizeof *a) : NULL;
    if (n && !a)
        return socmon_fail(SOCMON_ENOMEM, "target spec: out of memory");
    for (size_t i = 0; i < n; i++)
        if (!(a[i] = strdup(argv[i]))) {
            while (i)
                free(a[--i]);
            free(a);
            return socmon_fail(SOCMON_ENOMEM, "target spec: out of memory");
        }
    for (size_t i = 0; s->argv && s->argv[i]; i++)
        free(s->argv[i]);
    free(s->argv);
    s->argv = a;
    return SOCMON_OK;
}

char *const *socmon_spec_argv(const socmon_spec *s)
{
    return s ? s->argv : NULL;
}

char *socmon_spec_text(const socmon_spec *s)
{
    if (!s)
        return NULL;
    size_t len = strlen(s->name) + 1;
    for (size_t i = 0; i < s->nkv; i++)
        len += strlen(s->kv[i].key) + strlen(s->kv[i].value) + 2;
    char *t = malloc(len);
    if (!t)
        return NULL;
    size_t n = (size_t)snprintf(t, len, "%s", s->name);
    for (size_t i = 0, first = 1; i < s->nkv; i++)
        if (!s->extra[i]) {
            n += (size_t)snprintf(t + n, len - n, "%c%s=%s", first ? ':' : ',', s->kv[i].key, s->kv[i].value);
            first = 0;
        }
    return t;
}

/* ---- a spec's text, as recordings, sweeps and agents carry it ---- */

const char *socmon_spec_name_of(const char *text, char *buf, size_t len)
{
    if (!buf || !len)
        return "";
    text = text ? text : "";
    size_t n = strcspn(text, ":;");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), text);
    return buf;
}

const socmon_target_ops *socmon_spec_ops_of(const char *text)
{
    char name[64];
    if (!text || strchr(text, ';'))
        return NULL;
    return socmon_target_lookup(socmon_spec_name_of(text, name, sizeof name));
}

size_t socmon_spec_members(const char *text)
{
    size_t n = text && *text ? 1 : 0;
    for (const char *p = text ? strchr(text, ';') : NULL; p; p = strchr(p + 1, ';'))
        n++;
    return n;
}

const char *socmon_spec_member(const char *text, size_t i, char *buf, size_t len)
{
    if (!buf || !len)
        return NULL;
    const char *p = text ? text : "";
    for (; i && p; i--) {
        p = strchr(p, ';');
        p = p ? p + 1 : NULL;
    }
    if (!p || (!*p && !text))
        return NULL;
    size_t n = strcspn(p, ";");
    snprintf(buf, len, "%.*s", (int)(n < len ? n : len - 1), p);
    return buf;
}
