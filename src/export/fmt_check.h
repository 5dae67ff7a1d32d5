/* Internal: a check (socmon check) for people in the table format, and what every check format
 * shares: a row's values as text. JUnit XML is fmt_junit.c, Markdown fmt_markdown.c. */
#ifndef SOCMON_EXPORT_FMT_CHECK_H
#define SOCMON_EXPORT_FMT_CHECK_H

#include <stddef.h>
#include "export/output_format.h"

socmon_status smn_table_check(smn_output *o, const socmon_check *c);
/* A value as text for a check's report: an exact count, else 6 significant digits, "-" when
 * there is none. */
void smn_check_value(char *buf, size_t len, const socmon_value *v);
/* "+312 (+4.10%)", "-0.5 (-2.00%)", "-" without a delta. */
void smn_check_change(char *buf, size_t len, const socmon_diff_row *r);
/* "PASS" or "FAIL" and the rule as written: "fn.*.cycles +0". The pattern is the file's text:
 * formats escape it for where it goes. */
const char *smn_check_verdict(const socmon_check_rule *r);

#endif
