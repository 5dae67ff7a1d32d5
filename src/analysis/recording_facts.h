/* What a recording file holds and what of its run it lost: the figures of report --stats (a
 * document of the output interface, export/output.h: smn_output_file_facts) and the lines
 * the recording source gives as its losses (socmon_source_info.lost). docs/recording-format.md
 * says what each figure means. */
#ifndef SOCMON_ANALYSIS_RECORDING_FACTS_H
#define SOCMON_ANALYSIS_RECORDING_FACTS_H

#include <stddef.h>
#include <stdint.h>
#include "socmon/recording.h"

typedef struct smn_file_facts {
    const char *file;              /* the file as the user named it ("stdin" for -), borrowed */
    socmon_recording_info info;    /* the file's own figures: blocks, bytes, what was lost */
    uint64_t samples;              /* samples read */
    size_t counters;
    double bytes_per_value;        /* file bytes per sampled value (attachments left out), 0 for a file
                                      without values */
    size_t attachments;            /* documents attached (a program's profile, a workload's phases, a
                                      remote recording's agent seq base) */
    uint64_t attachment_bytes;     /* the bytes their records take in the file */
    char attachment_names[96];     /* their names in file order, ", " between, escaped (they come
                                      from the file); cut with "..." when they do not fit */
    const char *clock;             /* which clock stamped the samples: "real", "simulated", or
                                      "unknown" (v1 files do not say) */
} smn_file_facts;

/* The facts of rec, read back from `file` (borrowed by out). */
void smn_recording_facts(socmon_recording *rec, const char *file, smn_file_facts *out);

/* What of its run rec lost, one sentence a line, each ending in '\n' (a reader prefixes where it
 * comes from): gaps the writer recorded, damaged blocks, a cut-short end, timestamps that go
 * backwards, an end record that disagrees with the blocks. "" for a complete recording. Figures
 * only, no string of the file. buf holds cap bytes; SOCMON_LOSS_MAX holds every line. */
#define SOCMON_LOSS_MAX 2048
void smn_recording_loss(socmon_recording *rec, char *buf, size_t cap);

#endif
