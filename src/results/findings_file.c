/* Findings files: JSON -> rules (socmon/findings.h, docs/findings.md). Everything that does not
 * depend on a run is checked here, so a broken file is refused at load with its name, the rule
 * and the key or word at fault, never found out half-way through a report. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "results/findings_internal.h"
#include "core/error.h"
#include "core/file.h"
#include "core/grow.h"
#include "core/text.h"

#define FINDINGS_MAX_BYTES (4u << 20)
#define FINDINGS_MAX 1000         /* rules in one set */
#define EVIDENCE_MAX 32           /* evidence values of one rule */
#define TEXT_MAX 1000             /* bytes of a rule's text */
#define LINES_MAX 1000            /* "max" */

void smn_frule_free(frule *r)
{
    if (!r)
        return;
    for (size_t k = 0; k < r->nev; k++) {
        free(r->keys ? r->keys[k] : NULL);
        free(r->exprs ? r->exprs[k] : NULL);
        free(r->units ? r->units[k] : NULL);
    }
    for (size_t k = 0; r->labels && k < r->nargmax; k++)
        free(r->labels[k]);
    free(r->keys), free(r->exprs), free(r->units), free(r->argmax), free(r->labels);
    free(r->target), free(r->name), free(r->text);
    socmon_metricset_free(r->ms);
    memset(r, 0, sizeof *r);
}

socmon_status socmon_findingset_new(socmon_findingset **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_findingset_new: NULL argument");
    *out = calloc(1, sizeof **out);
    return *out ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
}

void socmon_findingset_free(socmon_findingset *fs)
{
    if (!fs)
        return;
    for (size_t i = 0; i < fs->n; i++)
        smn_frule_free(&fs->r[i]);
    free(fs->r);
    free(fs);
}

size_t socmon_findingset_count(const socmon_findingset *fs)
{
    return fs ? fs->n : 0;
}

/* "SRC: finding 'NAME' (findings[i]): ..." (or "SRC: findings[i]: ..." before a name is known);
 * words of the file are escaped: a file may hold any byte. */
static socmon_status ffail(const char *src, size_t i, const char *name, const char *fmt, ...) SOCMON_PRINTF(4, 5);
static socmon_status ffail(const char *src, size_t i, const char *name, const char *fmt, ...)
{
    char what[600];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    char *e = smn_text_escape_dup(what);
    socmon_status st = name ? socmon_fail(SOCMON_EPARSE, "%s: finding '%s' (findings[%zu]): %s", src, name, i,
                                          e ? e : what)
                            : socmon_fail(SOCMON_EPARSE, "%s: findings[%zu]: %s", src, i, e ? e : what);
    free(e);
    return st;
}

static int is_identifier(const char *s)
{
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_'))
        return 0;
    for (s++; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_' || (*s >= '0' && *s <= '9')))
            return 0;
    return 1;
}

static long key_index(const frule *r, const char *key)
{
    for (size_t k = 0; k < r->nev; k++)
        if (strcmp(r->keys[k], key) == 0)
            return (long)k;
    return -1;
}

/* An expression alone, through the metric loader, so its fault reads as the metric language's
 * ("column 5: ...") under the rule's and the key's names. */
static socmon_status check_expr(const char *src, size_t i, const char *name, const char *what, const char *expr)
{
    json_t *doc = json_pack("{s:[{s:s, s:s}]}", "metrics", "name", "x", "expr", expr);
    char *text = doc ? json_dumps(doc, 0) : NULL;
    json_decref(doc);
    if (!text)
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    socmon_metricset *ms = NULL;
    socmon_status st = socmon_metricset_load_string(text, "x", &ms);
    free(text);
    socmon_metricset_free(ms);
    if (st != SOCMON_EPARSE)
        return st;
    const char *msg = socmon_errmsg();
    const char *at = strstr(msg, "expr ");
    char copy[400];
    snprintf(copy, sizeof copy, "%s", at ? at + 5 : msg);
    char *where = strstr(copy, " (x line");   /* the line of the scratch document: not the user's */
    if (where)
        *where = 0;
    return ffail(src, i, name, "%s: %s", what, copy);
}

/* The rule's expressions as one metric set: __when, then __e_KEY for each evidence. */
static socmon_status build_set(const char *src, size_t i, frule *r, const char *when)
{
    json_t *arr = json_array();
    int bad = !arr || json_array_append_new(arr, json_pack("{s:s, s:s}", "name", "__when", "expr", when)) != 0;
    for (size_t k = 0; !bad && k < r->nev; k++) {
        char name[160];
        snprintf(name, sizeof name, "__e_%s", r->keys[k]);
        bad = json_array_append_new(arr, json_pack("{s:s, s:s}", "name", name, "expr", r->exprs[k])) != 0;
    }
    json_t *doc = bad ? NULL : json_pack("{s:o}", "metrics", arr);
    if (bad)
        json_decref(arr);
    char *text = doc ? json_dumps(doc, 0) : NULL;
    json_decref(doc);
    if (!text)
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    socmon_status st = socmon_metricset_load_string(text, src, &r->ms);
    free(text);
    if (st == SOCMON_EPARSE)   /* each expression was checked alone: only a limit of the set is left */
        socmon_fail_prefix(st, "%s: finding '%s' (findings[%zu]): ", src, r->name, i);
    return st;
}

/* Every {word} of the text is something the rule can fill in. */
static socmon_status check_text(const char *src, size_t i, const frule *r)
{
    for (const char *p = r->text; (p = strchr(p, '{')) != NULL;) {
        const char *end = strchr(p, '}');
        if (!end)
            return ffail(src, i, r->name, "\"text\" has a '{' without its '}': '%s'", p);
        char word[128];
        size_t n = (size_t)(end - p - 1);
        snprintf(word, sizeof word, "%.*s", (int)(n < sizeof word ? n : sizeof word - 1), p + 1);
        int ok = key_index(r, word) >= 0 || (strcmp(word, "instance") == 0 && r->per_instance) ||
                 (strcmp(word, "argmax") == 0 && r->nargmax);
        if (!ok)
            return ffail(src, i, r->name, "\"text\" names '{%s}', which is not an evidence key%s%s", word,
                         r->per_instance ? ", {instance}" : "", r->nargmax ? " or {argmax}" : "");
        p = end + 1;
    }
    return SOCMON_OK;
}

static socmon_status strings(const char *src, size_t i, const char *name, json_t *arr, const char *key,
                             size_t *n, char ***out)
{
    if (!json_is_array(arr) || json_array_size(arr) == 0 || json_array_size(arr) > EVIDENCE_MAX)
        return ffail(src, i, name, "\"%s\" must be an array of 1..%d strings", key, EVIDENCE_MAX);
    *n = json_array_size(arr);
    if (!(*out = calloc(*n, sizeof **out)))
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    for (size_t k = 0; k < *n; k++) {
        json_t *s = json_array_get(arr, k);
        if (!json_is_string(s))
            return ffail(src, i, name, "\"%s\" must be an array of strings (item %zu is not)", key, k);
        if (!((*out)[k] = strdup(json_string_value(s))))
            return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    }
    return SOCMON_OK;
}

static socmon_status parse_evidence(const char *src, size_t i, frule *r, json_t *ev)
{
    if (!json_is_object(ev) || json_object_size(ev) == 0 || json_object_size(ev) > EVIDENCE_MAX)
        return ffail(src, i, r->name, "\"evidence\" must be an object of 1..%d \"key\": \"expression\"", EVIDENCE_MAX);
    size_t n = json_object_size(ev);
    r->keys = calloc(n, sizeof *r->keys);
    r->exprs = calloc(n, sizeof *r->exprs);
    if (!r->keys || !r->exprs)
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    const char *key;
    json_t *val;
    json_object_foreach(ev, key, val) {
        if (!is_identifier(key) || strlen(key) > 100)
            return ffail(src, i, r->name, "evidence key '%s' is not an identifier ([A-Za-z_][A-Za-z0-9_]*, "
                         "at most 100)", key);
        if (!json_is_string(val))
            return ffail(src, i, r->name, "evidence '%s' must be an expression (a string)", key);
        char what[140];
        snprintf(what, sizeof what, "evidence '%s'", key);
        socmon_status st = check_expr(src, i, r->name, what, json_string_value(val));
        if (st != SOCMON_OK)
            return st;
        r->keys[r->nev] = strdup(key);
        r->exprs[r->nev] = strdup(json_string_value(val));
        r->nev++;
        if (!r->keys[r->nev - 1] || !r->exprs[r->nev - 1])
            return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    }
    return SOCMON_OK;
}

static socmon_status parse_argmax(const char *src, size_t i, frule *r, json_t *am, json_t *lab)
{
    char **names = NULL;
    size_t n = 0, nl = 0;
    socmon_status st = strings(src, i, r->name, am, "argmax", &n, &names);
    if (st == SOCMON_OK && !(r->argmax = calloc(n, sizeof *r->argmax)))
        st = socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    for (size_t k = 0; st == SOCMON_OK && k < n; k++) {
        long e = key_index(r, names[k]);
        if (e < 0)
            st = ffail(src, i, r->name, "\"argmax\" names '%s', which is not an evidence key", names[k]);
        else
            r->argmax[k] = (size_t)e;
    }
    for (size_t k = 0; names && k < n; k++)
        free(names[k]);
    free(names);
    if (st != SOCMON_OK)
        return st;
    r->nargmax = n;
    if (!lab)
        return ffail(src, i, r->name, "%s", "\"argmax\" needs \"labels\": what each choice is called in the text");
    st = strings(src, i, r->name, lab, "labels", &nl, &r->labels);
    if (st == SOCMON_OK && nl != n)
        st = ffail(src, i, r->name, "\"labels\" has %zu names for the %zu of \"argmax\"", nl, n);
    if (st != SOCMON_OK) {   /* smn_frule_free frees nargmax labels: these may be fewer */
        for (size_t k = 0; r->labels && k < nl; k++)
            free(r->labels[k]);
        free(r->labels);
        r->labels = NULL;
    }
    return st;
}

/* "units": {"key": "unit"}: the unit of an evidence whose expression does not say it (a share
 * computed in the rule), so its number reads with the decimals a table gives that unit. */
static socmon_status parse_units(const char *src, size_t i, frule *r, json_t *ju)
{
    if (!json_is_object(ju))
        return ffail(src, i, r->name, "%s", "\"units\" must be an object {\"evidence key\": \"unit\", ...}");
    if (!(r->units = calloc(r->nev, sizeof *r->units)))
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    const char *key;
    json_t *val;
    json_object_foreach(ju, key, val) {
        long k = key_index(r, key);
        if (k < 0)
            return ffail(src, i, r->name, "\"units\" names '%s', which is not an evidence key", key);
        if (!json_is_string(val) || strlen(json_string_value(val)) > 32)
            return ffail(src, i, r->name, "unit of '%s' must be a string of at most 32 bytes", key);
        if (!(r->units[k] = strdup(json_string_value(val))))
            return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    }
    return SOCMON_OK;
}

static socmon_status parse_rule(const char *src, size_t i, const char *target, json_t *o, frule *r)
{
    static const char *const known[] = {"name", "desc", "per", "when", "evidence", "argmax", "labels",
                                        "text", "order", "max", "units"};
    if (!json_is_object(o))
        return ffail(src, i, NULL, "%s", "expected an object {\"name\": ..., \"evidence\": ..., \"text\": ...}");
    json_t *jn = json_object_get(o, "name");
    if (!json_is_string(jn) || !is_identifier(json_string_value(jn)) || strlen(json_string_value(jn)) > 100)
        return ffail(src, i, NULL, "%s", "\"name\" must be an identifier ([A-Za-z_][A-Za-z0-9_]*, at most 100)");
    if (!(r->name = strdup(json_string_value(jn))) || !(r->target = strdup(target)))
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    r->order = -1;
    const char *key;
    json_t *val;
    json_object_foreach(o, key, val) {
        size_t k = 0;
        while (k < sizeof known / sizeof known[0] && strcmp(known[k], key) != 0)
            k++;
        if (k == sizeof known / sizeof known[0])
            return ffail(src, i, r->name, "unknown key '%s' (known: name, desc, per, when, evidence, argmax, "
                         "labels, text, order, max, units)", key);
    }
    json_t *jp = json_object_get(o, "per");
    if (jp) {
        const char *per = json_is_string(jp) ? json_string_value(jp) : "";
        if (strcmp(per, "instance") != 0 && strcmp(per, "device") != 0)
            return ffail(src, i, r->name, "\"per\" must be \"instance\" or \"device\", not '%s'", per);
        r->per_instance = strcmp(per, "instance") == 0;
    }
    socmon_status st = parse_evidence(src, i, r, json_object_get(o, "evidence"));
    if (st != SOCMON_OK)
        return st;
    json_t *ju = json_object_get(o, "units");
    if (ju && (st = parse_units(src, i, r, ju)) != SOCMON_OK)
        return st;
    json_t *jw = json_object_get(o, "when");
    if (jw && !json_is_string(jw))
        return ffail(src, i, r->name, "%s", "\"when\" must be an expression (a string)");
    if (jw && (st = check_expr(src, i, r->name, "\"when\"", json_string_value(jw))) != SOCMON_OK)
        return st;
    json_t *jt = json_object_get(o, "text");
    if (!json_is_string(jt) || !*json_string_value(jt) || strlen(json_string_value(jt)) > TEXT_MAX)
        return ffail(src, i, r->name, "\"text\" must be a string of 1..%d bytes (the line, with {key} for evidence)",
                     TEXT_MAX);
    if (!(r->text = strdup(json_string_value(jt))))
        return socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    json_t *ja = json_object_get(o, "argmax"), *jl = json_object_get(o, "labels");
    if (!ja && jl)
        return ffail(src, i, r->name, "%s", "\"labels\" without \"argmax\"");
    if (ja && (st = parse_argmax(src, i, r, ja, jl)) != SOCMON_OK)
        return st;
    json_t *jo = json_object_get(o, "order");
    if (jo) {
        r->order = json_is_string(jo) ? key_index(r, json_string_value(jo)) : -1;
        if (r->order < 0)
            return ffail(src, i, r->name, "\"order\" must name an evidence key, not '%s'",
                         json_is_string(jo) ? json_string_value(jo) : "(not a string)");
    }
    json_t *jm = json_object_get(o, "max");
    if (jm) {
        if (!json_is_integer(jm) || json_integer_value(jm) < 1 || json_integer_value(jm) > LINES_MAX)
            return ffail(src, i, r->name, "\"max\" must be an integer 1..%d (lines the rule gives)", LINES_MAX);
        r->max = (size_t)json_integer_value(jm);
    }
    if ((st = check_text(src, i, r)) != SOCMON_OK)
        return st;
    return build_set(src, i, r, jw ? json_string_value(jw) : "1");
}

/* The target a file's rules are of: its "target", else its name up to the first dot. */
static socmon_status file_target(const char *src, json_t *root, char *buf, size_t len)
{
    json_t *jt = json_object_get(root, "target");
    if (jt) {
        if (!json_is_string(jt) || !*json_string_value(jt) || strlen(json_string_value(jt)) >= len)
            return socmon_fail(SOCMON_EPARSE, "%s: \"target\" must be a target's name (a short string)", src);
        snprintf(buf, len, "%s", json_string_value(jt));
        return SOCMON_OK;
    }
    const char *base = strrchr(src, '/') ? strrchr(src, '/') + 1 : src;
    snprintf(buf, len, "%.*s", (int)strcspn(base, "."), base);
    return SOCMON_OK;
}

socmon_status socmon_findingset_add_string(socmon_findingset *fs, const char *text, const char *srcname)
{
    if (!fs || !text)
        return socmon_fail(SOCMON_EINVAL, "socmon_findingset_add_string: NULL argument");
    const char *src = srcname ? srcname : "findings";
    json_error_t e;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &e);
    if (!root)
        return socmon_fail(SOCMON_EPARSE, "%s:%d:%d: %s", src, e.line, e.column, e.text);
    socmon_status st = SOCMON_OK;
    const char *key;
    json_t *val;
    if (!json_is_object(root))
        st = socmon_fail(SOCMON_EPARSE, "%s: expected an object {\"findings\": [...]}", src);
    json_object_foreach(json_is_object(root) ? root : NULL, key, val) {
        if (st == SOCMON_OK && strcmp(key, "findings") != 0 && strcmp(key, "target") != 0 &&
            strcmp(key, "description") != 0) {
            char *k = smn_text_escape_dup(key);
            st = socmon_fail(SOCMON_EPARSE, "%s: unknown top-level key '%s' (known: description, target, findings)",
                             src, k ? k : "?");
            free(k);
        }
    }
    json_t *arr = st == SOCMON_OK ? json_object_get(root, "findings") : NULL;
    if (st == SOCMON_OK && (!json_is_array(arr) || json_array_size(arr) > FINDINGS_MAX))
        st = socmon_fail(SOCMON_EPARSE, "%s: \"findings\" must be an array of at most %d rules", src, FINDINGS_MAX);
    char target[64];
    if (st == SOCMON_OK)
        st = file_target(src, root, target, sizeof target);
    size_t n = st == SOCMON_OK ? json_array_size(arr) : 0, done = 0;
    if (st == SOCMON_OK && fs->n + n > FINDINGS_MAX)
        st = socmon_fail(SOCMON_EPARSE, "%s: more than %d rules in one set", src, FINDINGS_MAX);
    frule *tmp = n ? calloc(n, sizeof *tmp) : NULL;
    if (n && !tmp)
        st = socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
    for (; st == SOCMON_OK && done < n; done++) {
        st = parse_rule(src, done, target, json_array_get(arr, done), &tmp[done]);
        for (size_t j = 0; st == SOCMON_OK && j < fs->n + done; j++) {
            const frule *o = j < fs->n ? &fs->r[j] : &tmp[j - fs->n];
            if (strcmp(o->name, tmp[done].name) == 0 && strcmp(o->target, tmp[done].target) == 0)
                st = ffail(src, done, tmp[done].name, "%s", "duplicate name: a rule of this target has it already");
        }
        if (st != SOCMON_OK)
            smn_frule_free(&tmp[done]);
    }
    if (st == SOCMON_OK && n) {
        frule *grown = realloc(fs->r, (fs->n + n) * sizeof *grown);
        if (!grown)
            st = socmon_fail(SOCMON_ENOMEM, "findings: out of memory");
        else {
            memcpy(grown + fs->n, tmp, n * sizeof *tmp);
            fs->r = grown;
            fs->n += n;
            fs->cap = fs->n;
            free(tmp);
            tmp = NULL;
        }
    }
    if (st != SOCMON_OK)
        for (size_t j = 0; j < done && tmp; j++)
            smn_frule_free(&tmp[j]);
    free(tmp);
    json_decref(root);
    return st;
}

socmon_status socmon_findingset_add_file(socmon_findingset *fs, const char *path)
{
    if (!fs || !path)
        return socmon_fail(SOCMON_EINVAL, "socmon_findingset_add_file: NULL argument");
    char *buf = NULL;
    size_t len = 0;
    socmon_status st = smn_file_read(path, FINDINGS_MAX_BYTES, "findings file", &buf, &len);
    if (st == SOCMON_OK && strlen(buf) != len)
        st = socmon_fail(SOCMON_EPARSE, "%s: a NUL byte: not a JSON text file", path);
    if (st == SOCMON_OK)
        st = socmon_findingset_add_string(fs, buf, path);
    free(buf);
    return st;
}
