/* The device-side llk_perf API: per-thread slots and data areas in L1,
 * three threads against one set of banks, the scoped form, undefined L1
 * results in the data area, and misuse. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "models/tensix/tensix_model.h"
#include "socmon/tensix.h"
#include "llk_perf_counters.h"

#define REGS LLK_PERF_REGS_BASE

typedef struct fx {
    socmon_tensix_core *c;
    socmon_bus *bus;
    socmon_tensix_drv *d;
} fx;

static int setup(void **state)
{
    static fx f;
    memset(&f, 0, sizeof f);
    if (smn_tensix_core_new(NULL, &f.c) != SOCMON_OK || socmon_bus_model_new(&f.bus) != SOCMON_OK ||
        smn_tensix_core_map(f.c, f.bus, REGS, 0) != SOCMON_OK ||
        socmon_tensix_drv_new(f.bus, REGS, 0, &f.d) != SOCMON_OK)
        return -1;
    uint32_t w[86];
    size_t n = socmon_tensix_default_slots(w, 86);
    for (unsigned t = 0; t < 3; t++)
        if (socmon_tensix_drv_store_config(f.d, t, w, n) != SOCMON_OK)
            return -1;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_tensix_drv_free(f->d);
    socmon_bus_free(f->bus);
    smn_tensix_core_free(f->c);
    return 0;
}

static uint32_t l1(fx *f, uint32_t addr)
{
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(f->bus, addr, &v), SOCMON_OK);
    return v;
}

/* All three threads start, the kernel runs, all three stop: each thread's
 * data area holds (cycles, count) pairs of its valid slots, in slot order.
 * The first stop freezes the banks, so every thread sees the same values. */
static void test_three_threads(void **state)
{
    fx *f = *state;
    llk_perf_counters pc[3];
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(llk_perf_init(&pc[t], f->bus, REGS, 0, t), SOCMON_OK);
        assert_int_equal(llk_perf_start(&pc[t]), SOCMON_OK);
    }
    assert_int_equal(socmon_tensix_core_kernel_start(f->c), SOCMON_OK);
    int done = 0;
    while (!done)
        assert_int_equal(socmon_tensix_core_advance(f->c, 1000, &done), SOCMON_OK);
    const llk_perf_counter_result *r[3];
    size_t n[3];
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(llk_perf_stop(&pc[t], &r[t], &n[t]), SOCMON_OK);
        assert_int_equal(n[t], 86);
        socmon_tensix_core_advance(f->c, 500, NULL);   /* later stops see frozen banks */
    }
    for (unsigned t = 0; t < 3; t++) {
        uint32_t data = socmon_tensix_data_addr(t);
        for (size_t k = 0; k < 86; k++) {
            assert_int_equal(l1(f, data + 8 * k), r[t][k].cycles);
            assert_int_equal(l1(f, data + 8 * k + 4), r[t][k].count);
            assert_int_equal(r[t][k].cycles, r[0][k].cycles);
            assert_int_equal(r[t][k].count, r[0][k].count);
        }
        llk_perf_release(&pc[t]);
        llk_perf_release(&pc[t]);   /* twice is fine */
    }
    assert_int_equal(r[0][63].bank, LLK_PERF_FPU);
    assert_int_equal(r[0][63].counter_id, 257);
    assert_true(r[0][63].count > 0);
}

static void scoped_kernel(fx *f, uint64_t cycles)
{
    LLK_PERF_SCOPED(pc, f->bus, REGS, 0, LLK_PERF_THREAD_MATH);
    assert_int_equal(pc.status, SOCMON_OK);
    assert_true(pc.started);
    socmon_tensix_core_advance(f->c, cycles, NULL);
}

/* The scoped form stops when the variable leaves scope and writes L1. */
static void test_scoped(void **state)
{
    fx *f = *state;
    assert_int_equal(socmon_tensix_core_kernel_start(f->c), SOCMON_OK);
    scoped_kernel(f, 777);
    uint32_t data = socmon_tensix_data_addr(LLK_PERF_THREAD_MATH);
    assert_int_equal(l1(f, data), 777);            /* slot 0 cycles */
    assert_int_equal(l1(f, data + 8 * 85), 777);   /* last L1 slot cycles */
    assert_int_equal(l1(f, socmon_tensix_data_addr(0)), 0);   /* other threads untouched */
}

/* Undefined L1 results: EUNDEF, entries marked, all-ones pairs in L1. */
static void test_undefined_in_l1(void **state)
{
    fx *f = *state;
    llk_perf_counters pc;
    assert_int_equal(llk_perf_init(&pc, f->bus, REGS, 0, 0), SOCMON_OK);
    assert_int_equal(llk_perf_start(&pc), SOCMON_OK);
    socmon_bus_write32(f->bus, REGS + 0x218, 0x10);
    socmon_clear_error();
    assert_int_equal(llk_perf_stop(&pc, NULL, NULL), SOCMON_EUNDEF);
    assert_non_null(strstr(socmon_errmsg(), "thread UNPACK"));
    assert_non_null(strstr(socmon_errmsg(), "slot 78"));
    uint32_t data = socmon_tensix_data_addr(0);
    for (size_t k = 0; k < 86; k++) {
        int l1bank = pc.results[k].bank == LLK_PERF_L1;
        assert_int_equal(pc.results[k].undefined, l1bank);
        if (l1bank) {
            assert_int_equal(l1(f, data + 8 * k), 0xFFFFFFFFu);
            assert_int_equal(l1(f, data + 8 * k + 4), 0xFFFFFFFFu);
        }
    }
    assert_int_equal(pc.status, SOCMON_EUNDEF);
    llk_perf_release(&pc);
}

static void test_misuse(void **state)
{
    fx *f = *state;
    llk_perf_counters pc;
    assert_int_equal(llk_perf_init(&pc, f->bus, REGS, 0, 3), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread 3"));
    assert_int_equal(llk_perf_start(&pc), SOCMON_ESTATE);
    assert_int_equal(llk_perf_init(&pc, NULL, REGS, 0, 0), SOCMON_EINVAL);
    assert_int_equal(llk_perf_init(&pc, f->bus, REGS, 0, 1), SOCMON_OK);
    assert_int_equal(llk_perf_stop(&pc, NULL, NULL), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "not started"));
    /* A bad slot in L1: start fails naming the thread and the slot. */
    socmon_bus_write32(f->bus, socmon_tensix_config_addr(1) + 4 * 12, 0x80000009u);
    assert_int_equal(llk_perf_start(&pc), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread MATH"));
    assert_non_null(strstr(socmon_errmsg(), "slot 12"));
    llk_perf_release(&pc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_three_threads, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scoped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undefined_in_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_misuse, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
