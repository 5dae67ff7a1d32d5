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

/* A duration for humans: "1.200 ms", "3.000 s", "250 ns". */
void smn_format_ns(char *buf, size_t len, uint64_t ns);

#endif
