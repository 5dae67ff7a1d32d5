/* socmon/tensix.h as a user writing their own driver would use it. A core
 * model on a model bus (the fixture builds it with the model's internal
 * constructor, so that L1 can sit where this test puts it; a user opens the
 * "tensix" target instead), driven with raw register writes taken from
 * docs/tensix.md's register map, then with the driver's public thread calls; turn the kernel knob and see the counts follow;
 * compare everything with the model's ground truth. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "socmon/bus.h"
#include "socmon/tensix.h"
#include "tensix/tensix_fixture.h"

#define REGS SOCMON_TENSIX_REGS_BASE
#define L1 0x40000000ull   /* anywhere the user likes */

/* The FPU bank's registers as docs/tensix.md lists them. */
#define FPU_REF 0x018u
#define FPU_MODE 0x01Cu
#define FPU_CTRL 0x020u
#define FPU_OUT_L 0x120u
#define FPU_OUT_H 0x124u

static int setup(void **state)
{
    static fx f;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    if (socmon_tensix_kernel_params_set(&p, "tiles", "32") != SOCMON_OK ||
        socmon_tensix_kernel_params_set(&p, "platform", "blackhole") != SOCMON_OK || fx_open(&f, &p, L1, 0))
        return -1;
    *state = &f;
    return 0;
}

static uint64_t kernel_cycles(fx *f)
{
    socmon_tensix_stage_costs k;
    assert_int_equal(socmon_tensix_kernel_costs(socmon_tensix_core_params(f->c), &k), SOCMON_OK);
    assert_true(k.total > 0);
    return k.total;
}

/* The user's own driver: start the FPU bank (mode 0, select counter id), run
 * the kernel, stop, read OUT_L/OUT_H. Returns the count; *cycles the window. */
static uint32_t raw_measure(fx *f, unsigned counter_id, uint32_t *cycles, uint64_t *truth)
{
    const socmon_tensix_event *e = socmon_tensix_event_find(SOCMON_TENSIX_BANK_FPU, counter_id, 0);
    assert_non_null(e);
    uint64_t before = socmon_tensix_core_signal(f->c, e->bank, e->counter_id, 0);
    wr(f, FPU_REF, 0xFFFFFFFFu);
    wr(f, FPU_MODE, counter_id << 8);
    wr(f, FPU_CTRL, 0);
    wr(f, FPU_CTRL, 1);
    assert_int_equal(socmon_tensix_core_kernel_start(f->c), SOCMON_OK);
    int done = 0;
    assert_int_equal(socmon_tensix_core_advance(f->c, kernel_cycles(f), &done), SOCMON_OK);
    assert_int_equal(done, 1);
    wr(f, FPU_CTRL, 0);
    wr(f, FPU_CTRL, 2);
    *truth = socmon_tensix_core_signal(f->c, e->bank, e->counter_id, 0) - before;
    *cycles = rd(f, FPU_OUT_L);
    return rd(f, FPU_OUT_H);
}

static void test_raw_registers_count_the_kernel(void **state)
{
    fx *f = *state;
    const socmon_tensix_event *e = socmon_tensix_event_by_name("FPU_INSTRUCTION");
    assert_non_null(e);
    uint32_t cycles;
    uint64_t truth;
    uint32_t count = raw_measure(f, e->counter_id, &cycles, &truth);
    assert_int_equal(cycles, kernel_cycles(f));
    assert_true(truth > 0);
    assert_int_equal(count, truth);
    assert_true(count <= cycles);
    /* Stopped: more time changes nothing. */
    assert_int_equal(socmon_tensix_core_advance(f->c, 5000, NULL), SOCMON_OK);
    assert_int_equal(rd(f, FPU_OUT_L), cycles);
    assert_int_equal(rd(f, FPU_OUT_H), count);
}

/* The kernel knob: a matmul keeps the SFPU idle, the sfpu kernel does not,
 * and the FPU_OR_SFPU counter covers both. */
static void test_kernel_knob_moves_counts(void **state)
{
    fx *f = *state;
    unsigned sfpu = socmon_tensix_event_by_name("SFPU_INSTRUCTION")->counter_id;
    unsigned any = socmon_tensix_event_by_name("FPU_OR_SFPU_INSTRN")->counter_id;
    uint32_t cycles;
    uint64_t truth;
    assert_int_equal(socmon_tensix_core_set_kernel(f->c, SOCMON_TENSIX_KERNEL_MATMUL), SOCMON_OK);
    uint32_t matmul_sfpu = raw_measure(f, sfpu, &cycles, &truth);
    assert_int_equal(matmul_sfpu, truth);
    assert_int_equal(socmon_tensix_core_set_kernel(f->c, SOCMON_TENSIX_KERNEL_SFPU), SOCMON_OK);
    uint32_t sfpu_sfpu = raw_measure(f, sfpu, &cycles, &truth);
    assert_int_equal(sfpu_sfpu, truth);
    assert_true(sfpu_sfpu > matmul_sfpu);
    uint32_t sfpu_any = raw_measure(f, any, &cycles, &truth);
    assert_int_equal(sfpu_any, truth);
    assert_true(sfpu_any >= sfpu_sfpu);
}

/* socmon's driver on the same bus, as a kernel thread calls it: the default 86
 * slots in the MATH thread's L1, thread start, kernel, thread stop; every
 * result equals the model's truth for the window, and stop wrote each
 * (cycles, count) pair to the thread's L1 data area. */
static void test_driver_calls(void **state)
{
    fx *f = *state;
    socmon_tensix_drv *d;
    assert_int_equal(socmon_tensix_drv_new(f->bus, REGS, L1, &d), SOCMON_OK);
    uint32_t w[SOCMON_TENSIX_CONFIG_WORDS], back[SOCMON_TENSIX_CONFIG_WORDS];
    size_t n = socmon_tensix_default_slots(w, SOCMON_TENSIX_CONFIG_WORDS);
    assert_int_equal(n, SOCMON_TENSIX_CONFIG_WORDS);
    assert_int_equal(socmon_tensix_drv_store_config(d, SOCMON_TENSIX_THREAD_MATH, w, n), SOCMON_OK);
    assert_int_equal(socmon_tensix_drv_load_config(d, SOCMON_TENSIX_THREAD_MATH, back), SOCMON_OK);
    assert_memory_equal(w, back, sizeof w);
    /* The config sits where the guide puts it, seen through raw L1 reads. */
    uint32_t word;
    assert_int_equal(socmon_bus_read32(f->bus, L1 + socmon_tensix_config_addr(SOCMON_TENSIX_THREAD_MATH), &word),
                     SOCMON_OK);
    assert_int_equal(word, w[0]);

    uint64_t before[SOCMON_TENSIX_CONFIG_WORDS];
    for (size_t i = 0; i < n; i++) {
        socmon_tensix_slot s;
        socmon_tensix_slot_decode(w[i], &s);
        before[i] = socmon_tensix_core_signal(f->c, s.bank, s.counter_id, s.l1_mux);
    }
    uint32_t started[SOCMON_TENSIX_CONFIG_WORDS] = {0};
    assert_int_equal(socmon_tensix_drv_thread_start(d, SOCMON_TENSIX_THREAD_MATH, started), SOCMON_OK);
    assert_memory_equal(started, w, sizeof w);
    assert_int_equal(socmon_tensix_core_kernel_start(f->c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(f->c, kernel_cycles(f), NULL), SOCMON_OK);
    socmon_tensix_result res[SOCMON_TENSIX_CONFIG_WORDS];
    size_t nres = 0;
    assert_int_equal(socmon_tensix_drv_thread_stop(d, SOCMON_TENSIX_THREAD_MATH, started, res,
                                                   SOCMON_TENSIX_CONFIG_WORDS, &nres), SOCMON_OK);
    assert_int_equal(nres, n);
    unsigned nonzero = 0;
    for (size_t i = 0; i < nres; i++) {
        uint64_t truth = socmon_tensix_core_signal(f->c, res[i].bank, res[i].counter_id, res[i].l1_mux) -
                         before[res[i].slot];
        assert_int_equal(res[i].undefined, 0);
        assert_int_equal(res[i].count, truth);
        assert_true(res[i].count <= res[i].cycles);
        nonzero += res[i].count > 0;
        uint32_t pair[2];
        uint64_t data = L1 + socmon_tensix_data_addr(SOCMON_TENSIX_THREAD_MATH) + 8 * i;
        assert_int_equal(socmon_bus_read32(f->bus, data, &pair[0]), SOCMON_OK);
        assert_int_equal(socmon_bus_read32(f->bus, data + 4, &pair[1]), SOCMON_OK);
        assert_int_equal(pair[0], res[i].cycles);
        assert_int_equal(pair[1], res[i].count);
    }
    assert_true(nonzero > n / 2);

    /* Errors name the bad value. */
    assert_int_equal(socmon_tensix_drv_thread_start(d, 7, started), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread 7"));
    assert_int_equal(socmon_tensix_drv_thread_stop(d, 3, started, res, SOCMON_TENSIX_CONFIG_WORDS, &nres),
                     SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread 3"));
    assert_int_equal(socmon_tensix_slot_check(3, 0x80000007u, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 3"));
    socmon_tensix_drv_free(d);
}

/* The facts a user needs to write slots and read the L1 buffers. */
static void test_facts(void **state)
{
    (void)state;
    assert_int_equal(socmon_tensix_nevents(), 94);
    assert_string_equal(socmon_tensix_bank_name(SOCMON_TENSIX_BANK_TDMA_UNPACK), "TDMA_UNPACK");
    assert_string_equal(socmon_tensix_bank_instance(SOCMON_TENSIX_BANK_L1), "l1");
    unsigned b = 99;
    assert_int_equal(socmon_tensix_bank_by_name("fpu", &b), SOCMON_OK);
    assert_int_equal(b, SOCMON_TENSIX_BANK_FPU);
    assert_int_equal(socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_L1, 0, 1), 0x80020003u);
    assert_int_equal(socmon_tensix_data_addr(SOCMON_TENSIX_THREAD_PACK), 0x16A968u);
    const socmon_tensix_event *e = socmon_tensix_event_find(SOCMON_TENSIX_BANK_L1, 7, 1);
    assert_non_null(e);
    assert_string_equal(e->name, "TDMA_PACKER_2_WR");
    assert_ptr_equal(socmon_tensix_event_at(93), e);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_raw_registers_count_the_kernel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_kernel_knob_moves_counts, setup, teardown),
        cmocka_unit_test_setup_teardown(test_driver_calls, setup, teardown),
        cmocka_unit_test(test_facts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
