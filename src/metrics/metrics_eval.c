/* Evaluation: one pass over the compiled program per interval.
 *
 * NaN means "undefined" (division by zero, 0/0, an average over nothing) and
 * flows through arithmetic, comparisons, logic and ?: conditions, so a metric
 * never shows a made-up number; min, max and argmax pick among the defined
 * values. See docs/metrics.md. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "metrics/metrics_code.h"
#include "metrics/metrics_internal.h"
#include "metrics/metrics_masked.h"

static double cmp(double a, double b, int r)
{
    return isnan(a) || isnan(b) ? NAN : r;
}

/* Index (in argument order) of the first largest defined value; -1 if none. */
static long first_max(const double *v, uint32_t n, int want_min)
{
    long best = -1;
    for (uint32_t i = 0; i < n; i++) {
        if (isnan(v[i]))
            continue;
        if (best < 0 || (want_min ? v[i] < v[best] : v[i] > v[best]))
            best = (long)i;
    }
    return best;
}

/* A counter's delta as the program reads it: NaN where bad marks it (an implausible delta,
 * analysis/value_flags.c), so whatever is computed from it is undefined too. */
static double delta_of(const uint64_t *deltas, const unsigned char *bad, uint32_t i)
{
    return bad && bad[i] ? NAN : (double)deltas[i];
}

void smn_metrics_run(const socmon_metrics *m, const uint64_t *deltas, const unsigned char *bad, double interval_s,
                 double *out)
{
    if (m->ncode == 0)   /* nothing bound: code may be NULL */
        return;
    double *sp = m->stack;
    const uint32_t *pool = m->pool;
    for (const insn *ip = m->code, *end = m->code + m->ncode; ip < end; ip++) {
        double a, b;
        switch ((opcode)ip->op) {
        case OP_CONST: *sp++ = ip->k; break;
        case OP_DELTA: *sp++ = delta_of(deltas, bad, ip->a); break;
        case OP_DSUM: {
            double s = 0;
            for (uint32_t i = 0; i < ip->n; i++)
                s += delta_of(deltas, bad, pool[ip->a + i]);
            *sp++ = s;
            break;
        }
        case OP_RES: *sp++ = out[ip->a]; break;
        case OP_RSUM: {
            double s = 0;
            for (uint32_t i = 0; i < ip->n; i++)
                s += out[pool[ip->a + i]];
            *sp++ = s;
            break;
        }
        case OP_INTERVAL: *sp++ = interval_s; break;
        case OP_NEG: sp[-1] = -sp[-1]; break;
        case OP_NOT: a = sp[-1]; sp[-1] = isnan(a) ? NAN : (a == 0); break;
        case OP_ABS: sp[-1] = fabs(sp[-1]); break;
        case OP_SQRT: a = sp[-1]; sp[-1] = a >= 0 ? sqrt(a) : NAN; break;
        case OP_STORE: out[ip->a] = *--sp; break;
        case OP_TSET: m->temps[ip->a] = sp[-1]; break;
        case OP_TGET: *sp++ = m->temps[ip->a]; break;
        case OP_SEL:
            sp -= 2;
            a = sp[-1];
            sp[-1] = isnan(a) ? NAN : a != 0 ? sp[0] : sp[1];
            break;
        case OP_MIN:
        case OP_MAX:
        case OP_ARGMAX:
        case OP_AVG: {
            double *v = sp - ip->n, r;
            if (ip->op == OP_AVG) {
                r = 0;
                for (uint32_t i = 0; i < ip->n; i++)
                    r += v[i];
                r /= ip->n;
            } else {
                long i = first_max(v, ip->n, ip->op == OP_MIN);
                r = i < 0 ? NAN : ip->op == OP_ARGMAX ? (double)i : v[i];
            }
            sp = v;
            *sp++ = r;
            break;
        }
        default:   /* binary */
            switch (ip->n) {
            case 0: b = *--sp; break;
            case 1 + OP_CONST: b = ip->k; break;
            case 1 + OP_DELTA: b = delta_of(deltas, bad, ip->a); break;
            case 1 + OP_RES: b = out[ip->a]; break;
            case 1 + OP_TGET: b = m->temps[ip->a]; break;
            default: b = interval_s; break;
            }
            a = sp[-1];
            switch ((opcode)ip->op) {
            case OP_ADD: a = a + b; break;
            case OP_SUB: a = a - b; break;
            case OP_MUL: a = a * b; break;
            case OP_DIV: a = b == 0 ? NAN : a / b; break;
            case OP_MOD: a = b == 0 ? NAN : fmod(a, b); break;
            case OP_LT: a = cmp(a, b, a < b); break;
            case OP_LE: a = cmp(a, b, a <= b); break;
            case OP_GT: a = cmp(a, b, a > b); break;
            case OP_GE: a = cmp(a, b, a >= b); break;
            case OP_EQ: a = cmp(a, b, a == b); break;
            case OP_NE: a = cmp(a, b, a != b); break;
            case OP_AND: a = cmp(a, b, a != 0 && b != 0); break;
            default: a = cmp(a, b, a != 0 || b != 0); break;
            }
            sp[-1] = a;
            break;
        }
    }
}

socmon_status socmon_metrics_eval(socmon_metrics *m, const uint64_t *deltas, double interval_s,
                                  double *out)
{
    if (!m || !out || (!deltas && m->ncounters))
        return socmon_fail(SOCMON_EINVAL, "socmon_metrics_eval: %s is NULL",
                           !m ? "metrics" : !out ? "out" : "deltas");
    smn_metrics_run(m, deltas, NULL, interval_s, out);
    return SOCMON_OK;
}

socmon_status smn_metrics_eval_masked(socmon_metrics *m, const uint64_t *deltas, const unsigned char *bad,
                                      double interval_s, double *out)
{
    if (!m || !out || (!deltas && m->ncounters))
        return socmon_fail(SOCMON_EINVAL, "metrics: eval of %s", !m ? "no metrics" : "NULL values");
    smn_metrics_run(m, deltas, bad, interval_s, out);
    return SOCMON_OK;
}

socmon_status socmon_expr_eval(const char *expr, const socmon_metric_schema *schema,
                               const uint64_t *deltas, double interval_s, double *out)
{
    if (!expr || !schema || !out || (!deltas && schema->ncounters))
        return socmon_fail(SOCMON_EINVAL, "socmon_expr_eval: %s is NULL",
                           !expr ? "expr" : !schema ? "schema" : !out ? "out" : "deltas");
    socmon_metricset ms = {0};
    metric mt;
    memset(&mt, 0, sizeof mt);
    mt.def.precision = -1;
    mt.absent = -1;
    /* Not an identifier, so no name in expr can refer to it. */
    if (!(mt.name = strdup("<expr>")) || !(mt.expr = strdup(expr))) {
        free(mt.name);
        return socmon_fail(SOCMON_ENOMEM, "out of memory evaluating an expression");
    }
    socmon_status st = smn_expr_parse(expr, &mt.tree);
    if (st) {
        free(mt.name);
        free(mt.expr);
        smn_expr_tree_free(&mt.tree);
        return st == SOCMON_EPARSE ? socmon_fail_prefix(st, "expr ") : st;
    }
    if ((st = smn_metricset_add(&ms, &mt))) {
        free(ms.m);
        smn_strmap_free(&ms.names);
        return st;
    }
    socmon_metrics *m = NULL;
    if (!(st = socmon_metrics_bind(&ms, schema, &m))) {
        if (m->nres == 1) {
            smn_metrics_run(m, deltas, NULL, interval_s, out);
        } else {
            st = socmon_fail(SOCMON_ENOENT, "expr: %s", m->skipped[0]);
        }
    }
    socmon_metrics_free(m);
    free(ms.m[0].name);
    free(ms.m[0].expr);
    smn_expr_tree_free(&ms.m[0].tree);
    free(ms.m);
    smn_strmap_free(&ms.names);
    return st;
}
