/* The agent's sample ring: a bounded, preallocated buffer of the last
 * `capacity` samples, each numbered by its sequence number (0 for the run's
 * first sample, consecutive after).
 *
 * A ring starts at a given seq (0 for a run's first sample).
 * One producer (the sampling thread) pushes; readers (the server thread)
 * copy samples out by sequence number under a short mutex. Nothing is
 * allocated after ring_new. Samples older than next - capacity are gone; a
 * reader asking for one learns it from ring_read as a gap (first lost seq,
 * count, and the time of the last lost sample), never silently.
 *
 * Backpressure (ring_set_wait): when on and some reader still needs the
 * sample about to be overwritten (the floor the server sets), ring_push
 * waits until the reader moves on or ring_stop. The agent turns it on only
 * for an unpaced model, whose simulated time waits with it; on hardware or a
 * paced model the sampler never waits and a slow reader gets a gap. */
#ifndef SOCMON_AGENT_RING_H
#define SOCMON_AGENT_RING_H

#include <stddef.h>
#include <stdint.h>

#include "agent/wire.h"
#include "socmon/sample.h"

typedef struct ring ring;

#define RING_NO_FLOOR UINT64_MAX

/* The first sample pushed gets first_seq (0 for a run; a CONFIG's new ring
 * continues the numbering). */
socmon_status ring_new(size_t capacity, size_t ncounters, uint64_t first_seq, ring **out);
void ring_free(ring *r);
size_t ring_capacity(const ring *r);
size_t ring_ncounters(const ring *r);

/* Producer: appends s (s->n values) as sample next_seq; returns its seq.
 * With backpressure on, waits first while the floor needs the slot. */
uint64_t ring_push(ring *r, const socmon_sample *s);
/* Producer: no more samples (status and reason go to END frames). */
void ring_end(ring *r, int32_t status, const char *reason);
/* Any thread: wakes a waiting producer for good (shutdown). */
void ring_stop(ring *r);
void ring_set_wait(ring *r, int wait);

typedef struct ring_state {
    uint64_t oldest, next;     /* buffered: [oldest, next) */
    uint64_t overwritten;      /* samples dropped while a reader still needed them */
    uint64_t last_t_ns;        /* time of seq next - 1 (the start time when nothing was pushed) */
    int ended;
    int32_t end_status;
    char end_reason[256];
} ring_state;
void ring_get_state(ring *r, ring_state *out);
/* Before the first push: the time of the samples before first_seq (a ring built for a CONFIG
 * continues an older one), so a GAP over them ends at that time and never before it starts. */
void ring_set_start_time(ring *r, uint64_t t_ns);

/* Readers: the lowest seq any reader still needs (RING_NO_FLOOR: none),
 * recomputed by the server after each send. Wakes a waiting producer. */
void ring_set_floor(ring *r, uint64_t floor);

/* Copies samples from seq onwards, at most `max` and at most out->n, into
 * out (arrays of out->n samples of ring_ncounters values); out->n becomes the
 * count copied (0: nothing new yet). If seq is older than the oldest
 * buffered sample, copies nothing and fills *gap (first = seq, count up to
 * the oldest, t1_ns = the last lost sample's time; t0_ns is left for the
 * caller, who knows the sample before seq) and returns 1; else returns 0. */
int ring_read(ring *r, uint64_t seq, uint32_t max, wire_samples *out, wire_gap *gap);

#endif
