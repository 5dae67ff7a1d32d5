/* Workload phases (socmon/phase.h): the text form of a recording's attachment "phases" and the
 * lookup of the phase an instant falls in. Text, not binary, so `socmon report --stats` users and
 * people reading a dumped attachment see the spans as they are. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "socmon/phase.h"

/* Longest line the parser takes: two 20-digit numbers, a name, spaces, newline. */
#define LINE_MAX_BYTES (2 * 20 + SOCMON_PHASE_NAME_MAX + 8)

static int name_ok(const char *s, size_t n)
{
    if (n == 0 || n >= SOCMON_PHASE_NAME_MAX)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
              c == '-' || c == '.'))
            return 0;
    }
    return 1;
}

socmon_status socmon_phases_format(const socmon_phase *p, size_t n, char **text, size_t *len)
{
    if (!text || !len || (n && !p))
        return socmon_fail(SOCMON_EINVAL, "phases: NULL argument to socmon_phases_format");
    *text = NULL;
    *len = 0;
    char *buf = malloc(n * LINE_MAX_BYTES + 1);
    if (!buf)
        return socmon_fail(SOCMON_ENOMEM, "phases: out of memory for %zu phases", n);
    size_t at = 0;
    for (size_t i = 0; i < n; i++) {
        size_t nl = strnlen(p[i].name, SOCMON_PHASE_NAME_MAX);
        if (!name_ok(p[i].name, nl) || p[i].t1_ns <= p[i].t0_ns || (i && p[i].t0_ns < p[i - 1].t1_ns)) {
            free(buf);
            return socmon_fail(SOCMON_EINVAL, "phases: phase %zu ('%.31s', %" PRIu64 "..%" PRIu64
                               " ns) is not a named, ordered, non-overlapping span", i, p[i].name,
                               p[i].t0_ns, p[i].t1_ns);
        }
        at += (size_t)snprintf(buf + at, LINE_MAX_BYTES + 1, "%" PRIu64 " %" PRIu64 " %.*s\n", p[i].t0_ns,
                               p[i].t1_ns, (int)nl, p[i].name);
    }
    buf[at] = 0;
    *text = buf;
    *len = at;
    return SOCMON_OK;
}

/* One decimal number at s[*at..end) followed by one space. */
static int number(const char *s, size_t end, size_t *at, uint64_t *v)
{
    size_t i = *at;
    uint64_t x = 0;
    if (i >= end || s[i] < '0' || s[i] > '9')
        return 0;
    for (; i < end && s[i] >= '0' && s[i] <= '9'; i++) {
        unsigned d = (unsigned)(s[i] - '0');
        if (x > (UINT64_MAX - d) / 10)
            return 0;
        x = x * 10 + d;
    }
    if (i >= end || s[i] != ' ')
        return 0;
    *at = i + 1;
    *v = x;
    return 1;
}

socmon_status socmon_phases_parse(const char *text, size_t len, socmon_phase **out, size_t *n)
{
    if (!out || !n || (len && !text))
        return socmon_fail(SOCMON_EINVAL, "phases: NULL argument to socmon_phases_parse");
    *out = NULL;
    *n = 0;
    size_t lines = 0;
    for (size_t i = 0; i < len; i++)
        lines += text[i] == '\n';
    if (len && text[len - 1] != '\n')
        return socmon_fail(SOCMON_EINVAL, "phases: the text does not end with a newline");
    socmon_phase *p = lines ? calloc(lines, sizeof *p) : NULL;
    if (lines && !p)
        return socmon_fail(SOCMON_ENOMEM, "phases: out of memory for %zu phases", lines);
    size_t at = 0, k = 0;
    while (at < len) {
        size_t end = at;
        while (text[end] != '\n')
            end++;
        socmon_phase *q = &p[k];
        if (!number(text, end, &at, &q->t0_ns) || !number(text, end, &at, &q->t1_ns) ||
            !name_ok(text + at, end - at)) {
            free(p);
            return socmon_fail(SOCMON_EINVAL, "phases: line %zu is not \"T0_NS T1_NS NAME\" (a name of "
                               "1..%d letters, digits, '_', '-', '.')", k + 1, SOCMON_PHASE_NAME_MAX - 1);
        }
        memcpy(q->name, text + at, end - at);
        if (q->t1_ns <= q->t0_ns || (k && q->t0_ns < p[k - 1].t1_ns)) {
            socmon_status st = socmon_fail(SOCMON_EINVAL, "phases: line %zu ('%s', %" PRIu64 "..%" PRIu64
                                           " ns) is empty, reversed or overlaps the phase before it",
                                           k + 1, q->name, q->t0_ns, q->t1_ns);
            free(p);
            return st;
        }
        k++;
        at = end + 1;
    }
    *out = p;
    *n = k;
    return SOCMON_OK;
}

const socmon_phase *socmon_phase_at(const socmon_phase *p, size_t n, uint64_t t_ns)
{
    for (size_t i = 0; p && i < n; i++)
        if (p[i].t0_ns <= t_ns && t_ns < p[i].t1_ns)
            return &p[i];
    return NULL;
}
