/* A view of a program's exact profile, computed (export/profile_view.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/error.h"
#include "export/profile_view.h"

/* The ELF the lines come from: elf, else the program's path as record saw it, tried from here,
 * then beside the recording. */
static const char *elf_of(const char *elf, const socmon_profile *p, const char *rec_path, char *beside, size_t n)
{
    if (elf)
        return elf;
    elf = p->program;
    if (elf && elf[0] && elf[0] != '/' && access(elf, R_OK) != 0 && rec_path) {
        const char *slash = strrchr(rec_path, '/');
        if (slash && snprintf(beside, n, "%.*s/%s", (int)(slash - rec_path), rec_path, elf) < (int)n &&
            access(beside, R_OK) == 0)
            return beside;
    }
    return elf;
}

socmon_status smn_profile_view_compute(smn_profile_view_data *d, const socmon_profile *p, smn_profile_view_kind kind,
                                       const char *event, const char *annotate, const char *elf,
                                       const char *rec_path)
{
    memset(d, 0, sizeof *d);
    size_t k = 0;
    if (event || socmon_profile_event(p, "cycles", &k) != SOCMON_OK) {
        socmon_clear_error();
        k = 0;
        if (event) {
            socmon_status st = socmon_profile_event(p, event, &k);
            if (st != SOCMON_OK)
                return st;
        }
    }
    d->v = (smn_profile_view){.kind = kind, .p = p, .event = k};
    char beside[4096];
    socmon_status st;
    switch (kind) {
    case SMN_PV_CHILDREN:
    case SMN_PV_CALL_TREE:
        st = socmon_profile_calls_new(p, &d->calls);
        d->v.calls = d->calls;
        break;
    case SMN_PV_LINES:
        st = socmon_profile_lines_new(p, elf_of(elf, p, rec_path, beside, sizeof beside), &d->lines);
        d->v.lines = d->lines;
        break;
    case SMN_PV_ANNOTATE:
        st = socmon_profile_annotate(p, annotate, elf_of(elf, p, rec_path, beside, sizeof beside), &d->ann);
        d->v.ann = d->ann;
        break;
    default:
        st = socmon_profile_folded(p, k, &d->folded, NULL);
        d->v.folded = d->folded;
        break;
    }
    return st;
}

void smn_profile_view_done(smn_profile_view_data *d)
{
    if (!d)
        return;
    socmon_profile_calls_free(d->calls);
    socmon_profile_lines_free(d->lines);
    socmon_profile_annotation_free(d->ann);
    free(d->folded);
    memset(d, 0, sizeof *d);
}
