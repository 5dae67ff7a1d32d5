/* Rules of the Prometheus text formats: names, units, escaping, float syntax, negotiation
 * (prom_text.h). Facts from prometheus.io's exposition formats page and the OpenMetrics 1.0
 * spec (../shared/specs/peers.md §6.1-6.2); the lint rules names must pass are promtool's
 * ("check metrics"): base units, no abbreviated units, no _total on a gauge. */
#include "export/table.h"
#include "export/prom_text.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *smn_prom_content_type(const char *format)
{
    if (format && strcmp(format, "prometheus") == 0)
        return SOCMON_PROM_CONTENT_TYPE;
    if (format && strcmp(format, "openmetrics") == 0)
        return SOCMON_OPENMETRICS_CONTENT_TYPE;
    return NULL;
}

/* The q of one media range from its parameters (";version=1.0.0;q=0.5" up to end): 1 unless
 * given, kept within 0..1. */
static double range_q(const char *p, const char *end)
{
    while (p && p < end) {
        p++; /* past ';' */
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        if (end - p >= 2 && (*p == 'q' || *p == 'Q') && p[1] == '=') {
            double q = strtod(p + 2, NULL);
            return q >= 0 ? (q > 1 ? 1 : q) : 0; /* NaN too */
        }
        p = memchr(p, ';', (size_t)(end - p));
    }
    return 1.0;
}

const char *smn_prom_negotiate(const char *accept)
{
    double q_om = 0, q_text = 0;
    for (const char *p = accept; p && *p;) {
        const char *end = strchr(p, ',');
        if (!end)
            end = p + strlen(p);
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        const char *semi = memchr(p, ';', (size_t)(end - p));
        size_t tlen = (size_t)((semi ? semi : end) - p);
        while (tlen && (p[tlen - 1] == ' ' || p[tlen - 1] == '\t'))
            tlen--;
        double q = range_q(semi, end);
#define IS(s) (tlen == sizeof(s) - 1 && strncasecmp(p, s, tlen) == 0)
        if (IS("application/openmetrics-text"))
            q_om = q > q_om ? q : q_om;
        else if (IS("text/plain") || IS("text/*") || IS("*/*"))
            q_text = q > q_text ? q : q_text;
#undef IS
        p = *end ? end + 1 : end;
    }
    return q_om > 0 && q_om >= q_text ? "openmetrics" : "prometheus";
}

/* socmon's units that are not Prometheus base units, and the ones with a nicer spelling. */
static const struct {
    const char *unit, *suffix;
    double mul, div;
    const char *strip;   /* the unit's abbreviation, dropped where it ends a name */
} units[] = {
    {"events", NULL, 1, 1, NULL},           /* a plain count: the name says what is counted */
    {"%", "percent", 1, 1, NULL},           /* promtool accepts it; values stay as socmon prints them */
    {"ns", "seconds", 1, 1e9, "_ns"},
    {"us", "seconds", 1, 1e6, "_us"},
    {"ms", "seconds", 1, 1e3, "_ms"},
    {"s", "seconds", 1, 1, "_s"},
    {"B", "bytes", 1, 1, NULL},
    {"MB/s", "bytes_per_second", 1e6, 1, "_mbps"},  /* socmon's MB are 10^6 bytes (metrics/zynq.json) */
    {"M/s", "per_second", 1e6, 1, "_per_s"},
    {"M inst/s", "instructions_per_second", 1e6, 1, NULL},
    {"accesses/ms", "accesses_per_second", 1e3, 1, "_per_ms"},
    {"B/cyc", "bytes_per_cycle", 1, 1, NULL},
    {"txn/cyc", "transactions_per_cycle", 1, 1, NULL},
    {"txns", "transactions", 1, 1, NULL},
    {"inst/cycle", "instructions_per_cycle", 1, 1, NULL},
    {"cycles/inst", "cycles_per_instruction", 1, 1, NULL},
    {"per 1000 inst", "per_1000_instructions", 1, 1, NULL},
};

/* Lower case, runs of other characters as one '_', no '_' at either end. */
static void sanitize(char *out, size_t len, const char *in)
{
    size_t n = 0;
    for (const unsigned char *p = (const unsigned char *)in; *p && n + 1 < len; p++) {
        if (isalnum(*p) && *p < 0x80)
            out[n++] = (char)tolower(*p);
        else if (*p == '%')
            n += (size_t)snprintf(out + n, len - n, "%spercent_", n && out[n - 1] != '_' ? "_" : "");
        else if (*p == '/')
            n += (size_t)snprintf(out + n, len - n, "%sper_", n && out[n - 1] != '_' ? "_" : "");
        else if (n && out[n - 1] != '_')
            out[n++] = '_';
        if (n >= len)
            n = len - 1;
    }
    while (n && out[n - 1] == '_')
        n--;
    out[n] = '\0';
}

void smn_prom_unit_of(const char *unit, smn_prom_unit *u)
{
    u->suffix = NULL;
    u->strip = NULL;
    u->mul = u->div = 1;
    u->buf[0] = '\0';
    if (!unit || !*unit)
        return;
    for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
        if (strcmp(unit, units[i].unit) == 0) {
            u->suffix = units[i].suffix;
            u->mul = units[i].mul;
            u->div = units[i].div;
            u->strip = units[i].strip;
            return;
        }
    sanitize(u->buf, sizeof u->buf, unit);
    u->suffix = u->buf[0] ? u->buf : NULL;
}

double smn_prom_scale(const smn_prom_unit *u, double v)
{
    return v * u->mul / u->div;
}

int smn_prom_unscaled(const smn_prom_unit *u)
{
    return u->mul == 1 && u->div == 1;
}

static int ends_with(const char *s, size_t n, const char *suffix)
{
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

int smn_prom_name(char *buf, size_t len, const char *name, const smn_prom_unit *u, unsigned n, int counter)
{
    const char *suffix = u ? u->suffix : NULL;
    char base[161];   /* long names are cut here: a name never fails, "_2" keeps cut ones apart */
    sanitize(base, sizeof base, name ? name : "");
    size_t bl = strlen(base);
    if (counter && bl > 6 && ends_with(base, bl, "_total"))
        base[bl -= 6] = '\0';
    bl = strlen(base);
    if (u && u->strip && bl > strlen(u->strip) && ends_with(base, bl, u->strip))
        base[bl - strlen(u->strip)] = '\0'; /* "latency_ns" in seconds: "latency_seconds" */
    if (!*base)
        snprintf(base, sizeof base, "unnamed");
    char num[16] = "";
    if (n > 1)
        snprintf(num, sizeof num, "_%u", n);
    char sfx[72] = "";
    if (suffix && *suffix) {
        snprintf(sfx, sizeof sfx, "_%s", suffix);
        /* "wr_bytes" in bytes is socmon_wr_bytes, not socmon_wr_bytes_bytes */
        if (!*num && (strcmp(base, suffix) == 0 || ends_with(base, strlen(base), sfx)))
            sfx[0] = '\0';
    }
    int w = snprintf(buf, len, "socmon_%s%s%s", base, num, sfx);
    return w < 0 || (size_t)w >= len ? -1 : 0;
}

int smn_prom_reserved_suffix(const char *name)
{
    static const char *const reserved[] = {"_total", "_count", "_sum", "_bucket", "_created", "_info"};
    size_t n = strlen(name);
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
        if (ends_with(name, n, reserved[i]))
            return 1;
    return 0;
}

static socmon_status escaped(smn_sink *s, const char *text, int quote)
{
    socmon_status st = SOCMON_OK;
    const unsigned char *p = (const unsigned char *)(text ? text : "");
    while (*p && st == SOCMON_OK) {
        size_t n = smn_utf8_len(p);
        if (*p == '\\')
            st = smn_sink_puts(s, "\\\\");
        else if (*p == '\n')
            st = smn_sink_puts(s, "\\n");
        else if (*p == '"' && quote)
            st = smn_sink_puts(s, "\\\"");
        else if (n)
            st = smn_sink_write(s, p, n);
        else
            st = smn_sink_puts(s, "\xef\xbf\xbd"); /* U+FFFD for a byte that is not UTF-8 */
        p += n ? n : 1;
    }
    return st;
}

socmon_status smn_prom_help(smn_sink *s, const char *text, int openmetrics)
{
    return escaped(s, text, openmetrics);
}

socmon_status smn_prom_label_value(smn_sink *s, const char *text)
{
    return escaped(s, text, 1);
}

const char *smn_prom_float(char *buf, size_t len, double v)
{
    if (isnan(v))
        snprintf(buf, len, "NaN");
    else if (isinf(v))
        snprintf(buf, len, v > 0 ? "+Inf" : "-Inf");
    else if (v == 0)
        snprintf(buf, len, signbit(v) ? "-0" : "0");
    if (!isfinite(v) || v == 0)
        return buf;
    char e[40];
    int digits = 1;
    for (; digits < 17; digits++) {
        snprintf(e, sizeof e, "%.*e", digits - 1, v);
        if (strtod(e, NULL) == v)
            break;
    }
    snprintf(e, sizeof e, "%.*e", digits - 1, v);
    int exp = atoi(strchr(e, 'e') + 1);
    /* Go's shortest 'g': exponent form below 1e-4 and from 1e+06 on ("1.5e+06") */
    if (exp < -4 || exp >= 6)
        snprintf(buf, len, "%s", e);
    else
        snprintf(buf, len, "%.*f", digits - 1 - exp > 0 ? digits - 1 - exp : 0, v);
    return buf;
}
