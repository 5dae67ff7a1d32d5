/* Reading a sweep's table back (socmon_sweep_load): its JSON or its CSV, as export/fmt_sweep.c
 * writes them (docs/sweep.md). Resuming a sweep and merging shards start here, so a damaged or
 * foreign file is refused with where it went wrong, never half read. */
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/run_internal.h"
#include "results/sweep_internal.h"
#include "core/file.h"
#include "core/grow.h"
#include "core/strmap.h"
#include "core/text.h"

#define SWEEP_FILE_MAX (1u << 30)

/* A value of kind from key (a metric's key "instance.metric" split at its last dot). */
static socmon_value make_value(socmon_value_kind kind, char *key, char **instance_buf)
{
    socmon_value v = {.kind = kind, .name = key, .key = key, .unit = "", .n = 1};
    char *dot = kind == SOCMON_VALUE_METRIC ? strrchr(key, '.') : NULL;
    if (dot && dot != key && dot[1] && (*instance_buf = strndup(key, (size_t)(dot - key)))) {
        v.instance = *instance_buf;
        v.name = dot + 1;
    }
    return v;
}

/* ---- JSON ---- */

static const char *jstr(const json_t *o, const char *k)
{
    const json_t *s = json_object_get(o, k);
    return json_is_string(s) ? json_string_value(s) : NULL;
}

static socmon_status json_values(const json_t *obj, socmon_value_kind kind, const char *name, size_t idx,
                                 socmon_value *vals, const socmon_value **pv, size_t *n, char **inst)
{
    const char *what = kind == SOCMON_VALUE_COUNTER ? "counters" : "metrics";
    if (!obj || json_is_null(obj))
        return SOCMON_OK;
    if (!json_is_object(obj))
        return socmon_fail(SOCMON_EINVAL, "%s: points[%zu].%s is not an object", name, idx, what);
    const char *k;
    json_t *x;
    json_object_foreach((json_t *)obj, k, x) {
        socmon_value v = make_value(kind, (char *)k, &inst[*n]);
        if (smn_value_from_json(&v, x) != 0)
            return socmon_fail(SOCMON_EINVAL, "%s: points[%zu].%s.%s is not a number", name, idx, what, k);
        vals[*n] = v;
        pv[*n] = &vals[*n];
        (*n)++;
    }
    return SOCMON_OK;
}

static socmon_status json_point(socmon_sweep *s, const json_t *p, const char *name, size_t idx)
{
    const json_t *ix = json_object_get(p, "point"), *opts = json_object_get(p, "options");
    const json_t *cs = json_object_get(p, "counters"), *ms = json_object_get(p, "metrics");
    const char *status = jstr(p, "status");
    if (!json_is_object(p) || !json_is_integer(ix) || json_integer_value(ix) < 0 || !jstr(p, "target") || !status ||
        (strcmp(status, "ok") != 0 && strcmp(status, "failed") != 0))
        return socmon_fail(SOCMON_EINVAL, "%s: points[%zu] lacks \"point\", \"target\" or \"status\" (ok or failed)",
                           name, idx);
    if (opts && !json_is_object(opts))
        return socmon_fail(SOCMON_EINVAL, "%s: points[%zu].options is not an object", name, idx);
    size_t nopt = opts ? json_object_size(opts) : 0;
    size_t nv = (json_is_object(cs) ? json_object_size(cs) : 0) + (json_is_object(ms) ? json_object_size(ms) : 0);
    socmon_kv *kv = calloc(nopt + 1, sizeof *kv);
    socmon_value *vals = calloc(nv + 1, sizeof *vals);
    const socmon_value **pv = calloc(nv + 1, sizeof *pv);
    char **inst = calloc(nv + 1, sizeof *inst);
    socmon_status st = !kv || !vals || !pv || !inst ? socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name) : SOCMON_OK;
    size_t k = 0, n = 0;
    const char *key;
    json_t *x;
    if (st == SOCMON_OK && opts)
        json_object_foreach((json_t *)opts, key, x) {
            if (!json_is_string(x)) {
                st = socmon_fail(SOCMON_EINVAL, "%s: points[%zu].options.%s is not a string", name, idx, key);
                break;
            }
            kv[k++] = (socmon_kv){.key = key, .value = json_string_value(x)};
        }
    if (st == SOCMON_OK)
        st = json_values(cs, SOCMON_VALUE_COUNTER, name, idx, vals, pv, &n, inst);
    if (st == SOCMON_OK)
        st = json_values(ms, SOCMON_VALUE_METRIC, name, idx, vals, pv, &n, inst);
    if (st == SOCMON_OK) {
        socmon_sweep_row row = {.point = {.index = (size_t)json_integer_value(ix), .target = jstr(p, "target"),
                                          .workload = jstr(p, "workload"), .program = jstr(p, "program"),
                                          .noptions = k, .options = kv},
                                .ok = strcmp(status, "ok") == 0, .error = jstr(p, "error"),
                                .recording = jstr(p, "recording")};
        if (!row.ok && !row.error)
            row.error = "failed";
        st = smn_sweep_put_read(s, &row, pv, n);
        if (st != SOCMON_OK)
            socmon_fail_prefix(st, "%s: points[%zu]: ", name, idx);
    }
    for (size_t i = 0; inst && i < nv; i++)
        free(inst[i]);
    free(inst);
    free(pv);
    free(vals);
    free(kv);
    return st;
}

static socmon_status parse_json(const char *text, size_t len, const char *name, socmon_sweep **out)
{
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!doc)
        return socmon_fail(SOCMON_EINVAL, "%s: not valid JSON (line %d: %s)", name, err.line, err.text);
    const json_t *sw = json_object_get(doc, "sweep"), *pts = json_object_get(doc, "points");
    const json_t *total = json_object_get(sw, "points");
    socmon_status st = SOCMON_OK;
    if (!json_is_object(doc) || !json_is_object(sw) || !jstr(sw, "id") || !json_is_integer(total) ||
        json_integer_value(total) < 0 || !json_is_array(pts))
        st = socmon_fail(SOCMON_EINVAL, "%s: not a table of socmon sweep (it has no \"sweep\" {id, points} and "
                         "\"points\" array)", name);
    if (st == SOCMON_OK && (st = socmon_sweep_new(jstr(sw, "id"), (size_t)json_integer_value(total), out)) != SOCMON_OK)
        socmon_fail_prefix(st, "%s: ", name);
    size_t i;
    const json_t *p;
    if (st == SOCMON_OK)
        json_array_foreach(pts, i, p) {
            if ((st = json_point(*out, p, name, i)) != SOCMON_OK)
                break;
        }
    json_decref(doc);
    if (st != SOCMON_OK) {
        socmon_sweep_free(*out);
        *out = NULL;
    }
    return st;
}

/* ---- CSV: RFC 4180 (quotes doubled inside quoted fields), one header row ---- */

typedef struct csv {
    const char *p, *end;
    unsigned line;
} csv;

/* The next field into *field (malloc'd); *eol set at the end of its record. 0, or -1 on a bad
 * quote or out of memory (*field NULL then). */
static int csv_field(csv *c, char **field, int *eol)
{
    size_t cap = 32, n = 0;
    char *f = malloc(cap);
    *field = NULL;
    if (!f)
        return -1;
    int quoted = c->p < c->end && *c->p == '"';
    if (quoted)
        c->p++;
    for (;;) {
        if (c->p >= c->end) {
            if (quoted)
                goto bad;
            *eol = 1;
            break;
        }
        char ch = *c->p++;
        if (quoted && ch == '"') {
            if (c->p < c->end && *c->p == '"') {
                c->p++;
            } else {
                quoted = 0;
                if (c->p < c->end && *c->p != ',' && *c->p != '\n' && *c->p != '\r')
                    goto bad;
                continue;
            }
        } else if (!quoted && ch == ',') {
            *eol = 0;
            break;
        } else if (!quoted && (ch == '\n' || ch == '\r')) {
            if (ch == '\r' && c->p < c->end && *c->p == '\n')
                c->p++;
            c->line++;
            *eol = 1;
            break;
        } else if (ch == '\n') {
            c->line++;
        }
        if (smn_grow(&f, &cap, n + 1, 1, 32) != 0)   /* room for ch and the NUL */
            goto bad;
        f[n++] = ch;
    }
    f[n] = '\0';
    *field = f;
    return 0;
bad:
    free(f);
    *field = NULL;
    return -1;
}

static void free_fields(char **f, size_t n)
{
    for (size_t i = 0; f && i < n; i++)
        free(f[i]);
    free(f);
}

/* One record: its fields (malloc'd array of malloc'd strings) and their count. */
static int csv_record(csv *c, char ***fields, size_t *n)
{
    size_t cap = 0;
    *fields = NULL;
    *n = 0;
    int eol = 0;
    while (!eol) {
        char *f;
        if (csv_field(c, &f, &eol) != 0 || smn_grow(fields, &cap, *n, sizeof **fields, 16) != 0) {
            free(f);
            free_fields(*fields, *n);
            *fields = NULL;
            *n = 0;
            return -1;
        }
        (*fields)[(*n)++] = f;
    }
    return 0;
}

enum { COL_POINT, COL_SWEEP, COL_POINTS, COL_TARGET, COL_WORKLOAD, COL_PROGRAM, COL_STATUS, COL_ERROR,
       COL_RECORDING, NFIXED };
static const char *const fixed_cols[NFIXED] = {"point", "sweep", "points", "target", "workload", "program",
                                               "status", "error", "recording"};

static int parse_size(const char *s, size_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (!*s || *s < '0' || *s > '9' || *end || errno || v > SIZE_MAX)
        return -1;
    *out = (size_t)v;
    return 0;
}

static socmon_status csv_row(socmon_sweep *s, char **h, size_t nh, char **f, const char *name, unsigned line,
                             socmon_value *vals, const socmon_value **pv, char **inst, socmon_kv *kv)
{
    size_t index, nv = 0, nk = 0;
    if (parse_size(f[COL_POINT], &index) != 0)
        return socmon_fail(SOCMON_EINVAL, "%s:%u: point '%s' is not a number", name, line, f[COL_POINT]);
    if (strcmp(f[COL_STATUS], "ok") != 0 && strcmp(f[COL_STATUS], "failed") != 0)
        return socmon_fail(SOCMON_EINVAL, "%s:%u: status '%s' is neither ok nor failed", name, line, f[COL_STATUS]);
    if (strcmp(f[COL_SWEEP], socmon_sweep_id(s)) != 0)
        return socmon_fail(SOCMON_EINVAL, "%s:%u: the row is of sweep %s, the table's first of %s", name, line,
                           f[COL_SWEEP], socmon_sweep_id(s));
    for (size_t i = NFIXED; i < nh; i++) {
        if (!*f[i])
            continue;
        if (strncmp(h[i], SMN_SWEEP_OPTION_COL, strlen(SMN_SWEEP_OPTION_COL)) == 0) {
            kv[nk++] = (socmon_kv){.key = h[i] + strlen(SMN_SWEEP_OPTION_COL), .value = f[i]};
            continue;
        }
        int counter = strncmp(h[i], SMN_SWEEP_COUNTER_COL, strlen(SMN_SWEEP_COUNTER_COL)) == 0;
        char *key = h[i] + strlen(counter ? SMN_SWEEP_COUNTER_COL : SMN_SWEEP_METRIC_COL);
        socmon_value v = make_value(counter ? SOCMON_VALUE_COUNTER : SOCMON_VALUE_METRIC, key, &inst[nv]);
        char *end = "";
        errno = 0;
        v.defined = strcmp(f[i], "null") != 0;   /* null: the run has the value, undefined */
        if (!v.defined) {
            v.integer = counter;
        } else if (counter) {
            v.integer = 1;
            v.i = strtoll(f[i], &end, 10);
            v.v = (double)v.i;
        } else {
            v.v = strtod(f[i], &end);
        }
        if (*end || errno == ERANGE)
            return socmon_fail(SOCMON_EINVAL, "%s:%u: %s '%s' is not a number", name, line, h[i], f[i]);
        vals[nv] = v;
        pv[nv] = &vals[nv];
        nv++;
    }
    socmon_sweep_row row = {.point = {.index = index, .target = f[COL_TARGET],
                                      .workload = *f[COL_WORKLOAD] ? f[COL_WORKLOAD] : NULL,
                                      .program = *f[COL_PROGRAM] ? f[COL_PROGRAM] : NULL, .noptions = nk, .options = kv},
                            .ok = f[COL_STATUS][0] == 'o', .error = *f[COL_ERROR] ? f[COL_ERROR] : NULL,
                            .recording = *f[COL_RECORDING] ? f[COL_RECORDING] : NULL};
    if (!row.ok && !row.error)
        row.error = "failed";
    socmon_status st = smn_sweep_put_read(s, &row, pv, nv);
    return st == SOCMON_OK ? st : socmon_fail_prefix(st, "%s:%u: ", name, line);
}

static socmon_status check_header(char **h, size_t nh, const char *name)
{
    if (nh < NFIXED)
        return socmon_fail(SOCMON_EINVAL, "%s: not a table of socmon sweep (its header has %zu columns, not "
                           "point,sweep,points,target,...)", name, nh);
    for (size_t i = 0; i < NFIXED; i++)
        if (strcmp(h[i], fixed_cols[i]) != 0)
            return socmon_fail(SOCMON_EINVAL, "%s: not a table of socmon sweep (column %zu is '%.40s', not '%s')",
                               name, i + 1, h[i], fixed_cols[i]);
    for (size_t i = NFIXED; i < nh; i++)
        if (strncmp(h[i], SMN_SWEEP_OPTION_COL, strlen(SMN_SWEEP_OPTION_COL)) != 0 &&
            strncmp(h[i], SMN_SWEEP_COUNTER_COL, strlen(SMN_SWEEP_COUNTER_COL)) != 0 &&
            strncmp(h[i], SMN_SWEEP_METRIC_COL, strlen(SMN_SWEEP_METRIC_COL)) != 0)
            return socmon_fail(SOCMON_EINVAL, "%s: column %zu '%.40s' is neither option:, counter: nor metric:", name,
                               i + 1, h[i]);
    /* names socmon wrote are JSON's (UTF-8, no control characters): anything else is foreign */
    for (size_t i = NFIXED; i < nh; i++)
        if (!smn_text_clean(h[i]))
            return socmon_fail(SOCMON_EINVAL, "%s: column %zu's name is not clean UTF-8 text", name, i + 1);
    smn_strmap seen = {0};
    socmon_status st = SOCMON_OK;
    for (size_t i = NFIXED; i < nh && st == SOCMON_OK; i++) {
        int added = smn_strmap_insert(&seen, h[i], i, NULL);
        st = added < 0   ? socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name)
             : added == 0 ? socmon_fail(SOCMON_EINVAL, "%s: column %zu '%.40s' appears twice", name, i + 1, h[i])
                          : SOCMON_OK;
    }
    smn_strmap_free(&seen);
    return st;
}

static socmon_status parse_csv(const char *text, size_t len, const char *name, socmon_sweep **out)
{
    csv c = {text, text + len, 1};
    char **h = NULL, **f = NULL;
    size_t nh = 0, nf = 0;
    socmon_status st = csv_record(&c, &h, &nh) != 0 ? socmon_fail(SOCMON_EINVAL, "%s:1: a bad quote in the header", name)
                                                     : check_header(h, nh, name);
    socmon_value *vals = st == SOCMON_OK ? calloc(nh, sizeof *vals) : NULL;
    const socmon_value **pv = st == SOCMON_OK ? calloc(nh, sizeof *pv) : NULL;
    char **inst = st == SOCMON_OK ? calloc(nh, sizeof *inst) : NULL;
    socmon_kv *kv = st == SOCMON_OK ? calloc(nh, sizeof *kv) : NULL;
    if (st == SOCMON_OK && (!vals || !pv || !inst || !kv))
        st = socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name);
    while (st == SOCMON_OK && c.p < c.end) {
        unsigned line = c.line;
        if (csv_record(&c, &f, &nf) != 0) {
            st = socmon_fail(SOCMON_EINVAL, "%s:%u: a bad quote (or out of memory)", name, line);
            break;
        }
        if (nf == 1 && !*f[0]) {   /* a blank line */
            free_fields(f, nf);
            f = NULL;
            continue;
        }
        size_t total;
        if (nf != nh)
            st = socmon_fail(SOCMON_EINVAL, "%s:%u: %zu fields, the header has %zu", name, line, nf, nh);
        else if (!*out && parse_size(f[COL_POINTS], &total) != 0)
            st = socmon_fail(SOCMON_EINVAL, "%s:%u: points '%s' is not a number", name, line, f[COL_POINTS]);
        else if (!*out && (st = socmon_sweep_new(f[COL_SWEEP], total, out)) != SOCMON_OK)
            socmon_fail_prefix(st, "%s:%u: ", name, line);
        if (st == SOCMON_OK)
            st = csv_row(*out, h, nh, f, name, line, vals, pv, inst, kv);
        for (size_t i = 0; inst && i < nh; i++) {
            free(inst[i]);
            inst[i] = NULL;
        }
        free_fields(f, nf);
        f = NULL;
    }
    if (st == SOCMON_OK && !*out)
        st = socmon_fail(SOCMON_EINVAL, "%s: a header and no point: the table is empty", name);
    free(inst);
    free(kv);
    free(pv);
    free(vals);
    free_fields(h, nh);
    if (st != SOCMON_OK) {
        socmon_sweep_free(*out);
        *out = NULL;
    }
    return st;
}

socmon_status socmon_sweep_parse(const char *text, size_t len, const char *name, socmon_sweep **out)
{
    if (!text || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_parse: NULL argument");
    *out = NULL;
    if (!name)
        name = "sweep table";
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r'))
        i++;
    if (i == len)
        return socmon_fail(SOCMON_EINVAL, "%s: empty: not a table of socmon sweep", name);
    if (memchr(text, '\0', len) && text[i] != '{')
        return socmon_fail(SOCMON_EINVAL, "%s: a NUL byte: not a table of socmon sweep", name);
    return text[i] == '{' ? parse_json(text, len, name, out) : parse_csv(text, len, name, out);
}

socmon_status socmon_sweep_load(const char *path, socmon_sweep **out)
{
    if (!path || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_load: NULL argument");
    *out = NULL;
    char *buf;
    size_t len;
    socmon_status st = smn_file_read(path, SWEEP_FILE_MAX, "sweep table", &buf, &len);
    if (st == SOCMON_OK)
        st = socmon_sweep_parse(buf, len, path, out);
    free(buf);
    return st;
}
