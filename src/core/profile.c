/* A program's exact profile (socmon/profile.h): the data, and its JSON (docs/profile.md).
 * Rows are arrays, not objects, to keep a profile of thousands of PCs small; 64-bit values are
 * written as JSON's signed integers (two's complement), so every bit pattern round-trips. The
 * reader checks every index against what it indexes and every value against its width. */
#include <jansson.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/profile.h"

#define MAX_EVENTS 64u
#define MAX_FUNCS (1u << 16)
#define MAX_INSNS ((1u << 20) + 1u)
#define MAX_NODES (1u << 20)
#define MAX_SLICES (1u << 22)

static void *zalloc(size_t n, size_t size, int *bad)
{
    void *p = calloc(n ? n : 1, size);
    *bad |= !p;
    return p;
}

size_t socmon_inhibited_text(const socmon_inhibited *x, size_t n, char *buf, size_t len)
{
    if (!buf || !len)
        return n ? 1 : 0;
    buf[0] = '\0';
    if (!x || !n)
        return 0;
    size_t k = 1;
    while (k < n && x[k].inhibited_cycles == x[0].inhibited_cycles && x[k].run_cycles == x[0].run_cycles)
        k++;
    /* the cycles grouped by thousands, as a person reads them */
    char num[32], g[48];
    snprintf(num, sizeof num, "%llu", (unsigned long long)x->inhibited_cycles);
    size_t l = strlen(num), u = 0;
    for (size_t i = 0; i < l; i++) {
        g[u++] = num[i];
        if ((l - 1 - i) % 3 == 0 && i + 1 < l)
            g[u++] = ',';
    }
    g[u] = '\0';
    uint64_t inh = x->inhibited_cycles < x->run_cycles ? x->inhibited_cycles : x->run_cycles;
    double share = x->run_cycles ? 100.0 * (double)(x->run_cycles - inh) / (double)x->run_cycles : 0.0;
    char who[200];
    if (k == 1)
        snprintf(who, sizeof who, "%s (%s)", x[0].counter, x[0].reg);
    else if (k == 2)
        snprintf(who, sizeof who, "%s (%s) and %s (%s)", x[0].counter, x[0].reg, x[1].counter, x[1].reg);
    else
        snprintf(who, sizeof who, "%s (%s), %s (%s) and %zu more", x[0].counter, x[0].reg, x[1].counter, x[1].reg,
                 k - 2);
    snprintf(buf, len, "%s counted %.1f %% of the run's cycles: the program inhibited %s for %s cycles", who, share,
             k == 1 ? "it" : "them", g);
    return k;
}

int64_t socmon_profile_signed(const socmon_profile *p, size_t k, uint64_t v)
{
    unsigned w = p && k < p->nevents ? p->widths[k] : 64;
    if (w >= 64)
        return (int64_t)v;
    uint64_t half = UINT64_C(1) << (w - 1);
    v &= (half << 1) - 1;
    return v >= half ? (int64_t)v - (int64_t)(half << 1) : (int64_t)v;
}

socmon_status socmon_profile_new(size_t nevents, size_t nfuncs, size_t ninsns, size_t nnodes, size_t nslices,
                                 socmon_profile **out)
{
    if (!out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_new: NULL output pointer");
    *out = NULL;
    if (nevents < 1 || nevents > MAX_EVENTS || nfuncs < 1 || nfuncs > MAX_FUNCS || ninsns > MAX_INSNS ||
        nnodes < 1 || nnodes > MAX_NODES || nslices > MAX_SLICES)
        return socmon_fail(SOCMON_ERANGE, "profile: %zu events (1..%u), %zu functions (1..%u), %zu instructions "
                           "(at most %u), %zu nodes (1..%u), %zu slices (at most %u)", nevents, MAX_EVENTS, nfuncs,
                           MAX_FUNCS, ninsns, MAX_INSNS, nnodes, MAX_NODES, nslices, MAX_SLICES);
    int bad = 0;
    socmon_profile *p = zalloc(1, sizeof *p, &bad);
    if (!p)
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory");
    p->nevents = nevents;
    p->nfuncs = nfuncs;
    p->ninsns = ninsns;
    p->nnodes = nnodes;
    p->nslices = nslices;
    p->events = zalloc(nevents, sizeof *p->events, &bad);
    p->widths = zalloc(nevents, sizeof *p->widths, &bad);
    p->total = zalloc(nevents, sizeof *p->total, &bad);
    p->funcs = zalloc(nfuncs, sizeof *p->funcs, &bad);
    p->insns = zalloc(ninsns, sizeof *p->insns, &bad);
    p->nodes = zalloc(nnodes, sizeof *p->nodes, &bad);
    p->slices = zalloc(nslices, sizeof *p->slices, &bad);
    /* one block of values for the rows: insns first, then nodes */
    uint64_t *vals = zalloc((ninsns + nnodes) * nevents, sizeof *vals, &bad);
    if (bad) {
        free(vals);
        socmon_profile_free(p);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for %zu instructions and %zu nodes", ninsns,
                           nnodes);
    }
    for (size_t i = 0; i < ninsns; i++)
        p->insns[i].v = vals + i * nevents;
    for (size_t i = 0; i < nnodes; i++)
        p->nodes[i].v = vals + (ninsns + i) * nevents;
    *out = p;
    return SOCMON_OK;
}

void socmon_profile_free(socmon_profile *p)
{
    if (!p)
        return;
    free(p->program);
    free(p->arch);
    for (size_t k = 0; p->events && k < p->nevents; k++)
        free(p->events[k]);
    free(p->events);
    free(p->widths);
    free(p->total);
    free(p->inhibited);
    for (size_t i = 0; p->funcs && i < p->nfuncs; i++)
        free(p->funcs[i].name);
    for (size_t i = 0; p->insns && i < p->ninsns; i++)
        free(p->insns[i].text);
    free(p->funcs);
    /* the values block starts at the first row's */
    free(p->ninsns && p->insns ? p->insns[0].v : p->nodes && p->nnodes ? p->nodes[0].v : NULL);
    free(p->insns);
    free(p->nodes);
    free(p->slices);
    free(p);
}

/* ---- writing ---- */

/* The JSON is written straight into a buffer, byte for byte what jansson's json_dumps(JSON_COMPACT)
 * made of the same document (a tree of a value per number was most of a short record's CPU):
 * members in order, no spaces, integers as %lld, strings escaped as jansson escapes them. A string
 * jansson would not take (not UTF-8) drops what it was in, as json_object_set_new and
 * json_array_append_new dropped a NULL: the member, or the row. */
typedef struct jbuf {
    char *s;
    size_t n, cap;
    int oom;
} jbuf;

static int jreserve(jbuf *b, size_t more)
{
    if (b->oom)
        return -1;
    if (b->n + more + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 4096;
        while (cap < b->n + more + 1)
            cap *= 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->oom = 1;
            return -1;
        }
        b->s = t;
        b->cap = cap;
    }
    return 0;
}

static void jmem(jbuf *b, const char *s, size_t n)
{
    if (jreserve(b, n) == 0) {
        memcpy(b->s + b->n, s, n);
        b->n += n;
    }
}

static void jlit(jbuf *b, const char *s)
{
    jmem(b, s, strlen(s));
}

static void jch(jbuf *b, char c)
{
    if (jreserve(b, 1) == 0)
        b->s[b->n++] = c;
}

/* The rows of instructions, nodes and slices (most of a profile's bytes) are written with room
 * made once a row: JROW_INT bytes an integer, then a character or an integer at a time without
 * a check each (jc, ji). */
#define JROW_INT 24u

static inline void jc(jbuf *b, char c)
{
    b->s[b->n++] = c;
}

/* v as %lld, into room made already (JROW_INT bytes). */
static inline void ji(jbuf *b, int64_t v)
{
    static const char two[] = "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
                              "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
                              "8081828384858687888990919293949596979899";
    char t[2 * JROW_INT];   /* the digits end at t + JROW_INT; one fixed-size copy moves them */
    size_t i = JROW_INT;
    uint64_t u = v < 0 ? 0 - (uint64_t)v : (uint64_t)v;
    if (v >= 0 && v < 10) {   /* most of a profile's values: 0 */
        jc(b, (char)('0' + v));
        return;
    }
    while (u >= 100) {
        unsigned r = (unsigned)(u % 100) * 2;
        u /= 100;
        t[--i] = two[r + 1];
        t[--i] = two[r];
    }
    if (u >= 10) {
        t[--i] = two[u * 2 + 1];
        t[--i] = two[u * 2];
    } else {
        t[--i] = (char)('0' + u);
    }
    if (v < 0)
        t[--i] = '-';
    memcpy(b->s + b->n, t + i, JROW_INT);   /* (the bytes past the digits are room, overwritten next) */
    b->n += JROW_INT - i;
}

static void jint(jbuf *b, int64_t v)
{
    if (jreserve(b, JROW_INT) == 0)
        ji(b, v);
}

/* [v0,v1,...] into room made already: 2 + n * (JROW_INT + 1) bytes. */
static void jvals(jbuf *b, const uint64_t *v, size_t n)
{
    jc(b, '[');
    for (size_t k = 0; k < n; k++) {
        if (k)
            jc(b, ',');
        ji(b, (int64_t)v[k]);
    }
    jc(b, ']');
}

static void ju64(jbuf *b, uint64_t v)
{
    jint(b, (int64_t)v);
}

/* Whether jansson takes s as a string (UTF-8): ASCII always. */
static int jstring_ok(const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++)
        if (*c >= 0x80) {
            json_t *j = json_string(s);
            json_decref(j);
            return j != NULL;
        }
    return 1;
}

static void jstr(jbuf *b, const char *s)
{
    static const char hex[] = "0123456789ABCDEF";
    jch(b, '"');
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        const unsigned char *run = c;
        while (*c && *c >= 0x20 && *c != '"' && *c != '\\')
            c++;
        jmem(b, (const char *)run, (size_t)(c - run));
        if (!*c)
            break;
        switch (*c) {
        case '"': jlit(b, "\\\""); break;
        case '\\': jlit(b, "\\\\"); break;
        case '\b': jlit(b, "\\b"); break;
        case '\f': jlit(b, "\\f"); break;
        case '\n': jlit(b, "\\n"); break;
        case '\r': jlit(b, "\\r"); break;
        case '\t': jlit(b, "\\t"); break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[*c >> 4], hex[*c & 15]};
            jmem(b, u, sizeof u);
        }
        }
    }
    jch(b, '"');
}

static void jvalues(jbuf *b, const uint64_t *v, size_t n)
{
    jch(b, '[');
    for (size_t k = 0; k < n; k++) {
        if (k)
            jch(b, ',');
        ju64(b, v[k]);
    }
    jch(b, ']');
}

/* "," before every row but the first kept */
static void jsep(jbuf *b, int *first)
{
    if (!*first)
        jch(b, ',');
    *first = 0;
}

socmon_status socmon_profile_to_json(const socmon_profile *p, char **out, size_t *len)
{
    if (!p || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_to_json: NULL argument");
    jbuf b = {0};
    int first;
    const char *program = p->program ? p->program : "", *arch = p->arch ? p->arch : "";
    /* some 60 bytes a PC and a node, 30 a slice */
    jreserve(&b, 4096 + (p->ninsns + p->nnodes) * (40 + 8 * p->nevents) + p->nslices * 32);
    jlit(&b, "{\"format\":\"socmon-profile\",\"version\":2");
    if (jstring_ok(program)) {
        jlit(&b, ",\"program\":");
        jstr(&b, program);
    }
    if (jstring_ok(arch)) {
        jlit(&b, ",\"arch\":");
        jstr(&b, arch);
    }
    jlit(&b, ",\"events\":[");
    first = 1;
    for (size_t k = 0; k < p->nevents; k++) {
        const char *name = p->events[k] ? p->events[k] : "";
        if (!jstring_ok(name))
            continue;
        jsep(&b, &first);
        jlit(&b, "{\"name\":");
        jstr(&b, name);
        jlit(&b, ",\"width\":");
        jint(&b, (int64_t)p->widths[k]);
        jch(&b, '}');
    }
    jlit(&b, "],\"total\":");
    jvalues(&b, p->total, p->nevents);
    jlit(&b, ",\"functions\":[");
    first = 1;
    for (size_t i = 0; i < p->nfuncs; i++) {
        const char *name = p->funcs[i].name ? p->funcs[i].name : "";
        if (!jstring_ok(name))
            continue;
        jsep(&b, &first);
        jch(&b, '[');
        jstr(&b, name);
        jch(&b, ',');
        ju64(&b, p->funcs[i].lo);
        jch(&b, ',');
        ju64(&b, p->funcs[i].hi);
        jch(&b, ']');
    }
    jlit(&b, "],\"insns\":[");
    first = 1;
    const size_t vals = 2 + p->nevents * (JROW_INT + 1);   /* a row's values */
    for (size_t i = 0; i < p->ninsns; i++) {
        const char *text = p->insns[i].text ? p->insns[i].text : "";
        if (!jstring_ok(text))
            continue;
        if (jreserve(&b, 8 + 3 * (JROW_INT + 1) + vals) != 0)
            break;
        if (!first)
            jc(&b, ',');
        first = 0;
        jc(&b, '[');
        ji(&b, (int64_t)p->insns[i].pc);
        jc(&b, ',');
        ji(&b, (int64_t)p->insns[i].word);
        jc(&b, ',');
        ji(&b, (int64_t)p->insns[i].func);
        jc(&b, ',');
        jvals(&b, p->insns[i].v, p->nevents);
        jc(&b, ',');
        jstr(&b, text);
        jch(&b, ']');
    }
    jlit(&b, "],\"nodes\":[");
    for (size_t i = 0; i < p->nnodes; i++) {
        if (jreserve(&b, 16 + 3 * (JROW_INT + 1) + vals) != 0)
            break;
        if (i)
            jc(&b, ',');
        jc(&b, '[');
        ji(&b, (int64_t)p->nodes[i].parent);
        jc(&b, ',');
        ji(&b, (int64_t)p->nodes[i].func);
        jmem(&b, p->nodes[i].trap ? ",true," : ",false,", p->nodes[i].trap ? 6 : 7);
        ji(&b, (int64_t)p->nodes[i].calls);
        jc(&b, ',');
        jvals(&b, p->nodes[i].v, p->nevents);
        jc(&b, ']');
    }
    /* version 2: a slice's start after the previous slice's start and its length, not the two
     * times: small numbers that repeat as the program's calls repeat (CoreMark's 100,000
     * slices: 1.7 MB of text instead of 2.7 MB, and 28 KB once compressed instead of 680 KB) */
    jlit(&b, "],\"slices\":[");
    uint64_t t_prev = 0;
    for (size_t i = 0; i < p->nslices; i++) {
        if (jreserve(&b, 8 + 4 * (JROW_INT + 1)) != 0)
            break;
        if (i)
            jc(&b, ',');
        jc(&b, '[');
        ji(&b, (int64_t)(p->slices[i].t0_ns - t_prev));
        t_prev = p->slices[i].t0_ns;
        jc(&b, ',');
        ji(&b, (int64_t)(p->slices[i].t1_ns - p->slices[i].t0_ns));
        jc(&b, ',');
        ji(&b, (int64_t)p->slices[i].func);
        jc(&b, ',');
        ji(&b, (int64_t)p->slices[i].depth);
        jc(&b, ']');
    }
    jlit(&b, "],\"slices_dropped\":");
    ju64(&b, p->slices_dropped);
    if (p->ninhibited) {
        jlit(&b, ",\"inhibited\":[");
        first = 1;
        for (size_t i = 0; i < p->ninhibited; i++) {
            const socmon_inhibited *x = &p->inhibited[i];
            if (!jstring_ok(x->counter) || !jstring_ok(x->reg))
                continue;
            jsep(&b, &first);
            jch(&b, '[');
            jstr(&b, x->counter);
            jch(&b, ',');
            jstr(&b, x->reg);
            jch(&b, ',');
            ju64(&b, x->inhibited_cycles);
            jch(&b, ',');
            ju64(&b, x->run_cycles);
            jch(&b, ']');
        }
        jch(&b, ']');
    }
    jch(&b, '}');
    if (b.oom || jreserve(&b, 0) != 0) {
        free(b.s);
        return socmon_fail(SOCMON_ENOMEM, "profile: out of memory for its JSON");
    }
    b.s[b.n] = '\0';
    *out = b.s;
    if (len)
        *len = b.n;
    return SOCMON_OK;
}

/* ---- reading ---- */

typedef struct reader {
    char what[160];
} reader;

static int bad(reader *r, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static int bad(reader *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->what, sizeof r->what, fmt, ap);
    va_end(ap);
    return -1;
}

/* A name a profile may hold: what the targets make of symbols ([A-Za-z0-9_.$-]), so no control
 * byte, separator of folded stacks or space ever reaches a terminal or a flame graph. */
static int good_name(const json_t *j)
{
    const char *s = json_string_value(j);
    size_t n = json_string_length(j);
    if (!s || n < 1 || n > 256)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '.' || c == '$' || c == '-'))
            return 0;
    }
    return 1;
}

/* Printable ASCII (an instruction's text, a program's path), up to max bytes. */
static int printable(const json_t *j, size_t max)
{
    const char *s = json_string_value(j);
    size_t n = json_string_length(j);
    if (!s || n > max)
        return 0;
    for (size_t i = 0; i < n; i++)
        if ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e)
            return 0;
    return 1;
}

static int get_u64(const json_t *j, uint64_t *v)
{
    if (!json_is_integer(j))
        return -1;
    *v = (uint64_t)(int64_t)json_integer_value(j);
    return 0;
}

static int get_index(const json_t *j, size_t n, size_t *v)
{
    if (!json_is_integer(j) || json_integer_value(j) < 0 || (uint64_t)json_integer_value(j) >= n)
        return -1;
    *v = (size_t)json_integer_value(j);
    return 0;
}

static int get_values(const socmon_profile *p, const json_t *a, uint64_t *v)
{
    if (!json_is_array(a) || json_array_size(a) != p->nevents)
        return -1;
    for (size_t k = 0; k < p->nevents; k++) {
        if (get_u64(json_array_get(a, k), &v[k]) != 0)
            return -1;
        if (p->widths[k] < 64 && v[k] >> p->widths[k])
            return -1;   /* more bits than the counter has */
    }
    return 0;
}

/* Adds what `of` counted of event k to *sum (modulo the width) and its size to *mag; -1 once the
 * sizes pass what a signed 64-bit sum holds. */
static int add_count(const socmon_profile *p, size_t k, uint64_t v, uint64_t *sum, uint64_t *mag)
{
    int64_t s = socmon_profile_signed(p, k, v);
    uint64_t a = s < 0 ? (uint64_t)0 - (uint64_t)s : (uint64_t)s;
    *sum += v;
    if (a > (uint64_t)INT64_MAX - *mag)
        return -1;
    *mag += a;
    return 0;
}

/* Every event's counts, per instruction and per frame, add up to the run's total (modulo the
 * counter's width: a program that writes a counter counts the change to the writer), and their
 * sizes fit a signed 64-bit sum: the views add signed counts of lines and functions, so a
 * document with an instruction of 2^63-1 cycles in a run of 40512 would sum to garbage
 * (-100 %). Such a profile is damaged. */
static int check_sums(reader *r, const socmon_profile *p)
{
    for (size_t k = 0; k < p->nevents; k++) {
        uint64_t mask = p->widths[k] >= 64 ? UINT64_MAX : (UINT64_C(1) << p->widths[k]) - 1;
        static const char *const what[2] = {"instructions'", "frames'"};
        for (int pass = 0; pass < 2; pass++) {
            uint64_t sum = 0, mag = 0;
            size_t n = pass ? p->nnodes : p->ninsns;
            for (size_t i = 0; i < n; i++)
                if (add_count(p, k, pass ? p->nodes[i].v[k] : p->insns[i].v[k], &sum, &mag) != 0)
                    return bad(r, "%s: the %s counts are too large to add up (past 2^63 at %s %zu): not a run's",
                               p->events[k], what[pass], pass ? "node" : "instruction", i);
            if ((sum & mask) != (p->total[k] & mask))
                return bad(r, "%s: the %s counts add up to %lld, not to the run's total %lld", p->events[k],
                           what[pass], (long long)socmon_profile_signed(p, k, sum),
                           (long long)socmon_profile_signed(p, k, p->total[k]));
        }
    }
    return 0;
}

static int read_rows(reader *r, socmon_profile *p, const json_t *doc, int version)
{
    const json_t *ev = json_object_get(doc, "events");
    for (size_t k = 0; k < p->nevents; k++) {
        const json_t *e = json_array_get(ev, k), *name = json_object_get(e, "name");
        json_int_t w = json_integer_value(json_object_get(e, "width"));
        if (!good_name(name) || w < 1 || w > 64 ||
            !(p->events[k] = strdup(json_string_value(name))))
            return bad(r, "event %zu: a name and a width of 1..64 bits", k);
        p->widths[k] = (unsigned)w;
    }
    if (get_values(p, json_object_get(doc, "total"), p->total) != 0)
        return bad(r, "total: one value per event, within its width");
    const json_t *fn = json_object_get(doc, "functions");
    for (size_t i = 0; i < p->nfuncs; i++) {
        const json_t *f = json_array_get(fn, i), *name = json_array_get(f, 0);
        if (json_array_size(f) != 3 || !good_name(name) || get_u64(json_array_get(f, 1), &p->funcs[i].lo) ||
            get_u64(json_array_get(f, 2), &p->funcs[i].hi) || p->funcs[i].hi < p->funcs[i].lo ||
            !(p->funcs[i].name = strdup(json_string_value(name))))
            return bad(r, "function %zu: [name, lo, hi] with lo <= hi and a name of [A-Za-z0-9_.$-]", i);
    }
    const json_t *in = json_object_get(doc, "insns");
    for (size_t i = 0; i < p->ninsns; i++) {
        const json_t *x = json_array_get(in, i);
        uint64_t word;
        socmon_profile_insn *q = &p->insns[i];
        const json_t *text = json_array_get(x, 4);
        if (json_array_size(x) != 5 || get_u64(json_array_get(x, 0), &q->pc) ||
            get_u64(json_array_get(x, 1), &word) || word > UINT32_MAX ||
            get_index(json_array_get(x, 2), p->nfuncs, &q->func) || get_values(p, json_array_get(x, 3), q->v) ||
            !printable(text, 200))
            return bad(r, "instruction %zu: [pc, word, function, values, text] with a known function", i);
        if (json_string_length(text) && !(q->text = strdup(json_string_value(text))))
            return bad(r, "out of memory");
        q->word = (uint32_t)word;
        if (i && q->pc <= p->insns[i - 1].pc)
            return bad(r, "instruction %zu: not after the one before it (by address)", i);
    }
    const json_t *nd = json_object_get(doc, "nodes");
    for (size_t i = 0; i < p->nnodes; i++) {
        const json_t *x = json_array_get(nd, i);
        socmon_profile_node *q = &p->nodes[i];
        if (json_array_size(x) != 5 || get_index(json_array_get(x, 0), i ? i : 1, &q->parent) ||
            get_index(json_array_get(x, 1), p->nfuncs, &q->func) || !json_is_boolean(json_array_get(x, 2)) ||
            get_u64(json_array_get(x, 3), &q->calls) || get_values(p, json_array_get(x, 4), q->v))
            return bad(r, "node %zu: [parent, function, trap, calls, values] with a parent before it", i);
        q->trap = json_is_true(json_array_get(x, 2));
    }
    if (check_sums(r, p) != 0)
        return -1;
    /* version 1: [t0, t1, ...]; version 2: [t0 - the previous slice's t0 (two's complement),
     * t1 - t0, ...], the same times once added up */
    const json_t *sl = json_object_get(doc, "slices");
    uint64_t t_prev = 0;
    for (size_t i = 0; i < p->nslices; i++) {
        const json_t *x = json_array_get(sl, i);
        socmon_profile_slice *q = &p->slices[i];
        size_t depth;
        uint64_t a, b;
        if (json_array_size(x) != 4 || get_u64(json_array_get(x, 0), &a) || get_u64(json_array_get(x, 1), &b) ||
            get_index(json_array_get(x, 2), p->nfuncs, &q->func) ||
            get_index(json_array_get(x, 3), 1u << 16, &depth))
            return bad(r, "slice %zu: [%s, function, depth]%s", i, version == 1 ? "t0, t1" : "t0 step, length",
                       version == 1 ? " with t0 <= t1" : "");
        if (version == 1) {
            q->t0_ns = a;
            q->t1_ns = b;
        } else {
            q->t0_ns = t_prev + a;
            q->t1_ns = q->t0_ns + b;
            if ((int64_t)a < 0 ? q->t0_ns > t_prev : q->t0_ns < t_prev)
                return bad(r, "slice %zu: starts outside 0..2^64-1 ns", i);
            if ((int64_t)b < 0)
                return bad(r, "slice %zu: a negative length", i);
            t_prev = q->t0_ns;
        }
        if (q->t1_ns < q->t0_ns)
            return bad(r, "slice %zu: ends before it starts (or past the largest time)", i);
        q->depth = (unsigned)depth;
    }
    if (get_u64(json_object_get(doc, "slices_dropped"), &p->slices_dropped) != 0)
        return bad(r, "slices_dropped: a count");
    const json_t *ih = json_object_get(doc, "inhibited");   /* optional: counters the program stopped */
    if (ih && (!json_is_array(ih) || json_array_size(ih) > MAX_EVENTS))
        return bad(r, "inhibited: an array of at most %u counters", MAX_EVENTS);
    if (json_array_size(ih) && !(p->inhibited = calloc(json_array_size(ih), sizeof *p->inhibited)))
        return bad(r, "out of memory");
    for (size_t i = 0; i < json_array_size(ih); i++) {
        const json_t *x = json_array_get(ih, i), *name = json_array_get(x, 0), *reg = json_array_get(x, 1);
        socmon_inhibited *q = &p->inhibited[i];
        if (json_array_size(x) != 4 || !good_name(name) || !good_name(reg) ||
            json_string_length(name) >= sizeof q->counter || json_string_length(reg) >= sizeof q->reg ||
            get_u64(json_array_get(x, 2), &q->inhibited_cycles) || get_u64(json_array_get(x, 3), &q->run_cycles) ||
            q->inhibited_cycles > q->run_cycles)
            return bad(r, "inhibited %zu: [counter, register, inhibited cycles, run cycles], at most the run", i);
        snprintf(q->counter, sizeof q->counter, "%s", json_string_value(name));
        snprintf(q->reg, sizeof q->reg, "%s", json_string_value(reg));
        p->ninhibited = i + 1;
    }
    return 0;
}

socmon_status socmon_profile_from_json(const char *text, size_t len, socmon_profile **out)
{
    if (!text || !out)
        return socmon_fail(SOCMON_EINVAL, "socmon_profile_from_json: NULL argument");
    *out = NULL;
    json_error_t err;
    json_t *doc = json_loadb(text, len, JSON_REJECT_DUPLICATES, &err);
    if (!doc)
        return socmon_fail(SOCMON_EPARSE, "profile: not valid JSON (line %d: %s)", err.line, err.text);
    const json_t *fmt = json_object_get(doc, "format"), *ev = json_object_get(doc, "events"),
                 *fn = json_object_get(doc, "functions"), *in = json_object_get(doc, "insns"),
                 *nd = json_object_get(doc, "nodes"), *sl = json_object_get(doc, "slices"),
                 *prog = json_object_get(doc, "program"), *arch = json_object_get(doc, "arch");
    socmon_status st = SOCMON_OK;
    socmon_profile *p = NULL;
    json_int_t vj = json_integer_value(json_object_get(doc, "version"));
    int version = vj == 1 || vj == 2 ? (int)vj : 0;   /* 2: the slices' times as steps (above) */
    if (!json_is_string(fmt) || strcmp(json_string_value(fmt), "socmon-profile") != 0 || !version)
        st = socmon_fail(SOCMON_EPARSE, "profile: not a socmon profile of version 1 or 2");
    else if (!json_is_array(ev) || !json_is_array(fn) || !json_is_array(in) || !json_is_array(nd) ||
             !json_is_array(sl) || !printable(prog, 4096) || !printable(arch, 32))
        st = socmon_fail(SOCMON_EPARSE, "profile: program, arch (printable), events, functions, insns, nodes "
                                        "and slices must all be there");
    else if ((st = socmon_profile_new(json_array_size(ev), json_array_size(fn), json_array_size(in),
                                      json_array_size(nd), json_array_size(sl), &p)) != SOCMON_OK)
        st = socmon_fail(SOCMON_EPARSE, "profile: %s", socmon_errmsg());
    else if (!(p->program = strdup(json_string_value(prog))) || !(p->arch = strdup(json_string_value(arch))))
        st = socmon_fail(SOCMON_ENOMEM, "profile: out of memory");
    if (st == SOCMON_OK) {
        reader r = {""};
        if (read_rows(&r, p, doc, version) != 0)
            st = socmon_fail(SOCMON_EPARSE, "profile: %s", r.what);
    }
    json_decref(doc);
    if (st != SOCMON_OK) {
        socmon_profile_free(p);
        return st;
    }
    *out = p;
    return SOCMON_OK;
}
