/* The NoC packet trace format (docs/esp-model.md, "Traffic you choose"):
 *
 *   # a comment; blank lines are fine
 *   mesh 2 3                 ROWS COLS: the first line, the SoC's mesh
 *   plane 0                  optional, before any packet: the NoC plane 0..5 (default 0)
 *   0 0 5 3                  CYCLE SRC DST FLITS: tile = row*COLS + col, SRC != DST,
 *   4 1 2 1                  1..256 flits (head and tail included), sorted by cycle
 *   stall 5 10 40            TILE FROM TO: TILE's sink accepts nothing in FROM <= c < TO
 *
 * Every error names the source, the line and the field: "t.trace:4: field 'dst': 6 out of
 * range 0..5". */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/file.h"
#include "core/grow.h"
#include "models/esp/esp_trace.h"
#include "socmon/esp.h"

#define MAX_LINE 511
#define MAX_TOK 8
#define MAX_FILE (64u << 20)

typedef struct tparser {
    const char *src;
    unsigned line;
    int have_plane;
    uint64_t last_cycle;
    esp_trace *t;
} tparser;

static socmon_status perr(const tparser *p, const char *field, const char *val, const char *what)
{
    if (val)
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': '%.40s' %s", p->src, p->line, field, val, what);
    return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': %s", p->src, p->line, field, what);
}

/* Decimal only: a trace is numbers a script wrote. */
static socmon_status num(const tparser *p, const char *field, const char *tok, uint64_t lo, uint64_t hi,
                         uint64_t *out)
{
    if (!tok)
        return perr(p, field, NULL, "missing");
    if (tok[0] < '0' || tok[0] > '9')
        return perr(p, field, tok, "is not an unsigned decimal number");
    char *end;
    errno = 0;
    unsigned long long v = strtoull(tok, &end, 10);
    if (*end != '\0')
        return perr(p, field, tok, "is not an unsigned decimal number");
    if (errno == ERANGE || v < lo || v > hi)
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': %.40s out of range %llu..%llu", p->src, p->line,
                           field, tok, (unsigned long long)lo, (unsigned long long)hi);
    *out = v;
    return SOCMON_OK;
}

static socmon_status extra(const tparser *p, const char *after, char **tok, int ntok, int want)
{
    if (ntok > want)
        return perr(p, after, tok[want], "is one field too many");
    return SOCMON_OK;
}

static socmon_status tile(const tparser *p, const char *field, const char *tok, uint64_t *out)
{
    return num(p, field, tok, 0, (uint64_t)p->t->rows * p->t->cols - 1, out);
}

static socmon_status packet(tparser *p, char **tok, int ntok)
{
    uint64_t cycle, src, dst, flits;
    socmon_status st = num(p, "cycle", tok[0], 0, ESP_TRACE_MAX_CYCLE, &cycle);
    if (st == SOCMON_OK && p->t->npkt && cycle < p->last_cycle) {
        char m[96];
        snprintf(m, sizeof m, "comes before cycle %llu of the packet above (the trace must be sorted by cycle)",
                 (unsigned long long)p->last_cycle);
        st = perr(p, "cycle", tok[0], m);
    }
    if (st == SOCMON_OK)
        st = tile(p, "src", tok[1], &src);
    if (st == SOCMON_OK)
        st = tile(p, "dst", tok[2], &dst);
    if (st == SOCMON_OK && dst == src)
        st = perr(p, "dst", tok[2], "equals src (a tile sends no packet to itself over the NoC)");
    if (st == SOCMON_OK)
        st = num(p, "flits", tok[3], 1, ESP_TRACE_MAX_FLITS, &flits);
    if (st == SOCMON_OK)
        st = extra(p, "flits", tok, ntok, 4);
    if (st != SOCMON_OK)
        return st;
    esp_trace *t = p->t;
    if (SOCMON_GROW(t->pkt, t->cappkt, t->npkt, 1024))
        return socmon_fail(SOCMON_ENOMEM, "%s:%u: out of memory for the trace's packets", p->src, p->line);
    t->pkt[t->npkt++] = (esp_trace_pkt){.cycle = cycle, .src = (uint16_t)src, .dst = (uint16_t)dst,
                                        .flits = (uint16_t)flits};
    p->last_cycle = cycle;
    return SOCMON_OK;
}

static socmon_status stall(tparser *p, char **tok, int ntok)
{
    uint64_t t, from, to;
    socmon_status st = tile(p, "tile", tok[1], &t);
    if (st == SOCMON_OK)
        st = num(p, "from", tok[2], 0, ESP_TRACE_MAX_CYCLE - 1, &from);
    if (st == SOCMON_OK)
        st = num(p, "to", tok[3], from + 1, ESP_TRACE_MAX_CYCLE, &to);
    if (st == SOCMON_OK)
        st = extra(p, "to", tok, ntok, 4);
    if (st != SOCMON_OK)
        return st;
    esp_trace *tr = p->t;
    if (SOCMON_GROW(tr->stall, tr->capstall, tr->nstall, 16))
        return socmon_fail(SOCMON_ENOMEM, "%s:%u: out of memory for the trace's stalls", p->src, p->line);
    tr->stall[tr->nstall++] = (esp_trace_stall){.from = from, .to = to, .tile = (unsigned)t};
    return SOCMON_OK;
}

static socmon_status line(tparser *p, char **tok, int ntok)
{
    esp_trace *t = p->t;
    if (!t->rows) {
        if (strcmp(tok[0], "mesh") != 0)
            return perr(p, "mesh", tok[0], "comes first: the trace must begin with 'mesh ROWS COLS'");
        uint64_t r, c;
        socmon_status st = num(p, "rows", tok[1], 1, SOCMON_ESP_MAX_ROWS, &r);
        if (st == SOCMON_OK)
            st = num(p, "cols", tok[2], 1, SOCMON_ESP_MAX_COLS, &c);
        if (st == SOCMON_OK)
            st = extra(p, "cols", tok, ntok, 3);
        if (st != SOCMON_OK)
            return st;
        t->rows = (unsigned)r;
        t->cols = (unsigned)c;
        t->mesh_line = p->line;
        return SOCMON_OK;
    }
    if (tok[0][0] >= '0' && tok[0][0] <= '9')
        return packet(p, tok, ntok);
    if (strcmp(tok[0], "stall") == 0)
        return stall(p, tok, ntok);
    if (strcmp(tok[0], "plane") == 0) {
        if (p->have_plane)
            return perr(p, "plane", NULL, "given twice");
        if (t->npkt || t->nstall)
            return perr(p, "plane", NULL, "comes after a packet or a stall (give it before them)");
        uint64_t pl;
        socmon_status st = num(p, "plane", tok[1], 0, 5, &pl);
        if (st == SOCMON_OK)
            st = extra(p, "plane", tok, ntok, 2);
        if (st != SOCMON_OK)
            return st;
        t->plane = (unsigned)pl;
        p->have_plane = 1;
        return SOCMON_OK;
    }
    if (strcmp(tok[0], "mesh") == 0)
        return perr(p, "mesh", NULL, "given twice");
    return perr(p, "directive", tok[0], "unknown (expected plane, stall, or a packet: CYCLE SRC DST FLITS)");
}

void smn_esp_trace_free(esp_trace *t)
{
    if (!t)
        return;
    free(t->pkt);
    free(t->stall);
    memset(t, 0, sizeof *t);
}

socmon_status smn_esp_trace_parse(const char *text, size_t len, const char *src, esp_trace *out)
{
    if (!out || (!text && len))
        return socmon_fail(SOCMON_EINVAL, "esp trace parse: %s is NULL", out ? "text" : "out");
    memset(out, 0, sizeof *out);
    tparser p = {.src = src ? src : "trace", .t = out};
    socmon_status st = SOCMON_OK;
    size_t i = 0;
    while (i < len && st == SOCMON_OK) {
        p.line++;
        size_t end = i;
        while (end < len && text[end] != '\n')
            end++;
        char buf[MAX_LINE + 2];
        size_t n = end - i;
        if (n && text[i + n - 1] == '\r')
            n--;
        if (memchr(text + i, '\0', end - i)) {
            st = perr(&p, "line", NULL, "contains a NUL byte (not a text file)");
            break;
        }
        if (n > MAX_LINE) {
            st = perr(&p, "line", NULL, "longer than 511 characters");
            break;
        }
        memcpy(buf, text + i, n);
        buf[n] = '\0';
        i = end + 1;
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *tok[MAX_TOK + 1] = {0};
        int ntok = 0;
        for (char *s = strtok(buf, " \t\r\v\f"); s; s = strtok(NULL, " \t\r\v\f"))
            if (ntok <= MAX_TOK)
                tok[ntok++] = s;
        if (ntok)
            st = line(&p, tok, ntok);
    }
    if (st == SOCMON_OK && !out->rows)
        st = socmon_fail(SOCMON_EPARSE, "%s: field 'mesh': missing (the trace must begin with 'mesh ROWS COLS')",
                         p.src);
    if (st != SOCMON_OK)
        smn_esp_trace_free(out);
    return st;
}

socmon_status smn_esp_trace_load(const char *path, esp_trace *out)
{
    if (!path || !out)
        return socmon_fail(SOCMON_EINVAL, "esp trace load: %s is NULL", path ? "out" : "path");
    char *text;
    size_t n;
    socmon_status st = smn_file_read(path, MAX_FILE, "noc trace", &text, &n);
    if (st != SOCMON_OK)
        return st;
    st = smn_esp_trace_parse(text, n, path, out);
    free(text);
    return st;
}
