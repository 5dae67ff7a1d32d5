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
 * program may be NULL. A program that does not halt (it traps, hangs or runs past its cycle
 * limit) is an error naming how it ended. */
socmon_status socmon_document_stat(const char *spec, const char *workload, const char *program,
                                   const socmon_document_opts *o, char **out, size_t *len);
void socmon_document_free(char *text);

SOCMON_END_DECLS

#endif
