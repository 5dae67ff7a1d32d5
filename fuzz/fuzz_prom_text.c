/* libFuzzer harness for the Prometheus formats: any bytes become an Accept header, names, units,
 * descriptions, instances and values of a small counter schema (as a remote agent's hello could
 * deliver them), rendered in both formats. Besides "never crash", it checks what a scraper
 * relies on: every line is HELP/TYPE/UNIT/EOF or a sample whose name matches
 * [a-zA-Z_:][a-zA-Z0-9_:]*, whose labels are well-formed and escaped and whose value parses;
 * each family's TYPE appears once; everything is valid UTF-8; OpenMetrics ends with # EOF; and a
 * float reads back exactly. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "export/output.h"
#include "export/prom_text.h"

static int utf8_ok(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        unsigned c = p[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (!k || i + k > n)
            return 0;
        for (size_t j = 1; j < k; j++)
            if ((p[i + j] & 0xc0) != 0x80)
                return 0;
        i += k;
    }
    return 1;
}

static const char *name_end(const char *p)
{
    if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || *p == '_' || *p == ':'))
        abort();
    while ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == ':')
        p++;
    return p;
}

/* A sample line: name{k="v",...} value */
static void check_sample(const char *line)
{
    const char *p = name_end(line);
    if (*p == '{') {
        do {
            p = name_end(p + 1);
            if (p[0] != '=' || p[1] != '"')
                abort();
            for (p += 2; *p != '"'; p++) {
                if (!*p || *p == '\n')
                    abort();
                if (*p == '\\' && (p[1] == '\\' || p[1] == '"' || p[1] == 'n'))
                    p++;
                else if (*p == '\\')
                    abort();
            }
            p++;
        } while (*p == ',');
        if (*p++ != '}')
            abort();
    }
    if (*p++ != ' ')
        abort();
    char *end;
    double v = strtod(p, &end);
    (void)v;
    if (end == p || (*end && *end != '\n'))
        abort();
}

static void check_document(const char *text, size_t len, int om)
{
    if (!utf8_ok((const unsigned char *)text, len) || (len && text[len - 1] != '\n'))
        abort();
    if (om && (len < 6 || strcmp(text + len - 6, "# EOF\n") != 0))
        abort();
    for (const char *line = text; *line; line = strchr(line, '\n') + 1) {
        if (strncmp(line, "# TYPE ", 7) == 0) {
            size_t n = strcspn(line, "\n");
            /* the same TYPE line later, at the start of a line, would be a repeated family (a HELP
             * text may hold the same words: that is text, not a family) */
            char *copy = malloc(n + 3);   /* '\n', the line with its '\n', NUL */
            if (copy) {
                copy[0] = '\n';
                memcpy(copy + 1, line, n + 1);
                copy[n + 2] = 0;
            }
            if (copy && strstr(line + n, copy))
                abort();
            free(copy);
            name_end(line + 7);
        } else if (strncmp(line, "# HELP ", 7) == 0 || strncmp(line, "# UNIT ", 7) == 0) {
            name_end(line + 7);
        } else if (strncmp(line, "# EOF\n", 6) != 0) {
            check_sample(line);
        }
    }
}

/* Takes the next NUL-or-end-terminated piece of the input (at most 40 bytes). */
static char *piece(const uint8_t **p, size_t *n)
{
    size_t k = 0;
    while (k < *n && k < 40 && (*p)[k] != 0)
        k++;
    char *s = strndup((const char *)*p, k);
    *p += k < *n ? k + 1 : k;
    *n -= k < *n ? k + 1 : k;
    return s;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 9)
        return 0;
    double d;
    memcpy(&d, data, sizeof d);
    char buf[48];
    smn_prom_float(buf, sizeof buf, d);
    if (isnan(d) ? strcmp(buf, "NaN") != 0 : strtod(buf, NULL) != d)
        abort();
    const uint8_t *p = data + 8;
    size_t n = size - 8;
    char *accept = piece(&p, &n);
    const char *f = smn_prom_negotiate(accept);
    if (strcmp(f, "prometheus") != 0 && strcmp(f, "openmetrics") != 0)
        abort();
    free(accept);

    enum { MAXC = 6 };
    socmon_counter c[MAXC];
    char *strs[MAXC * 4 + 1] = {0}, *full[MAXC];
    uint64_t v[MAXC] = {0};
    size_t nc = 0, ns = 0;
    char *target = strs[ns++] = piece(&p, &n);
    while (nc < MAXC && n > 0) {
        for (int k = 0; k < 4; k++)   /* name, instance, unit, desc: in the input's order */
            strs[ns + (size_t)k] = piece(&p, &n);
        c[nc] = (socmon_counter){.name = strs[ns], .instance = strs[ns + 1], .unit = strs[ns + 2],
                                 .desc = strs[ns + 3], .width = 64};
        ns += 4;
        v[nc] = n ? (uint64_t)p[0] * 0x0101010101010101ull : 0;
        full[nc] = (char *)c[nc].name;
        nc++;
    }
    smn_counter_list list = {nc, c, (const char *const *)full, NULL, 0, NULL};
    for (int om = 0; om < 2; om++) {
        smn_sink *s;
        smn_output *o;
        if (smn_sink_memory(&s) != SOCMON_OK)
            abort();
        if (smn_output_open(om ? "openmetrics" : "prometheus", s, NULL, &o) != SOCMON_OK)
            abort();
        smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .target = target, .workload = target,
                               .elapsed_ns = v[0], .recording = om, .interval_ns = om};
        if (smn_output_begin(o, &run) != SOCMON_OK || smn_output_counters(o, &list, v) != SOCMON_OK ||
            smn_output_end(o) != SOCMON_OK)
            abort();
        size_t len;
        const char *text = smn_sink_memory_data(s, &len);
        check_document(text, len, om);
        smn_output_free(o);
        smn_sink_close(s);
    }
    for (size_t i = 0; i < ns; i++)
        free(strs[i]);
    return 0;
}
