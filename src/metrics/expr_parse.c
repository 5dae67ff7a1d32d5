/* Lexer and recursive-descent parser for metric expressions.
 *
 * Precedence, lowest first: ?: (right-assoc), ||, &&, == !=, < <= > >=,
 * + -, * / %, unary - + !. Binary operators are left-associative. */
#include <ctype.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "metrics/expr.h"

typedef enum tok_kind {
    T_END, T_NUM, T_NAME, T_LP, T_RP, T_COMMA, T_QUEST, T_COLON,
    T_PLUS, T_MINUS, T_STAR, T_SLASH, T_PCT, T_BANG,
    T_LT, T_LE, T_GT, T_GE, T_EQ, T_NE, T_AND, T_OR
} tok_kind;

typedef struct parser {
    const char *src;
    size_t pos;         /* start of the next token */
    tok_kind tok;       /* current token */
    size_t tstart, tlen;
    double num;
    int rdepth;         /* parser recursion depth */
    expr_tree *t;
} parser;

static const struct { const char *name; int min_args, max_args; } fns[] = {
    [FN_MIN] = {"min", 1, -1},   [FN_MAX] = {"max", 1, -1},
    [FN_ABS] = {"abs", 1, 1},    [FN_SQRT] = {"sqrt", 1, 1},
    [FN_SUM] = {"sum", 1, 1},    [FN_AVG] = {"avg", 1, 1},
    [FN_COUNT] = {"count", 1, 1}, [FN_ARGMAX] = {"argmax", 2, -1},
};
#define NFNS ((int)(sizeof fns / sizeof fns[0]))

const char *smn_expr_fn_name(int fn)
{
    return fn >= 0 && fn < NFNS ? fns[fn].name : "?";
}

int smn_expr_fn_is_aggregate(int fn, int nargs)
{
    return fn == FN_SUM || fn == FN_AVG || fn == FN_COUNT ||
           ((fn == FN_MIN || fn == FN_MAX) && nargs == 1);
}

const char *smn_expr_name_dot(const char *name)
{
    return strchr(name, '.');
}

static int is_ident_start(int c) { return isalpha(c) || c == '_'; }
static int is_ident(int c) { return isalnum(c) || c == '_'; }

static int col(const parser *p) { return (int)p->tstart + 1; }

/* The current token's text for messages, shortened. */
static const char *tok_text(const parser *p, char *buf, size_t n)
{
    if (p->tok == T_END)
        return "end of expression";
    size_t len = p->tlen < 24 ? p->tlen : 24;
    snprintf(buf, n, "'%.*s'%s", (int)len, p->src + p->tstart, len < p->tlen ? "..." : "");
    return buf;
}

static socmon_status syntax(const parser *p, const char *what)
{
    char buf[48];
    return socmon_fail(SOCMON_EPARSE, "column %d: expected %s but found %s", col(p), what,
                       tok_text(p, buf, sizeof buf));
}

/* Decimal text -> double, independent of the C locale's decimal point. */
static double decimal_value(const char *s, size_t len)
{
    char buf[128];
    const char *dp = localeconv()->decimal_point;
    size_t o = 0;
    for (size_t i = 0; i < len && o + 8 < sizeof buf; i++) {
        if (s[i] == '.') {
            for (const char *d = dp; *d && o + 8 < sizeof buf; d++)
                buf[o++] = *d;
        } else {
            buf[o++] = s[i];
        }
    }
    buf[o] = '\0';
    return strtod(buf, NULL);
}

static socmon_status lex_number(parser *p)
{
    const char *s = p->src;
    size_t i = p->pos;
    if (s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) {
        i += 2;
        double v = 0;
        size_t digits = 0;
        while (isxdigit((unsigned char)s[i])) {
            int c = tolower((unsigned char)s[i]);
            v = v * 16 + (c <= '9' ? c - '0' : c - 'a' + 10);
            i++, digits++;
        }
        if (digits == 0)
            return socmon_fail(SOCMON_EPARSE, "column %d: hex number '0x' has no digits",
                               (int)p->pos + 1);
        p->num = v;
    } else {
        while (isdigit((unsigned char)s[i]))
            i++;
        if (s[i] == '.') {
            i++;
            while (isdigit((unsigned char)s[i]))
                i++;
        }
        if (s[i] == 'e' || s[i] == 'E') {
            size_t e = i + 1;
            if (s[e] == '+' || s[e] == '-')
                e++;
            if (!isdigit((unsigned char)s[e]))
                return socmon_fail(SOCMON_EPARSE, "column %d: exponent of '%.*s' has no digits",
                                   (int)p->pos + 1, (int)(e - p->pos), s + p->pos);
            while (isdigit((unsigned char)s[e]))
                e++;
            i = e;
        }
        if (i - p->pos > 100)
            return socmon_fail(SOCMON_EPARSE, "column %d: number longer than 100 characters",
                               (int)p->pos + 1);
        p->num = decimal_value(s + p->pos, i - p->pos);
    }
    if (is_ident(s[i]) || s[i] == '.')
        return socmon_fail(SOCMON_EPARSE, "column %d: malformed number '%.*s'", (int)p->pos + 1,
                           (int)(i - p->pos + 1), s + p->pos);
    p->tok = T_NUM;
    p->tlen = i - p->pos;
    return SOCMON_OK;
}

static socmon_status next(parser *p)
{
    const char *s = p->src;
    size_t i = p->pos;
    while (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r')
        i++;
    p->pos = p->tstart = i;
    p->tlen = 1;
    int c = (unsigned char)s[i];
    if (c == '\0') {
        p->tok = T_END;
        p->tlen = 0;
        return SOCMON_OK;
    }
    if (isdigit(c) || (c == '.' && isdigit((unsigned char)s[i + 1]))) {
        socmon_status st = lex_number(p);
        p->pos += p->tlen;
        return st;
    }
    if (is_ident_start(c)) {
        size_t j = i + 1;
        while (is_ident(s[j]))
            j++;
        if (s[j] == '.') {   /* "instance.name" */
            size_t k = j + 1;
            if (!is_ident_start(s[k]))
                return socmon_fail(SOCMON_EPARSE, "column %d: '%.*s' must be followed by a name",
                                   (int)i + 1, (int)(k - i), s + i);
            while (is_ident(s[k]))
                k++;
            if (s[k] == '.')
                return socmon_fail(SOCMON_EPARSE,
                                   "column %d: name '%.*s' has more than one '.' "
                                   "(expected name or instance.name)",
                                   (int)i + 1, (int)(k + 1 - i), s + i);
            j = k;
        }
        p->tok = T_NAME;
        p->tlen = j - i;
        p->pos = j;
        return SOCMON_OK;
    }
    static const struct { const char *s; tok_kind k; } ops[] = {
        {"<=", T_LE}, {">=", T_GE}, {"==", T_EQ}, {"!=", T_NE}, {"&&", T_AND}, {"||", T_OR},
        {"(", T_LP}, {")", T_RP}, {",", T_COMMA}, {"?", T_QUEST}, {":", T_COLON},
        {"+", T_PLUS}, {"-", T_MINUS}, {"*", T_STAR}, {"/", T_SLASH}, {"%", T_PCT},
        {"!", T_BANG}, {"<", T_LT}, {">", T_GT},
    };
    for (size_t k = 0; k < sizeof ops / sizeof ops[0]; k++) {
        size_t n = strlen(ops[k].s);
        if (strncmp(s + i, ops[k].s, n) == 0) {
            p->tok = ops[k].k;
            p->tlen = n;
            p->pos = i + n;
            return SOCMON_OK;
        }
    }
    if (c == '=' || c == '&' || c == '|')
        return socmon_fail(SOCMON_EPARSE, "column %d: unexpected '%c' (did you mean '%c%c'?)",
                           (int)i + 1, c, c, c);
    if (c < 0x20 || c >= 0x7f)
        return socmon_fail(SOCMON_EPARSE, "column %d: unexpected byte 0x%02x", (int)i + 1, c);
    return socmon_fail(SOCMON_EPARSE, "column %d: unexpected character '%c'", (int)i + 1, c);
}

static int child_depth(const expr_tree *t, int i)
{
    return i < 0 ? 0 : t->nodes[i].depth;
}

static socmon_status check_depth(parser *p, int i)
{
    if (p->t->nodes[i].depth > SOCMON_EXPR_MAX_DEPTH)
        return socmon_fail(SOCMON_EPARSE, "column %d: expression nested deeper than %d levels",
                           p->t->nodes[i].col, SOCMON_EXPR_MAX_DEPTH);
    return SOCMON_OK;
}

static socmon_status new_node(parser *p, expr_kind kind, int op, int a, int b, int c, int at,
                              int *out)
{
    expr_tree *t = p->t;
    if (t->n == t->cap) {
        int cap = t->cap ? t->cap * 2 : 16;
        expr_node *nn = realloc(t->nodes, (size_t)cap * sizeof *nn);
        if (!nn)
            return socmon_fail(SOCMON_ENOMEM, "out of memory parsing an expression");
        t->nodes = nn;
        t->cap = cap;
    }
    expr_node *n = &t->nodes[t->n];
    memset(n, 0, sizeof *n);
    n->kind = kind;
    n->op = op;
    n->a = a, n->b = b, n->c = c;
    n->next = -1;
    n->col = at;
    int d = child_depth(t, a);
    if (child_depth(t, b) > d)
        d = child_depth(t, b);
    if (child_depth(t, c) > d)
        d = child_depth(t, c);
    n->depth = d + 1;
    *out = t->n++;
    return check_depth(p, *out);
}

static socmon_status parse_cond(parser *p, int *out);

static socmon_status parse_call(parser *p, int at, char *name, int *out)
{
    int fn = -1;
    for (int k = 0; k < NFNS; k++)
        if (strcmp(fns[k].name, name) == 0)
            fn = k;
    if (fn < 0) {
        socmon_status st = socmon_fail(SOCMON_EPARSE,
                                       "column %d: unknown function '%s' (known: min, max, abs, "
                                       "sqrt, sum, avg, count, argmax)", at, name);
        free(name);
        return st;
    }
    free(name);
    socmon_status st = next(p);   /* past '(' */
    if (st)
        return st;
    int first = -1, last = -1, nargs = 0, depth = 0;
    if (p->tok != T_RP) {
        for (;;) {
            int arg;
            if ((st = parse_cond(p, &arg)))
                return st;
            if (last < 0)
                first = arg;
            else
                p->t->nodes[last].next = arg;
            last = arg;
            nargs++;
            if (p->t->nodes[arg].depth > depth)
                depth = p->t->nodes[arg].depth;
            if (p->tok == T_COMMA) {
                if ((st = next(p)))
                    return st;
                continue;
            }
            if (p->tok != T_RP)
                return syntax(p, "',' or ')'");
            break;
        }
    }
    if (nargs < fns[fn].min_args || (fns[fn].max_args >= 0 && nargs > fns[fn].max_args)) {
        char want[32];
        if (fns[fn].max_args < 0)
            snprintf(want, sizeof want, "%d or more arguments", fns[fn].min_args);
        else
            snprintf(want, sizeof want, "%d argument%s", fns[fn].min_args,
                     fns[fn].min_args == 1 ? "" : "s");
        return socmon_fail(SOCMON_EPARSE, "column %d: %s() takes %s, got %d", at,
                           fns[fn].name, want, nargs);
    }
    if ((st = new_node(p, EX_CALL, fn, first, -1, -1, at, out)))
        return st;
    p->t->nodes[*out].nargs = nargs;
    p->t->nodes[*out].depth = depth + 1;
    if ((st = check_depth(p, *out)))
        return st;
    return next(p);   /* past ')' */
}

static socmon_status parse_primary(parser *p, int *out)
{
    socmon_status st;
    int at = col(p);
    switch (p->tok) {
    case T_NUM:
        if ((st = new_node(p, EX_NUM, 0, -1, -1, -1, at, out)))
            return st;
        p->t->nodes[*out].num = p->num;
        return next(p);
    case T_NAME: {
        char *name = strndup(p->src + p->tstart, p->tlen);
        if (!name)
            return socmon_fail(SOCMON_ENOMEM, "out of memory parsing an expression");
        if ((st = next(p))) {
            free(name);
            return st;
        }
        if (p->tok == T_LP) {
            if (smn_expr_name_dot(name)) {
                st = socmon_fail(SOCMON_EPARSE, "column %d: '%s' is not a function", at, name);
                free(name);
                return st;
            }
            return parse_call(p, at, name, out);
        }
        if ((st = new_node(p, EX_NAME, 0, -1, -1, -1, at, out))) {
            free(name);
            return st;
        }
        p->t->nodes[*out].name = name;
        return SOCMON_OK;
    }
    case T_LP:
        if ((st = next(p)) || (st = parse_cond(p, out)))
            return st;
        if (p->tok != T_RP)
            return syntax(p, "')'");
        return next(p);
    default:
        return syntax(p, "a number, name or '('");
    }
}

static socmon_status parse_unary(parser *p, int *out)
{
    tok_kind k = p->tok;
    if (k != T_MINUS && k != T_PLUS && k != T_BANG)
        return parse_primary(p, out);
    int at = col(p), a;
    socmon_status st;
    if (++p->rdepth > SOCMON_EXPR_MAX_DEPTH)
        return socmon_fail(SOCMON_EPARSE, "column %d: expression nested deeper than %d levels",
                           at, SOCMON_EXPR_MAX_DEPTH);
    if ((st = next(p)) || (st = parse_unary(p, &a)))
        return st;
    p->rdepth--;
    if (k == T_PLUS) {
        *out = a;
        return SOCMON_OK;
    }
    return new_node(p, EX_UNARY, k == T_MINUS ? OPX_NEG : OPX_NOT, a, -1, -1, at, out);
}

/* One level of left-associative binary operators. */
typedef struct level {
    socmon_status (*operand)(parser *, int *);
    tok_kind toks[4];
    expr_op ops[4];
    int n;
} level;

static socmon_status parse_level(parser *p, const level *lv, int *out)
{
    socmon_status st = lv->operand(p, out);
    while (!st) {
        int i = 0;
        while (i < lv->n && lv->toks[i] != p->tok)
            i++;
        if (i == lv->n)
            break;
        int at = col(p), b;
        if ((st = next(p)) || (st = lv->operand(p, &b)))
            break;
        st = new_node(p, EX_BINARY, lv->ops[i], *out, b, -1, at, out);
    }
    return st;
}

static socmon_status parse_mul(parser *p, int *out)
{
    static const level lv = {parse_unary, {T_STAR, T_SLASH, T_PCT}, {OPX_MUL, OPX_DIV, OPX_MOD}, 3};
    return parse_level(p, &lv, out);
}

static socmon_status parse_add(parser *p, int *out)
{
    static const level lv = {parse_mul, {T_PLUS, T_MINUS}, {OPX_ADD, OPX_SUB}, 2};
    return parse_level(p, &lv, out);
}

static socmon_status parse_rel(parser *p, int *out)
{
    static const level lv = {parse_add, {T_LT, T_LE, T_GT, T_GE}, {OPX_LT, OPX_LE, OPX_GT, OPX_GE}, 4};
    return parse_level(p, &lv, out);
}

static socmon_status parse_eq(parser *p, int *out)
{
    static const level lv = {parse_rel, {T_EQ, T_NE}, {OPX_EQ, OPX_NE}, 2};
    return parse_level(p, &lv, out);
}

static socmon_status parse_and(parser *p, int *out)
{
    static const level lv = {parse_eq, {T_AND}, {OPX_AND}, 1};
    return parse_level(p, &lv, out);
}

static socmon_status parse_or(parser *p, int *out)
{
    static const level lv = {parse_and, {T_OR}, {OPX_OR}, 1};
    return parse_level(p, &lv, out);
}

/* c ? a : b, right-associative: a ? b : c ? d : e is a ? b : (c ? d : e). */
static socmon_status parse_cond(parser *p, int *out)
{
    socmon_status st;
    if (++p->rdepth > SOCMON_EXPR_MAX_DEPTH)
        return socmon_fail(SOCMON_EPARSE, "column %d: expression nested deeper than %d levels",
                           col(p), SOCMON_EXPR_MAX_DEPTH);
    if ((st = parse_or(p, out)))
        return st;
    if (p->tok == T_QUEST) {
        int at = col(p), a, b;
        if ((st = next(p)) || (st = parse_cond(p, &a)))
            return st;
        if (p->tok != T_COLON)
            return syntax(p, "':' of '?:'");
        if ((st = next(p)) || (st = parse_cond(p, &b)))
            return st;
        if ((st = new_node(p, EX_COND, 0, *out, a, b, at, out)))
            return st;
    }
    p->rdepth--;
    return SOCMON_OK;
}

socmon_status smn_expr_parse(const char *text, expr_tree *t)
{
    size_t len = strlen(text);
    if (len > SOCMON_EXPR_MAX_LEN)
        return socmon_fail(SOCMON_EPARSE, "expression is %zu characters long, limit %d", len,
                           SOCMON_EXPR_MAX_LEN);
    parser p = {.src = text, .t = t};
    t->root = -1;
    socmon_status st = next(&p);
    if (st)
        return st;
    if (p.tok == T_END)
        return socmon_fail(SOCMON_EPARSE, "column 1: empty expression");
    if ((st = parse_cond(&p, &t->root)))
        return st;
    if (p.tok != T_END)
        return syntax(&p, "an operator or end of expression");
    /* Give back the unused nodes: a file may hold 300,000 metric trees, and
     * the first allocation's 16 nodes are 1 KB where most use 3 or 5. */
    if (t->n > 0 && t->n < t->cap) {   /* realloc(p, 0) would free p */
        expr_node *nn = realloc(t->nodes, (size_t)t->n * sizeof *nn);
        if (nn) {   /* on failure the larger array serves as well */
            t->nodes = nn;
            t->cap = t->n;
        }
    }
    return SOCMON_OK;
}

void smn_expr_tree_free(expr_tree *t)
{
    if (!t)
        return;
    for (int i = 0; i < t->n; i++)
        free(t->nodes[i].name);
    free(t->nodes);
    t->nodes = NULL;
    t->n = t->cap = 0;
}
