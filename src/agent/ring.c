/* The sample ring (see ring.h). Slot of seq s: s % capacity.
 *
 * The values array of a wide SoC is large (64 MiB for an 8x8 ESP SoC's
 * default ring, more with --ring) and first touched by the sampling thread, one slot per
 * sample: with 4 KiB pages that is a page fault every few samples, which
 * measured (bench_remote) as the larger part of the sampler's cost. So a
 * large array is 2 MiB-aligned and asks for transparent huge pages
 * (MADV_HUGEPAGE; honoured where THP is "madvise" or "always", harmless
 * elsewhere): a fault per 2 MiB instead of per 4 KiB. */
#define _GNU_SOURCE   /* MADV_HUGEPAGE */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/mman.h>

#include "agent/ring.h"
#include "socmon/status.h"

struct ring {
    pthread_mutex_t mu;
    pthread_cond_t room;       /* the producer waits here for the floor to move */
    size_t cap, nc;
    uint64_t *t_ns, *values;
    uint32_t *flags, *missed;
    uint64_t first;            /* seq of the first push */
    uint64_t next;             /* seq of the next push */
    uint64_t evicted_t;        /* time of seq next - cap - 1, the last sample overwritten */
    uint64_t floor;
    uint64_t overwritten;
    int wait, stopped, ended;
    int32_t end_status;
    char end_reason[256];
};

#define HUGE_ALIGN ((size_t)2 << 20)

/* The values array; a large one on huge pages when the kernel has them. Not
 * zeroed: only slots already pushed are ever read. */
static void *values_alloc(size_t n)
{
    size_t bytes = n * sizeof(uint64_t);
    if (bytes < 4 * HUGE_ALIGN)
        return calloc(n, sizeof(uint64_t));
    if (bytes > SIZE_MAX - HUGE_ALIGN)   /* rounding up would wrap (reachable with a 32-bit size_t) */
        return NULL;
    size_t rounded = (bytes + HUGE_ALIGN - 1) / HUGE_ALIGN * HUGE_ALIGN;
    void *p = NULL;
    if (posix_memalign(&p, HUGE_ALIGN, rounded) != 0)
        return NULL;
#ifdef MADV_HUGEPAGE
    (void)madvise(p, rounded, MADV_HUGEPAGE);   /* advice only: 4 KiB pages if refused */
#endif
    return p;
}

socmon_status ring_new(size_t capacity, size_t ncounters, uint64_t first_seq, ring **out)
{
    *out = NULL;
    if (capacity < 2 || ncounters == 0)
        return socmon_fail(SOCMON_EINVAL, "ring: capacity %zu (at least 2) or %zu counters (at least 1)", capacity,
                           ncounters);
    if (capacity > SIZE_MAX / sizeof(uint64_t) / ncounters)
        return socmon_fail(SOCMON_ERANGE, "ring: %zu samples of %zu counters overflow memory", capacity, ncounters);
    ring *r = calloc(1, sizeof *r);
    if (!r)
        return socmon_fail(SOCMON_ENOMEM, "ring: out of memory");
    r->cap = capacity;
    r->nc = ncounters;
    r->floor = RING_NO_FLOOR;
    r->first = r->next = first_seq;
    r->t_ns = calloc(capacity, sizeof *r->t_ns);
    r->flags = calloc(capacity, sizeof *r->flags);
    r->missed = calloc(capacity, sizeof *r->missed);
    r->values = values_alloc(capacity * ncounters);
    if (!r->t_ns || !r->flags || !r->missed || !r->values) {
        ring_free(r);
        return socmon_fail(SOCMON_ENOMEM, "ring: out of memory for %zu samples of %zu counters (%.1f MiB)", capacity,
                           ncounters, (double)capacity * (double)ncounters * 8 / 1048576.0);
    }
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->room, NULL);
    *out = r;
    return SOCMON_OK;
}

void ring_free(ring *r)
{
    if (!r)
        return;
    if (r->t_ns && r->flags && r->missed && r->values) {
        pthread_mutex_destroy(&r->mu);
        pthread_cond_destroy(&r->room);
    }
    free(r->t_ns);
    free(r->flags);
    free(r->missed);
    free(r->values);
    free(r);
}

size_t ring_capacity(const ring *r)
{
    return r->cap;
}

size_t ring_ncounters(const ring *r)
{
    return r->nc;
}

static uint64_t oldest_of(const ring *r)
{
    return r->next - r->first > r->cap ? r->next - r->cap : r->first;
}

uint64_t ring_push(ring *r, const socmon_sample *s)
{
    pthread_mutex_lock(&r->mu);
    /* Full, and the sample about to go is still needed: wait (backpressure). */
    while (r->wait && !r->stopped && r->floor != RING_NO_FLOOR && r->next - r->first >= r->cap &&
           r->floor <= r->next - r->cap)
        pthread_cond_wait(&r->room, &r->mu);
    uint64_t seq = r->next;
    size_t slot = (size_t)(seq % r->cap);
    if (seq - r->first >= r->cap) {
        r->evicted_t = r->t_ns[slot];
        if (r->floor != RING_NO_FLOOR && r->floor <= seq - r->cap)
            r->overwritten++;
    }
    r->t_ns[slot] = s->t_ns;
    r->flags[slot] = s->flags;
    r->missed[slot] = s->missed;
    size_t n = s->n < r->nc ? s->n : r->nc;
    memcpy(r->values + slot * r->nc, s->v, n * sizeof *s->v);
    r->next = seq + 1;
    pthread_mutex_unlock(&r->mu);
    return seq;
}

void ring_end(ring *r, int32_t status, const char *reason)
{
    pthread_mutex_lock(&r->mu);
    r->ended = 1;
    r->end_status = status;
    snprintf(r->end_reason, sizeof r->end_reason, "%s", reason ? reason : "");
    pthread_mutex_unlock(&r->mu);
}

void ring_stop(ring *r)
{
    pthread_mutex_lock(&r->mu);
    r->stopped = 1;
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->mu);
}

void ring_set_wait(ring *r, int wait)
{
    pthread_mutex_lock(&r->mu);
    r->wait = wait;
    pthread_cond_broadcast(&r->room);
    pthread_mutex_unlock(&r->mu);
}

void ring_get_state(ring *r, ring_state *out)
{
    pthread_mutex_lock(&r->mu);
    out->oldest = oldest_of(r);
    out->next = r->next;
    out->overwritten = r->overwritten;
    out->last_t_ns = r->next > r->first ? r->t_ns[(size_t)((r->next - 1) % r->cap)] : r->evicted_t;
    out->ended = r->ended;
    out->end_status = r->end_status;
    memcpy(out->end_reason, r->end_reason, sizeof out->end_reason);
    pthread_mutex_unlock(&r->mu);
}

void ring_set_start_time(ring *r, uint64_t t_ns)
{
    pthread_mutex_lock(&r->mu);
    r->evicted_t = t_ns;
    pthread_mutex_unlock(&r->mu);
}

void ring_set_floor(ring *r, uint64_t floor)
{
    pthread_mutex_lock(&r->mu);
    if (floor != r->floor) {
        r->floor = floor;
        pthread_cond_broadcast(&r->room);
    }
    pthread_mutex_unlock(&r->mu);
}

int ring_read(ring *r, uint64_t seq, uint32_t max, wire_samples *out, wire_gap *gap)
{
    pthread_mutex_lock(&r->mu);
    uint64_t oldest = oldest_of(r);
    if (seq < oldest) {
        gap->first_seq = seq;
        gap->count = oldest - seq;
        gap->t0_ns = 0;
        gap->t1_ns = r->evicted_t;
        out->n = 0;
        pthread_mutex_unlock(&r->mu);
        return 1;
    }
    uint64_t avail = seq < r->next ? r->next - seq : 0;
    uint32_t n = out->n < max ? out->n : max;
    if (avail < n)
        n = (uint32_t)avail;
    out->first_seq = seq;
    out->n = n;
    for (uint32_t k = 0; k < n; k++) {
        size_t slot = (size_t)((seq + k) % r->cap);
        out->t_ns[k] = r->t_ns[slot];
        out->flags[k] = r->flags[slot];
        out->missed[k] = r->missed[slot];
        memcpy(out->values + (size_t)k * r->nc, r->values + slot * r->nc, r->nc * sizeof *r->values);
    }
    pthread_mutex_unlock(&r->mu);
    return 0;
}
