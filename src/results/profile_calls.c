/* The call tree's views (socmon/profile.h): per function self and inclusive counts, caller ->
 * callee edges, and folded stacks. Inclusive counts sum a frame with everything below it; a
 * function (or an edge) met again below one of its own frames is not added again, so recursion
 * counts once and no inclusive value exceeds the total. A frame entered by a trap or an interrupt
 * (its node's trap) is shown as one: its edge is caller -> [trap] handler, apart from ordinary
 * calls of the same function, and its folded frame is named "[trap] handler". */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/grow.h"
#include "socmon/profile.h"

typedef struct calls_priv {
    socmon_profile_calls c;
    uint64_t *block;              /* every value array of the result */
} calls_priv;

static uint64_t mask(const socmon_profile *p, size_t k)
{
    return p->widths[k] >= 64 ? UINT64_MAX : (UINT64_C(1) << p->widths[k]) - 1;
}

/* 1 if an ancestor of node i (not i) is a frame of func. */
static int under_same(const socmon_profile *p, size_t i, size_t func)
{
    for (size_t a = p->nodes[i].parent; a != 0; a = p->nodes[a].parent)
        if (p->nodes[a].func == func)
            return 1;
    return 0;
}

/* 1 if an ancestor a of node i (not i) is the same caller -> callee edge as i (a trap's edge
 * and a call's are not the same). */
static int under_same_edge(const socmon_profile *p, size_t i)
{
    size_t callee = p->nodes[i].func, caller = p->nodes[p->nodes[i].parent].func;
    int trap = p->nodes[i].trap != 0;
    for (size_t a = p->nodes[i].parent; a != 0 && p->nodes[a].parent != 0; a = p->nodes[a].parent)
        if (p->nodes[a].func == callee && (p->nodes[a].trap != 0) == trap &&
            p->nodes[p->nodes[a].parent].func == caller)
            return 1;
    return 0;
}

static int by_incl(const void *a, const void *b)
{
    const socmon_profile_fn *x = a, *y = b;
    if (x->incl[0] != y->incl[0])
        return x->incl[0] > y->incl[0] ? -1 : 1;
    return x->func < y->func ? -1 : x->func > y->func;
}

static int edge_by_incl(const void *a, const void *b)
{
    const socmon_profile_edge *x = a, *y = b;
    if (x->incl[0] != y->incl[0])
        return x->incl[0] > y->incl[0] ? -1 : 1;
    if (x->caller != y->caller)
        return x->caller < y->caller ? -1 : 1;
    if (x->callee != y->callee)
        return x->callee < y->callee ? -1 : 1;
    return x->trap < y->trap ? -1 : x->trap > y->trap;
}

socmon_status socmon_profile_calls_new(const socmon_profile *p, socmon_profile_calls **out)
{
    if (!p || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_calls_new: NULL argument");
    *out = NULL;
    size_t E = p->nevents, N = p->nnodes, F = p->nfuncs;
    calls_priv *cp = calloc(1, sizeof *cp);
    /* values: per node inclusive (N), per function self and incl (2F), per edge (N at most), root */
    uint64_t *incl = cp ? calloc((N + 2 * F + N + 1) * E, sizeof *incl) : NULL;
    socmon_profile_fn *fns = calloc(F, sizeof *fns);
    socmon_profile_edge *edges = calloc(N ? N : 1, sizeof *edges);
    size_t *edge_of = calloc(N ? N : 1, sizeof *edge_of);   /* node -> 1 + its edge */
    uint8_t *ran = calloc(F, 1);
    if (!cp || !incl || !fns || !edges || !edge_of || !ran) {
        free(cp);
        free(incl);
        free(fns);
        free(edges);
        free(edge_of);
        free(ran);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for the call tree's views");
    }
    uint64_t *fself = incl + N * E, *fincl = fself + F * E, *eincl = fincl + F * E, *root = eincl + N * E;
    socmon_profile_calls *c = &cp->c;
    cp->block = incl;
    c->nevents = E;
    c->root = root;
    /* each node's inclusive: its self plus its children's (children come after their parents) */
    for (size_t i = 0; i < N; i++)
        for (size_t k = 0; k < E; k++)
            incl[i * E + k] = p->nodes[i].v[k];
    for (size_t i = N; i-- > 1;)
        for (size_t k = 0; k < E; k++)
            incl[p->nodes[i].parent * E + k] += incl[i * E + k];
    for (size_t k = 0; k < E; k++)
        root[k] = incl[k] & mask(p, k);
    /* functions */
    for (size_t i = 1; i < N; i++) {
        const socmon_profile_node *n = &p->nodes[i];
        ran[n->func] = 1;
        fns[n->func].calls += n->calls;
        for (size_t k = 0; k < E; k++)
            fself[n->func * E + k] += n->v[k];
        if (!under_same(p, i, n->func))
            for (size_t k = 0; k < E; k++)
                fincl[n->func * E + k] += incl[i * E + k];
    }
    /* the chain of totals: the tree's self per function is its instructions' */
    uint64_t *iself = calloc(F * E, sizeof *iself);
    if (!iself) {
        socmon_profile_calls_free(c);
        free(fns);
        free(edges);
        free(edge_of);
        free(ran);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for the call tree's views");
    }
    for (size_t i = 0; i < p->ninsns; i++)
        for (size_t k = 0; k < E; k++)
            iself[p->insns[i].func * E + k] += p->insns[i].v[k];
    for (size_t f = 0; f < F; f++)
        for (size_t k = 0; k < E; k++)
            if (((fself[f * E + k] - iself[f * E + k]) & mask(p, k)) != 0)
                c->mismatch = 1;
    free(iself);
    for (size_t k = 0; k < E; k++)
        if (root[k] != (p->total[k] & mask(p, k)))
            c->mismatch = 1;
    size_t nf = 0;
    for (size_t f = 0; f < F; f++) {
        if (!ran[f])
            continue;
        fns[nf] = (socmon_profile_fn){.func = f, .calls = fns[f].calls, .self = fself + f * E, .incl = fincl + f * E};
        for (size_t k = 0; k < E; k++) {
            fns[nf].self[k] &= mask(p, k);
            fns[nf].incl[k] &= mask(p, k);
        }
        nf++;
    }
    qsort(fns, nf, sizeof *fns, by_incl);
    c->fns = fns;
    c->nfns = nf;
    /* edges: one per (caller, callee, entered by a trap) met, nodes below the root's first frames */
    size_t ne = 0;
    for (size_t i = 1; i < N; i++) {
        size_t par = p->nodes[i].parent;
        if (par == 0)
            continue;
        size_t caller = p->nodes[par].func, callee = p->nodes[i].func, e = 0;
        int trap = p->nodes[i].trap != 0;
        /* the edge of a sibling with the same pair, or of an earlier node: search the few before */
        for (size_t j = 0; j < ne; j++)
            if (edges[j].caller == caller && edges[j].callee == callee && edges[j].trap == trap) {
                e = j + 1;
                break;
            }
        if (!e) {
            edges[ne] = (socmon_profile_edge){.caller = caller, .callee = callee, .incl = eincl + ne * E,
                                              .trap = trap};
            e = ++ne;
        }
        edge_of[i] = e;
        edges[e - 1].calls += p->nodes[i].calls;
        if (!under_same_edge(p, i))
            for (size_t k = 0; k < E; k++)
                edges[e - 1].incl[k] += incl[i * E + k];
    }
    for (size_t j = 0; j < ne; j++)
        for (size_t k = 0; k < E; k++)
            edges[j].incl[k] &= mask(p, k);
    qsort(edges, ne, sizeof *edges, edge_by_incl);
    c->edges = edges;
    c->nedges = ne;
    free(edge_of);
    free(ran);
    *out = c;
    return SOCMON_OK;
}

void socmon_profile_calls_free(socmon_profile_calls *c)
{
    if (!c)
        return;
    calls_priv *cp = (calls_priv *)c;
    free(cp->block);
    free(c->fns);
    free(c->edges);
    free(cp);
}

socmon_status socmon_profile_event(const socmon_profile *p, const char *name, size_t *k)
{
    if (!p || !name || !k)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_event: NULL argument");
    char list[512] = "";
    size_t u = 0;
    for (size_t i = 0; i < p->nevents; i++) {
        if (strcmp(p->events[i], name) == 0) {
            *k = i;
            return SOCMON_OK;
        }
        if (u < sizeof list)
            u += (size_t)snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", p->events[i]);
    }
    return socmon_fail(SOCMON_ENOENT, "no event '%s' in the profile (events: %s)", name, list);
}

/* ---- folded stacks ---- */

/* what names a frame entered by a trap or an interrupt, before its function's name */
#define TRAP_MARK "[trap] "

typedef struct line {
    char *s;
    uint64_t v;
} line;

static int by_text(const void *a, const void *b)
{
    return strcmp(((const line *)a)->s, ((const line *)b)->s);
}

socmon_status socmon_profile_folded(const socmon_profile *p, size_t k, char **text, size_t *len)
{
    if (!p || !text || k >= (p ? p->nevents : 0))
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_folded: NULL argument or event out of range");
    *text = NULL;
    line *v = NULL;
    size_t n = 0, cap = 0, total = 0;
    socmon_status st = SOCMON_OK;
    size_t *path = malloc((p->nnodes ? p->nnodes : 1) * sizeof *path);
    if (!path)
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for folded stacks");
    for (size_t i = 1; i < p->nnodes && st == SOCMON_OK; i++) {
        uint64_t val = p->nodes[i].v[k] & mask(p, k);
        if (!val)
            continue;
        size_t depth = 0, bytes = 32;
        for (size_t a = i; a != 0 && depth < p->nnodes; a = p->nodes[a].parent) {
            path[depth++] = a;
            bytes += strlen(p->funcs[p->nodes[a].func].name) + 1 + (p->nodes[a].trap ? sizeof TRAP_MARK - 1 : 0);
        }
        char *s = malloc(bytes);
        if (!s || (n == cap && SOCMON_GROW(v, cap, n, 64) != 0)) {
            free(s);
            st = socmon_fail(SOCMON_ENOMEM, "profile: out of memory for folded stacks");
            break;
        }
        size_t u = 0;
        while (depth--) {
            if (p->nodes[path[depth]].trap) {
                memcpy(s + u, TRAP_MARK, sizeof TRAP_MARK - 1);
                u += sizeof TRAP_MARK - 1;
            }
            size_t l = strlen(p->funcs[p->nodes[path[depth]].func].name);
            memcpy(s + u, p->funcs[p->nodes[path[depth]].func].name, l);
            u += l;
            s[u++] = depth ? ';' : '\0';
        }
        v[n++] = (line){s, val};
        total += u + 24;
    }
    free(path);
    char *out = st == SOCMON_OK ? malloc(total + 1) : NULL;
    if (st == SOCMON_OK && !out)
        st = socmon_fail(SOCMON_ENOMEM, "profile: out of memory for folded stacks");
    if (st == SOCMON_OK) {
        if (n)
            qsort(v, n, sizeof *v, by_text);
        size_t u = 0;
        for (size_t i = 0; i < n; i++)
            u += (size_t)snprintf(out + u, total + 1 - u, "%s %lld\n", v[i].s,
                                  (long long)socmon_profile_signed(p, k, v[i].v));
        out[u] = '\0';
        *text = out;
        if (len)
            *len = u;
    }
    for (size_t i = 0; i < n; i++)
        free(v[i].s);
    free(v);
    return st;
}
