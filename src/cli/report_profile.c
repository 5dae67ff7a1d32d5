/* socmon report's views of a program's exact profile (--children, --call-tree, --by-line,
 * --annotate FUNCTION, --folded): the recording's "profile" attachment read back, the view
 * computed by the library, printed through the output interface. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/output.h"
#include "cli/report_profile.h"
#include "export/output.h"
#include "socmon/profile.h"

static const char *view_name(int v)
{
    switch (v) {
    case CLI_PV_CHILDREN: return "--children";
    case CLI_PV_CALL_TREE: return "--call-tree";
    case CLI_PV_LINES: return "--by-line";
    case CLI_PV_ANNOTATE: return "--annotate";
    default: return "--folded";
    }
}

void cli_report_load_profile(cli_source *src, const char *file, socmon_profile **out)
{
    const void *data = NULL;
    size_t len = 0;
    *out = NULL;
    socmon_status st = socmon_recording_attachment(src->rec, "profile", &data, &len);
    if (st == SOCMON_ENOENT) {
        socmon_clear_error();
        return;
    }
    if (st == SOCMON_OK)
        st = socmon_profile_from_json(data, len, out);
    if (st != SOCMON_OK) {
        fprintf(stderr, "socmon report: %s: the program profile cannot be read (%s): the report goes on without "
                        "it\n", file, socmon_errmsg());
        socmon_clear_error();
        *out = NULL;
    }
}

int cli_report_profile(cli_source *src, const cli_opts *o, const char *file, const socmon_profile *p)
{
    if (!p) {
        const void *data = NULL;
        size_t len = 0;
        if (socmon_recording_attachment(src->rec, "profile", &data, &len) == SOCMON_ENOENT)
            fprintf(stderr, "socmon report: %s: %s: the recording has no program profile; record a program with "
                            "'socmon record -t ibex -- prog.elf' (a recording of another target, or one made with "
                            "--remote, holds only its counters: --by-symbol still works there)\n",
                    file, view_name(o->profile_view));
        socmon_clear_error();   /* an unreadable one was said when it was loaded */
        return 1;
    }
    socmon_status st = SOCMON_OK;
    size_t k = 0;
    if (st == SOCMON_OK && (o->event || socmon_profile_event(p, "cycles", &k) != SOCMON_OK)) {
        socmon_clear_error();
        k = 0;
        if (o->event)
            st = socmon_profile_event(p, o->event, &k);
    }
    /* the ELF: --elf, else the path the program ran from (relative to where record ran: tried
     * from here, then beside the recording) */
    const char *elf = o->elf ? o->elf : p ? p->program : NULL;
    char beside[4096];
    if (!o->elf && elf && elf[0] && elf[0] != '/' && access(elf, R_OK) != 0) {
        const char *slash = strrchr(file, '/');
        if (slash && snprintf(beside, sizeof beside, "%.*s/%s", (int)(slash - file), file, elf) < (int)sizeof beside &&
            access(beside, R_OK) == 0)
            elf = beside;
    }
    smn_profile_view v = {.p = p, .event = k};
    socmon_profile_calls *calls = NULL;
    socmon_profile_lines *lines = NULL;
    socmon_profile_annotation *ann = NULL;
    char *folded = NULL;
    if (st == SOCMON_OK) {
        switch (o->profile_view) {
        case CLI_PV_CHILDREN:
        case CLI_PV_CALL_TREE:
            v.kind = o->profile_view == CLI_PV_CHILDREN ? SMN_PV_CHILDREN : SMN_PV_CALL_TREE;
            st = socmon_profile_calls_new(p, &calls);
            v.calls = calls;
            break;
        case CLI_PV_LINES:
            v.kind = SMN_PV_LINES;
            st = socmon_profile_lines_new(p, elf, &lines);
            v.lines = lines;
            break;
        case CLI_PV_ANNOTATE:
            v.kind = SMN_PV_ANNOTATE;
            st = socmon_profile_annotate(p, o->annotate, elf, &ann);
            v.ann = ann;
            break;
        default:
            v.kind = SMN_PV_FOLDED;
            st = socmon_profile_folded(p, k, &folded, NULL);
            v.folded = folded;
            break;
        }
    }
    int rc;
    if (st != SOCMON_OK) {
        rc = cli_error("report", st);
    } else {
        cli_output co;
        st = cli_output_open(&co, o, NULL);
        if (st == SOCMON_OK)
            st = smn_output_profile(co.out, &v);
        rc = cli_output_close(&co, "report", st);
        const char *note = lines ? lines->note : ann ? ann->note : NULL;
        if (!rc && note && strcmp(o->format, "csv") == 0)
            fprintf(stderr, "socmon report: note: %s\n", note);
        if (!rc && calls && calls->mismatch) {
            fprintf(stderr, "socmon report: %s: the call tree's totals differ from the whole-program counters: "
                            "the profile does not add up\n", view_name(o->profile_view));
            rc = 1;
        }
    }
    socmon_profile_calls_free(calls);
    socmon_profile_lines_free(lines);
    socmon_profile_annotation_free(ann);
    free(folded);
    return rc;
}
