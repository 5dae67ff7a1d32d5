/* A program's exact profile in the table, csv and json formats (report --children, --call-tree,
 * --by-line, --annotate; --folded is the same bytes in every format, output.c). The table shows
 * the chosen event first and the share of its total; csv and json carry every event under its
 * counter's name, as --by-symbol names them (docs/profile.md). A call-tree edge into a frame a
 * trap or interrupt entered reads "caller -> [trap] handler" in the table and has trap set in
 * csv and json. Names from the ELF (functions, source files) are escaped before a terminal sees
 * them. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "export/fmt_profile.h"
#include "export/table.h"

static const char *fname(const socmon_profile *p, size_t f)
{
    return f < p->nfuncs ? p->funcs[f].name : "?";
}

static double share(int64_t v, int64_t total)
{
    return total ? 100.0 * (double)v / (double)total : 0.0;
}

/* ---- table ---- */

/* pre, then s escaped, left-aligned in width columns (0: as long as it is), then post */
static void put_text(smn_output *o, const char *pre, int width, const char *s, const char *post)
{
    char *esc = smn_text_clean(s) ? NULL : smn_text_escape_dup(s);
    smn_sink_printf(o->sink, "%s%-*s%s", pre, width, esc ? esc : s, post);
    free(esc);
}

/* a count, signed modulo its event's width (socmon_profile_signed), grouped for a person */
static void put_count(smn_output *o, int width, int64_t v)
{
    char b[40];
    smn_output_count(o, v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v, b + 1, sizeof b - 1);
    b[0] = '-';
    smn_sink_printf(o->sink, " %*s", width, v < 0 ? b : b + 1);
}

#define SV(k, v) socmon_profile_signed(p, (k), (v))

static socmon_status table_children(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    const socmon_profile_calls *c = v->calls;
    size_t k = v->event;
    int64_t total = SV(k, c->root[k]);
    smn_sink_printf(o->sink, "\n %s by function, inclusive (children: everything it called) and self, exactly "
                             "as counted (recursion counted once):\n\n", p->events[k]);
    smn_sink_printf(o->sink, "  %9s %9s %16s %16s %10s  %s\n", "children", "self", "inclusive", "self", "calls",
                    "function");
    for (size_t i = 0; i < c->nfns; i++) {
        const socmon_profile_fn *f = &c->fns[i];
        smn_sink_printf(o->sink, "  %8.2f%% %8.2f%%", share(SV(k, f->incl[k]), total), share(SV(k, f->self[k]), total));
        put_count(o, 16, SV(k, f->incl[k]));
        put_count(o, 16, SV(k, f->self[k]));
        put_count(o, 10, (int64_t)f->calls);
        put_text(o, "  ", 0, fname(p, f->func), "\n");
    }
    smn_sink_printf(o->sink, "\n  the run (root)");
    put_count(o, 16, total);
    return smn_sink_printf(o->sink, " %s; %s\n\n", p->events[k],
                           c->mismatch ? "the totals DIFFER: the profile does not add up (docs/profile.md)"
                                       : "equals the whole-program counter");
}

static socmon_status table_call_tree(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    const socmon_profile_calls *c = v->calls;
    size_t k = v->event;
    smn_sink_printf(o->sink, "\n Calls, caller -> callee, with the callee's inclusive %s (its frames entered from "
                             "that caller):\n\n", p->events[k]);
    smn_sink_printf(o->sink, "  %9s %16s %10s  %s\n", "share", "inclusive", "calls", "caller -> callee");
    for (size_t i = 0; i < c->nedges; i++) {
        const socmon_profile_edge *e = &c->edges[i];
        smn_sink_printf(o->sink, "  %8.2f%%", share(SV(k, e->incl[k]), SV(k, c->root[k])));
        put_count(o, 16, SV(k, e->incl[k]));
        put_count(o, 10, (int64_t)e->calls);
        put_text(o, "  ", 0, fname(p, e->caller), "");
        put_text(o, e->trap ? " -> [trap] " : " -> ", 0, fname(p, e->callee), "\n");
    }
    return smn_sink_putc(o->sink, '\n');
}

static socmon_status table_lines(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    const socmon_profile_lines *l = v->lines;
    size_t k = v->event;
    int64_t total = 0;
    for (size_t i = 0; i < l->n; i++)
        total += SV(k, l->rows[i].v[k]);
    if (l->note)
        put_text(o, "\n  note: ", 0, l->note, "\n");
    size_t other = k == 0 && p->nevents > 1 ? 1 : 0;   /* instret beside cycles */
    smn_sink_printf(o->sink, "\n %s by source line (DWARF), every event of each instruction:\n\n", p->events[k]);
    smn_sink_printf(o->sink, "  %9s %16s %16s  %-28s %s\n", "share", p->events[k], p->events[other], "function",
                    "file:line");
    for (size_t i = 0; i < l->n; i++) {
        const socmon_profile_line *r = &l->rows[i];
        smn_sink_printf(o->sink, "  %8.2f%%", share(SV(k, r->v[k]), total));
        put_count(o, 16, SV(k, r->v[k]));
        put_count(o, 16, SV(other, r->v[other]));
        put_text(o, "  ", 28, fname(p, r->func), "");
        if (r->pc != UINT64_MAX) {
            smn_sink_printf(o->sink, " 0x%08llx (no line)\n", (unsigned long long)r->pc);
            continue;
        }
        put_text(o, " ", 0, r->file, "");
        smn_sink_printf(o->sink, ":%u\n", r->line);
    }
    return smn_sink_putc(o->sink, '\n');
}

static socmon_status table_annotate(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    const socmon_profile_annotation *a = v->ann;
    size_t k = v->event, other = k == 0 && p->nevents > 1 ? 1 : 0;
    int64_t total = 0;
    for (size_t i = 0; i < a->n; i++)
        total += SV(k, a->rows[i].insn->v[k]);
    put_text(o, "\n Annotated: ", 0, fname(p, a->func), "");
    smn_sink_printf(o->sink, " (%s by instruction; '>' marks the hottest)\n", p->events[k]);
    if (a->note)
        put_text(o, "  note: ", 0, a->note, "\n");
    smn_sink_printf(o->sink, "\n  %1s %-10s %8s %14s %12s  %-32s %s\n", "", "address", "share", p->events[k],
                    p->events[other], "instruction", "source");
    const char *last = NULL;
    unsigned last_line = 0;
    for (size_t i = 0; i < a->n; i++) {
        const socmon_profile_asm *r = &a->rows[i];
        smn_sink_printf(o->sink, "  %1s 0x%08llx %7.2f%%", r->hottest ? ">" : "", (unsigned long long)r->insn->pc,
                        share(SV(k, r->insn->v[k]), total));
        put_count(o, 14, SV(k, r->insn->v[k]));
        put_count(o, 12, SV(other, r->insn->v[other]));
        put_text(o, "  ", 32, r->insn->text ? r->insn->text : "", "");
        if (r->file && (!last || strcmp(last, r->file) != 0 || last_line != r->line)) {
            const char *base = strrchr(r->file, '/');
            put_text(o, " ", 0, base ? base + 1 : r->file, "");
            smn_sink_printf(o->sink, ":%u", r->line);
            last = r->file;
            last_line = r->line;
        }
        smn_sink_putc(o->sink, '\n');
    }
    return smn_sink_putc(o->sink, '\n');
}

socmon_status smn_table_profile(smn_output *o, const smn_profile_view *v)
{
    switch (v->kind) {
    case SMN_PV_CHILDREN: return table_children(o, v);
    case SMN_PV_CALL_TREE: return table_call_tree(o, v);
    case SMN_PV_LINES: return table_lines(o, v);
    case SMN_PV_ANNOTATE: return table_annotate(o, v);
    default: return socmon_fail(SOCMON_EINVAL, "table: no such profile view");
    }
}

/* ---- json: objects with every event ---- */

static json_t *str(const char *s)
{
    json_t *j = json_string(s);
    if (!j) {   /* not UTF-8: escaped, which is */
        char *esc = smn_text_escape_dup(s);
        j = json_string(esc ? esc : "?");
        free(esc);
    }
    return j;
}

static void put_events(json_t *obj, const socmon_profile *p, const uint64_t *v, const char *suffix)
{
    char key[96];
    for (size_t k = 0; k < p->nevents; k++) {
        snprintf(key, sizeof key, "%s%s", p->events[k], suffix);
        json_object_set_new(obj, key, json_integer(socmon_profile_signed(p, k, v[k])));
    }
}

static socmon_status json_doc(smn_output *o, json_t *doc)
{
    char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
    json_decref(doc);
    if (!text)
        return socmon_fail(SOCMON_ENOMEM, "json: could not serialise the profile");
    smn_sink_puts(o->sink, text);
    free(text);
    return smn_sink_putc(o->sink, '\n');
}

socmon_status smn_json_profile(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    json_t *doc = json_object(), *rows = json_array();
    if (v->kind == SMN_PV_CHILDREN) {
        json_object_set_new(doc, "kind", json_string("children"));
        for (size_t i = 0; i < v->calls->nfns; i++) {
            const socmon_profile_fn *f = &v->calls->fns[i];
            json_t *r = json_object();
            json_object_set_new(r, "function", str(fname(p, f->func)));
            json_object_set_new(r, "calls", json_integer((json_int_t)f->calls));
            put_events(r, p, f->self, "");
            put_events(r, p, f->incl, "_children");
            json_array_append_new(rows, r);
        }
        json_object_set_new(doc, "functions", rows);
    } else if (v->kind == SMN_PV_CALL_TREE) {
        json_object_set_new(doc, "kind", json_string("call-tree"));
        for (size_t i = 0; i < v->calls->nedges; i++) {
            const socmon_profile_edge *e = &v->calls->edges[i];
            json_t *r = json_object();
            json_object_set_new(r, "caller", str(fname(p, e->caller)));
            json_object_set_new(r, "callee", str(fname(p, e->callee)));
            json_object_set_new(r, "trap", json_boolean(e->trap));
            json_object_set_new(r, "calls", json_integer((json_int_t)e->calls));
            put_events(r, p, e->incl, "");
            json_array_append_new(rows, r);
        }
        json_object_set_new(doc, "edges", rows);
    } else if (v->kind == SMN_PV_LINES) {
        json_object_set_new(doc, "kind", json_string("by-line"));
        for (size_t i = 0; i < v->lines->n; i++) {
            const socmon_profile_line *l = &v->lines->rows[i];
            json_t *r = json_object();
            json_object_set_new(r, "file", str(l->file));
            json_object_set_new(r, "line", json_integer(l->line));
            json_object_set_new(r, "function", str(fname(p, l->func)));
            if (l->pc != UINT64_MAX)
                json_object_set_new(r, "pc", json_integer((json_int_t)l->pc));
            put_events(r, p, l->v, "");
            json_array_append_new(rows, r);
        }
        json_object_set_new(doc, "lines", rows);
        json_object_set_new(doc, "note", v->lines->note ? str(v->lines->note) : json_null());
    } else {
        json_object_set_new(doc, "kind", json_string("annotate"));
        json_object_set_new(doc, "function", str(fname(p, v->ann->func)));
        for (size_t i = 0; i < v->ann->n; i++) {
            const socmon_profile_asm *a = &v->ann->rows[i];
            json_t *r = json_object();
            json_object_set_new(r, "pc", json_integer((json_int_t)a->insn->pc));
            json_object_set_new(r, "insn", json_integer(a->insn->word));
            json_object_set_new(r, "text", str(a->insn->text ? a->insn->text : ""));
            json_object_set_new(r, "file", a->file ? str(a->file) : json_null());
            json_object_set_new(r, "line", json_integer(a->line));
            json_object_set_new(r, "hottest", json_boolean(a->hottest));
            put_events(r, p, a->insn->v, "");
            json_array_append_new(rows, r);
        }
        json_object_set_new(doc, "instructions", rows);
        json_object_set_new(doc, "note", v->ann->note ? str(v->ann->note) : json_null());
    }
    if (v->calls) {
        json_t *root = json_object();
        put_events(root, p, v->calls->root, "");
        json_object_set_new(doc, "root", root);
        json_object_set_new(doc, "totals_match", json_boolean(!v->calls->mismatch));
    }
    return json_doc(o, doc);
}

/* ---- csv: one record per row, every event a column ---- */

static void csv_str(smn_output *o, const char *s)
{
    char *esc = smn_text_clean(s) ? NULL : smn_text_escape_dup(s);
    smn_csv_write(o->sink, esc ? esc : s, ',');
    free(esc);
}

static void csv_events(smn_output *o, const socmon_profile *p, const uint64_t *v)
{
    for (size_t k = 0; k < p->nevents; k++)
        smn_sink_printf(o->sink, ",%lld", (long long)socmon_profile_signed(p, k, v[k]));
    smn_sink_putc(o->sink, '\n');
}

static void csv_header(smn_output *o, const char *lead, const socmon_profile *p, const char *suffix)
{
    smn_sink_puts(o->sink, lead);
    for (size_t k = 0; k < p->nevents; k++)
        smn_sink_printf(o->sink, ",%s%s", p->events[k], suffix);
    smn_sink_putc(o->sink, '\n');
}

socmon_status smn_csv_profile(smn_output *o, const smn_profile_view *v)
{
    const socmon_profile *p = v->p;
    if (v->kind == SMN_PV_CHILDREN) {
        csv_header(o, "function,calls,kind", p, "");
        for (size_t i = 0; i < v->calls->nfns; i++) {
            const socmon_profile_fn *f = &v->calls->fns[i];
            csv_str(o, fname(p, f->func));
            smn_sink_printf(o->sink, ",%llu,self", (unsigned long long)f->calls);
            csv_events(o, p, f->self);
            csv_str(o, fname(p, f->func));
            smn_sink_printf(o->sink, ",%llu,children", (unsigned long long)f->calls);
            csv_events(o, p, f->incl);
        }
    } else if (v->kind == SMN_PV_CALL_TREE) {
        csv_header(o, "caller,callee,trap,calls", p, "");
        for (size_t i = 0; i < v->calls->nedges; i++) {
            const socmon_profile_edge *e = &v->calls->edges[i];
            csv_str(o, fname(p, e->caller));
            smn_sink_putc(o->sink, ',');
            csv_str(o, fname(p, e->callee));
            smn_sink_printf(o->sink, ",%d,%llu", e->trap ? 1 : 0, (unsigned long long)e->calls);
            csv_events(o, p, e->incl);
        }
    } else if (v->kind == SMN_PV_LINES) {
        csv_header(o, "file,line,function", p, "");
        for (size_t i = 0; i < v->lines->n; i++) {
            const socmon_profile_line *l = &v->lines->rows[i];
            csv_str(o, l->file);
            smn_sink_printf(o->sink, ",%u,", l->line);
            csv_str(o, fname(p, l->func));
            csv_events(o, p, l->v);
        }
    } else {
        csv_header(o, "pc,text,file,line,hottest", p, "");
        for (size_t i = 0; i < v->ann->n; i++) {
            const socmon_profile_asm *a = &v->ann->rows[i];
            smn_sink_printf(o->sink, "0x%08llx,", (unsigned long long)a->insn->pc);
            csv_str(o, a->insn->text ? a->insn->text : "");
            smn_sink_putc(o->sink, ',');
            csv_str(o, a->file ? a->file : "");
            smn_sink_printf(o->sink, ",%u,%d", a->line, a->hottest);
            csv_events(o, p, a->insn->v);
        }
    }
    return SOCMON_OK;
}
