/* The metrics of a combined run (socmon_metrics_for_spec): the members' built-in metric files
 * merged into one set. Each metric keeps its own file's "absent" rule (written on the metric);
 * a name an earlier member's file already has becomes TARGET_NAME, and the later metrics of
 * the same file that refer to it are rewritten to match. */
#include <ctype.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/target.h"

#define MAX_RENAMES 64

typedef struct rename {
    char from[64], to[96];
} rename_t;

/* expr with every identifier in ren[] replaced; malloc'd, NULL out of memory */
static char *rewrite(const char *expr, const rename_t *ren, size_t nren)
{
    size_t cap = strlen(expr) * 2 + 64, k = 0;
    char *out = malloc(cap);
    for (const char *p = expr; out && *p;) {
        if (isalpha((unsigned char)*p) || *p == '_') {
            const char *e = p;
            while (isalnum((unsigned char)*e) || *e == '_')
                e++;
            const char *rep = NULL;
            for (size_t i = 0; i < nren && !rep; i++)
                if (strlen(ren[i].from) == (size_t)(e - p) && strncmp(ren[i].from, p, (size_t)(e - p)) == 0)
                    rep = ren[i].to;
            size_t len = rep ? strlen(rep) : (size_t)(e - p);
            if (k + len + 1 >= cap) {
                char *n = realloc(out, cap = (k + len) * 2 + 64);
                if (!n) {
                    free(out);
                    return NULL;
                }
                out = n;
            }
            memcpy(out + k, rep ? rep : p, len);
            k += len;
            p = e;
        } else {
            if (k + 2 >= cap) {
                char *n = realloc(out, cap *= 2);
                if (!n) {
                    free(out);
                    return NULL;
                }
                out = n;
            }
            out[k++] = *p++;
        }
    }
    if (out)
        out[k] = 0;
    return out;
}

static int taken(json_t *arr, const char *name)
{
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m) if (strcmp(json_string_value(json_object_get(m, "name")), name) == 0) return 1;
    return 0;
}

/* Adds one member's file (text) to the merged array. */
static socmon_status add_file(json_t *all, json_t *descs, const char *target, const char *text)
{
    json_error_t err;
    json_t *root = json_loads(text, 0, &err);
    if (!root)
        return socmon_fail(SOCMON_EPARSE, "metrics/%s.json: %s", target, err.text);
    const char *absent = json_string_value(json_object_get(root, "absent"));
    json_t *arr = json_object_get(root, "metrics");
    json_t *d = json_object_get(root, "description");
    if (d)
        json_array_append(descs, d);
    rename_t ren[MAX_RENAMES];
    size_t nren = 0, i;
    json_t *m;
    socmon_status st = SOCMON_OK;
    json_array_foreach(arr, i, m) {
        json_t *c = json_deep_copy(m);
        const char *name = json_string_value(json_object_get(c, "name"));
        const char *expr = json_string_value(json_object_get(c, "expr"));
        if (!c || !name || !expr) {
            json_decref(c);
            st = socmon_fail(SOCMON_EPARSE, "metrics/%s.json: metric %zu lacks a name or expr", target, i);
            break;
        }
        char *nx = nren ? rewrite(expr, ren, nren) : NULL;
        if (nx) {
            json_object_set_new(c, "expr", json_string(nx));
            free(nx);
        }
        if (taken(all, name) && nren < MAX_RENAMES) {
            snprintf(ren[nren].from, sizeof ren[nren].from, "%s", name);
            snprintf(ren[nren].to, sizeof ren[nren].to, "%s_%s", target, name);
            json_object_set_new(c, "name", json_string(ren[nren].to));
            nren++;
        }
        if (!json_object_get(c, "absent"))
            json_object_set_new(c, "absent", json_string(absent ? absent : "skip"));
        json_array_append_new(all, c);
    }
    json_decref(root);
    return st;
}

socmon_status socmon_metrics_for_spec(const char *spec, socmon_metricset **out)
{
    if (!spec || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_metrics_for_spec: NULL argument");
    *out = NULL;
    json_t *all = json_array(), *descs = json_array();
    socmon_status st = all && descs ? SOCMON_OK : socmon_fail(SOCMON_ENOMEM, "metrics: out of memory");
    char names[256] = "";
    size_t nfiles = 0;
    char member[512], name[64];
    for (size_t m = 0; st == SOCMON_OK && socmon_spec_member(spec, m, member, sizeof member); m++) {
        socmon_spec_name_of(member, name, sizeof name);
        const socmon_target_ops *ops = socmon_target_lookup(name);
        const char *text = ops && ops->metrics ? socmon_builtin_metrics(ops->metrics) : NULL;
        if (text) {
            st = add_file(all, descs, name, text);
            snprintf(names + strlen(names), sizeof names - strlen(names), "%s%s", nfiles++ ? "+" : "", name);
        }
    }
    if (st == SOCMON_OK && !nfiles)
        st = socmon_fail(SOCMON_ENOENT, "no member of '%s' has built-in metrics", spec);
    char *text = NULL;
    if (st == SOCMON_OK) {
        json_t *root = json_pack("{s:s, s:O}", "description", "the metrics of a combined run: each member's file, merged",
                                 "metrics", all);
        text = root ? json_dumps(root, JSON_COMPACT) : NULL;
        json_decref(root);
        if (!text)
            st = socmon_fail(SOCMON_ENOMEM, "metrics: out of memory");
    }
    if (st == SOCMON_OK) {
        char src[300];
        snprintf(src, sizeof src, "metrics of %s", names);
        st = socmon_metricset_load_string(text, src, out);
    }
    free(text);
    json_decref(all);
    json_decref(descs);
    return st;
}
