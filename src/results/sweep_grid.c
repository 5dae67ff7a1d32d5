/* The grid of a sweep (socmon/sweep.h): target specs with braces expanded to a cross product,
 * times workloads, times programs; and sweep files, which say the same in lines. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/file.h"
#include "core/grow.h"
#include "socmon/sweep.h"

#define GRID_MAX_POINTS 100000   /* a grid beyond this is a typo more likely than a plan */
#define GRID_FILE_MAX (1u << 20)

typedef struct grid_point {
    socmon_sweep_point pub;
    char *target;
    socmon_spec *spec;           /* the parsed target spec: pub.options are its options */
} grid_point;

struct socmon_sweep_grid {
    grid_point *p;
    size_t n, cap;
    char **args;                 /* run arguments, copied */
    size_t nargs;
    char id[17];
};

void socmon_sweep_grid_free(socmon_sweep_grid *g)
{
    if (!g)
        return;
    for (size_t i = 0; i < g->n; i++) {
        free(g->p[i].target);
        socmon_spec_free(g->p[i].spec);
        free((char *)g->p[i].pub.workload);
        free((char *)g->p[i].pub.program);
    }
    for (size_t i = 0; i < g->nargs; i++)
        free(g->args[i]);
    free(g->args);
    free(g->p);
    free(g);
}

/* The spec's options, as the spec parser gives them (keys checked against the target's table). */
static socmon_status split_options(grid_point *gp)
{
    const char *spec = gp->target;
    socmon_status st = socmon_spec_parse(spec, &gp->spec);
    if (st != SOCMON_OK)
        return socmon_fail_prefix(st, "-t %s: ", spec);
    const socmon_target_ops *ops = socmon_spec_target(gp->spec);
    if (!ops) {
        char known[256] = "";
        size_t k = 0;
        for (size_t i = 0; i < socmon_target_count() && k < sizeof known; i++)
            k += (size_t)snprintf(known + k, sizeof known - k, "%s%s", i ? ", " : "", socmon_target_at(i)->name);
        return socmon_fail(SOCMON_EINVAL, "-t %s: unknown target '%s' (known: %s)", spec, socmon_spec_name(gp->spec),
                           known);
    }
    const socmon_kv *kv = NULL;
    gp->pub.noptions = socmon_spec_options(gp->spec, &kv);
    for (size_t i = 0; i < gp->pub.noptions; i++)
        if ((st = socmon_options_check_key(ops->name, ops->options, kv[i].key)) != SOCMON_OK)
            return socmon_fail_prefix(st, "-t %s: ", spec);
    gp->pub.options = kv;
    return SOCMON_OK;
}

static socmon_status add_point(socmon_sweep_grid *g, const char *spec, const char *workload, size_t wlen,
                               const char *program)
{
    if (g->n >= GRID_MAX_POINTS)
        return socmon_fail(SOCMON_ERANGE, "the grid has over %d points", GRID_MAX_POINTS);
    if (SOCMON_GROW(g->p, g->cap, g->n, 16) != 0)
        return socmon_fail(SOCMON_ENOMEM, "sweep grid: out of memory");
    grid_point *gp = &g->p[g->n];
    memset(gp, 0, sizeof *gp);
    g->n++;   /* counted now, so a failure below frees what it holds */
    gp->target = strdup(spec);
    gp->pub.workload = workload ? strndup(workload, wlen) : NULL;
    gp->pub.program = program ? strdup(program) : NULL;
    if (!gp->target || (workload && !gp->pub.workload) || (program && !gp->pub.program))
        return socmon_fail(SOCMON_ENOMEM, "sweep grid: out of memory");
    gp->pub.index = g->n - 1;
    gp->pub.target = gp->target;
    return split_options(gp);
}

/* Adds the points of one expanded spec: times each workload, times each program. */
static socmon_status add_spec(socmon_sweep_grid *g, const char *spec, const socmon_sweep_spec *s)
{
    const char *w = s->workloads;
    do {
        size_t wl = w ? strcspn(w, ",") : 0;
        for (size_t p = 0; p < (s->nprograms ? s->nprograms : 1); p++) {
            socmon_status st = add_point(g, spec, w, wl, s->nprograms ? s->programs[p] : NULL);
            if (st != SOCMON_OK)
                return st;
        }
        w = w && w[wl] ? w + wl + 1 : NULL;
    } while (w);
    return SOCMON_OK;
}

/* Expands the first {a,b,...} of spec (from `from` on), recursing for the rest; orig names the
 * spec as the user wrote it. */
static socmon_status expand(socmon_sweep_grid *g, const char *orig, const char *spec, size_t from,
                            const socmon_sweep_spec *s)
{
    const char *open = strpbrk(spec + from, "{}");
    if (!open)
        return add_spec(g, spec, s);
    if (*open == '}')
        return socmon_fail(SOCMON_EINVAL, "-t %s: '}' at column %zu closes no '{'", orig, (size_t)(open - spec) + 1);
    const char *close = strpbrk(open + 1, "{}");
    if (!close)
        return socmon_fail(SOCMON_EINVAL, "-t %s: the '{' at column %zu is never closed", orig,
                           (size_t)(open - spec) + 1);
    if (*close == '{')
        return socmon_fail(SOCMON_EINVAL, "-t %s: braces inside braces (column %zu): give each option its own "
                           "{...}", orig, (size_t)(close - spec) + 1);
    size_t pre = (size_t)(open - spec), post = strlen(close + 1);
    for (const char *c = open + 1;;) {
        size_t len = strcspn(c, ",}");
        if (len == 0)
            return socmon_fail(SOCMON_EINVAL, "-t %s: an empty choice in {%.*s}", orig, (int)(close - open - 1),
                               open + 1);
        char *one = malloc(pre + len + post + 1);
        if (!one)
            return socmon_fail(SOCMON_ENOMEM, "sweep grid: out of memory");
        memcpy(one, spec, pre);
        memcpy(one + pre, c, len);
        memcpy(one + pre + len, close + 1, post + 1);
        socmon_status st = expand(g, orig, one, pre + len, s);
        free(one);
        if (st != SOCMON_OK)
            return st;
        if (c[len] == '}')
            break;
        c += len + 1;
    }
    return SOCMON_OK;
}

/* FNV-1a, 64 bits: the grid's identity (no security in it: tables of two grids must differ). */
static uint64_t fnv(uint64_t h, const char *s)
{
    for (; s && *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return (h ^ 0xff) * 0x100000001b3ull;   /* a separator: ("ab","c") differs from ("a","bc") */
}

static void make_id(socmon_sweep_grid *g)
{
    uint64_t h = fnv(0xcbf29ce484222325ull, "socmon sweep 1");
    for (size_t i = 0; i < g->n; i++) {
        h = fnv(h, g->p[i].target);
        h = fnv(h, g->p[i].pub.workload ? g->p[i].pub.workload : "\x01");
        h = fnv(h, g->p[i].pub.program ? g->p[i].pub.program : "\x01");
    }
    for (size_t i = 0; i < g->nargs; i++)
        h = fnv(h, g->args[i]);
    snprintf(g->id, sizeof g->id, "%016llx", (unsigned long long)h);
}

static socmon_status check_spec(const socmon_sweep_spec *s)
{
    if (!s->ntargets)
        return socmon_fail(SOCMON_EINVAL, "the grid has no target: give -t SPEC");
    for (size_t i = 0; i < s->ntargets; i++)
        if (!s->targets[i] || !*s->targets[i])
            return socmon_fail(SOCMON_EINVAL, "the grid's target %zu is empty", i + 1);
    if (s->workloads) {
        const char *w = s->workloads;
        for (;;) {
            size_t l = strcspn(w, ",");
            if (l == 0)
                return socmon_fail(SOCMON_EINVAL, "-w %s: an empty workload name%s", s->workloads,
                                   *s->workloads ? "" : " (the grid would have no point)");
            if (!w[l])
                break;
            w += l + 1;
        }
    }
    for (size_t i = 0; i < s->nprograms; i++)
        if (!s->programs[i] || !*s->programs[i])
            return socmon_fail(SOCMON_EINVAL, "program %zu of the grid is empty", i + 1);
    for (size_t i = 0; i < s->nrun_args; i++)
        if (!s->run_args[i])
            return socmon_fail(SOCMON_EINVAL, "socmon_sweep_grid_new: run argument %zu is NULL", i);
    return SOCMON_OK;
}

socmon_status socmon_sweep_grid_new(const socmon_sweep_spec *s, socmon_sweep_grid **out)
{
    if (!s || !out || (s->ntargets && !s->targets) || (s->nprograms && !s->programs) || (s->nrun_args && !s->run_args))
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_grid_new: NULL argument");
    *out = NULL;
    socmon_status st = check_spec(s);
    if (st != SOCMON_OK)
        return st;
    socmon_sweep_grid *g = calloc(1, sizeof *g);
    if (!g || (s->nrun_args && !(g->args = calloc(s->nrun_args, sizeof *g->args)))) {
        free(g);
        return socmon_fail(SOCMON_ENOMEM, "sweep grid: out of memory");
    }
    for (size_t i = 0; i < s->nrun_args && st == SOCMON_OK; i++, g->nargs++)
        if (!(g->args[i] = strdup(s->run_args[i])))
            st = socmon_fail(SOCMON_ENOMEM, "sweep grid: out of memory");
    for (size_t i = 0; i < s->ntargets && st == SOCMON_OK; i++)
        st = expand(g, s->targets[i], s->targets[i], 0, s);
    if (st == SOCMON_OK && g->n == 0)
        st = socmon_fail(SOCMON_EINVAL, "the grid is empty");
    if (st != SOCMON_OK) {
        socmon_sweep_grid_free(g);
        return st;
    }
    make_id(g);
    *out = g;
    return SOCMON_OK;
}

size_t socmon_sweep_grid_count(const socmon_sweep_grid *g)
{
    return g ? g->n : 0;
}

const socmon_sweep_point *socmon_sweep_grid_point(const socmon_sweep_grid *g, size_t i)
{
    return g && i < g->n ? &g->p[i].pub : NULL;
}

size_t socmon_sweep_grid_nrun_args(const socmon_sweep_grid *g)
{
    return g ? g->nargs : 0;
}

const char *const *socmon_sweep_grid_run_args(const socmon_sweep_grid *g)
{
    return g ? (const char *const *)g->args : NULL;
}

const char *socmon_sweep_grid_id(const socmon_sweep_grid *g)
{
    return g ? g->id : NULL;
}

socmon_status socmon_sweep_shard_parse(const char *text, unsigned *k, unsigned *n)
{
    if (!text || !k || !n)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_shard_parse: NULL argument");
    char *end;
    errno = 0;
    unsigned long a = strtoul(text, &end, 10), b = 0;
    int ok = end != text && *end == '/' && text[0] >= '0' && text[0] <= '9' && errno == 0;
    if (ok) {
        const char *s = end + 1;
        b = strtoul(s, &end, 10);
        ok = end != s && !*end && s[0] >= '0' && s[0] <= '9' && errno == 0;
    }
    if (!ok || a < 1 || b < 1 || a > b || b > 1000000)
        return socmon_fail(SOCMON_EINVAL, "--shard %s: expected K/N with 1 <= K <= N (shard K of N, e.g. 1/4)%s", text,
                           ok && a > b ? ": K is above N" : "");
    *k = (unsigned)a;
    *n = (unsigned)b;
    return SOCMON_OK;
}

/* ---- sweep files ---- */

typedef struct file_spec {
    char **targets, **programs, **args;
    size_t nt, np, na, ct, cp, ca;
    char *workloads;
} file_spec;

static void file_spec_free(file_spec *f)
{
    for (size_t i = 0; i < f->nt; i++)
        free(f->targets[i]);
    for (size_t i = 0; i < f->np; i++)
        free(f->programs[i]);
    for (size_t i = 0; i < f->na; i++)
        free(f->args[i]);
    free(f->targets);
    free(f->programs);
    free(f->args);
    free(f->workloads);
}

static int push(char ***arr, size_t *cap, size_t *n, const char *s, size_t len)
{
    if (smn_grow(arr, cap, *n, sizeof **arr, 8) != 0)
        return -1;
    if (!((*arr)[*n] = strndup(s, len)))
        return -1;
    (*n)++;
    return 0;
}

/* The words of a line (split at blanks) pushed onto an array. */
static int push_words(char ***arr, size_t *cap, size_t *n, const char *s)
{
    while (*s) {
        s += strspn(s, " \t");
        size_t l = strcspn(s, " \t");
        if (l && push(arr, cap, n, s, l) != 0)
            return -1;
        s += l;
    }
    return 0;
}

static socmon_status file_line(file_spec *f, char *line, const char *name, unsigned ln)
{
    char *key = line + strspn(line, " \t");
    size_t kl = strcspn(key, " \t");
    char *val = key + kl;
    val += strspn(val, " \t");
    for (size_t e = strlen(val); e && (val[e - 1] == ' ' || val[e - 1] == '\t' || val[e - 1] == '\r'); e--)
        val[e - 1] = '\0';
    if (!*val)
        return socmon_fail(SOCMON_EINVAL, "%s:%u: '%.*s' has no value", name, ln, (int)kl, key);
    int oom = 0;
    if (kl == 6 && strncmp(key, "target", 6) == 0) {
        oom = push(&f->targets, &f->ct, &f->nt, val, strlen(val));
    } else if ((kl == 8 && strncmp(key, "workload", 8) == 0) || (kl == 9 && strncmp(key, "workloads", 9) == 0)) {
        /* several lines append; blanks after commas are allowed */
        size_t have = f->workloads ? strlen(f->workloads) : 0, add = strlen(val);
        char *w = realloc(f->workloads, have + add + 2);
        if (!w)
            return socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name);
        f->workloads = w;
        size_t k = have;
        if (have)
            w[k++] = ',';
        for (const char *c = val; *c; c++)
            if (*c != ' ' && *c != '\t')
                w[k++] = *c;
        w[k] = '\0';
    } else if ((kl == 7 && strncmp(key, "program", 7) == 0) || (kl == 8 && strncmp(key, "programs", 8) == 0)) {
        oom = push_words(&f->programs, &f->cp, &f->np, val);
    } else if (kl == 3 && strncmp(key, "run", 3) == 0) {
        oom = push_words(&f->args, &f->ca, &f->na, val);
    } else {
        return socmon_fail(SOCMON_EINVAL, "%s:%u: unknown key '%.*s' (a line is 'target SPEC', 'workload W,...', "
                           "'program PATH...' or 'run ARG...')", name, ln, (int)(kl > 40 ? 40 : kl), key);
    }
    return oom ? socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name) : SOCMON_OK;
}

socmon_status socmon_sweep_grid_parse(const char *text, size_t len, const char *name, socmon_sweep_grid **out)
{
    if (!text || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_grid_parse: NULL argument");
    *out = NULL;
    if (!name)
        name = "sweep file";
    file_spec f = {0};
    socmon_status st = SOCMON_OK;
    unsigned ln = 0;
    for (size_t pos = 0; pos < len && st == SOCMON_OK;) {
        const char *nl = memchr(text + pos, '\n', len - pos);
        size_t l = nl ? (size_t)(nl - text) - pos : len - pos;
        ln++;
        if (memchr(text + pos, '\0', l)) {
            st = socmon_fail(SOCMON_EINVAL, "%s:%u: a NUL byte: not a sweep file", name, ln);
            break;
        }
        char *line = strndup(text + pos, l);
        if (!line) {
            st = socmon_fail(SOCMON_ENOMEM, "%s: out of memory", name);
            break;
        }
        char *hash = strchr(line, '#');
        if (hash)
            *hash = '\0';
        if (line[strspn(line, " \t\r")])
            st = file_line(&f, line, name, ln);
        free(line);
        pos += l + 1;
    }
    if (st == SOCMON_OK && !f.nt)
        st = socmon_fail(SOCMON_EINVAL, "%s: no 'target SPEC' line: the grid is empty", name);
    socmon_sweep_spec s = {.size = sizeof s, .targets = (const char *const *)f.targets, .ntargets = f.nt,
                           .workloads = f.workloads, .programs = (const char *const *)f.programs, .nprograms = f.np,
                           .run_args = (const char *const *)f.args, .nrun_args = f.na};
    if (st == SOCMON_OK && (st = socmon_sweep_grid_new(&s, out)) != SOCMON_OK)
        socmon_fail_prefix(st, "%s: ", name);
    file_spec_free(&f);
    return st;
}

socmon_status socmon_sweep_grid_load(const char *path, socmon_sweep_grid **out)
{
    if (!path || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_sweep_grid_load: NULL argument");
    *out = NULL;
    char *buf;
    size_t len;
    socmon_status st = smn_file_read(path, GRID_FILE_MAX, "sweep file", &buf, &len);
    if (st == SOCMON_OK)
        st = socmon_sweep_grid_parse(buf, len, path, out);
    free(buf);
    return st;
}
