/* The findings of a run ("where the time went", socmon/findings.h) as the formats show them:
 * a section at the end of a table, an array in JSON documents and the html page's data. */
#include <jansson.h>
#include <math.h>
#include <stdlib.h>

#include "core/error.h"
#include "core/text.h"
#include "export/output_format.h"

/* The line without its thousands separators, for --no-big-num: the library writes a finding's
 * numbers once, grouped as the tables' rule says (docs/findings.md); a separator is a ',' with
 * a digit before it and exactly three after, so "UNPACK 120, MATH 240" keeps its commas. */
static void ungroup(char *s)
{
    char *w = s;
    for (const char *p = s; *p; p++) {
        int sep = *p == ',' && p > s && p[-1] >= '0' && p[-1] <= '9';
        for (int k = 1; sep && k <= 3; k++)
            sep = p[k] >= '0' && p[k] <= '9';
        if (sep && !(p[4] >= '0' && p[4] <= '9'))
            continue;
        *w++ = *p;
    }
    *w = 0;
}

socmon_status smn_table_findings(smn_output *o)
{
    size_t n = socmon_findings_count(o->findings);
    if (!n)
        return SOCMON_OK;
    socmon_status st = smn_sink_puts(o->sink, "\n Where the time went:\n\n");
    for (size_t i = 0; i < n && st == SOCMON_OK; i++) {
        /* a findings file or an instance name may hold any byte: none reaches the terminal raw */
        char *t = smn_text_escape_dup(socmon_findings_at(o->findings, i)->text);
        if (t && o->opts.no_big_num)
            ungroup(t);
        st = t ? smn_sink_printf(o->sink, "  %s\n", t) : socmon_fail(SOCMON_ENOMEM, "table: out of memory");
        free(t);
    }
    return st;
}

static json_t *one(const socmon_finding *f)
{
    json_t *ev = json_object();
    for (size_t k = 0; ev && k < f->nevidence; k++) {
        json_t *v = f->labels[k] ? json_string(f->labels[k]) : isfinite(f->values[k]) ? json_real(f->values[k])
                                                                                          : json_null();
        if (json_object_set_new(ev, f->keys[k], v) != 0) {
            json_decref(ev);
            return NULL;
        }
    }
    json_t *j = ev ? json_pack("{s:s, s:s, s:s, s:s, s:o}", "target", f->target, "rule", f->rule, "instance",
                               f->instance, "finding", f->text, "evidence", ev)
                   : NULL;
    if (j && f->choice && json_object_set_new(j, "choice", json_string(f->choice)) != 0) {
        json_decref(j);
        return NULL;
    }
    return j;
}

json_t *smn_json_findings(const socmon_findings *f)
{
    json_t *arr = json_array();
    for (size_t i = 0; arr && i < socmon_findings_count(f); i++)
        if (json_array_append_new(arr, one(socmon_findings_at(f, i))) != 0) {
            json_decref(arr);
            return NULL;
        }
    return arr;
}
