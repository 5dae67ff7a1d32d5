/* Workload phases: named spans of a run's time ("non-coherent", "coherent-DMA"), as a model's
 * workload reports them (socmon_target_phases) and a recording carries them (its attachment
 * "phases", socmon_recording_phases). Reports, Perfetto traces and the web page use them to say
 * which interval belongs to which part of the workload. */
#ifndef SOCMON_PHASE_H
#define SOCMON_PHASE_H

#include <stddef.h>
#include <stdint.h>

#include "socmon/export.h"
#include "socmon/status.h"

SOCMON_BEGIN_DECLS

#define SOCMON_PHASE_NAME_MAX 32   /* bytes of a name, with its terminating NUL */

typedef struct socmon_phase {
    char name[SOCMON_PHASE_NAME_MAX]; /* letters, digits, '_', '-', '.' */
    uint64_t t0_ns;                   /* start, on the run's sample clock */
    uint64_t t1_ns;                   /* end (exclusive), t1_ns > t0_ns */
} socmon_phase;

/* The text form of the attachment "phases": one line per phase, "T0_NS T1_NS NAME\n", in time
 * order and not overlapping (docs/recording-format.md). *text is the caller's to free. */
socmon_status socmon_phases_format(const socmon_phase *p, size_t n, char **text, size_t *len);
/* Parses that form into *out (the caller's to free; NULL when *n is 0). SOCMON_EINVAL naming the
 * line for a bad number, a bad or too long name, an empty or reversed span, or a phase that
 * starts before the one above it ends. */
socmon_status socmon_phases_parse(const char *text, size_t len, socmon_phase **out, size_t *n);
/* The phase that holds t_ns (t0_ns <= t_ns < t1_ns), or NULL when none does. */
const socmon_phase *socmon_phase_at(const socmon_phase *p, size_t n, uint64_t t_ns);

SOCMON_END_DECLS
#endif
