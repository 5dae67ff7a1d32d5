/* Synthetic NoC traffic: the classic patterns (docs/esp-model.md, "Traffic you choose").
 *
 * On an R x C mesh, tile t = (r, c) = (t / C, t % C), N = R*C tiles:
 *   uniform    any other tile, each equally likely
 *   transpose  (c mod R, r mod C); the tiles that map to themselves send nothing
 *   bitcomp    N-1-t = (R-1-r, C-1-c): every index bit complemented on a power-of-2 mesh
 *   hotspot    the hot tile (hot=T, default 0) with probability 1/4, else uniform
 *   neighbor   the east neighbour, wrapping in the row, (r, (c+1) mod C); one column: south
 *   tornado    half way round each dimension, ((r + ceil(R/2)-1) mod R, (c + ceil(C/2)-1) mod C)
 * Each tile offers a packet in a cycle with probability rate / mean length (Bernoulli), so the
 * offered load is rate flits per cycle per tile. One 64-bit generator (splitmix64) seeded by
 * seed draws for every tile in tile order every cycle: the same seed gives the same packets. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "models/esp/esp_trace.h"

static const char *const pattern_names[] = {"uniform", "transpose", "bitcomp", "hotspot", "neighbor", "tornado"};

const char *smn_esp_pattern_name(esp_pattern_kind k)
{
    return (unsigned)k < 6 ? pattern_names[k] : "?";
}

static uint64_t next64(esp_pattern *p)
{
    uint64_t z = (p->rng += UINT64_C(0x9e3779b97f4a7c15));
    z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
    return z ^ (z >> 31);
}

/* Uniform in [0, 1): the top 53 bits. */
static double unit(esp_pattern *p)
{
    return (double)(next64(p) >> 11) * 0x1p-53;
}

static unsigned below(esp_pattern *p, unsigned n)
{
    return (unsigned)(unit(p) * n);
}

static unsigned uniform_other(esp_pattern *p, unsigned src)
{
    unsigned n = p->rows * p->cols;
    unsigned d = below(p, n - 1);
    return d >= src ? d + 1 : d;
}

unsigned smn_esp_pattern_dest(esp_pattern *p, unsigned src)
{
    unsigned R = p->rows, C = p->cols, n = R * C, r = src / C, c = src % C;
    if (n < 2)
        return src;
    switch (p->kind) {
    case ESP_PAT_UNIFORM:
        return uniform_other(p, src);
    case ESP_PAT_TRANSPOSE:
        return (c % R) * C + r % C;
    case ESP_PAT_BITCOMP:
        return n - 1 - src;
    case ESP_PAT_HOTSPOT:
        if (src != p->hot && unit(p) < ESP_PATTERN_HOT_SHARE)
            return p->hot;
        return uniform_other(p, src);
    case ESP_PAT_NEIGHBOR:
        return C > 1 ? r * C + (c + 1) % C : ((r + 1) % R) * C + c;
    case ESP_PAT_TORNADO:
        return ((r + (R + 1) / 2 - 1) % R) * C + (c + (C + 1) / 2 - 1) % C;
    }
    return src;
}

unsigned smn_esp_pattern_draw(esp_pattern *p)
{
    double mean = p->len ? p->len : 3.0;
    if (unit(p) >= p->rate / mean)
        return 0;
    return p->len ? p->len : 1 + below(p, 5);
}

static socmon_status perr(const char *field, const char *val, const char *what)
{
    return socmon_fail(SOCMON_EPARSE, "noc pattern: field '%s': '%.40s' %s", field, val, what);
}

static socmon_status uint_field(const char *field, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    if (v[0] < '0' || v[0] > '9')
        return perr(field, v, "is not an unsigned decimal number");
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (*end)
        return perr(field, v, "is not an unsigned decimal number");
    if (errno == ERANGE || x < lo || x > hi)
        return socmon_fail(SOCMON_EPARSE, "noc pattern: field '%s': %.40s out of range %llu..%llu", field, v,
                           (unsigned long long)lo, (unsigned long long)hi);
    *out = x;
    return SOCMON_OK;
}

static socmon_status field(esp_pattern *p, const char *key, const char *v, unsigned *seen)
{
    static const char *const keys[] = {"pattern", "rate", "len", "seed", "plane", "cycles", "hot", NULL};
    unsigned k = 0;
    while (keys[k] && strcmp(keys[k], key) != 0)
        k++;
    if (!keys[k])
        return perr("key", key, "unknown (expected pattern, rate, len, seed, plane, cycles, hot)");
    if (*seen & (1u << k))
        return perr(key, v, "given twice");
    *seen |= 1u << k;
    uint64_t x = 0;
    socmon_status st = SOCMON_OK;
    switch (k) {
    case 0:
        for (unsigned i = 0; i < 6; i++)
            if (strcmp(v, pattern_names[i]) == 0) {
                p->kind = (esp_pattern_kind)i;
                return SOCMON_OK;
            }
        return perr("pattern", v, "unknown (uniform, transpose, bitcomp, hotspot, neighbor, tornado)");
    case 1: {
        char *end;
        double r = strtod(v, &end);
        if (end == v || *end || !(r > 0 && r <= 1))
            return perr("rate", v, "is not a number in (0, 1] (flits offered per cycle per tile)");
        p->rate = r;
        return SOCMON_OK;
    }
    case 2:
        if (strcmp(v, "mix") == 0) {
            p->len = 0;
            return SOCMON_OK;
        }
        st = uint_field("len", v, 1, ESP_TRACE_MAX_FLITS, &x);
        p->len = (unsigned)x;
        return st;
    case 3:
        return uint_field("seed", v, 0, UINT64_MAX, &p->seed);
    case 4:
        st = uint_field("plane", v, 0, 5, &x);
        p->plane = (unsigned)x;
        return st;
    case 5:
        return uint_field("cycles", v, 1, ESP_PATTERN_MAX_CYCLES, &p->cycles);
    default:
        st = uint_field("hot", v, 0, p->rows * p->cols - 1, &x);
        p->hot = (unsigned)x;
        return st;
    }
}

socmon_status smn_esp_pattern_parse(const char *args, unsigned rows, unsigned cols, esp_pattern *out)
{
    if (!args || !out)
        return socmon_fail(SOCMON_EINVAL, "noc pattern: %s is NULL", args ? "out" : "args");
    *out = (esp_pattern){.kind = ESP_PAT_UNIFORM, .rate = 0.1, .len = 4, .seed = 1, .cycles = 10000,
                         .rows = rows, .cols = cols};
    if (rows * cols < 2)
        return socmon_fail(SOCMON_EPARSE, "noc pattern: a %ux%u mesh has no second tile to send to", rows, cols);
    unsigned seen = 0;
    socmon_status st = SOCMON_OK;
    for (const char *s = args; *s && st == SOCMON_OK;) {
        size_t n = strcspn(s, ",");
        char item[128];
        if (n >= sizeof item)
            return perr("item", s, "is longer than 127 characters");
        memcpy(item, s, n);
        item[n] = '\0';
        char *eq = strchr(item, '=');
        if (!eq || eq == item)
            return perr("item", item, "is not KEY=VALUE");
        *eq = '\0';
        st = field(out, item, eq + 1, &seen);
        s += n;
        if (*s == ',')
            s++;
    }
    if (st == SOCMON_OK && !(seen & 1u))
        st = socmon_fail(SOCMON_EPARSE, "noc pattern: field 'pattern': missing (uniform, transpose, bitcomp, "
                                        "hotspot, neighbor, tornado)");
    out->rng = out->seed;
    return st;
}
