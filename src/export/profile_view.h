/* Internal: a view of a program's exact profile computed from the profile, for the two that show
 * one (socmon report's views, cli/report_profile.c; socmon_document_profile, document.c). */
#ifndef SOCMON_EXPORT_PROFILE_VIEW_H
#define SOCMON_EXPORT_PROFILE_VIEW_H

#include "export/output.h"

/* The view and the data it owns (free with smn_profile_view_done). */
typedef struct smn_profile_view_data {
    smn_profile_view v;
    socmon_profile_calls *calls;
    socmon_profile_lines *lines;
    socmon_profile_annotation *ann;
    char *folded;
} smn_profile_view_data;

/* Computes view kind of p into *d: for event (NULL: "cycles", else the first event); annotate is
 * the function of SMN_PV_ANNOTATE; the lines from elf, else from the program the profile names,
 * tried from here, then beside the recording at rec_path (record ran where that relative path
 * meant something). On failure *d holds nothing to free but may be passed to done. */
socmon_status smn_profile_view_compute(smn_profile_view_data *d, const socmon_profile *p, smn_profile_view_kind kind,
                                       const char *event, const char *annotate, const char *elf,
                                       const char *rec_path);
void smn_profile_view_done(smn_profile_view_data *d);

#endif
