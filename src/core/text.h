/* Internal: text from outside (a remote agent's names, a recording file's strings, a peer's
 * request) made safe for a terminal or a log line. One escaping rule for all of socmon, so a
 * string reads the same in every place it is shown. Also counts and durations for people, worded
 * the same by every layer (a source's notes, the output formats). */
#ifndef SOCMON_CORE_TEXT_H
#define SOCMON_CORE_TEXT_H

#include <stddef.h>
#include <stdint.h>

/* Length of the valid UTF-8 sequence at p (1..4), or 0 if the bytes there are not one (overlong,
 * surrogate, past U+10FFFF, cut short): formats whose text can come from anywhere (a remote agent's
 * names) replace such bytes by U+FFFD. */
size_t smn_utf8_len(const unsigned char *p);

/* 1 if s shows as itself: valid UTF-8 without control characters (C0, DEL, C1). */
int smn_text_clean(const char *s);

/* s with every byte that would act on a terminal instead of showing (C0 controls such as ESC
 * and newline, DEL, the C1 controls U+0080..U+009F, bytes that are not valid UTF-8) written as
 * \xNN, into out (cap bytes with the NUL; cut before an escape that does not fit, never inside
 * one). Printable UTF-8 and the backslash stay as they are. Returns the length the whole
 * escaped text needs (without the NUL), as snprintf does. */
size_t smn_text_escape(char *out, size_t cap, const char *s);

/* The same into a malloc'd string (NULL when out of memory; s NULL gives ""). */
char *smn_text_escape_dup(const char *s);

/* ---- numbers for people (every layer words its messages with these) ---- */

/* A count for people: "1,234,567" with group set, "1234567" without. The separator is a
 * fixed ',' in groups of three whatever the locale (docs/output.md): socmon never calls
 * setlocale, so its CSV and JSON numbers stay locale-free, and tables match perf's C-locale
 * "big num" look. */
void smn_format_count(char *buf, size_t len, uint64_t v, int group);

/* Inserts ',' every three digits into the run of digits that starts at digits (in buf, of len
 * bytes); a number that would not fit stays as it is. */
void smn_group_digits(char *buf, size_t len, char *digits);

/* A number for people with exactly `decimals` decimals (0..9), the integer part grouped
 * as smn_format_count does when group is set: "1,400.00". NaN is "-", infinities "inf"
 * and "-inf"; beyond 1e15 in magnitude, "%.4g" (no column of people reads 16 digits). */
void smn_format_fixed(char *buf, size_t len, double v, int decimals, int group);

/* How many decimals values of `unit` show in human formats, so a metric reads with the same
 * number of decimals in every row: counts (events, cycles, packets, ...) 0, "%" 2, rates
 * (".../s", ".../ms") and "B/cyc" 2, times (ns, us, ms) 1, anything else (ratios, scores,
 * per-instruction figures, no unit) 3. A metric file's "precision" overrides it (export's smn_metric_decimals); the
 * findings (results/findings.c) follow the same rule, so a number reads the same everywhere. */
int smn_unit_decimals(const char *unit);

/* A duration for humans: "1.200 ms", "3.000 s", "250 ns". */
void smn_format_ns(char *buf, size_t len, uint64_t ns);

#endif
