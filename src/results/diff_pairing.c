/* Which instance pairs with which (diff_pairing.h). An instance's kind is what its target's grid
 * op calls it ("cpu", "mem", "acc", "io") when both runs have one (a recording); else, as stat's
 * JSON has no layout, the families of its counters ("acc,dvfs,l2,noc": the prefix of each name
 * before its first '_'), which differ between ESP's tile kinds as their monitors do. Runs whose
 * instances are the same, each of one kind in both, pair by name. Otherwise, when both runs
 * place their tiles on a grid and every place the two share holds one kind in both, by place;
 * else by kind and order among the tiles of that kind (row by row where the places are known),
 * with a warning for each kind the two runs have a different number of, and one when tiles of
 * one name differ in kind (what pairing by index would have compared). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "results/diff_pairing.h"
#include "results/run_internal.h"
#include "core/error.h"
#include "core/grow.h"

enum { MAX_FAMILIES = 24, FAMILY_LEN = 24, SHOW_PAIRS = 12, SHOW_KINDS = 8 };

typedef struct place {
    const char *inst;
    const char *type;          /* the grid's, or NULL */
    unsigned x, y;
    int has_xy;
    char fam[MAX_FAMILIES][FAMILY_LEN];
    int nfam;
    char sig[MAX_FAMILIES * FAMILY_LEN];
    const char *kind;          /* type or sig */
    char *token;               /* what its values' keys start with when paired */
    size_t order;              /* its rank among the layout's places (row by row, else by appearance) */
} place;

typedef struct layout {
    place *p;
    size_t n, cap;
    int all_types, all_xy;
} layout;

/* ---- a growing string ---- */

typedef struct text {
    char *s;
    size_t len, cap;
    int failed;
} text;

static void add(text *t, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static void add(text *t, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (t->failed || n < 0)
        return;
    if (t->len + (size_t)n + 1 > t->cap) {
        size_t cap = (t->len + (size_t)n + 1) * 2;
        char *s = realloc(t->s, cap);
        if (!s) {
            t->failed = 1;
            return;
        }
        t->s = s;
        t->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(t->s + t->len, t->cap - t->len, fmt, ap);
    va_end(ap);
    t->len += (size_t)n;
}

/* ---- the layouts ---- */

static place *find(const layout *l, const char *inst)
{
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->p[i].inst, inst) == 0)
            return &l->p[i];
    return NULL;
}

static void add_family(place *p, const char *name)
{
    size_t il = strlen(p->inst);
    const char *s = strncmp(name, p->inst, il) == 0 && name[il] == '.' ? name + il + 1 : name;
    size_t len = strcspn(s, "_");
    if (len >= FAMILY_LEN)
        len = FAMILY_LEN - 1;
    for (int i = 0; i < p->nfam; i++)
        if (strlen(p->fam[i]) == len && strncmp(p->fam[i], s, len) == 0)
            return;
    if (p->nfam == MAX_FAMILIES)
        return;   /* enough to tell kinds apart */
    memcpy(p->fam[p->nfam], s, len);
    p->fam[p->nfam++][len] = 0;
}

static int cmp_str(const void *x, const void *y)
{
    return strcmp(x, y);
}

static int cmp_xy(const void *x, const void *y)
{
    const place *const *p = x, *const *q = y;
    if ((*p)->y != (*q)->y)
        return (*p)->y < (*q)->y ? -1 : 1;
    return (*p)->x < (*q)->x ? -1 : (*p)->x > (*q)->x;
}

static socmon_status build(const socmon_run *r, layout *l)
{
    place *last = NULL;
    for (size_t i = 0; i < socmon_run_count(r); i++) {
        const socmon_value *v = socmon_run_value(r, i);
        if (v->kind != SOCMON_VALUE_COUNTER || !v->instance)
            continue;
        place *p = last && strcmp(last->inst, v->instance) == 0 ? last : find(l, v->instance);
        if (!p) {
            if (SOCMON_GROW(l->p, l->cap, l->n, 16) != 0)
                return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
            p = &l->p[l->n];
            memset(p, 0, sizeof *p);
            p->inst = v->instance;
            p->order = l->n++;
        }
        add_family(p, v->name);
        last = p;
    }
    size_t ng;
    const socmon_grid_tile *g = smn_run_grid(r, &ng);
    l->all_types = l->all_xy = ng > 0 && l->n > 0;
    for (size_t i = 0; i < l->n; i++) {
        place *p = &l->p[i];
        qsort(p->fam, (size_t)p->nfam, sizeof p->fam[0], cmp_str);
        for (int k = 0; k < p->nfam; k++)
            snprintf(p->sig + strlen(p->sig), sizeof p->sig - strlen(p->sig), "%s%s", k ? "," : "", p->fam[k]);
        for (size_t k = 0; k < ng; k++)
            if (strcmp(g[k].instance, p->inst) == 0) {
                p->type = g[k].type;
                p->x = g[k].x;
                p->y = g[k].y;
                p->has_xy = 1;
            }
        l->all_types &= p->type != NULL;
        l->all_xy &= p->has_xy;
    }
    if (l->all_xy && l->n) {   /* row by row: the order a reader counts tiles of a kind in */
        place **by = malloc(l->n * sizeof *by);
        if (!by)
            return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
        for (size_t i = 0; i < l->n; i++)
            by[i] = &l->p[i];
        qsort(by, l->n, sizeof *by, cmp_xy);
        for (size_t i = 0; i < l->n; i++)
            by[i]->order = i;
        free(by);
    }
    return SOCMON_OK;
}

static void layout_free(layout *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->p[i].token);
    free(l->p);
}

/* ---- the pairing ---- */

static const place *at_xy(const layout *l, unsigned x, unsigned y)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->p[i].x == x && l->p[i].y == y)
            return &l->p[i];
    return NULL;
}

static const char *choose(const layout *a, const layout *b)
{
    int same = a->n == b->n;
    for (size_t i = 0; same && i < a->n; i++) {
        const place *q = find(b, a->p[i].inst);
        same = q && strcmp(q->kind, a->p[i].kind) == 0;
    }
    if (same)
        return "name";
    if (!a->all_xy || !b->all_xy)
        return "kind";
    size_t common = 0;
    for (size_t i = 0; i < a->n; i++) {
        const place *q = at_xy(b, a->p[i].x, a->p[i].y);
        if (q && strcmp(q->kind, a->p[i].kind) != 0)
            return "kind";
        common += q != NULL;
    }
    return common ? "coordinates" : "kind";
}

static socmon_status tokens(layout *l, const char *mode)
{
    for (size_t i = 0; i < l->n; i++) {
        place *p = &l->p[i];
        size_t nth = 0;
        for (size_t k = 0; k < l->n; k++)
            nth += l->p[k].order < p->order && strcmp(l->p[k].kind, p->kind) == 0;
        text t = {0};
        if (strcmp(mode, "name") == 0)
            add(&t, "%s", p->inst);
        else if (strcmp(mode, "coordinates") == 0)
            add(&t, "@%u,%u", p->x, p->y);
        else
            add(&t, "%s#%zu", p->kind, nth);
        if (t.failed) {
            free(t.s);
            return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
        }
        p->token = t.s;
    }
    return SOCMON_OK;
}

/* The key value v pairs by: its instance's token in place of the instance. */
static char *pair_key(const layout *l, const socmon_value *v, const place **last)
{
    const place *p = NULL;
    if (v->instance)
        p = *last && strcmp((*last)->inst, v->instance) == 0 ? *last : find(l, v->instance);
    if (p)
        *last = p;
    size_t il = p ? strlen(p->inst) : 0;
    text t = {0};
    if (p && strncmp(v->key, p->inst, il) == 0 && v->key[il] == '.')
        add(&t, "%s%s", p->token, v->key + il);
    else
        add(&t, "%s", v->key);
    if (t.failed) {
        free(t.s);
        return NULL;
    }
    return t.s;
}

static socmon_status keys(const socmon_run *r, const layout *l, char ***out, size_t *n)
{
    *n = socmon_run_count(r);
    *out = calloc(*n + 1, sizeof **out);
    if (!*out)
        return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
    const place *last = NULL;
    for (size_t i = 0; i < *n; i++)
        if (!((*out)[i] = pair_key(l, socmon_run_value(r, i), &last)))
            return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
    return SOCMON_OK;
}

static const char *kind_text(const place *p, char *buf, size_t len)
{
    if (p->type && p->kind == p->type)
        return p->type;
    snprintf(buf, len, "{%s}", p->sig);
    return buf;
}

/* noun: "tile" when the kinds are the grid's, else "instance" (a Zynq's slots, stat's JSON) */
static socmon_status note(const layout *a, const layout *b, const char *noun, smn_pairing *pr)
{
    text t = {0};
    size_t shown = 0, paired = 0;
    char kb[sizeof a->p[0].sig + 2];
    if (strcmp(pr->mode, "coordinates") == 0)
        add(&t, "tiles paired by their place in the grid (the layouts differ; each place both have holds one kind "
                "in both):");
    else
        add(&t, "%ss paired by kind and order among the %ss of that kind (the layouts differ):", noun, noun);
    for (size_t i = 0; i < a->n; i++) {
        const place *p = &a->p[i], *q = NULL;
        for (size_t k = 0; !q && k < b->n; k++)
            if (strcmp(b->p[k].token, p->token) == 0)
                q = &b->p[k];
        if (!q)
            continue;
        if (shown++ < SHOW_PAIRS)
            add(&t, "%s %s with %s (%s)", shown > 1 ? "," : "", p->inst, q->inst, kind_text(p, kb, sizeof kb));
        paired++;
    }
    if (shown > SHOW_PAIRS)
        add(&t, " and %zu more", shown - SHOW_PAIRS);
    if (!paired)
        add(&t, " none pair");
    add(&t, "; %zu of the baseline's %zu and %zu of the new run's %zu pair with none", a->n - paired, a->n,
        b->n - paired, b->n);
    if (t.failed) {
        free(t.s);
        return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
    }
    pr->note = t.s;
    return SOCMON_OK;
}

static socmon_status warn(smn_pairing *pr, text *t)
{
    if (t->failed || SOCMON_GROW(pr->warnings, pr->wcap, pr->nwarnings, 4) != 0) {
        free(t->s);
        return socmon_fail(SOCMON_ENOMEM, "diff: out of memory");
    }
    pr->warnings[pr->nwarnings++] = t->s;
    return SOCMON_OK;
}

static size_t count_kind(const layout *l, const char *kind)
{
    size_t n = 0;
    for (size_t i = 0; i < l->n; i++)
        n += strcmp(l->p[i].kind, kind) == 0;
    return n;
}

/* Is place i the first of its kind in l (each kind counted once)? */
static int first_of_kind(const layout *l, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (strcmp(l->p[k].kind, l->p[i].kind) == 0)
            return 0;
    return 1;
}

static socmon_status warnings(const layout *a, const layout *b, const char *noun, smn_pairing *pr)
{
    char kb[sizeof a->p[0].sig + 2], kb2[sizeof kb];
    size_t differ = 0;
    const place *first = NULL, *firstb = NULL;
    for (size_t i = 0; i < a->n; i++) {
        const place *q = find(b, a->p[i].inst);
        if (q && strcmp(q->kind, a->p[i].kind) != 0 && !differ++)
            first = &a->p[i], firstb = q;
    }
    socmon_status st = SOCMON_OK;
    if (differ) {
        text t = {0};
        add(&t, "the layouts differ: %s is %s in the baseline and %s in the new run", first->inst,
            kind_text(first, kb, sizeof kb), kind_text(firstb, kb2, sizeof kb2));
        if (differ > 1)
            add(&t, " (and %zu more %ss of one name differ in kind)", differ - 1, noun);
        add(&t, ": %ss of one name are not compared", noun);
        st = warn(pr, &t);
    }
    size_t shown = 0, more = 0;
    for (int side = 0; side < 2 && st == SOCMON_OK; side++) {
        const layout *l = side ? b : a, *o = side ? a : b;
        for (size_t i = 0; i < l->n && st == SOCMON_OK; i++) {
            const char *k = l->p[i].kind;
            if (!first_of_kind(l, i) || (side && count_kind(o, k)))
                continue;   /* once per kind; a kind of both runs was seen from the baseline's side */
            size_t na = count_kind(a, k), nb = count_kind(b, k);
            if (na == nb)
                continue;
            if (shown++ >= SHOW_KINDS) {
                more++;
                continue;
            }
            text t = {0};
            add(&t, "the baseline has %zu %s %s%s, the new run %zu: %zu of the %s's pair with none", na,
                kind_text(&l->p[i], kb, sizeof kb), noun, na == 1 ? "" : "s", nb, na > nb ? na - nb : nb - na,
                na > nb ? "baseline" : "new run");
            st = warn(pr, &t);
        }
    }
    if (st == SOCMON_OK && more) {
        text t = {0};
        add(&t, "and %zu more kinds of %s differ in number", more, noun);
        st = warn(pr, &t);
    }
    return st;
}

socmon_status smn_pairing_make(const socmon_run *a, const socmon_run *b, smn_pairing *pr)
{
    memset(pr, 0, sizeof *pr);
    layout la = {0}, lb = {0};
    socmon_status st = build(a, &la);
    if (st == SOCMON_OK)
        st = build(b, &lb);
    int types = la.all_types && lb.all_types;
    for (int side = 0; side < 2; side++) {
        layout *l = side ? &lb : &la;
        for (size_t i = 0; i < l->n; i++)
            l->p[i].kind = types ? l->p[i].type : l->p[i].sig;
    }
    pr->mode = st == SOCMON_OK ? choose(&la, &lb) : "name";
    if (st == SOCMON_OK)
        st = tokens(&la, pr->mode);
    if (st == SOCMON_OK)
        st = tokens(&lb, pr->mode);
    if (st == SOCMON_OK)
        st = keys(a, &la, &pr->ka, &pr->na);
    if (st == SOCMON_OK)
        st = keys(b, &lb, &pr->kb, &pr->nb);
    if (st == SOCMON_OK && strcmp(pr->mode, "name") != 0)
        st = note(&la, &lb, types ? "tile" : "instance", pr);
    if (st == SOCMON_OK && strcmp(pr->mode, "kind") == 0)
        st = warnings(&la, &lb, types ? "tile" : "instance", pr);
    layout_free(&la);
    layout_free(&lb);
    if (st != SOCMON_OK)
        smn_pairing_free(pr);
    return st;
}

void smn_pairing_free(smn_pairing *p)
{
    for (size_t i = 0; p->ka && i < p->na; i++)
        free(p->ka[i]);
    for (size_t i = 0; p->kb && i < p->nb; i++)
        free(p->kb[i]);
    for (size_t i = 0; i < p->nwarnings; i++)
        free(p->warnings[i]);
    free(p->ka);
    free(p->kb);
    free(p->note);
    free(p->warnings);
    memset(p, 0, sizeof *p);
}
