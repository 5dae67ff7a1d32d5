/* A check for people (the table format) and the pieces every check format shares
 * (fmt_check.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "export/fmt_check.h"
#include "export/fmt_diff.h"
#include "export/table.h"

/* Values and changes as the diff table writes them (smn_diff_human): grouped counts, a
 * measure with its unit's decimals, so a check reads its numbers as stat and diff do. */
void smn_check_value(char *buf, size_t len, const socmon_value *v)
{
    smn_diff_human(buf, len, v, 1);
}

void smn_check_change(char *buf, size_t len, const socmon_diff_row *r)
{
    char pct[40] = "";
    if (r->has_ratio)
        snprintf(pct, sizeof pct, " (%+.2f%%)", (r->ratio - 1) * 100);
    smn_diff_human_delta(buf, len, r, 1);
    if (r->has_delta && *pct && strlen(buf) + strlen(pct) < len)
        strcat(buf, pct);
}

const char *smn_check_verdict(const socmon_check_rule *r)
{
    return r->failed ? "FAIL" : "PASS";
}

/* The instruction count beside a cycles key ("fn.crc32.cycles" -> "fn.crc32.instret", "cycles" ->
 * "instret", or perf's "instructions"), when both runs have it and it did not change; NULL else. */
static const socmon_diff_row *same_instructions(const socmon_diff *d, const char *key)
{
    size_t n = strlen(key), stem = n - 6;
    if (n < 6 || strcmp(key + stem, "cycles") != 0 || (stem && key[stem - 1] != '.'))
        return NULL;
    static const char *const names[] = {"instret", "instructions"};
    for (size_t k = 0; k < sizeof names / sizeof names[0]; k++) {
        char want[512];
        if (snprintf(want, sizeof want, "%.*s%s", (int)stem, key, names[k]) >= (int)sizeof want)
            return NULL;
        for (size_t i = 0; i < socmon_diff_count(d); i++) {
            const socmon_diff_row *r = socmon_diff_row_at(d, i);
            if (strcmp(socmon_diff_row_key(r), want) != 0)
                continue;
            int same = r->a && r->b && r->a->defined && r->b->defined && r->has_delta &&
                       (r->integer ? r->idelta == 0 : r->delta == 0);
            return same ? r : NULL;
        }
    }
    return NULL;
}

/* Under a failed rule: the cycles that rose while their instructions stayed the same, and why
 * that happens on an exact model (docs/check.md, "Cycles and code layout"). */
static socmon_status layout_hint(smn_output *o, const socmon_diff *d, const socmon_check_rule *r)
{
    char names[600] = "";
    size_t shown = 0, more = 0;
    for (size_t k = 0; k < r->n; k++) {
        const socmon_check_item *it = &r->items[k];
        const socmon_diff_row *same = it->failed && it->row->a && it->row->b
                                          ? same_instructions(d, socmon_diff_row_key(it->row))
                                          : NULL;
        if (!same)
            continue;
        if (shown == 3) {
            more++;
            continue;
        }
        char *key = smn_text_escape_dup(socmon_diff_row_key(same));
        size_t at = strlen(names);
        snprintf(names + at, sizeof names - at, "%s%s", shown ? ", " : "", key ? key : "?");
        free(key);
        shown++;
    }
    if (!shown)
        return SOCMON_OK;
    char more_s[40] = "";
    if (more)
        snprintf(more_s, sizeof more_s, " and %zu more", more);
    return smn_sink_printf(o->sink,
                           "        hint: %s%s did not change: the same instructions took more cycles. On an exact\n"
                           "        model that is code layout, not code: a 32-bit instruction or branch target moved on or\n"
                           "        off a word boundary and costs or saves a fetch cycle each time it runs. Gate instret\n"
                           "        exactly and cycles with a tolerance (docs/check.md, \"Cycles and code layout\").\n",
                           names, more_s);
}

socmon_status smn_table_check(smn_output *o, const socmon_check *c)
{
    const socmon_diff *d = socmon_check_diff(c);
    char *a = smn_text_escape_dup(socmon_run_path(socmon_diff_baseline(d)));
    char *b = smn_text_escape_dup(socmon_run_path(socmon_diff_new_run(d)));
    char line[4096];
    snprintf(line, sizeof line, "\n Checking new %s against baseline %s\n\n", b ? b : "?", a ? a : "?");
    free(a);
    free(b);
    socmon_status st = smn_sink_puts(o->sink, line);
    for (size_t i = 0; st == SOCMON_OK && i < socmon_check_count(c); i++) {
        const socmon_check_rule *r = socmon_check_at(c, i);
        char *pat = smn_text_escape_dup(r->rule->pattern), *lim = smn_text_escape_dup(r->rule->limit);
        snprintf(line, sizeof line, "  %s  %s %s  (line %u: %zu value%s%s)\n", smn_check_verdict(r), pat ? pat : "?",
                 lim ? lim : "?", r->rule->line, r->n, r->n == 1 ? "" : "s",
                 r->failed ? ", failed:" : "");
        free(pat);
        free(lim);
        st = smn_sink_puts(o->sink, line);
        smn_table *t = NULL;
        static const char *const h[] = {"value", "baseline", "new", "why"};
        if (st == SOCMON_OK && r->failed)
            st = smn_table_new(4, "lrrl", h, &t);
        for (size_t k = 0; st == SOCMON_OK && t && k < r->n; k++) {
            const socmon_check_item *it = &r->items[k];
            if (!it->failed)
                continue;
            char va[40], vb[40];
            smn_check_value(va, sizeof va, it->row->a);
            smn_check_value(vb, sizeof vb, it->row->b);
            char *key = smn_text_escape_dup(socmon_diff_row_key(it->row)), *why = smn_text_escape_dup(it->why);
            const char *cells[] = {key ? key : "?", va, vb, why ? why : ""};
            st = smn_table_add(t, cells);
            free(key);
            free(why);
        }
        if (st == SOCMON_OK && t)
            st = smn_table_write(t, o->sink, "        ");
        smn_table_free(t);
        if (st == SOCMON_OK && r->failed)
            st = layout_hint(o, d, r);
    }
    size_t n = socmon_check_count(c), f = socmon_check_failed(c);
    snprintf(line, sizeof line, "\n  %zu of %zu rule%s failed\n\n", f, n, n == 1 ? "" : "s");
    return st == SOCMON_OK ? smn_sink_puts(o->sink, line) : st;
}
