/* JUnit XML of a check (socmon check --junit FILE), the report CI systems read: one testsuite,
 * one testcase per rule (its matched values in system-out), a failure per failing rule listing
 * the values beyond its limit. Every string is first made printable (core/text.h: control
 * bytes and bad UTF-8 as \xNN, which XML 1.0 could not carry) and then XML-escaped. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "core/text.h"
#include "export/fmt_check.h"

/* Writes s escaped for XML text and attribute values. */
static socmon_status put_xml(smn_sink *k, const char *s)
{
    char *clean = smn_text_escape_dup(s ? s : "");
    if (!clean)
        return socmon_fail(SOCMON_ENOMEM, "junit: out of memory");
    socmon_status st = SOCMON_OK;
    for (const char *p = clean; *p && st == SOCMON_OK; p++) {
        switch (*p) {
        case '&': st = smn_sink_puts(k, "&amp;"); break;
        case '<': st = smn_sink_puts(k, "&lt;"); break;
        case '>': st = smn_sink_puts(k, "&gt;"); break;
        case '"': st = smn_sink_puts(k, "&quot;"); break;
        case '\'': st = smn_sink_puts(k, "&apos;"); break;
        default: st = smn_sink_putc(k, *p);
        }
    }
    free(clean);
    return st;
}

/* "KEY: BASELINE -> NEW, CHANGE\n", or with why "KEY: BASELINE -> NEW: WHY\n" */
static socmon_status put_item(smn_sink *k, const socmon_check_item *it, int why)
{
    char va[40], vb[40], ch[64], line[200];
    smn_check_value(va, sizeof va, it->row->a);
    smn_check_value(vb, sizeof vb, it->row->b);
    smn_check_change(ch, sizeof ch, it->row);
    socmon_status st = put_xml(k, socmon_diff_row_key(it->row));
    snprintf(line, sizeof line, ": %s -> %s%s%s", va, vb, why && it->why ? ": " : ", ", why && it->why ? "" : ch);
    if (st == SOCMON_OK)
        st = put_xml(k, line);
    if (st == SOCMON_OK && why && it->why)
        st = put_xml(k, it->why);
    return st == SOCMON_OK ? smn_sink_putc(k, '\n') : st;
}

static socmon_status junit_check(smn_output *o, const socmon_check *c)
{
    smn_sink *k = o->sink;
    const socmon_diff *d = socmon_check_diff(c);
    size_t n = socmon_check_count(c), f = socmon_check_failed(c);
    char buf[512];
    snprintf(buf, sizeof buf, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                              "<testsuites name=\"socmon check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\">\n"
                              "  <testsuite name=\"socmon check\" tests=\"%zu\" failures=\"%zu\" errors=\"0\" "
                              "skipped=\"0\">\n    <properties>\n      <property name=\"baseline\" value=\"",
             n, f, n, f);
    socmon_status st = smn_sink_puts(k, buf);
    if (st == SOCMON_OK)
        st = put_xml(k, socmon_run_path(socmon_diff_baseline(d)));
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "\"/>\n      <property name=\"new\" value=\"");
    if (st == SOCMON_OK)
        st = put_xml(k, socmon_run_path(socmon_diff_new_run(d)));
    if (st == SOCMON_OK)
        st = smn_sink_puts(k, "\"/>\n    </properties>\n");
    for (size_t i = 0; st == SOCMON_OK && i < n; i++) {
        const socmon_check_rule *r = socmon_check_at(c, i);
        st = smn_sink_puts(k, "    <testcase classname=\"socmon.check\" name=\"");
        if (st == SOCMON_OK)
            st = put_xml(k, r->rule->pattern);
        if (st == SOCMON_OK)
            st = put_xml(k, " ");
        if (st == SOCMON_OK)
            st = put_xml(k, r->rule->limit);
        snprintf(buf, sizeof buf, "\" line=\"%u\">\n", r->rule->line);
        if (st == SOCMON_OK)
            st = smn_sink_puts(k, buf);
        if (st == SOCMON_OK && r->failed) {
            snprintf(buf, sizeof buf, "      <failure type=\"limit\" message=\"%zu of %zu values beyond ", r->failed, r->n);
            st = smn_sink_puts(k, buf);
            if (st == SOCMON_OK)
                st = put_xml(k, r->rule->limit);
            if (st == SOCMON_OK)
                st = smn_sink_puts(k, "\">");
            for (size_t j = 0; st == SOCMON_OK && j < r->n; j++)
                if (r->items[j].failed)
                    st = put_item(k, &r->items[j], 1);
            if (st == SOCMON_OK)
                st = smn_sink_puts(k, "</failure>\n");
        }
        if (st == SOCMON_OK)
            st = smn_sink_puts(k, "      <system-out>");
        for (size_t j = 0; st == SOCMON_OK && j < r->n; j++)
            st = put_item(k, &r->items[j], 0);
        if (st == SOCMON_OK)
            st = smn_sink_puts(k, "</system-out>\n    </testcase>\n");
    }
    return st == SOCMON_OK ? smn_sink_puts(k, "  </testsuite>\n</testsuites>\n") : st;
}

static const smn_document_ops junit_documents = {
    .check = junit_check,
};

const smn_output_format smn_format_junit = {
    .name = "junit", .documents = &junit_documents,
};
