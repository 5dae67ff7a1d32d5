/* Rules over a diff (socmon/check.h; docs/check.md): each rule checks every row whose key its
 * glob matches. A change beyond the rule's limit fails, unless the row has repeat statistics
 * and the change is not significant; a value only one run has, or defined in only one, fails. */
#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "socmon/check.h"

struct socmon_check {
    const socmon_diff *d;
    size_t n, failed;
    socmon_check_rule *rules;
    socmon_check_item *items;     /* every rule's, one block */
    char **why;                   /* per item, or NULL */
    size_t nitems;
};

/* "+1,312 (+4.10%) beyond the limit +0": the change as the tables write numbers (a count
 * grouped, a measure with its unit's decimals: core/text.h) */
static char *why_beyond(const socmon_diff_row *r, const socmon_rule *rule)
{
    char d[48], pct[48] = "";
    int neg = r->integer ? r->idelta < 0 : r->delta < 0;
    d[0] = neg ? '-' : '+';
    if (r->integer)
        smn_format_count(d + 1, sizeof d - 1, r->idelta < 0 ? (uint64_t)0 - (uint64_t)r->idelta : (uint64_t)r->idelta, 1);
    else
        smn_format_fixed(d + 1, sizeof d - 1, fabs(r->delta), smn_unit_decimals(r->a ? r->a->unit : NULL), 1);
    if (r->has_ratio)
        snprintf(pct, sizeof pct, " (%+.2f%%)", (r->ratio - 1) * 100);
    else if (r->a && r->a->v == 0)
        snprintf(pct, sizeof pct, " (from 0)");
    size_t len = strlen(d) + strlen(pct) + strlen(rule->limit) + 32;
    char *s = malloc(len);
    if (s)
        snprintf(s, len, "%s%s beyond the limit %s", d, pct, rule->limit);
    return s;
}

/* The verdict of one row: NULL passes, else why it fails (malloc'd; "" when out of memory). */
static char *verdict(const socmon_diff_row *r, const socmon_rule *rule, int *failed)
{
    *failed = 1;
    const char *fixed = !r->b ? "only in the baseline" : !r->a ? "only in the new run"
                        : r->a->defined && !r->b->defined ? "undefined in the new run"
                        : !r->a->defined && r->b->defined ? "defined only in the new run" : NULL;
    if (fixed)
        return strdup(fixed);
    *failed = 0;
    if (!r->has_delta)
        return NULL;   /* undefined on both sides: nothing changed */
    double allowed = rule->percent ? rule->amount / 100 * fabs(r->a->v) : rule->amount;
    /* reals: a change of exactly the limit (0.97 against 1.0 with -3%) must not fail on the last
     * bit of its rounding; counts compare exactly */
    if (!r->integer)
        allowed += 1e-12 * fmax(fabs(r->a->v), fabs(r->b->v));
    int beyond = rule->dir == SOCMON_LIMIT_RISE   ? r->delta > allowed
                 : rule->dir == SOCMON_LIMIT_FALL ? r->delta < -allowed
                                                  : fabs(r->delta) > allowed;
    if (!beyond || r->significant == 0)   /* noise: beyond the limit but not significant */
        return NULL;
    *failed = 1;
    return why_beyond(r, rule);
}

socmon_status socmon_check_new(const socmon_diff *d, const socmon_rules *rules, socmon_check **out)
{
    if (!d || !rules || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_check_new: NULL argument");
    *out = NULL;
    size_t nr = socmon_rules_count(rules), nd = socmon_diff_count(d), total = 0;
    /* first count the matches, so that the items are one block and rules point into it */
    for (size_t i = 0; i < nr; i++) {
        const socmon_rule *rule = socmon_rules_at(rules, i);
        size_t hits = 0;
        for (size_t k = 0; k < nd; k++)
            hits += fnmatch(rule->pattern, socmon_diff_row_key(socmon_diff_row_at(d, k)), 0) == 0;
        if (!hits)
            return socmon_fail(SOCMON_EINVAL, "%s:%u: '%s' matches no value of either run (a rule that checks "
                                              "nothing would pass silently)",
                               socmon_rules_name(rules), rule->line, rule->pattern);
        total += hits;
    }
    socmon_check *c = calloc(1, sizeof *c);
    if (c) {
        c->rules = calloc(nr + 1, sizeof *c->rules);
        c->items = calloc(total + 1, sizeof *c->items);
        c->why = calloc(total + 1, sizeof *c->why);
    }
    if (!c || !c->rules || !c->items || !c->why) {
        socmon_check_free(c);
        return socmon_fail(SOCMON_ENOMEM, "socmon_check_new: out of memory");
    }
    c->d = d;
    c->n = nr;
    for (size_t i = 0; i < nr; i++) {
        const socmon_rule *rule = socmon_rules_at(rules, i);
        socmon_check_rule *cr = &c->rules[i];
        cr->rule = rule;
        cr->items = &c->items[c->nitems];
        for (size_t k = 0; k < nd; k++) {
            const socmon_diff_row *r = socmon_diff_row_at(d, k);
            if (fnmatch(rule->pattern, socmon_diff_row_key(r), 0) != 0)
                continue;
            socmon_check_item *it = &c->items[c->nitems];
            it->row = r;
            c->why[c->nitems] = verdict(r, rule, &it->failed);
            if (it->failed && !c->why[c->nitems]) {
                socmon_check_free(c);
                return socmon_fail(SOCMON_ENOMEM, "socmon_check_new: out of memory");
            }
            it->why = c->why[c->nitems];
            cr->failed += it->failed;
            cr->n++;
            c->nitems++;
        }
        c->failed += cr->failed > 0;
    }
    *out = c;
    return SOCMON_OK;
}

void socmon_check_free(socmon_check *c)
{
    if (!c)
        return;
    for (size_t i = 0; c->why && i < c->nitems; i++)
        free(c->why[i]);
    free(c->why);
    free(c->items);
    free(c->rules);
    free(c);
}

size_t socmon_check_count(const socmon_check *c)
{
    return c ? c->n : 0;
}

const socmon_check_rule *socmon_check_at(const socmon_check *c, size_t i)
{
    return c && i < c->n ? &c->rules[i] : NULL;
}

size_t socmon_check_failed(const socmon_check *c)
{
    return c ? c->failed : 0;
}

const socmon_diff *socmon_check_diff(const socmon_check *c)
{
    return c ? c->d : NULL;
}
