/* Whole documents in memory, as socmon's commands write them: for bindings (the Python package,
 * docs/python.md) that want socmon's numbers without re-doing its wiring. Each call runs the
 * analysis pipeline (socmon/analysis.h) into an output format of the export layer, the same
 * path `socmon report` and `socmon stat` take, so a binding's numbers are the CLI's.
 *
 * The document is malloc'd text (NUL-terminated); free it with socmon_document_free. */
#ifndef SOCMON_DOCUMENT_H
#define SOCMON_DOCUMENT_H

#include "socmon/export.h"

#include <stddef.h>
#include <stdint.h>
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

typedef struct socmon_document_opts {
    size_t size;                /* sizeof(socmon_document_opts), or 0 */
    const char *format;         /* "json" (NULL: json) or "csv" */
    const char *metric_file;    /* metrics from this file instead of the target's */
    int deltas;                 /* a recording's intervals: every counter's delta too */
    uint64_t duration_ns;       /* stat of hardware: how long to count (a model runs its workload) */
} socmon_document_opts;

/* `socmon report -i PATH --json [--deltas]`: one row per interval of a recording. */
socmon_status socmon_document_recording(const char *path, const socmon_document_opts *o, char **out, size_t *len);
/* `socmon report -i PATH --by-symbol --json`: a program's recording per function. */
socmon_status socmon_document_functions(const char *path, const socmon_document_opts *o, char **out, size_t *len);
/* `socmon stat -t SPEC [-w WORKLOAD] --json [-- PROGRAM]`: the totals of one run. workload and
 * program may be NULL. With a program (or a spec's program=) the JSON document also says how it
 * ended and what it printed, which the CLI says on stdout, stderr and in its exit status:
 * "program": {"end", "exit_code", "message", "output"}, end one of "halt", "trap",
 * "cycle_limit", "hang" (asleep or spinning forever) or "timeout" (still running when the
 * duration ended), exit_code what socmon stat exits with (0, 3, 4, 5, 0), output the console
 * bytes, each one character U+0000..U+00FF. A program that does not halt is no error. */
socmon_status socmon_document_stat(const char *spec, const char *workload, const char *program,
                                   const socmon_document_opts *o, char **out, size_t *len);
/* `socmon report -i PATH --VIEW --json [--event EVENT] [--elf ELF]`: a view of the exact profile
 * of a program's recording (docs/profile.md), view one of "children", "call-tree", "by-line" and
 * "folded" (text, not JSON: one line "outer;...;inner VALUE" per call path). event NULL: cycles.
 * elf NULL: the program the recording names, tried from the current directory, then beside
 * the recording. o may be NULL. SOCMON_ENOENT for a recording without a profile. */
socmon_status socmon_document_profile(const char *path, const char *view, const char *event, const char *elf,
                                      const socmon_document_opts *o, char **out, size_t *len);
void socmon_document_free(char *text);

SOCMON_END_DECLS

#endif
