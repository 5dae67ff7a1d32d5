/* socmon report's views of a program's exact profile (--children, --call-tree, --by-line,
 * --annotate FUNCTION, --folded): the recording's "profile" attachment read back, the view
 * computed by the library, printed through the output interface. */
#include <stdio.h>
#include <string.h>

#include "cli/print.h"
#include "cli/report_profile.h"
#include "export/profile_view.h"

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
    static const smn_profile_view_kind kinds[] = {[CLI_PV_CHILDREN] = SMN_PV_CHILDREN, [CLI_PV_CALL_TREE] = SMN_PV_CALL_TREE,
                                                  [CLI_PV_LINES] = SMN_PV_LINES, [CLI_PV_ANNOTATE] = SMN_PV_ANNOTATE,
                                                  [CLI_PV_FOLDED] = SMN_PV_FOLDED};
    smn_profile_view_data d;
    socmon_status st = smn_profile_view_compute(&d, p, kinds[o->profile_view], o->event, o->annotate, o->elf, file);
    const smn_profile_view v = d.v;
    const socmon_profile_calls *calls = d.calls;
    const socmon_profile_lines *lines = d.lines;
    const socmon_profile_annotation *ann = d.ann;
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
    smn_profile_view_done(&d);
    return rc;
}
