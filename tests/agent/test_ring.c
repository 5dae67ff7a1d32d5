/* The agent's sample ring: sequence numbers across wraps, reads by cursor,
 * the gap a late reader gets, and the producer's backpressure wait. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "agent/ring.h"

enum { NC = 3, CAP = 8 };

static void push_n(ring *r, uint64_t from, uint64_t n)
{
    uint64_t v[NC];
    for (uint64_t k = from; k < from + n; k++) {
        for (int i = 0; i < NC; i++)
            v[i] = k * 10 + (uint64_t)i;
        socmon_sample s = {.t_ns = k * 1000, .flags = (uint32_t)(k & 1), .missed = 0, .n = NC, .v = v};
        assert_true(ring_push(r, &s) == k);
    }
}

typedef struct block {
    uint64_t t[CAP], v[CAP * NC];
    uint32_t f[CAP], m[CAP];
    wire_samples s;
} block;

static wire_samples *blk(block *b)
{
    b->s = (wire_samples){0, CAP, NC, b->t, b->f, b->m, b->v};
    return &b->s;
}

static void test_wrap_and_cursor(void **state)
{
    (void)state;
    ring *r;
    assert_int_equal(ring_new(CAP, NC, 0, &r), SOCMON_OK);
    block b;
    wire_gap g;
    assert_int_equal(ring_read(r, 0, CAP, blk(&b), &g), 0);
    assert_int_equal(b.s.n, 0);   /* nothing yet */
    push_n(r, 0, 5);
    assert_int_equal(ring_read(r, 2, 2, blk(&b), &g), 0);
    assert_int_equal(b.s.n, 2);
    assert_true(b.s.first_seq == 2 && b.t[0] == 2000 && b.t[1] == 3000 && b.v[NC + 2] == 32 && b.f[1] == 1);
    /* 13 pushed into 8 slots: 5..12 remain, across the wrap */
    push_n(r, 5, 8);
    ring_state rs;
    ring_get_state(r, &rs);
    assert_true(rs.oldest == 5 && rs.next == 13 && !rs.ended);
    assert_int_equal(ring_read(r, 5, CAP, blk(&b), &g), 0);
    assert_int_equal(b.s.n, 8);
    for (uint64_t k = 0; k < 8; k++)
        assert_true(b.t[k] == (5 + k) * 1000 && b.v[k * NC + 1] == (5 + k) * 10 + 1);
    /* a reader at 2 lost 2..4: a gap, with the last lost sample's time */
    assert_int_equal(ring_read(r, 2, CAP, blk(&b), &g), 1);
    assert_true(g.first_seq == 2 && g.count == 3 && g.t1_ns == 4000);
    assert_int_equal(b.s.n, 0);
    /* reading at next: nothing; past the end of what is there: only what is there */
    assert_int_equal(ring_read(r, 13, CAP, blk(&b), &g), 0);
    assert_int_equal(b.s.n, 0);
    assert_int_equal(ring_read(r, 11, CAP, blk(&b), &g), 0);
    assert_int_equal(b.s.n, 2);
    ring_end(r, 0, "workload done");
    ring_get_state(r, &rs);
    assert_true(rs.ended && rs.end_status == 0);
    assert_string_equal(rs.end_reason, "workload done");
    ring_free(r);
}

static void test_first_seq_and_overwritten(void **state)
{
    (void)state;
    ring *r;
    assert_int_equal(ring_new(4, NC, 100, &r), SOCMON_OK);
    block b;
    wire_gap g;
    push_n(r, 100, 2);
    ring_state rs;
    ring_get_state(r, &rs);
    assert_true(rs.oldest == 100 && rs.next == 102);
    /* a reader from before the ring began: all before 100 is a gap */
    assert_int_equal(ring_read(r, 90, 4, blk(&b), &g), 1);
    assert_true(g.first_seq == 90 && g.count == 10);
    /* a reader at 101 holds the floor: overwriting 101 counts as lost to it */
    ring_set_floor(r, 101);
    push_n(r, 102, 3);   /* 105 pushed: 101 is gone */
    ring_get_state(r, &rs);
    assert_true(rs.oldest == 101 && rs.overwritten == 0);
    push_n(r, 105, 1);
    ring_get_state(r, &rs);
    assert_true(rs.oldest == 102 && rs.overwritten == 1);
    ring_free(r);
    assert_int_equal(ring_new(1, NC, 0, &r), SOCMON_EINVAL);
    assert_int_equal(ring_new(4, 0, 0, &r), SOCMON_EINVAL);
    assert_int_equal(ring_new(SIZE_MAX / 4, 4, 0, &r), SOCMON_ERANGE);
}

/* A ring built for a CONFIG continues an older one: a GAP over the old samples ends at the old
 * ring's last time (it used to say 0, before the gap's start). */
static void test_config_ring_keeps_time(void **state)
{
    (void)state;
    ring *old, *r;
    assert_int_equal(ring_new(4, NC, 0, &old), SOCMON_OK);
    push_n(old, 0, 10);
    ring_state rs;
    ring_get_state(old, &rs);
    assert_true(rs.next == 10 && rs.last_t_ns == 9000);
    assert_int_equal(ring_new(4, NC, 10, &r), SOCMON_OK);
    ring_set_start_time(r, rs.last_t_ns);
    ring_free(old);
    ring_get_state(r, &rs);
    assert_true(rs.last_t_ns == 9000);
    block b;
    wire_gap g;
    assert_int_equal(ring_read(r, 7, 4, blk(&b), &g), 1);
    assert_true(g.first_seq == 7 && g.count == 3 && g.t1_ns == 9000);
    push_n(r, 10, 1);
    ring_get_state(r, &rs);
    assert_true(rs.last_t_ns == 10000);
    ring_free(r);
}

typedef struct producer {
    ring *r;
    atomic_int pushed;
} producer;

static void *produce(void *arg)
{
    producer *p = arg;
    uint64_t v[NC] = {0};
    for (uint64_t k = 0; k < 3 * CAP; k++) {
        socmon_sample s = {.t_ns = k, .flags = 0, .missed = 0, .n = NC, .v = v};
        ring_push(p->r, &s);
        atomic_fetch_add(&p->pushed, 1);
    }
    return NULL;
}

/* With wait on, a producer never overwrites what the floor still needs:
 * a reader that takes every sample, however slowly, loses none. */
static void test_backpressure_loses_nothing(void **state)
{
    (void)state;
    producer p = {0};
    assert_int_equal(ring_new(CAP, NC, 0, &p.r), SOCMON_OK);
    ring_set_wait(p.r, 1);
    ring_set_floor(p.r, 0);
    pthread_t th;
    pthread_create(&th, NULL, produce, &p);
    block b;
    wire_gap g;
    uint64_t cursor = 0;
    while (cursor < 3 * CAP) {
        int gap = ring_read(p.r, cursor, 3, blk(&b), &g);   /* small reads: the producer often waits */
        assert_int_equal(gap, 0);
        for (uint32_t k = 0; k < b.s.n; k++)
            assert_true(b.t[k] == cursor + k);
        cursor += b.s.n;
        ring_set_floor(p.r, cursor);
        /* the producer can be at most one ring ahead of the floor */
        assert_true((uint64_t)atomic_load(&p.pushed) <= cursor + CAP);
    }
    pthread_join(th, NULL);
    ring_state rs;
    ring_get_state(p.r, &rs);
    assert_true(rs.next == 3 * CAP && rs.overwritten == 0);
    ring_free(p.r);
}

/* ring_stop releases a producer waiting on a reader that never moves. */
static void test_stop_releases_producer(void **state)
{
    (void)state;
    producer p = {0};
    assert_int_equal(ring_new(CAP, NC, 0, &p.r), SOCMON_OK);
    ring_set_wait(p.r, 1);
    ring_set_floor(p.r, 0);
    pthread_t th;
    pthread_create(&th, NULL, produce, &p);
    /* wait (on the condition, not on time) until it is blocked: CAP pushed and no more can be */
    while (atomic_load(&p.pushed) < CAP)
        sched_yield();
    assert_int_equal(atomic_load(&p.pushed), CAP);
    ring_stop(p.r);
    pthread_join(th, NULL);
    assert_int_equal(atomic_load(&p.pushed), 3 * CAP);
    ring_free(p.r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_wrap_and_cursor),
        cmocka_unit_test(test_first_seq_and_overwritten),
        cmocka_unit_test(test_config_ring_keeps_time),
        cmocka_unit_test(test_backpressure_loses_nothing),
        cmocka_unit_test(test_stop_releases_producer),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
