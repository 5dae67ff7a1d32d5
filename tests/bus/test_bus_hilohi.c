/* hi-lo-hi: a 64-bit counter split over two 32-bit registers, read while it counts.
 *
 * The property: every value socmon_bus_read64_hilohi returns lies between the
 * counter's value before and after the call. A read torn across a lo->hi carry
 * is off by 2^32 and falls outside that range. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <sched.h>
#include <time.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "socmon/bus.h"

#define LO 0x10u
#define HI 0x14u

/* A counter that advances by step after every register access, as hardware
 * does between two bus reads. */
typedef struct ticking {
    uint64_t ctr, step;
    int fail_hi;  /* make reads of HI fail */
} ticking;

static socmon_status tick_read(void *priv, uint64_t addr, uint32_t *val)
{
    ticking *t = priv;
    if (addr == HI && t->fail_hi)
        return SOCMON_EIO;
    if (addr == LO)
        *val = (uint32_t)t->ctr;
    else if (addr == HI)
        *val = (uint32_t)(t->ctr >> 32);
    else
        return SOCMON_EIO;
    t->ctr += t->step;
    return SOCMON_OK;
}

static socmon_status tick_write(void *priv, uint64_t addr, uint32_t val)
{
    return SOCMON_EIO;
}

static const socmon_bus_ops tick_ops = {.read32 = tick_read, .write32 = tick_write};

static uint64_t rng_state = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    /* xorshift64*: deterministic, so a failure reproduces */
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 0x2545f4914f6cdd1dull;
}

static socmon_bus *tick_bus(ticking *t)
{
    socmon_bus *bus;
    assert_int_equal(socmon_bus_new("ticking", &tick_ops, t, &bus), SOCMON_OK);
    return bus;
}

/* Start values placed so the carry lands at each access of the read in turn
 * (before hi1, between hi1 and lo, between lo and hi2, after hi2). */
static void test_carry_at_every_access(void **state)
{
    ticking t = {0};
    socmon_bus *bus = tick_bus(&t);
    for (uint64_t step = 1; step <= (1u << 20); step = step * 7 + 1) {
        for (uint64_t j = 0; j <= 6; j++) {
            uint64_t start = ((uint64_t)0x1234 << 32) + 0x100000000ull - j * step;
            t.ctr = start;
            t.step = step;
            uint64_t v;
            assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 0, &v), SOCMON_OK);
            assert_true(v >= start);
            assert_true(v <= t.ctr);
        }
    }
    socmon_bus_free(bus);
}

static void test_random_starts_never_off_by_2_32(void **state)
{
    ticking t = {0};
    socmon_bus *bus = tick_bus(&t);
    unsigned retried = 0;
    for (int i = 0; i < 200000; i++) {
        t.step = 1 + rnd() % (1u << 20);
        uint64_t start = rnd() >> 1; /* far from 2^64, so before <= after holds */
        if (i % 2) /* half the trials start just below a carry */
            start = (start & ~0xffffffffull) | (0xffffffffull - rnd() % (4 * t.step));
        t.ctr = start;
        socmon_bus_stats_reset(bus);
        uint64_t v;
        assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 0, &v), SOCMON_OK);
        if (v < start || v > t.ctr)
            fail_msg("start 0x%llx step %llu: got 0x%llx, after 0x%llx", (unsigned long long)start,
                     (unsigned long long)t.step, (unsigned long long)v,
                     (unsigned long long)t.ctr);
        socmon_bus_stats s;
        socmon_bus_stats_get(bus, &s);
        retried += s.reads > 3;
    }
    /* the carries really happened, so the retry path was exercised */
    assert_true(retried > 10000);
    socmon_bus_free(bus);
}

/* The same bus read naively (lo, then hi) does tear: the checker above would catch it. */
static void test_naive_read_does_tear(void **state)
{
    ticking t = {.ctr = 0x00000005ffffffffull, .step = 1};
    socmon_bus *bus = tick_bus(&t);
    uint64_t start = t.ctr;
    uint32_t lo, hi;
    assert_int_equal(socmon_bus_read32(bus, LO, &lo), SOCMON_OK);
    assert_int_equal(socmon_bus_read32(bus, HI, &hi), SOCMON_OK);
    uint64_t naive = ((uint64_t)hi << 32) | lo;
    assert_true(naive > t.ctr);
    assert_int_equal(naive - start, 0x100000000ull);
    socmon_bus_free(bus);
}

static void test_unstable_hi_gives_eagain(void **state)
{
    ticking t = {.ctr = 42, .step = 0x100000000ull}; /* hi changes on every access */
    socmon_bus *bus = tick_bus(&t);
    uint64_t v = 7;
    assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 0, &v), SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "0x14"));
    assert_non_null(strstr(socmon_errmsg(), "8 tries"));
    assert_int_equal(v, 7); /* untouched on failure */

    socmon_bus_stats_reset(bus);
    assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 3, &v), SOCMON_EAGAIN);
    assert_non_null(strstr(socmon_errmsg(), "3 tries"));
    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_true(s.reads >= 2 * 3 && s.reads <= 3 * 3);
    socmon_bus_free(bus);
}

static void test_bus_error_propagates(void **state)
{
    ticking t = {.ctr = 1, .step = 1, .fail_hi = 1};
    socmon_bus *bus = tick_bus(&t);
    uint64_t v;
    assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 0, &v), SOCMON_EIO);
    assert_int_equal(socmon_bus_read64_hilohi(bus, LO, HI, 0, NULL), SOCMON_EINVAL);
    socmon_bus_free(bus);
}

/* ---- a real writer thread, through the mmio bus ---- */

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define WORD_LO 12u
#define WORD_HI 8u
#else
#define WORD_LO 8u
#define WORD_HI 12u
#endif
#define STEP 0x01000001ull /* a carry every 256 increments */

typedef struct writer {
    uint64_t *word; /* the counter, 8-byte aligned at file offset 8 */
    int stop;
} writer;

/* Like hardware, the 64-bit value changes in one step; only the reader's two
 * 32-bit loads can split it. */
static void *writer_main(void *arg)
{
    writer *w = arg;
    uint64_t v = __atomic_load_n(w->word, __ATOMIC_RELAXED);
    while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
        v += STEP;
        __atomic_store_n(w->word, v, __ATOMIC_RELEASE);
    }
    return NULL;
}

static void test_concurrent_writer_never_torn(void **state)
{
    char path[] = "/tmp/socmon-test-hilohi-XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 4096), 0);
    void *map = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    close(fd);
    assert_true(map != MAP_FAILED);
    writer w = {.word = (uint64_t *)((char *)map + 8)};
    uint64_t start = 0x00000007ff000000ull;
    *w.word = start;

    socmon_bus *bus;
    assert_int_equal(socmon_bus_mmio_open(path, 0, 4096, &bus), SOCMON_OK);
    unlink(path);
    pthread_t th;
    assert_int_equal(pthread_create(&th, NULL, writer_main, &w), 0);
    /* On a loaded machine the writer may start late: wait for it, then read
     * until it has crossed enough carries while we were reading. */
    while (__atomic_load_n(w.word, __ATOMIC_ACQUIRE) == start)
        sched_yield();
    uint64_t hi0 = __atomic_load_n(w.word, __ATOMIC_ACQUIRE) >> 32;
    time_t t_end = time(NULL) + 30;

    unsigned again = 0, naive_torn = 0;
    const int n = 200000;
    int i;
    for (i = 0; i < n || ((__atomic_load_n(w.word, __ATOMIC_ACQUIRE) >> 32) - hi0 < 1000 &&
                          time(NULL) < t_end);
         i++) {
        uint64_t before = __atomic_load_n(w.word, __ATOMIC_ACQUIRE), v;
        socmon_status st = socmon_bus_read64_hilohi(bus, WORD_LO, WORD_HI, 0, &v);
        uint64_t after = __atomic_load_n(w.word, __ATOMIC_ACQUIRE);
        if (st == SOCMON_EAGAIN) { /* a legitimate outcome under contention; a caller retries */
            again++;
            continue;
        }
        assert_int_equal(st, SOCMON_OK);
        if (v < before || v > after || (v - start) % STEP != 0)
            fail_msg("torn: before 0x%llx got 0x%llx after 0x%llx", (unsigned long long)before,
                     (unsigned long long)v, (unsigned long long)after);
        /* for the record: what a lo-then-hi read would have given */
        uint32_t lo, hi;
        before = __atomic_load_n(w.word, __ATOMIC_ACQUIRE);
        socmon_bus_read32(bus, WORD_LO, &lo);
        socmon_bus_read32(bus, WORD_HI, &hi);
        after = __atomic_load_n(w.word, __ATOMIC_ACQUIRE);
        uint64_t nv = ((uint64_t)hi << 32) | lo;
        naive_torn += nv < before || nv > after;
    }
    __atomic_store_n(&w.stop, 1, __ATOMIC_RELEASE);
    pthread_join(th, NULL);
    uint64_t carries = (*w.word >> 32) - hi0;
    printf("# concurrent hi-lo-hi: %d reads, %u gave up (EAGAIN), %u naive lo/hi reads torn, "
           "%llu carries by the writer while reading\n",
           i, again, naive_torn, (unsigned long long)carries);
    assert_true(again < (unsigned)i / 10);
    assert_true(carries >= 1000); /* the reads really raced with carries */
    socmon_bus_free(bus);
    munmap(map, 4096);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_carry_at_every_access),
        cmocka_unit_test(test_random_starts_never_off_by_2_32),
        cmocka_unit_test(test_naive_read_does_tear),
        cmocka_unit_test(test_unstable_hi_gives_eagain),
        cmocka_unit_test(test_bus_error_propagates),
        cmocka_unit_test(test_concurrent_writer_never_torn),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
