/* Internal: the metric expression language, parsed into a small AST.
 *
 * The parser checks everything that does not depend on a schema (syntax,
 * function names, argument counts, length and nesting limits); the binder
 * (metrics_bind.c) resolves names against a schema and compiles to code. */
#ifndef SOCMON_METRICS_EXPR_H
#define SOCMON_METRICS_EXPR_H

#include <stddef.h>
#include "socmon/status.h"

/* Adversarial input must not exhaust the stack or memory: the binder walks
 * the tree recursively, so its depth is capped here, at parse time. */
#define SOCMON_EXPR_MAX_LEN 4096
#define SOCMON_EXPR_MAX_DEPTH 200

typedef enum expr_kind {
    EX_NUM,     /* num */
    EX_NAME,    /* name (possibly "inst.name") */
    EX_UNARY,   /* op, a */
    EX_BINARY,  /* op, a, b */
    EX_COND,    /* a ? b : c */
    EX_CALL     /* fn, args a -> next -> next ... */
} expr_kind;

typedef enum expr_op {
    OPX_NEG, OPX_NOT,
    OPX_ADD, OPX_SUB, OPX_MUL, OPX_DIV, OPX_MOD,
    OPX_LT, OPX_LE, OPX_GT, OPX_GE, OPX_EQ, OPX_NE,
    OPX_AND, OPX_OR
} expr_op;

typedef enum expr_fn {
    FN_MIN, FN_MAX, FN_ABS, FN_SQRT, FN_SUM, FN_AVG, FN_COUNT, FN_ARGMAX
} expr_fn;

typedef struct expr_node {
    expr_kind kind;
    int op;         /* expr_op or expr_fn */
    int a, b, c;    /* child node indices, -1 if none */
    int next;       /* next argument of a call, -1 at the end */
    int nargs;      /* EX_CALL */
    int col;        /* 1-based column in the expression, for messages */
    int depth;      /* height of the subtree, capped at SOCMON_EXPR_MAX_DEPTH */
    double num;
    char *name;     /* EX_NAME: owned, NUL-terminated */
} expr_node;

typedef struct expr_tree {
    expr_node *nodes;
    int n, cap;
    int root;
} expr_tree;

/* Parses text into t (zeroed by the caller). On failure returns SOCMON_EPARSE
 * with a message "column N: ..." and leaves t for smn_expr_tree_free. */
socmon_status smn_expr_parse(const char *text, expr_tree *t);
void smn_expr_tree_free(expr_tree *t);

const char *smn_expr_fn_name(int fn);
/* Whether fn aggregates over instances when given this many arguments. */
int smn_expr_fn_is_aggregate(int fn, int nargs);

/* Splits "inst.name" at its dot: returns the position of the dot or NULL. */
const char *smn_expr_name_dot(const char *name);

#endif
