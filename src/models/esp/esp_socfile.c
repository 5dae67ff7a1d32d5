/* The SoC description file: a line-based text format (docs/esp-model.md).
 *
 *   rows 2                      grid size; before any tile line
 *   cols 3
 *   tile 0 0 cpu                tile ROW COL TYPE, TYPE in cpu mem io empty
 *   tile 0 2 acc fft l2         acc takes a NAME and optionally "l2"
 *   cache_hierarchy on          on|off (default on)
 *   dvfs on                     on|off (default on)
 *   noc_planes 6                must be 6 (ESP's monitor layout depends on it)
 *   noc_queues 5                must be 5
 *   monitor_base 0x60090000     multiple of 0x200
 *   clock_hz 78e6               1e3..1e11
 *
 * '#' starts a comment. Unlisted tiles are empty. Every error names the
 * source, the line and the field: "soc.txt:4: field 'row': 7 out of range 0..1". */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "socmon/data.h"
#include "models/esp/esp_internal.h"

#define MAX_TOK 8
#define MAX_FILE (1u << 20)

typedef struct parser {
    const char *src;
    unsigned line;
    socmon_esp_soc_desc d;
    unsigned seen;                  /* bit per key: duplicates are errors */
    unsigned tile_line[SOCMON_ESP_MAX_TILES]; /* line that set each tile, 0: none */
} parser;

enum { K_ROWS, K_COLS, K_CACHE, K_DVFS, K_PLANES, K_QUEUES, K_BASE, K_CLOCK, K_NKEYS };
static const char *const key_names[K_NKEYS] = {
    "rows", "cols", "cache_hierarchy", "dvfs", "noc_planes", "noc_queues", "monitor_base", "clock_hz",
};

static socmon_status perr(const parser *p, const char *field, const char *val, const char *what)
{
    /* One shape for every error: SRC:LINE: field 'F': 'VALUE' REASON */
    if (val)
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': '%.40s' %s", p->src, p->line, field,
                           val, what);
    return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': %s", p->src, p->line, field, what);
}

static socmon_status parse_uint(const parser *p, const char *field, const char *tok,
                                unsigned long long lo, unsigned long long hi,
                                unsigned long long *out)
{
    char *end;
    if (!tok)
        return perr(p, field, NULL, "missing value");
    if (tok[0] == '-' || tok[0] == '+')
        return perr(p, field, tok, "is not an unsigned number");
    /* Decimal, or hex with 0x: a leading 0 is not octal here. */
    int hex = tok[0] == '0' && (tok[1] == 'x' || tok[1] == 'X');
    errno = 0;
    unsigned long long v = strtoull(tok, &end, hex ? 16 : 10);
    if (end == tok || *end != '\0')
        return perr(p, field, tok, "is not a number");
    if (errno == ERANGE || v < lo || v > hi) {
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field '%s': %.40s out of range %llu..%llu",
                           p->src, p->line, field, tok, lo, hi);
    }
    *out = v;
    return SOCMON_OK;
}

static socmon_status parse_onoff(const parser *p, const char *field, const char *tok, int *out)
{
    if (!tok)
        return perr(p, field, NULL, "missing value (on or off)");
    if (strcmp(tok, "on") == 0 || strcmp(tok, "1") == 0 || strcmp(tok, "yes") == 0)
        *out = 1;
    else if (strcmp(tok, "off") == 0 || strcmp(tok, "0") == 0 || strcmp(tok, "no") == 0)
        *out = 0;
    else
        return perr(p, field, tok, "is not on or off");
    return SOCMON_OK;
}

static int valid_name(const char *s)
{
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof ((socmon_esp_tile_desc *)0)->name)
        return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '_' || *s == '-'))
            return 0;
    return 1;
}

static socmon_status parse_tile(parser *p, char **tok, unsigned ntok)
{
    unsigned long long r, c;
    socmon_status st;
    if (!(p->seen & (1u << K_ROWS)) || !(p->seen & (1u << K_COLS)))
        return perr(p, "tile", NULL, "comes before 'rows' and 'cols'");
    if ((st = parse_uint(p, "row", ntok > 1 ? tok[1] : NULL, 0, p->d.rows - 1, &r)) != SOCMON_OK)
        return st;
    if ((st = parse_uint(p, "col", ntok > 2 ? tok[2] : NULL, 0, p->d.cols - 1, &c)) != SOCMON_OK)
        return st;
    if (ntok < 4)
        return perr(p, "type", NULL, "missing value (cpu, mem, acc, io or empty)");
    static const struct { const char *name; socmon_esp_tile_type t; } types[] = {
        {"cpu", SOCMON_ESP_TILE_CPU}, {"mem", SOCMON_ESP_TILE_MEM}, {"acc", SOCMON_ESP_TILE_ACC},
        {"io", SOCMON_ESP_TILE_IO},   {"empty", SOCMON_ESP_TILE_EMPTY},
    };
    int type = -1;
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(tok[3], types[i].name) == 0)
            type = (int)types[i].t;
    if (type < 0)
        return perr(p, "type", tok[3], "is not one of cpu, mem, acc, io, empty");
    unsigned t = (unsigned)(r * p->d.cols + c);
    if (p->tile_line[t])
        return socmon_fail(SOCMON_EPARSE, "%s:%u: field 'tile': %llu %llu already given on line %u",
                           p->src, p->line, r, c, p->tile_line[t]);
    socmon_esp_tile_desc *td = &p->d.tiles[t];
    memset(td, 0, sizeof *td);
    td->type = (socmon_esp_tile_type)type;
    unsigned next = 4;
    if (type == SOCMON_ESP_TILE_ACC) {
        if (ntok < 5)
            return perr(p, "name", NULL, "missing (an accelerator tile needs a name)");
        if (!valid_name(tok[4]))
            return perr(p, "name", tok[4], "is not 1..31 characters of [A-Za-z0-9_-]");
        memcpy(td->name, tok[4], strlen(tok[4]) + 1);
        next = 5;
        if (ntok > 5 && strcmp(tok[5], "l2") == 0) {
            td->has_l2 = 1;
            next = 6;
        }
    }
    if (ntok > next)
        return perr(p, "tile", tok[next],
                    type == SOCMON_ESP_TILE_ACC ? "unexpected (only 'l2' may follow the name)"
                                                : "unexpected after the tile type");
    p->tile_line[t] = p->line;
    return SOCMON_OK;
}

static socmon_status parse_line(parser *p, char **tok, unsigned ntok)
{
    socmon_status st;
    unsigned long long v;
    if (strcmp(tok[0], "tile") == 0)
        return parse_tile(p, tok, ntok);
    int k = -1;
    for (int i = 0; i < K_NKEYS; i++)
        if (strcmp(tok[0], key_names[i]) == 0)
            k = i;
    if (k < 0)
        return perr(p, "key", tok[0],
                    "unknown (expected rows, cols, tile, cache_hierarchy, dvfs, noc_planes, "
                    "noc_queues, monitor_base, clock_hz)");
    const char *f = key_names[k];
    if (p->seen & (1u << k))
        return perr(p, f, NULL, "given twice");
    if (ntok > 2)
        return perr(p, f, tok[2], "unexpected extra value");
    const char *val = ntok > 1 ? tok[1] : NULL;
    switch (k) {
    case K_ROWS:
    case K_COLS:
        if ((st = parse_uint(p, f, val, 1, k == K_ROWS ? SOCMON_ESP_MAX_ROWS : SOCMON_ESP_MAX_COLS,
                             &v)) != SOCMON_OK)
            return st;
        if (k == K_ROWS)
            p->d.rows = (unsigned)v;
        else
            p->d.cols = (unsigned)v;
        break;
    case K_CACHE:
        if ((st = parse_onoff(p, f, val, &p->d.cache_hierarchy)) != SOCMON_OK)
            return st;
        break;
    case K_DVFS:
        if ((st = parse_onoff(p, f, val, &p->d.dvfs)) != SOCMON_OK)
            return st;
        break;
    case K_PLANES:
    case K_QUEUES: {
        unsigned want = k == K_PLANES ? 6 : 5;
        if ((st = parse_uint(p, f, val, want, want, &v)) != SOCMON_OK)
            return st;
        if (k == K_PLANES)
            p->d.noc_planes = (unsigned)v;
        else
            p->d.noc_queues = (unsigned)v;
        break;
    }
    case K_BASE:
        if ((st = parse_uint(p, f, val, 0, UINT64_MAX - 0x100000ull, &v)) != SOCMON_OK)
            return st;
        if (v % SOCMON_ESP_TILE_SIZE != 0)
            return perr(p, f, val, "is not a multiple of 0x200");
        p->d.monitor_base = v;
        break;
    case K_CLOCK: {
        char *end;
        if (!val)
            return perr(p, f, NULL, "missing value");
        double hz = strtod(val, &end);
        if (end == val || *end != '\0' || !isfinite(hz))
            return perr(p, f, val, "is not a number");
        if (!(hz >= 1e3 && hz <= 1e11))
            return socmon_fail(SOCMON_EPARSE, "%s:%u: field 'clock_hz': %.40s out of range 1e3..1e11",
                               p->src, p->line, val);
        p->d.clock_hz = hz;
        break;
    }
    }
    p->seen |= 1u << k;
    return SOCMON_OK;
}

socmon_status socmon_esp_soc_desc_parse(const char *text, const char *srcname,
                                        socmon_esp_soc_desc *d)
{
    if (!text || !d)
        return socmon_fail(SOCMON_EINVAL, "esp soc parse: %s is NULL", text ? "desc" : "text");
    parser *p = calloc(1, sizeof *p);
    if (!p)
        return socmon_fail(SOCMON_ENOMEM, "esp soc parse: out of memory");
    p->src = srcname ? srcname : "<soc>";
    socmon_esp_soc_desc_default(&p->d);
    p->d.rows = p->d.cols = 0;
    memset(p->d.tiles, 0, sizeof p->d.tiles);
    socmon_status st = SOCMON_OK;
    const char *s = text;
    char buf[512];
    while (*s && st == SOCMON_OK) {
        p->line++;
        size_t n = strcspn(s, "\n");
        if (n >= sizeof buf) {
            st = socmon_fail(SOCMON_EPARSE, "%s:%u: field 'line': longer than %zu characters",
                             p->src, p->line, sizeof buf - 1);
            break;
        }
        memcpy(buf, s, n);
        buf[n] = '\0';
        s += n + (s[n] == '\n');
        char *hash = strchr(buf, '#');
        if (hash)
            *hash = '\0';
        char *tok[MAX_TOK + 1];
        unsigned ntok = 0;
        for (char *save = NULL, *w = strtok_r(buf, " \t\r\v\f", &save); w;
             w = strtok_r(NULL, " \t\r\v\f", &save)) {
            if (ntok == MAX_TOK + 1)
                break;
            tok[ntok++] = w;
        }
        if (ntok > 0)
            st = parse_line(p, tok, ntok > MAX_TOK ? MAX_TOK : ntok);
    }
    if (st == SOCMON_OK) {
        if (!(p->seen & (1u << K_ROWS)) || !(p->seen & (1u << K_COLS)))
            st = socmon_fail(SOCMON_EPARSE, "%s: field '%s': missing (the grid size is required)",
                             p->src, (p->seen & (1u << K_ROWS)) ? "cols" : "rows");
        else if (socmon_esp_desc_tiles_of(&p->d, SOCMON_ESP_TILE_MEM, NULL, 0) == 0)
            st = socmon_fail(SOCMON_EPARSE, "%s: field 'tile': no mem tile (ESP needs at least one)",
                             p->src);
        else if (socmon_esp_desc_tiles_of(&p->d, SOCMON_ESP_TILE_CPU, NULL, 0) == 0)
            st = socmon_fail(SOCMON_EPARSE, "%s: field 'tile': no cpu tile (ESP needs at least one)",
                             p->src);
    }
    if (st == SOCMON_OK)
        *d = p->d;
    free(p);
    return st;
}

socmon_status socmon_esp_soc_desc_load(const char *path, socmon_esp_soc_desc *d)
{
    if (!path || !d)
        return socmon_fail(SOCMON_EINVAL, "esp soc load: %s is NULL", path ? "desc" : "path");
    /* A bare name that is no file here ("esp_4x4") names an installed SoC
     * description: share/socmon/socs/esp_4x4.soc (socmon/data.h). */
    char found[4096];
    if (!strchr(path, '/') && access(path, F_OK) != 0) {
        socmon_status rst = socmon_data_path("socs", path, found, sizeof found);
        if (rst != SOCMON_OK)
            return socmon_fail_prefix(rst, "esp soc file: '%s' is no file in the current directory; ", path);
        path = found;
    }
    FILE *fp = fopen(path, "rb");
    if (!fp)
        return socmon_fail(errno == ENOENT ? SOCMON_ENOENT : errno == EACCES ? SOCMON_EPERM : SOCMON_EIO,
                           "esp soc file '%s': %s", path, strerror(errno));
    char *text = malloc(MAX_FILE + 1);
    if (!text) {
        fclose(fp);
        return socmon_fail(SOCMON_ENOMEM, "esp soc file '%s': out of memory", path);
    }
    size_t n = fread(text, 1, MAX_FILE + 1, fp);
    int err = ferror(fp);
    fclose(fp);
    socmon_status st;
    if (err)
        st = socmon_fail(SOCMON_EIO, "esp soc file '%s': read error", path);
    else if (n > MAX_FILE)
        st = socmon_fail(SOCMON_EPARSE, "esp soc file '%s': larger than %u bytes", path, MAX_FILE);
    else if (memchr(text, '\0', n))
        st = socmon_fail(SOCMON_EPARSE, "esp soc file '%s': contains a NUL byte (not a text file)",
                         path);
    else {
        text[n] = '\0';
        st = socmon_esp_soc_desc_parse(text, path, d);
    }
    free(text);
    return st;
}
