/* Escaping text from outside for a terminal or a log, and numbers for people (core/text.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"

size_t smn_utf8_len(const unsigned char *p)
{
    unsigned c = p[0];
    size_t n = c < 0x80 ? 1 : c >= 0xc2 && c <= 0xdf ? 2 : c >= 0xe0 && c <= 0xef ? 3 : c >= 0xf0 && c <= 0xf4 ? 4 : 0;
    for (size_t i = 1; i < n; i++)
        if ((p[i] & 0xc0) != 0x80)
            return 0;
    if ((c == 0xe0 && p[1] < 0xa0) || (c == 0xed && p[1] > 0x9f) || (c == 0xf0 && p[1] < 0x90) ||
        (c == 0xf4 && p[1] > 0x8f))
        return 0; /* overlong, surrogate or past U+10FFFF */
    return n;
}

/* Bytes at p that show as themselves (a printable character), or 0 for a byte to escape. */
static size_t shows(const unsigned char *p)
{
    if (*p < 0x20 || *p == 0x7f)
        return 0;
    size_t n = smn_utf8_len(p);
    /* U+0080..U+009F (C2 80..C2 9F): C1 controls, CSI among them, which some terminals obey */
    if (n == 2 && p[0] == 0xc2 && p[1] < 0xa0)
        return 0;
    return n;
}

int smn_text_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    while (p && *p) {
        size_t n = shows(p);
        if (!n)
            return 0;
        p += n;
    }
    return 1;
}

size_t smn_text_escape(char *out, size_t cap, const char *s)
{
    const unsigned char *p = (const unsigned char *)(s ? s : "");
    size_t need = 0, len = 0;
    int full = cap == 0;
    while (*p) {
        size_t n = shows(p);
        char esc[5];
        const char *piece = (const char *)p;
        size_t m = n;
        if (!n) {
            snprintf(esc, sizeof esc, "\\x%02x", *p);
            piece = esc;
            m = 4;
            n = 1;
        }
        need += m;
        if (!full && len + m < cap) {
            memcpy(out + len, piece, m);
            len += m;
        } else {
            full = 1;
        }
        p += n;
    }
    if (cap)
        out[len] = '\0';
    return need;
}

char *smn_text_escape_dup(const char *s)
{
    size_t n = smn_text_escape(NULL, 0, s);
    char *out = malloc(n + 1);
    if (out)
        smn_text_escape(out, n + 1, s);
    return out;
}

/* Inserts ',' every three digits into the run of digits that starts at digits (in buf). */
void smn_group_digits(char *buf, size_t len, char *digits)
{
    size_t nd = strspn(digits, "0123456789");
    size_t commas = nd ? (nd - 1) / 3 : 0;
    size_t total = strlen(buf);
    if (!commas || total + commas + 1 > len)
        return; /* no room: the plain number is still right */
    char *end = buf + total;
    memmove(digits + nd + commas, digits + nd, (size_t)(end - (digits + nd)) + 1);
    /* Copy the digits backwards, a comma after every third. */
    char *src = digits + nd, *dst = digits + nd + commas;
    for (size_t k = 0; k < nd; k++) {
        if (k && k % 3 == 0)
            *--dst = ',';
        *--dst = *--src;
    }
}

void smn_format_count(char *buf, size_t len, uint64_t v, int group)
{
    if (!len)
        return;
    snprintf(buf, len, "%llu", (unsigned long long)v);
    if (group)
        smn_group_digits(buf, len, buf);
}

void smn_format_ns(char *buf, size_t len, uint64_t ns)
{
    if (ns >= 1000000000u)
        snprintf(buf, len, "%.3f s", (double)ns / 1e9);
    else if (ns >= 1000000u)
        snprintf(buf, len, "%.3f ms", (double)ns / 1e6);
    else if (ns >= 1000u)
        snprintf(buf, len, "%.3f us", (double)ns / 1e3);
    else
        snprintf(buf, len, "%llu ns", (unsigned long long)ns);
}

void smn_format_fixed(char *buf, size_t len, double v, int decimals, int group)
{
    if (!len)
        return;
    if (decimals < 0)
        decimals = 0;
    if (decimals > 9)
        decimals = 9;
    if (isnan(v)) {
        snprintf(buf, len, "-");
        return;
    }
    if (isinf(v)) {
        snprintf(buf, len, v > 0 ? "inf" : "-inf");
        return;
    }
    if (fabs(v) >= 1e15) {
        snprintf(buf, len, "%.4g", v);
        return;
    }
    snprintf(buf, len, "%.*f", decimals, v);
    /* "-0.00" says a tiny negative was rounded away; people read it as 0. */
    if (buf[0] == '-' && strspn(buf + 1, "0.") == strlen(buf + 1))
        memmove(buf, buf + 1, strlen(buf));
    if (group)
        smn_group_digits(buf, len, buf + (buf[0] == '-'));
}

/* Units whose values are whole counts. */
static const char *const count_units[] = {"events", "cycles", "packets", "messages", "accesses", "invocations",
                                          "txns", "transactions", "instructions", "inst", "bytes", "B",
                                          "samples", "flits", "beats", "requests", "misses", "hits", "threads"};

int smn_unit_decimals(const char *unit)
{
    if (!unit)
        unit = "";
    for (size_t i = 0; i < sizeof count_units / sizeof count_units[0]; i++)
        if (strcmp(unit, count_units[i]) == 0)
            return 0;
    size_t n = strlen(unit);
    if (strcmp(unit, "%") == 0 || strcmp(unit, "B/cyc") == 0)
        return 2;
    if ((n >= 2 && strcmp(unit + n - 2, "/s") == 0) || (n >= 3 && strcmp(unit + n - 3, "/ms") == 0))
        return 2;
    if (strcmp(unit, "ns") == 0 || strcmp(unit, "us") == 0 || strcmp(unit, "ms") == 0)
        return 1;
    return 3;
}
