/* Metric files: JSON -> socmon_metricset, with every expression parsed.
 *
 * All checks that do not depend on a schema happen here, so a broken file is
 * reported once, at load, with the file, the metric and the position. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "core/error.h"
#include "core/grow.h"
#include "metrics/metrics_internal.h"

#define MAX_FILE_BYTES (16u << 20)

static void metric_free(metric *m)
{
    free(m->name);
    free(m->unit);
    free(m->desc);
    free(m->expr);
    if (m->labels)
        for (size_t i = 0; i < m->def.nlabels; i++)
            free(m->labels[i]);
    free(m->labels);
    smn_expr_tree_free(&m->tree);
}

void socmon_metricset_free(socmon_metricset *ms)
{
    if (!ms)
        return;
    for (size_t i = 0; i < ms->n; i++)
        metric_free(&ms->m[i]);
    free(ms->m);
    smn_strmap_free(&ms->names);
    free(ms);
}

size_t socmon_metricset_count(const socmon_metricset *ms)
{
    return ms ? ms->n : 0;
}

const socmon_metric_def *socmon_metricset_def(const socmon_metricset *ms, size_t i)
{
    return ms && i < ms->n ? &ms->m[i].def : NULL;
}

socmon_status smn_metricset_add(socmon_metricset *ms, metric *m)
{
    /* Room first, then the name: a failure of either leaves the set as it was.
     * The map keeps m->name, a string that stays put when ms->m moves. */
    size_t first = 0;
    int added = SOCMON_GROW(ms->m, ms->cap, ms->n, 8) ? -1
                                                       : smn_strmap_insert(&ms->names, m->name, ms->n, &first);
    if (added <= 0) {
        socmon_status st = added == 0 ? socmon_fail(SOCMON_EPARSE, "metric '%s': duplicate name, first "
                                                    "defined at metrics[%zu]", m->name, first)
                                      : socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
        metric_free(m);
        return st;
    }
    /* def points into the copy that lives in the array, not into *m. */
    metric *d = &ms->m[ms->n++];
    *d = *m;
    d->def.name = d->name;
    d->def.unit = d->unit ? d->unit : "";
    d->def.desc = d->desc ? d->desc : "";
    d->def.expr = d->expr;
    d->def.labels = (const char *const *)d->labels;
    return SOCMON_OK;
}

static int is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' ||
              (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

/* "file: metric 'ipc' (metrics[2]): " or "file: metrics[2]: " before a name is known. */
static socmon_status mfail(const char *src, size_t i, const char *name, const char *fmt, ...)
    SOCMON_PRINTF(4, 5);
static socmon_status mfail(const char *src, size_t i, const char *name, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (name)
        return socmon_fail(SOCMON_EPARSE, "%s: metric '%s' (metrics[%zu]): %s", src, name, i,
                           what);
    return socmon_fail(SOCMON_EPARSE, "%s: metrics[%zu]: %s", src, i, what);
}

static socmon_status opt_string(const char *src, size_t i, const char *name, json_t *obj,
                                const char *key, char **out)
{
    json_t *v = json_object_get(obj, key);
    if (!v)
        return SOCMON_OK;
    if (!json_is_string(v))
        return mfail(src, i, name, "\"%s\" must be a string", key);
    if (!(*out = strdup(json_string_value(v))))
        return socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
    return SOCMON_OK;
}

static socmon_status load_metric(socmon_metricset *ms, const char *src, size_t i, json_t *o)
{
    static const char *const keys[] = {"name", "expr", "unit", "desc", "per", "labels", "precision", "absent",
                                        "undefined_below", "range"};
    if (!json_is_object(o))
        return mfail(src, i, NULL, "%s", "expected an object {\"name\": ..., \"expr\": ...}");
    json_t *jn = json_object_get(o, "name");
    if (!jn)
        return mfail(src, i, NULL, "%s", "missing \"name\"");
    if (!json_is_string(jn))
        return mfail(src, i, NULL, "%s", "\"name\" must be a string");
    const char *name = json_string_value(jn);
    if (!is_identifier(name))
        return mfail(src, i, NULL, "name '%s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*)",
                     name);
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        size_t k = 0;
        while (k < sizeof keys / sizeof keys[0] && strcmp(keys[k], key) != 0)
            k++;
        if (k == sizeof keys / sizeof keys[0])
            return mfail(src, i, name,
                         "unknown key '%s' (known: name, expr, unit, desc, per, labels, precision, absent, "
                         "undefined_below, range)", key);
    }
    size_t first;
    if (smn_strmap_find(&ms->names, name, &first))
        return mfail(src, i, name, "duplicate name, first defined at metrics[%zu]", first);
    json_t *je = json_object_get(o, "expr");
    if (!je)
        return mfail(src, i, name, "%s", "missing \"expr\"");
    if (!json_is_string(je))
        return mfail(src, i, name, "%s", "\"expr\" must be a string");

    metric m;
    memset(&m, 0, sizeof m);
    socmon_status st = SOCMON_ENOMEM;
    if (!(m.name = strdup(name)) || !(m.expr = strdup(json_string_value(je)))) {
        st = socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
        goto fail;
    }
    if ((st = opt_string(src, i, name, o, "unit", &m.unit)) ||
        (st = opt_string(src, i, name, o, "desc", &m.desc)))
        goto fail;
    json_t *jp = json_object_get(o, "per");
    if (jp) {
        const char *per = json_is_string(jp) ? json_string_value(jp) : NULL;
        if (per && strcmp(per, "instance") == 0)
            m.def.per_instance = 1;
        else if (!per || strcmp(per, "device") != 0) {
            st = mfail(src, i, name, "%s", "\"per\" must be \"instance\" or \"device\"");
            goto fail;
        }
    }
    /* "absent" on a metric overrides the file's (a merged file keeps each source's rule) */
    m.absent = -1;
    json_t *ja = json_object_get(o, "absent");
    if (ja) {
        const char *v = json_is_string(ja) ? json_string_value(ja) : NULL;
        if (v && strcmp(v, "undefined") == 0)
            m.absent = 1;
        else if (v && strcmp(v, "skip") == 0)
            m.absent = 0;
        else {
            st = mfail(src, i, name, "%s", "\"absent\" must be \"skip\" or \"undefined\"");
            goto fail;
        }
    }
    /* How many decimals tables and live lines show; the unit decides when absent. */
    m.def.precision = -1;
    json_t *jd = json_object_get(o, "precision");
    if (jd) {
        if (!json_is_integer(jd) || json_integer_value(jd) < 0 || json_integer_value(jd) > 9) {
            st = mfail(src, i, name, "%s", "\"precision\" must be an integer 0..9 (decimals shown)");
            goto fail;
        }
        m.def.precision = (int)json_integer_value(jd);
    }
    json_t *jl = json_object_get(o, "labels");
    if (jl) {
        if (!json_is_array(jl)) {
            st = mfail(src, i, name, "%s", "\"labels\" must be an array of strings");
            goto fail;
        }
        size_t nl = json_array_size(jl);
        if (nl && !(m.labels = calloc(nl, sizeof *m.labels))) {
            st = socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
            goto fail;
        }
        for (size_t k = 0; k < nl; k++) {
            json_t *s = json_array_get(jl, k);
            if (!json_is_string(s)) {
                st = mfail(src, i, name, "%s", "\"labels\" must be an array of strings");
                goto fail;
            }
            if (!(m.labels[k] = strdup(json_string_value(s)))) {
                st = socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
                goto fail;
            }
            m.def.nlabels = k + 1;
        }
    }
    /* The guard is parsed with the expression; def.expr stays what the file says. */
    char *guarded = NULL;
    json_t *jg = json_object_get(o, "undefined_below");
    if (jg) {
        char where[300];
        snprintf(where, sizeof where, "%s: metric '%s' (metrics[%zu]): ", src, name, i);
        if ((st = smn_metric_guard_expr(where, jg, m.expr, &guarded)))
            goto fail;
    }
    json_t *jr = json_object_get(o, "range");
    if (jr) {
        char where[300], *ranged = NULL;
        snprintf(where, sizeof where, "%s: metric '%s' (metrics[%zu]): ", src, name, i);
        st = smn_metric_range_expr(where, jr, guarded ? guarded : m.expr, &ranged);
        free(guarded);
        guarded = ranged;
        if (st)
            goto fail;
    }
    st = smn_expr_parse(guarded ? guarded : m.expr, &m.tree);
    free(guarded);
    if (st) {
        if (st == SOCMON_EPARSE)
            socmon_fail_prefix(st, "%s: metric '%s' (metrics[%zu]): expr%s ", src, name, i,
                               jg && jr ? " with undefined_below and range" : jg ? " with undefined_below"
                               : jr ? " with range" : "");
        goto fail;
    }
    return smn_metricset_add(ms, &m);
fail:
    metric_free(&m);
    return st;
}

/* The line of the file where metric `name` is defined ("name": "NAME"), or 0. JSON values
 * carry no positions in jansson, so the text is searched; the last definition is the one a
 * duplicate-name error is about, and other errors' names are unique. */
static int name_line(const char *text, const char *name)
{
    size_t len = strlen(name);
    const char *hit = NULL;
    /* One pass by hand: strstr from each hit on costs the rest of the text per call under
     * ASan (its interceptor measures the haystack): minutes for a file of 100,000 metrics. */
    for (const char *p = text; *p; p++) {
        if (*p != '"' || strncmp(p, "\"name\"", 6) != 0)
            continue;
        const char *q = p + 6;
        q += strspn(q, " \t\r\n");
        if (*q != ':')
            continue;
        q += 1 + strspn(q + 1, " \t\r\n");
        if (*q == '"' && strncmp(q + 1, name, len) == 0 && q[1 + len] == '"')
            hit = p;
    }
    int line = hit ? 1 : 0;
    for (const char *p = text; hit && p < hit; p++)
        line += *p == '\n';
    return line;
}

static socmon_status load_root(socmon_metricset *ms, const char *src, const char *text, json_t *root)
{
    if (!json_is_object(root))
        return socmon_fail(SOCMON_EPARSE, "%s: expected a JSON object {\"metrics\": [...]}", src);
    const char *key;
    json_t *val;
    json_object_foreach(root, key, val) {
        if (strcmp(key, "metrics") != 0 && strcmp(key, "description") != 0 &&
            strcmp(key, "absent") != 0)
            return socmon_fail(SOCMON_EPARSE,
                               "%s: unknown top-level key '%s' (known: description, absent, metrics)",
                               src, key);
    }
    json_t *d = json_object_get(root, "description");
    if (d && !json_is_string(d))
        return socmon_fail(SOCMON_EPARSE, "%s: \"description\" must be a string", src);
    /* What a name the schema lacks does to its metric: per file, so files that
     * want a full set of keys (tt-llk's metrics dicts) get it and others keep
     * skipping. */
    json_t *ab = json_object_get(root, "absent");
    if (ab) {
        const char *v = json_is_string(ab) ? json_string_value(ab) : NULL;
        if (v && strcmp(v, "undefined") == 0)
            ms->absent_undefined = 1;
        else if (!v || strcmp(v, "skip") != 0)
            return socmon_fail(SOCMON_EPARSE,
                               "%s: \"absent\" must be \"skip\" (the default) or \"undefined\"", src);
    }
    json_t *arr = json_object_get(root, "metrics");
    if (!arr)
        return socmon_fail(SOCMON_EPARSE, "%s: missing \"metrics\" array", src);
    if (!json_is_array(arr))
        return socmon_fail(SOCMON_EPARSE, "%s: \"metrics\" must be an array", src);
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *o = json_array_get(arr, i);
        socmon_status st = load_metric(ms, src, i, o);
        if (st == SOCMON_EPARSE) {
            /* Say where in the file, after what went wrong: "... (m.json line 12)". */
            json_t *jn = json_is_object(o) ? json_object_get(o, "name") : NULL;
            int line = json_is_string(jn) ? name_line(text, json_string_value(jn)) : 0;
            if (line) {
                char msg[512];
                snprintf(msg, sizeof msg, "%s", socmon_errmsg());
                return socmon_fail(st, "%s (%s line %d)", msg, src, line);
            }
        }
        if (st)
            return st;
    }
    return SOCMON_OK;
}

socmon_status socmon_metricset_load_string(const char *text, const char *srcname,
                                           socmon_metricset **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_metricset_load_string: out is NULL");
    *out = NULL;
    if (!text)
        return socmon_fail(SOCMON_EINVAL, "socmon_metricset_load_string: text is NULL");
    const char *src = srcname && *srcname ? srcname : "<string>";
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    if (!root)
        return socmon_fail(SOCMON_EPARSE, "%s:%d:%d: invalid JSON: %s", src, jerr.line,
                           jerr.column, jerr.text);
    socmon_metricset *ms = calloc(1, sizeof *ms);
    socmon_status st = ms ? load_root(ms, src, text, root)
                          : socmon_fail(SOCMON_ENOMEM, "out of memory loading metrics");
    json_decref(root);
    if (st) {
        socmon_metricset_free(ms);
        return st;
    }
    *out = ms;
    return SOCMON_OK;
}

socmon_status socmon_metricset_load_file(const char *path, socmon_metricset **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_metricset_load_file: out is NULL");
    *out = NULL;
    if (!path)
        return socmon_fail(SOCMON_EINVAL, "socmon_metricset_load_file: path is NULL");
    FILE *f = fopen(path, "rb");
    if (!f)
        return socmon_fail(errno == ENOENT ? SOCMON_ENOENT : SOCMON_EIO,
                           "cannot open metric file '%s': %s", path, strerror(errno));
    char *buf = malloc(MAX_FILE_BYTES + 1);
    if (!buf) {
        fclose(f);
        return socmon_fail(SOCMON_ENOMEM, "out of memory reading '%s'", path);
    }
    size_t n = fread(buf, 1, MAX_FILE_BYTES + 1, f);
    int err = ferror(f);
    fclose(f);
    socmon_status st;
    if (err)
        st = socmon_fail(SOCMON_EIO, "cannot read metric file '%s'", path);
    else if (n > MAX_FILE_BYTES)
        st = socmon_fail(SOCMON_ERANGE, "metric file '%s' is larger than %u bytes", path,
                         MAX_FILE_BYTES);
    else if (memchr(buf, '\0', n))
        st = socmon_fail(SOCMON_EPARSE, "%s: contains a NUL byte", path);
    else {
        buf[n] = '\0';
        st = socmon_metricset_load_string(buf, path, out);
    }
    free(buf);
    return st;
}
