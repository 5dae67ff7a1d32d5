/* A check as Markdown (socmon check --markdown FILE), for a pull-request comment: a heading
 * with the verdict, a table of the failed rules' values, then the rules that held. Strings are
 * made printable (core/text.h) and every character Markdown or HTML would act on is escaped, so
 * a function named `|<b>*` shows as itself. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "export/fmt_check.h"

static socmon_status put_md(smn_sink *k, const char *s)
{
    char *clean = smn_text_escape_dup(s ? s : "");
    if (!clean)
        return socmon_fail(SOCMON_ENOMEM, "markdown: out of memory");
    socmon_status st = SOCMON_OK;
    for (const char *p = clean; *p && st == SOCMON_OK; p++) {
        if (*p == '<')
            st = smn_sink_puts(k, "&lt;");
        else if (*p == '>')
            st = smn_sink_puts(k, "&gt;");
        else if (*p == '&')
            st = smn_sink_puts(k, "&amp;");
        else {
            /* what Markdown acts on inside a line or a table cell is backslash-escaped (our text
             * never starts a line, so a leading #, - or 1. cannot make a heading or a list) */
            if (strchr("\\`*_[]|~", *p))
                st = smn_sink_putc(k, '\\');
            if (st == SOCMON_OK)
                st = smn_sink_putc(k, *p);
        }
    }
    free(clean);
    return st;
}

static socmon_status put_rule(smn_sink *k, const socmon_check_rule *r)
{
    char buf[64];
    socmon_status st = put_md(k, r->rule->pattern);
    if (st == SOCMON_OK)
        st = smn_sink_putc(k, ' ');
    if (st == SOCMON_OK)
        st = put_md(k, r->rule->limit);
    snprintf(buf, sizeof buf, " (line %u)", r->rule->line);
    return st == SOCMON_OK ? put_md(k, buf) : st;
}

static socmon_status md_check(smn_output *o, const socmon_check *c)
{
    smn_sink *k = o->sink;
    const socmon_diff *d = socmon_check_diff(c);
    size_t n = socmon_check_count(c), f = socmon_check_failed(c);
    char buf[200];
    snprintf(buf, sizeof buf, "## socmon check: %s, %zu of %zu rule%s failed\n\nBaseline ", f ? "failed" : "passed", f,
             n, n == 1 ? "" : "s");
    socmon_status st = smn_sink_puts(k, buf);
    if (st == SOCMON_OK)
        st = put_md(k, socmon_run_path(socmon_diff_baseline(d)));
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, ", new ");
    if (st == SOCMON_OK)
        st = put_md(k, socmon_run_path(socmon_diff_new_run(d)));
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "\n");
    if (st == SOCMON_OK && f)
        st = smn_sink_puts(k, "\n### Failed rules\n\n| rule | value | baseline | new | why |\n"
                              "| --- | --- | ---: | ---: | --- |\n");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        const socmon_check_rule *r = socmon_check_at(c, i);
        for (size_t j = 0; st == SOCMON_OK && j < r->n; j++) {
            const socmon_check_item *it = &r->items[j];
            if (!it->failed)
                continue;
            char va[40], vb[40];
            smn_check_value(va, sizeof va, it->row->a);
            smn_check_value(vb, sizeof vb, it->row->b);
            const char *cells[] = {socmon_diff_row_key(it->row), va, vb, it->why};
            st = smn_sink_puts(k, "| ");
            if (st == SOCMON_OK)
                st = put_rule(k, r);
            for (size_t m = 0; st == SOCMON_OK && m < 4; m++) {
                st = smn_sink_puts(k, " | ");
                if (st == SOCMON_OK)
                    st = put_md(k, cells[m]);
            }
            if (st == SOCMON_OK)
                st = smn_sink_puts(k, " |\n");
        }
    }
    if (st == SOCMON_OK && f < n)
        st = smn_sink_puts(k, "\n### Rules that held\n\n");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        const socmon_check_rule *r = socmon_check_at(c, i);
        if (r->failed)
            continue;
        st = smn_sink_puts(k, "- ");
        if (st == SOCMON_OK)
            st = put_rule(k, r);
        snprintf(buf, sizeof buf, ": %zu value%s", r->n, r->n == 1 ? "" : "s");
        if (st == SOCMON_OK)
            st = put_md(k, buf);
        if (st == SOCMON_OK)
            st = smn_sink_putc(k, '\n');
    }
    return st;
}

static const smn_document_ops md_documents = {
    .check = md_check,
};

const smn_output_format smn_format_markdown = {
    .name = "markdown", .documents = &md_documents,
};
