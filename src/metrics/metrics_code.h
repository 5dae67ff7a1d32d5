/* Internal: compiled metric code, produced by the binder and run by eval.
 *
 * One straight-line stack program computes every result in order; each
 * result's code ends with OP_STORE, and later results read earlier ones back
 * from the output array. No jumps, so every program terminates. */
#ifndef SOCMON_METRICS_CODE_H
#define SOCMON_METRICS_CODE_H

#include <stdint.h>
#include "socmon/metrics.h"

/* Caps memory for adversarial nesting such as sum(sum(sum(...))). */
#define SOCMON_METRICS_MAX_CODE (1u << 20)

typedef enum opcode {
    OP_CONST,     /* push k */
    OP_DELTA,     /* push deltas[a] */
    OP_DSUM,      /* push sum of deltas[pool[a .. a+n)] */
    OP_RES,       /* push out[a] */
    OP_RSUM,      /* push sum of out[pool[a .. a+n)] */
    OP_INTERVAL,  /* push interval_s */
    OP_NEG, OP_NOT, OP_ABS, OP_SQRT,
    /* binary: pop b, a; push a op b. With n != 0, b is not popped but comes
     * from this instruction as if pushed by opcode n - 1 (a, k). */
    OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_MOD,
    OP_LT, OP_LE, OP_GT, OP_GE, OP_EQ, OP_NE, OP_AND, OP_OR,
    OP_SEL,       /* c a b -> c ? a : b */
    OP_MIN, OP_MAX, OP_ARGMAX, OP_AVG,   /* n operands -> 1 */
    OP_STORE,     /* out[a] = pop */
    OP_TSET,      /* temps[a] = top (stays on the stack) */
    OP_TGET       /* push temps[a] */
} opcode;

typedef struct insn {
    uint32_t op;
    uint32_t a;
    uint32_t n;
    double k;
} insn;

struct socmon_metrics {
    const socmon_metricset *ms;
    size_t ncounters;
    insn *code;
    size_t ncode, capcode;
    uint32_t *pool;
    size_t npool, cappool;
    double *stack;
    size_t maxstack;
    double *temps;      /* aggregates, computed once per interval */
    size_t ntemps;
    size_t nres, capres;
    socmon_metric_result_info *res;
    size_t ninst;
    char **inst;        /* instance names, copied from the schema */
    char **skipped;     /* per metric of ms: why it has no results, or NULL */
};

/* Runs the program; out has m->nres entries. bad (or NULL): per counter, nonzero where its
 * delta is not to be used (it reads as NaN). */
void smn_metrics_run(const socmon_metrics *m, const uint64_t *deltas, const unsigned char *bad, double interval_s,
                 double *out);

#endif
