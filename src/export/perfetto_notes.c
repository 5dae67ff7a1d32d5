/* The lines after a Perfetto trace (perfetto_notes.h). */
#include <stdio.h>

#include "core/text.h"
#include "export/output_format.h"
#include "export/perfetto_notes.h"

void smn_perfetto_notes(const char *path, uint64_t rows, size_t ncounters, size_t nm, const socmon_profile *prof,
                        int big, void (*say)(void *user, const char *line), void *user)
{
    char line[1024], slices[96] = "", nrows[32], nslices[32];
    smn_format_count(nrows, sizeof nrows, rows ? rows - 1 : 0, big);
    if (prof) {
        smn_format_count(nslices, sizeof nslices, prof->nslices, big);
        snprintf(slices, sizeof slices, ", %s function slices on hart 0", nslices);
    }
    snprintf(line, sizeof line, "wrote %s: %s intervals, %zu counter and %zu metric tracks%s (open it in "
             "https://ui.perfetto.dev)", path, nrows, ncounters, nm, slices);
    say(user, line);
    size_t k = smn_perfetto_merge(rows, ncounters + nm);
    if (k > 1) {
        char a[32], b[32];
        smn_format_count(a, sizeof a, rows - 1, big);
        smn_format_count(b, sizeof b, (rows - 1 + k - 1) / k, big);
        snprintf(line, sizeof line, "%s: a long recording: its %s intervals are %s rows of %zu merged intervals "
                 "(deltas summed, metrics over the merged time), so that the trace opens; -x, writes every interval",
                 path, a, b, k);
        say(user, line);
    }
    if (prof && prof->slices_dropped) {
        snprintf(line, sizeof line, "%s: the profile dropped %llu function entries past the %zu it kept: the trace "
                 "lacks their slices (the trace says so at the last one kept; record with -t ibex:slices=N to keep "
                 "more)", path, (unsigned long long)prof->slices_dropped, prof->nslices);
        say(user, line);
    }
}
