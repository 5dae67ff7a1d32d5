/* Internal: what the two HTML pages (fmt_html.c: a recording's charts; fmt_html_diff.c: two runs
 * compared) share: an embedded page written with its assets inlined, and JSON safe inside a
 * <script>. */
#ifndef SOCMON_EXPORT_HTML_PAGE_H
#define SOCMON_EXPORT_HTML_PAGE_H

#include <jansson.h>
#include "export/output_format.h"

/* JSON text with '<' written \u003c, so no "</script>" or "<!--" in a name can end or disturb
 * the script it sits in. */
socmon_status smn_html_put_json(smn_sink *s, const json_t *j);
/* Page text [p, end), each line referencing assets/NAME replaced by the embedded asset. */
socmon_status smn_html_put_page(smn_sink *s, const char *p, const char *end);
/* The diff page (socmon diff --html). */
socmon_status smn_html_diff(smn_output *o, const socmon_diff *d);

#endif
