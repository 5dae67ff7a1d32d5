/* A recording made from an agent's stream (socmon record --remote): what the stream says as it
 * goes (samples the agent no longer had, a progress line a second), where it starts, what
 * arrived, why a run that recorded nothing did, and the attachment that lets --append continue
 * the file at the agent's right seq. The lines are the caller's to write (say); none is printed
 * here. */
#ifndef SOCMON_AGENT_REMOTE_RECORD_H
#define SOCMON_AGENT_REMOTE_RECORD_H

#include <stddef.h>
#include <stdint.h>
#include "agent/collector_source.h"
#include "socmon/recording.h"

typedef struct remote_record {
    socmon_source *src;        /* the agent's stream (collector_source) */
    const char *agent;         /* HOST:PORT, as given */
    const char *target;        /* the agent's target */
    int big;                   /* counts with grouped digits */
    int appending;             /* --append: the file continues an earlier run */
    int progress;              /* a progress line a second (nothing else shows the run going) */
    const uint64_t *lost;      /* the recorder's count of samples lost at the agent */
    socmon_recwriter *w;       /* the file's writer, once it is open */
    void (*say)(void *user, const char *line);
    void *user;
    uint64_t samples, first_seq, last_seq, first_t, last_t, next_progress;
} remote_record;

/* The consumer that watches the stream; add it before the file's, so it sees the gap the file
 * will skip. */
socmon_consumer remote_record_consumer(remote_record *r);
/* --append: the agent's seq of the file's index 0 (the attachment a run that started at a
 * chosen point left), and the stream started after the file's last sample. */
socmon_status remote_record_continue(remote_record *r, const char *path);
/* "from agent HOST:PORT (target T, N counters, interval I ms), --from ...: ..." */
void remote_record_start_line(const remote_record *r, int from_now, int duration, size_t ncounters,
                              uint64_t interval_ns, char *buf, size_t len);
/* "1,001 samples from agent HOST:PORT (target esp) over 1.000 s of target time (seq 700..1700)" */
void remote_record_arrived(const remote_record *r, char *buf, size_t len);
/* "wrote 1,001 samples (0 lost at the agent): <arrived>, to PATH (N bytes received)" */
void remote_record_wrote(const remote_record *r, const char *path, char *buf, size_t len);
/* --from now joining a run that is over would wait for a sample that never comes: 1 with the
 * line that says so and what --from oldest would get, else 0. from_given: --from was given
 * (else -d's now). */
int remote_record_ended(const remote_record *r, int from_given, char *buf, size_t len);
/* A run that recorded no interval (a new file: fewer than two samples; --append: none): 1 with
 * the line that says why, else 0. */
int remote_record_nothing(const remote_record *r, const char *end_reason, int from_now, char *buf, size_t len);

#endif
