/* Binding a metric set to a schema: every name is resolved once, here, and
 * each result is compiled to straight-line stack code (metrics_code.h).
 *
 * Resolution order for a name: an earlier metric of the file, a counter, a
 * parameter, interval_s. A name absent from the schema skips its metric (a
 * partial read still gives the metrics it can); a name of a later metric, a
 * too-large program or a bad schema is an error. See docs/metrics.md. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "metrics/metrics_code.h"
#include "metrics/metrics_internal.h"

typedef struct cref {
    const char *name;
    uint32_t idx;
    int inst;   /* instance index, -1 for a device-wide counter */
} cref;

typedef struct iref {
    const char *name;
    uint32_t idx;
} iref;

typedef struct binder {
    socmon_metrics *m;
    const socmon_metricset *ms;
    const socmon_metric_schema *sc;
    cref *byname;       /* counters sorted by (name, instance index, schema index) */
    iref *inst_sorted;  /* instances sorted by name, for "inst.name" */
    smn_strmap params;   /* parameter name -> index (the first of a name counts) */
    int **mres;         /* per metric: result index per instance, or [0] if device-wide */
    char *mper;         /* per metric: compiled per instance */
    char *mabsent;      /* per metric: reads a name the schema lacks (as NaN), itself or through
                           an earlier metric */
    size_t cur;         /* metric being bound */
    size_t depth;       /* stack depth while compiling */
    int *agg;           /* per node of the current metric: its temp slot, or -1 */
    char reason[256];   /* why the current metric is skipped */
} binder;

enum { R_OK, R_NOTHERE, R_SKIP };   /* or a negative socmon_status */

typedef struct resolved {
    opcode op;
    uint32_t a, n;
    double k;
    /* OP_DSUM over byname[lo..hi) or OP_RSUM over metric j's results is built on emit */
    size_t lo, hi;
    size_t metric;
} resolved;

static socmon_status oom(void)
{
    return socmon_fail(SOCMON_ENOMEM, "out of memory binding metrics");
}

static int cref_cmp(const void *x, const void *y)
{
    const cref *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    if (c)
        return c;
    if (a->inst != b->inst)
        return a->inst < b->inst ? -1 : 1;
    return (a->idx > b->idx) - (a->idx < b->idx);
}

/* <0, 0, >0 as the counter name s sorts before, equal to, after name[0..len). */
static int name_cmp(const char *s, const char *name, size_t len)
{
    int c = strncmp(s, name, len);
    return c ? c : s[len] != '\0';
}

/* [lo, hi) of the counters called name (binary searches: a name may be
 * shared by thousands of instances). */
static void name_range(const binder *b, const char *name, size_t len, size_t *lo, size_t *hi)
{
    size_t l = 0, h = b->sc->ncounters;
    while (l < h) {
        size_t mid = l + (h - l) / 2;
        if (name_cmp(b->byname[mid].name, name, len) < 0)
            l = mid + 1;
        else
            h = mid;
    }
    *lo = l;
    h = b->sc->ncounters;
    while (l < h) {
        size_t mid = l + (h - l) / 2;
        if (name_cmp(b->byname[mid].name, name, len) <= 0)
            l = mid + 1;
        else
            h = mid;
    }
    *hi = l;
}

static long find_counter(const binder *b, const char *name, int inst)
{
    size_t lo, hi;
    name_range(b, name, strlen(name), &lo, &hi);
    while (lo < hi) {   /* the range is sorted by instance */
        size_t mid = lo + (hi - lo) / 2;
        if (b->byname[mid].inst < inst)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = b->sc->ncounters;
    if (lo < end && b->byname[lo].inst == inst && strcmp(b->byname[lo].name, name) == 0)
        return b->byname[lo].idx;
    return -1;
}

/* Through the set's name map: every name of every metric is looked up here,
 * and a scan of the set per name made binding 40,000 metrics take a minute. */
static long find_metric(const binder *b, const char *name)
{
    size_t j;
    return smn_strmap_find(&b->ms->names, name, &j) ? (long)j : -1;
}

/* Compares the instance called name[0..len) with a NUL-terminated one. */
static int inst_cmp(const char *name, size_t len, const char *inst)
{
    int c = strncmp(name, inst, len);
    return c ? c : inst[len] ? -1 : 0;
}

static int find_inst(const binder *b, const char *name, size_t len)
{
    size_t lo = 0, hi = b->m->ninst;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = inst_cmp(name, len, b->inst_sorted[mid].name);
        if (c == 0)
            return (int)b->inst_sorted[mid].idx;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return -1;
}

static int skip(binder *b, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static int skip(binder *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(b->reason, sizeof b->reason, fmt, ap);
    va_end(ap);
    return R_SKIP;
}

/* A name the schema lacks: skips the metric, or (a file with "absent":
 * "undefined") reads as NaN, so the metric still gives its result. */
static int absent_nan(binder *b, resolved *r)
{
    int own = b->ms->m[b->cur].absent;
    if (own == 0 || (own < 0 && !b->ms->absent_undefined))
        return 0;
    b->mabsent[b->cur] = 1;
    r->op = OP_CONST;
    r->k = NAN;
    return 1;
}

static int later_metric(const binder *b, long j, const char *name)
{
    const char *self = b->ms->m[b->cur].name;
    if ((size_t)j == b->cur)
        return socmon_fail(SOCMON_EPARSE, "metric '%s' (metrics[%zu]) uses itself", self,
                           b->cur);
    return socmon_fail(SOCMON_EPARSE,
                       "metric '%s' (metrics[%zu]) uses '%s', a metric defined after it "
                       "(metrics[%ld]); a metric can only use earlier ones",
                       self, b->cur, name, j);
}

/* "inst.name": one instance's counter or per-instance metric, in any context. */
static int resolve_dotted(binder *b, const char *name, const char *dot, resolved *r)
{
    int ii = find_inst(b, name, (size_t)(dot - name));
    const char *n = dot + 1;
    if (ii < 0) {
        char inst[128];
        snprintf(inst, sizeof inst, "%.*s", (int)(dot - name), name);
        if (absent_nan(b, r))
            return R_OK;
        return skip(b, "instance '%s' (in '%s') is not in the schema", inst, name);
    }
    long j = find_metric(b, n);
    if (j >= 0 && (size_t)j < b->cur) {
        if (b->m->skipped[j])
            return skip(b, "uses metric '%s', which is skipped", n);
        b->mabsent[b->cur] |= b->mabsent[j];
        int res = b->mper[j] ? b->mres[j][ii] : b->mres[j][0];
        if (res < 0)
            return skip(b, "metric '%s' has no result for '%s'", n, name);
        r->op = OP_RES;
        r->a = (uint32_t)res;
        return R_OK;
    }
    long c = find_counter(b, n, ii);
    if (c >= 0) {
        r->op = OP_DELTA;
        r->a = (uint32_t)c;
        return R_OK;
    }
    if (j >= 0)
        return later_metric(b, j, n);
    if (absent_nan(b, r))
        return R_OK;
    return skip(b, "counter '%s' is not in the schema", name);
}

/* inst >= 0: bare names mean that instance's; -1: device-wide (sums).
 * *own is set when the name is the instance's own counter or metric result. */
static int resolve(binder *b, const char *name, int inst, resolved *r, int *own)
{
    memset(r, 0, sizeof *r);
    const char *dot = smn_expr_name_dot(name);
    if (dot)
        return resolve_dotted(b, name, dot, r);
    long j = find_metric(b, name);
    if (j >= 0 && (size_t)j < b->cur) {
        if (b->m->skipped[j])
            return skip(b, "uses metric '%s', which is skipped", name);
        b->mabsent[b->cur] |= b->mabsent[j];
        if (!b->mper[j]) {
            r->op = OP_RES;
            r->a = (uint32_t)b->mres[j][0];
        } else if (inst < 0) {
            r->op = OP_RSUM;
            r->metric = (size_t)j;
        } else {
            if (b->mres[j][inst] < 0)
                return R_NOTHERE;
            r->op = OP_RES;
            r->a = (uint32_t)b->mres[j][inst];
            *own = 1;
        }
        return R_OK;
    }
    size_t lo, hi;
    name_range(b, name, strlen(name), &lo, &hi);
    if (lo < hi) {
        if (inst < 0) {
            r->op = OP_DSUM;
            r->lo = lo, r->hi = hi;
            return R_OK;
        }
        long c = find_counter(b, name, inst);
        if (c >= 0)
            *own = 1;
        else if ((c = find_counter(b, name, -1)) < 0)
            return R_NOTHERE;
        r->op = OP_DELTA;
        r->a = (uint32_t)c;
        return R_OK;
    }
    size_t p;
    if (smn_strmap_find(&b->params, name, &p)) {
        r->op = OP_CONST;
        r->k = b->sc->param_values[p];
        return R_OK;
    }
    if (strcmp(name, "interval_s") == 0) {
        r->op = OP_INTERVAL;
        return R_OK;
    }
    if (j >= 0)
        return later_metric(b, j, name);
    if (absent_nan(b, r))
        return R_OK;
    return skip(b, "'%s' is not a counter, parameter or earlier metric of this schema", name);
}

/* Instance-independent checks over the whole tree: unknown names skip the
 * metric, later metrics are errors. */
static int check_names(binder *b, const expr_tree *t)
{
    for (int i = 0; i < t->n; i++) {
        if (t->nodes[i].kind != EX_NAME)
            continue;
        resolved r;
        int own = 0;
        int st = resolve(b, t->nodes[i].name, -1, &r, &own);
        if (st != R_OK)
            return st;
    }
    return R_OK;
}

/* Whether instance inst has every name node uses outside aggregates (which
 * choose their own instances); *own as in resolve(). */
static int qualifies(binder *b, const expr_tree *t, int node, int inst, int *own)
{
    const expr_node *n = &t->nodes[node];
    resolved r;
    switch (n->kind) {
    case EX_NUM:
        return 1;
    case EX_NAME:
        return resolve(b, n->name, inst, &r, own) == R_OK;
    case EX_CALL:
        if (smn_expr_fn_is_aggregate(n->op, n->nargs))
            return 1;
        for (int a = n->a; a >= 0; a = t->nodes[a].next)
            if (!qualifies(b, t, a, inst, own))
                return 0;
        return 1;
    default:
        return (n->a < 0 || qualifies(b, t, n->a, inst, own)) &&
               (n->b < 0 || qualifies(b, t, n->b, inst, own)) &&
               (n->c < 0 || qualifies(b, t, n->c, inst, own));
    }
}

static socmon_status emit(binder *b, opcode op, uint32_t a, uint32_t n, double k, int push)
{
    socmon_metrics *m = b->m;
    if (m->ncode >= SOCMON_METRICS_MAX_CODE)
        return socmon_fail(SOCMON_ERANGE,
                           "metric '%s' (metrics[%zu]): compiled code exceeds %u instructions",
                           b->ms->m[b->cur].name, b->cur, SOCMON_METRICS_MAX_CODE);
    if (m->ncode == m->capcode) {
        size_t cap = m->capcode ? m->capcode * 2 : 64;
        insn *nc = realloc(m->code, cap * sizeof *nc);
        if (!nc)
            return oom();
        m->code = nc;
        m->capcode = cap;
    }
    /* Peephole: a binary operator whose right operand is a single push takes
     * that operand from the instruction itself (n = 1 + the push's opcode),
     * halving dispatches in typical expressions like "hits / cycles". No
     * jumps exist, so the push cannot be the target of one. */
    if (op >= OP_ADD && op <= OP_OR && m->ncode > 0) {
        insn *prev = &m->code[m->ncode - 1];
        if (prev->op == OP_CONST || prev->op == OP_DELTA || prev->op == OP_RES ||
            prev->op == OP_TGET || prev->op == OP_INTERVAL) {
            *prev = (insn){op, prev->a, 1 + prev->op, prev->k};
            b->depth = (size_t)((long)b->depth + push);
            return SOCMON_OK;
        }
    }
    m->code[m->ncode++] = (insn){op, a, n, k};
    b->depth = (size_t)((long)b->depth + push);
    if (b->depth > m->maxstack)
        m->maxstack = b->depth;
    return SOCMON_OK;
}

static socmon_status pool_add(binder *b, uint32_t v)
{
    socmon_metrics *m = b->m;
    if (m->npool >= SOCMON_METRICS_MAX_CODE)
        return socmon_fail(SOCMON_ERANGE, "metric '%s' (metrics[%zu]): sums exceed %u terms",
                           b->ms->m[b->cur].name, b->cur, SOCMON_METRICS_MAX_CODE);
    if (m->npool == m->cappool) {
        size_t cap = m->cappool ? m->cappool * 2 : 64;
        uint32_t *np = realloc(m->pool, cap * sizeof *np);
        if (!np)
            return oom();
        m->pool = np;
        m->cappool = cap;
    }
    m->pool[m->npool++] = v;
    return SOCMON_OK;
}

static socmon_status emit_name(binder *b, const char *name, int inst)
{
    resolved r;
    int own = 0;
    if (resolve(b, name, inst, &r, &own) != R_OK)   /* checked by check_names/qualifies */
        return socmon_fail(SOCMON_ESTATE, "internal: '%s' did not resolve", name);
    uint32_t start = (uint32_t)b->m->npool, n = 0;
    socmon_status st;
    if (r.op == OP_DSUM) {
        if (r.hi - r.lo == 1)
            return emit(b, OP_DELTA, b->byname[r.lo].idx, 0, 0, 1);
        for (size_t i = r.lo; i < r.hi; i++, n++)
            if ((st = pool_add(b, b->byname[i].idx)))
                return st;
        return emit(b, OP_DSUM, start, n, 0, 1);
    }
    if (r.op == OP_RSUM) {
        for (size_t i = 0; i < b->m->ninst; i++)
            if (b->mres[r.metric][i] >= 0) {
                if ((st = pool_add(b, (uint32_t)b->mres[r.metric][i])))
                    return st;
                n++;
            }
        return emit(b, OP_RSUM, start, n, 0, 1);
    }
    return emit(b, r.op, r.a, 0, r.k, 1);
}

static socmon_status compile(binder *b, const expr_tree *t, int node, int inst);

static socmon_status compile_aggregate(binder *b, const expr_tree *t, const expr_node *n);

/* An aggregate chooses its own instances, so its value is the same in every
 * result of the metric: compute it once (OP_TSET) and reuse it (OP_TGET).
 * The program has no jumps, so the first use always runs before the others. */
static socmon_status compile_aggregate_once(binder *b, const expr_tree *t, int node)
{
    if (b->agg[node] >= 0)
        return emit(b, OP_TGET, (uint32_t)b->agg[node], 0, 0, 1);
    socmon_status st = compile_aggregate(b, t, &t->nodes[node]);
    if (st)
        return st;
    if (b->m->ntemps >= SOCMON_METRICS_MAX_CODE)
        return socmon_fail(SOCMON_ERANGE, "too many aggregates (limit %u)",
                           SOCMON_METRICS_MAX_CODE);
    b->agg[node] = (int)b->m->ntemps++;
    return emit(b, OP_TSET, (uint32_t)b->agg[node], 0, 0, 0);
}

/* sum/avg/count/min/max over the instances that have what the argument uses. */
static socmon_status compile_aggregate(binder *b, const expr_tree *t, const expr_node *n)
{
    uint32_t cnt = 0;
    socmon_status st;
    if (b->m->ninst == 0) {   /* no instances: the device is the one instance */
        if (n->op == FN_COUNT)
            return emit(b, OP_CONST, 0, 0, 1, 1);
        if ((st = compile(b, t, n->a, -1)))
            return st;
        cnt = 1;
    } else {
        for (size_t i = 0; i < b->m->ninst; i++) {
            int own = 0;
            if (!qualifies(b, t, n->a, (int)i, &own) || !own)
                continue;
            if (n->op != FN_COUNT && (st = compile(b, t, n->a, (int)i)))
                return st;
            if (n->op == FN_SUM && cnt > 0 && (st = emit(b, OP_ADD, 0, 0, 0, -1)))
                return st;
            cnt++;
        }
    }
    if (n->op == FN_COUNT)
        return emit(b, OP_CONST, 0, 0, cnt, 1);
    if (cnt == 0)
        return emit(b, OP_CONST, 0, 0, n->op == FN_SUM ? 0.0 : NAN, 1);
    switch (n->op) {
    case FN_SUM:
        return SOCMON_OK;
    case FN_AVG:
        return emit(b, OP_AVG, 0, cnt, 0, 1 - (int)cnt);
    case FN_MIN:
        return emit(b, OP_MIN, 0, cnt, 0, 1 - (int)cnt);
    default:
        return emit(b, OP_MAX, 0, cnt, 0, 1 - (int)cnt);
    }
}

static socmon_status compile(binder *b, const expr_tree *t, int node, int inst)
{
    static const opcode binops[] = {
        [OPX_ADD] = OP_ADD, [OPX_SUB] = OP_SUB, [OPX_MUL] = OP_MUL, [OPX_DIV] = OP_DIV,
        [OPX_MOD] = OP_MOD, [OPX_LT] = OP_LT, [OPX_LE] = OP_LE, [OPX_GT] = OP_GT,
        [OPX_GE] = OP_GE, [OPX_EQ] = OP_EQ, [OPX_NE] = OP_NE, [OPX_AND] = OP_AND,
        [OPX_OR] = OP_OR};
    const expr_node *n = &t->nodes[node];
    socmon_status st;
    switch (n->kind) {
    case EX_NUM:
        return emit(b, OP_CONST, 0, 0, n->num, 1);
    case EX_NAME:
        return emit_name(b, n->name, inst);
    case EX_UNARY:
        if ((st = compile(b, t, n->a, inst)))
            return st;
        return emit(b, n->op == OPX_NEG ? OP_NEG : OP_NOT, 0, 0, 0, 0);
    case EX_BINARY:
        if ((st = compile(b, t, n->a, inst)) || (st = compile(b, t, n->b, inst)))
            return st;
        return emit(b, binops[n->op], 0, 0, 0, -1);
    case EX_COND:
        if ((st = compile(b, t, n->a, inst)) || (st = compile(b, t, n->b, inst)) ||
            (st = compile(b, t, n->c, inst)))
            return st;
        return emit(b, OP_SEL, 0, 0, 0, -2);
    case EX_CALL:
        if (smn_expr_fn_is_aggregate(n->op, n->nargs))
            return compile_aggregate_once(b, t, node);
        for (int a = n->a; a >= 0; a = t->nodes[a].next)
            if ((st = compile(b, t, a, inst)))
                return st;
        switch (n->op) {
        case FN_ABS:
            return emit(b, OP_ABS, 0, 0, 0, 0);
        case FN_SQRT:
            return emit(b, OP_SQRT, 0, 0, 0, 0);
        case FN_MIN:
            return emit(b, OP_MIN, 0, (uint32_t)n->nargs, 0, 1 - n->nargs);
        case FN_MAX:
            return emit(b, OP_MAX, 0, (uint32_t)n->nargs, 0, 1 - n->nargs);
        default:
            return emit(b, OP_ARGMAX, 0, (uint32_t)n->nargs, 0, 1 - n->nargs);
        }
    }
    return socmon_fail(SOCMON_ESTATE, "internal: bad expression node");
}

static socmon_status add_result(binder *b, const char *inst, int *res)
{
    socmon_metrics *m = b->m;
    if (m->nres == m->capres) {
        size_t cap = m->capres ? m->capres * 2 : 16;
        socmon_metric_result_info *nr = realloc(m->res, cap * sizeof *nr);
        if (!nr)
            return oom();
        m->res = nr;
        m->capres = cap;
    }
    m->res[m->nres] = (socmon_metric_result_info){.def = &b->ms->m[b->cur].def, .instance = inst,
        .absent = b->mabsent[b->cur]};
    *res = (int)m->nres++;
    return SOCMON_OK;
}

static socmon_status compile_result(binder *b, const expr_tree *t, int inst, int *res)
{
    socmon_status st = add_result(b, inst < 0 ? "" : b->m->inst[inst], res);
    if (!st)
        st = compile(b, t, t->root, inst);
    if (!st)
        st = emit(b, OP_STORE, (uint32_t)*res, 0, 0, -1);
    return st;
}

static socmon_status bind_metric(binder *b)
{
    const metric *mt = &b->ms->m[b->cur];
    socmon_metrics *m = b->m;
    size_t nslots = b->mper[b->cur] ? m->ninst : 1;
    if (!(b->mres[b->cur] = malloc((nslots ? nslots : 1) * sizeof(int))))
        return oom();
    for (size_t i = 0; i < nslots; i++)
        b->mres[b->cur][i] = -1;
    free(b->agg);
    if (!(b->agg = malloc((size_t)(mt->tree.n ? mt->tree.n : 1) * sizeof(int))))
        return oom();
    for (int i = 0; i < mt->tree.n; i++)
        b->agg[i] = -1;
    int st = check_names(b, &mt->tree);
    if (st < 0)
        return (socmon_status)st;
    if (st == R_OK && !b->mper[b->cur])
        return compile_result(b, &mt->tree, -1, &b->mres[b->cur][0]);
    if (st == R_OK) {
        size_t got = 0;
        for (size_t i = 0; i < m->ninst; i++) {
            int own = 0;
            if (!qualifies(b, &mt->tree, mt->tree.root, (int)i, &own) || !own)
                continue;
            socmon_status cs = compile_result(b, &mt->tree, (int)i, &b->mres[b->cur][i]);
            if (cs)
                return cs;
            got++;
        }
        if (got)
            return SOCMON_OK;
        snprintf(b->reason, sizeof b->reason,
                 "no instance has every counter and per-instance metric it uses");
    }
    if (!(m->skipped[b->cur] = strdup(b->reason)))
        return oom();
    return SOCMON_OK;
}

static socmon_status check_schema(const socmon_metric_schema *sc)
{
    if (sc->ncounters && !sc->counters)
        return socmon_fail(SOCMON_EINVAL, "schema: %zu counters but counters is NULL",
                           sc->ncounters);
    if (sc->ncounters > UINT32_MAX)
        return socmon_fail(SOCMON_ERANGE, "schema: %zu counters, limit %u", sc->ncounters,
                           UINT32_MAX);
    if (sc->nparams && (!sc->param_names || !sc->param_values))
        return socmon_fail(SOCMON_EINVAL, "schema: %zu params but names or values are NULL",
                           sc->nparams);
    for (size_t i = 0; i < sc->ncounters; i++)
        if (!sc->counters[i].name || !*sc->counters[i].name)
            return socmon_fail(SOCMON_EINVAL, "schema: counter %zu has no name", i);
    return SOCMON_OK;
}

static int iref_cmp(const void *x, const void *y)
{
    const iref *a = x, *b = y;
    int c = strcmp(a->name, b->name);
    return c ? c : (a->idx > b->idx) - (a->idx < b->idx);
}

static int u32_cmp(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* Instances in schema order of first appearance: counters sorted by
 * (instance, index) give each instance's first counter; O(n log n), as a
 * schema may hold thousands of instances. */
static socmon_status index_schema(binder *b)
{
    const socmon_metric_schema *sc = b->sc;
    socmon_metrics *m = b->m;
    size_t n = sc->ncounters ? sc->ncounters : 1;
    iref *ir = malloc(n * sizeof *ir);
    int *cinst = malloc(n * sizeof *cinst);
    uint32_t *first = malloc(n * sizeof *first);
    socmon_status st = SOCMON_OK;
    if (!ir || !cinst || !first || !(b->byname = malloc(n * sizeof *b->byname)) ||
        !(m->inst = calloc(n, sizeof *m->inst)) ||
        !(b->inst_sorted = malloc(n * sizeof *b->inst_sorted))) {
        st = oom();
        goto out;
    }
    size_t nir = 0;
    for (size_t i = 0; i < sc->ncounters; i++) {
        const char *in = sc->counters[i].instance ? sc->counters[i].instance : "";
        cinst[i] = -1;
        if (*in)
            ir[nir++] = (iref){in, (uint32_t)i};
    }
    qsort(ir, nir, sizeof *ir, iref_cmp);
    /* first[k]: schema index of the first counter of the k-th distinct name */
    size_t nd = 0;
    for (size_t i = 0; i < nir; i++)
        if (i == 0 || strcmp(ir[i].name, ir[i - 1].name) != 0)
            first[nd++] = ir[i].idx;
    /* ascending first counters: instance numbers follow first appearance */
    qsort(first, nd, sizeof *first, u32_cmp);
    for (size_t j = 0; j < nd; j++) {
        const char *in = sc->counters[first[j]].instance;
        if (!(m->inst[j] = strdup(in))) {
            st = oom();
            goto out;
        }
        m->ninst = j + 1;
        b->inst_sorted[j] = (iref){m->inst[j], (uint32_t)j};
    }
    qsort(b->inst_sorted, nd, sizeof *b->inst_sorted, iref_cmp);
    for (size_t i = 0; i < nir; i++) {
        int ii = find_inst(b, ir[i].name, strlen(ir[i].name));
        cinst[ir[i].idx] = ii;
    }
    for (size_t i = 0; i < sc->ncounters; i++)
        b->byname[i] = (cref){sc->counters[i].name, (uint32_t)i, cinst[i]};
    qsort(b->byname, sc->ncounters, sizeof *b->byname, cref_cmp);
    if (smn_strmap_reserve(&b->params, sc->nparams)) {
        st = oom();
        goto out;
    }
    for (size_t p = 0; p < sc->nparams; p++)
        if (sc->param_names[p])   /* reserved: cannot fail */
            smn_strmap_insert(&b->params, sc->param_names[p], p, NULL);
out:
    free(ir);
    free(cinst);
    free(first);
    return st;
}

void socmon_metrics_free(socmon_metrics *m)
{
    if (!m)
        return;
    if (m->inst)
        for (size_t i = 0; i < m->ninst; i++)
            free(m->inst[i]);
    free(m->inst);
    if (m->skipped && m->ms)
        for (size_t j = 0; j < m->ms->n; j++)
            free(m->skipped[j]);
    free(m->skipped);
    free(m->code);
    free(m->pool);
    free(m->stack);
    free(m->temps);
    free(m->res);
    free(m);
}

socmon_status socmon_metrics_bind(const socmon_metricset *ms, const socmon_metric_schema *schema,
                                  socmon_metrics **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_metrics_bind: out is NULL");
    *out = NULL;
    if (!ms || !schema)
        return socmon_fail(SOCMON_EINVAL, "socmon_metrics_bind: %s is NULL",
                           ms ? "schema" : "metric set");
    socmon_status st = smn_check_size("socmon_metric_schema", schema->size, sizeof *schema);
    if (st == SOCMON_OK)
        st = check_schema(schema);
    if (st)
        return st;
    binder b = {.ms = ms, .sc = schema};
    socmon_metrics *m = b.m = calloc(1, sizeof *m);
    if (!m)
        return oom();
    m->ms = ms;
    m->ncounters = schema->ncounters;
    size_t nm = ms->n ? ms->n : 1;
    if (!(m->skipped = calloc(nm, sizeof *m->skipped)) ||
        !(b.mres = calloc(nm, sizeof *b.mres)) || !(b.mper = calloc(nm, 1)) ||
        !(b.mabsent = calloc(nm, 1)))
        st = oom();
    if (!st)
        st = index_schema(&b);
    for (b.cur = 0; !st && b.cur < ms->n; b.cur++) {
        b.mper[b.cur] = (char)(ms->m[b.cur].def.per_instance && m->ninst > 0);
        st = bind_metric(&b);
    }
    if (!st && (!(m->stack = malloc((m->maxstack ? m->maxstack : 1) * sizeof *m->stack)) ||
                !(m->temps = calloc(m->ntemps ? m->ntemps : 1, sizeof *m->temps))))
        st = oom();
    if (b.mres)
        for (size_t j = 0; j < ms->n; j++)
            free(b.mres[j]);
    free(b.mres);
    free(b.mper);
    free(b.mabsent);
    free(b.byname);
    free(b.inst_sorted);
    smn_strmap_free(&b.params);
    free(b.agg);
    if (st) {
        socmon_metrics_free(m);
        return st;
    }
    *out = m;
    return SOCMON_OK;
}

size_t socmon_metrics_nresults(const socmon_metrics *m)
{
    return m ? m->nres : 0;
}

const socmon_metric_result_info *socmon_metrics_result(const socmon_metrics *m, size_t i)
{
    return m && i < m->nres ? &m->res[i] : NULL;
}

const char *socmon_metrics_skipped(const socmon_metrics *m, size_t i)
{
    return m && i < m->ms->n ? m->skipped[i] : NULL;
}
