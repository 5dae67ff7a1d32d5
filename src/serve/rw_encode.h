/* Prometheus Remote-Write 1.0 bodies (rw_encode.c): series gathered from the text exposition
 * that /metrics serves, so a push carries exactly /metrics's names and labels, encoded as a
 * protobuf WriteRequest (src/serve/remote_write.proto) in snappy's block format; and a
 * receiver's answer made fit for a log line. remote_write.c is the sender around it. */
#ifndef SOCMON_SERVE_RW_ENCODE_H
#define SOCMON_SERVE_RW_ENCODE_H

#include <stddef.h>
#include <stdint.h>

#include "socmon/status.h"

typedef struct smn_rw_label {
    char *name, *value;
} smn_rw_label;

typedef struct smn_rw_series {
    char *key;                  /* "name{labels}" as the exposition wrote it: one series per key */
    smn_rw_label *labels;       /* __name__ first, then by name */
    size_t nlabels;
    double *v;                  /* its samples, oldest first */
    int64_t *t;                 /* their times, ms since 1970 */
    size_t nsamples, cap;
} smn_rw_series;

/* The series of one request: every point added at its own time. */
typedef struct smn_rw_batch {
    smn_rw_series *s;
    size_t n, cap;
    size_t hint;                /* where the next line's series is likely to be (points repeat) */
} smn_rw_batch;

/* Adds every sample line of an exposition (Prometheus text 0.0.4, as socmon's "prometheus"
 * format writes it) at time t_ms, with the extra labels (a series that has one of their names
 * keeps its own). SOCMON_EPARSE names the line that is not a sample line; SOCMON_ENOMEM. */
socmon_status smn_rw_batch_add_text(smn_rw_batch *b, const char *text, size_t len, int64_t t_ms,
                                    const smn_rw_label *extra, size_t nextra);
/* Empties the batch (frees its series). */
void smn_rw_batch_clear(smn_rw_batch *b);
/* The batch as a snappy-compressed WriteRequest (*out malloc'd). */
socmon_status smn_rw_batch_encode(const smn_rw_batch *b, uint8_t **out, size_t *len);

/* What a receiver said, for a log line: "HTTP 400: <its body>", the body cut to about 200 bytes
 * and escaped (smn_text_escape; a NUL as \x00) so nothing a peer sends acts on a terminal. */
void smn_rw_answer_text(char *out, size_t cap, long status, const char *body, size_t len);

/* 1 if a receiver's status is worth sending the same body again: 5xx and 429 (too many
 * requests); any other 4xx says the body itself is refused. */
int smn_rw_status_retryable(long status);

#endif
