/* The Tensix register model: map, rising edges, modes, reference period,
 * clearing, counter_sel, PERF_CNT_ALL, the L1 mux latch and its violation. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "hw/tensix_bank.h"
#include "models/tensix/tensix_internal.h"
#include "socmon/tensix.h"
#include "tensix/tensix_fixture.h"
#include "socmon/bus.h"

#define REGS SOCMON_TENSIX_REGS_BASE
#define L1 0x0ull

static int setup(void **state)
{
    static fx f;
    if (fx_open(&f, NULL, L1, 1))
        return -1;
    *state = &f;
    return 0;
}

static void run(fx *f, uint64_t cycles)
{
    assert_int_equal(socmon_tensix_core_advance(f->c, cycles, NULL), SOCMON_OK);
}

static const tensix_bank_regs *B(unsigned b)
{
    return tensix_bank(b);
}

static void sel(fx *f, unsigned b, unsigned id)
{
    wr(f, B(b)->mode, id << 8);
}

static void start(fx *f, unsigned b)
{
    wr(f, B(b)->ctrl, 0);
    wr(f, B(b)->ctrl, 1);
}

static void stop(fx *f, unsigned b)
{
    wr(f, B(b)->ctrl, 0);
    wr(f, B(b)->ctrl, 2);
}

static uint32_t out_l(fx *f, unsigned b)
{
    return rd(f, B(b)->out_l);
}

static uint32_t out_h(fx *f, unsigned b)
{
    return rd(f, B(b)->out_h);
}

/* The guide's register map, absolute on Wormhole/Blackhole. */
static void test_register_map(void **state)
{
    (void)state;
    static const struct { unsigned bank; uint32_t ctrl, l, h; } map[] = {
        {SOCMON_TENSIX_BANK_INSTRN_THREAD, 0x000, 0x100, 0x104},
        {SOCMON_TENSIX_BANK_TDMA_UNPACK, 0x00C, 0x108, 0x10C},
        {SOCMON_TENSIX_BANK_FPU, 0x018, 0x120, 0x124},
        {SOCMON_TENSIX_BANK_L1, 0x030, 0x118, 0x11C},
        {SOCMON_TENSIX_BANK_TDMA_PACK, 0x0F0, 0x110, 0x114},
    };
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++) {
        assert_int_equal(B(map[i].bank)->ref, map[i].ctrl);
        assert_int_equal(B(map[i].bank)->out_l, map[i].l);
        assert_int_equal(B(map[i].bank)->out_h, map[i].h);
    }
    assert_int_equal(A_TENSIX_PERF_CNT_ALL, 0x03C);
    assert_int_equal(A_TENSIX_PERF_CNT_MUX_CTRL, 0x218);
    assert_int_equal(SOCMON_TENSIX_REGS_BASE, 0xFFB12000ull);
    assert_null(tensix_bank(5));
}

/* Reference period, mode and control registers hold what is written, at
 * their own addresses; OUT registers ignore writes. */
static void test_registers_read_back(void **state)
{
    fx *f = *state;
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
        wr(f, B(b)->ref, 0x1000 + b);
        wr(f, B(b)->mode, 0x2000 + b);
    }
    for (unsigned b = 0; b < SOCMON_TENSIX_NBANKS; b++) {
        assert_int_equal(rd(f, B(b)->ref), 0x1000 + b);
        assert_int_equal(rd(f, B(b)->mode), 0x2000 + b);
        wr(f, B(b)->out_l, 1234);
        assert_int_equal(out_l(f, b), 0);
    }
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 0x10);
    assert_int_equal(rd(f, A_TENSIX_PERF_CNT_MUX_CTRL), 0x10);
}

/* Mode 0: OUT_L is exactly the elapsed cycles; OUT_H the selected counter's
 * events in the window, as the kernel model counted them. */
static void test_mode0_counts_window(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_FPU;
    run(f, 100);
    wr(f, B(b)->mode, 0);
    uint64_t s0 = socmon_tensix_core_signal(f->c, b, 257, 0);
    start(f, b);
    run(f, 1000);
    uint64_t s1 = socmon_tensix_core_signal(f->c, b, 257, 0);
    stop(f, b);
    run(f, 500);
    assert_int_equal(out_l(f, b), 1000);
    sel(f, b, 257);
    assert_int_equal(out_h(f, b), s1 - s0);
    assert_true(s1 - s0 > 0);
    /* Frozen: time passing after stop changes nothing. */
    run(f, 500);
    assert_int_equal(out_l(f, b), 1000);
    assert_int_equal(out_h(f, b), s1 - s0);
}

/* Start acts only on a rising edge of bit 0, and that edge clears the bank. */
static void test_start_rising_edge_and_clear(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_TDMA_UNPACK;
    start(f, b);
    run(f, 300);
    wr(f, B(b)->ctrl, 1);   /* 1 -> 1: no edge, keeps counting */
    run(f, 200);
    assert_int_equal(out_l(f, b), 500);
    wr(f, B(b)->ctrl, 0);
    assert_int_equal(out_l(f, b), 500); /* falling edge: nothing */
    run(f, 10);
    wr(f, B(b)->ctrl, 1);   /* 0 -> 1: restart from zero */
    sel(f, b, 7);
    assert_int_equal(out_l(f, b), 0);
    assert_int_equal(out_h(f, b), 0);
    run(f, 40);
    assert_int_equal(out_l(f, b), 40);
}

/* Stop acts only on a rising edge of bit 1; a second stop keeps the values. */
static void test_stop_rising_edge(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_TDMA_PACK;
    start(f, b);
    run(f, 50);
    wr(f, B(b)->ctrl, 3);   /* 1 -> 3: stop edge only */
    run(f, 50);
    assert_int_equal(out_l(f, b), 50);
    wr(f, B(b)->ctrl, 2);   /* 3 -> 2: start falls, no edge */
    run(f, 50);
    assert_int_equal(out_l(f, b), 50);
    stop(f, b);                       /* another stop edge while stopped */
    assert_int_equal(out_l(f, b), 50);
    /* Start and stop rising in one write: start first, so an empty window. */
    wr(f, B(b)->ctrl, 0);
    wr(f, B(b)->ctrl, 3);
    run(f, 50);
    assert_int_equal(out_l(f, b), 0);
}

/* Mode 1 stops by itself after the reference period; modes 0 and 2 ignore it. */
static void test_mode1_reference_period(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_FPU;
    wr(f, B(b)->ref, 123);
    wr(f, B(b)->mode, TENSIX_MODE_REF_PERIOD | (0u << 8));
    uint64_t s0 = socmon_tensix_core_signal(f->c, b, 0, 0);
    start(f, b);
    run(f, 100);
    assert_int_equal(out_l(f, b), 100);   /* still running */
    run(f, 23);
    uint64_t s1 = socmon_tensix_core_signal(f->c, b, 0, 0);
    run(f, 1000);
    assert_int_equal(out_l(f, b), 123);
    assert_int_equal(out_h(f, b), s1 - s0);
    /* One long advance crossing the period stops exactly at it, too. */
    start(f, b);
    run(f, 5000);
    assert_int_equal(out_l(f, b), 123);
    /* Mode 0 ignores the period. */
    wr(f, B(b)->mode, TENSIX_MODE_CONTINUOUS);
    start(f, b);
    run(f, 5000);
    assert_int_equal(out_l(f, b), 5000);
}

/* Mode 2 counts events but keeps no reference cycle count. */
static void test_mode2_no_reference(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_FPU;
    wr(f, B(b)->ref, 10);
    wr(f, B(b)->mode, TENSIX_MODE_NO_REF | (257u << 8));
    uint64_t s0 = socmon_tensix_core_signal(f->c, b, 257, 0);
    start(f, b);
    run(f, 700);
    uint64_t s1 = socmon_tensix_core_signal(f->c, b, 257, 0);
    assert_int_equal(out_l(f, b), 0);
    assert_int_equal(out_h(f, b), s1 - s0);
    assert_true(s1 > s0);   /* and did not stop at the period of 10 */
}

/* The mode is latched at start: rewriting it while running (as a readout
 * does when it selects counters) does not change the counting. */
static void test_mode_latched_at_start(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_INSTRN_THREAD;
    wr(f, B(b)->ref, 5);
    wr(f, B(b)->mode, TENSIX_MODE_CONTINUOUS);
    start(f, b);
    wr(f, B(b)->mode, TENSIX_MODE_REF_PERIOD);
    run(f, 60);
    assert_int_equal(out_l(f, b), 60);
}

/* counter_sel is 9 bits (16:8): ids >= 256 work, bits above are reserved,
 * unknown ids read 0. */
static void test_counter_sel(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_INSTRN_THREAD;
    uint64_t a0 = socmon_tensix_core_signal(f->c, b, 256, 0);
    uint64_t t0 = socmon_tensix_core_signal(f->c, b, 24, 0);
    start(f, b);
    run(f, 2000);
    stop(f, b);
    uint64_t a1 = socmon_tensix_core_signal(f->c, b, 256, 0);
    uint64_t t1 = socmon_tensix_core_signal(f->c, b, 24, 0);
    assert_true(a1 > a0);
    sel(f, b, 256);
    assert_int_equal(out_h(f, b), a1 - a0);
    wr(f, B(b)->mode, (256u << 8) | (1u << 17) | (1u << 31));   /* reserved bits */
    assert_int_equal(out_h(f, b), a1 - a0);
    sel(f, b, 24);
    assert_int_equal(out_h(f, b), t1 - t0);
    sel(f, b, 511);
    assert_int_equal(out_h(f, b), 0);
    sel(f, b, 300);
    assert_int_equal(out_h(f, b), 0);
    assert_int_equal(out_l(f, b), 2000);   /* OUT_L does not depend on the selection */
}

/* PERF_CNT_ALL starts and stops INSTRN_THREAD and FPU only. */
static void test_perf_cnt_all(void **state)
{
    fx *f = *state;
    wr(f, A_TENSIX_PERF_CNT_ALL, 0);
    wr(f, A_TENSIX_PERF_CNT_ALL, 1);
    run(f, 77);
    wr(f, A_TENSIX_PERF_CNT_ALL, 2);   /* 1 -> 2: stop edge */
    run(f, 10);
    assert_int_equal(out_l(f, SOCMON_TENSIX_BANK_INSTRN_THREAD), 77);
    assert_int_equal(out_l(f, SOCMON_TENSIX_BANK_FPU), 77);
    assert_int_equal(out_l(f, SOCMON_TENSIX_BANK_TDMA_UNPACK), 0);
    assert_int_equal(out_l(f, SOCMON_TENSIX_BANK_L1), 0);
    assert_int_equal(out_l(f, SOCMON_TENSIX_BANK_TDMA_PACK), 0);
}

/* The L1 mux is latched at start: mux 0 reads ring 0 signals, mux 1 ring 1;
 * changing the mux after stop does not change what was latched. */
static void test_l1_mux_latch(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_L1;
    for (unsigned mux = 0; mux < 2; mux++) {
        wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, mux << 4);
        uint64_t r0 = socmon_tensix_core_signal(f->c, b, 1, mux);
        start(f, b);
        run(f, 3000);
        stop(f, b);
        uint64_t r1 = socmon_tensix_core_signal(f->c, b, 1, mux);
        wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, (1 - mux) << 4);
        sel(f, b, 1);
        assert_int_equal(out_h(f, b), r1 - r0);
        assert_int_equal(socmon_tensix_core_l1_undefined(f->c), 0);
    }
    /* The two signal sets differ, so the latch is visible. */
    assert_true(socmon_tensix_core_signal(f->c, b, 1, 0) != socmon_tensix_core_signal(f->c, b, 1, 1));
    /* Other MUX_CTRL bits do not touch the L1 set. */
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 0);
    start(f, b);
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 0x0F);
    run(f, 10);
    assert_int_equal(socmon_tensix_core_l1_undefined(f->c), 0);
}

/* A mux change while the L1 bank runs makes its results undefined: the model
 * marks them and OUT_H reads fail with SOCMON_EUNDEF, until the next start. */
static void test_l1_mux_change_while_running(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_L1;
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 0);
    start(f, b);
    run(f, 100);
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 1u << 4);
    wr(f, A_TENSIX_PERF_CNT_MUX_CTRL, 0);   /* changing it back does not help */
    run(f, 100);
    stop(f, b);
    assert_int_equal(socmon_tensix_core_l1_undefined(f->c), 1);
    uint32_t v = 0;
    socmon_clear_error();
    assert_int_equal(socmon_bus_read32(f->bus, REGS + B(b)->out_h, &v), SOCMON_EUNDEF);
    assert_non_null(strstr(socmon_errmsg(), "L1"));
    assert_non_null(strstr(socmon_errmsg(), "MUX_CTRL"));
    assert_int_equal(out_l(f, b), 200);   /* cycles stay defined */
    /* Other banks are unaffected. */
    start(f, SOCMON_TENSIX_BANK_FPU);
    assert_int_equal(out_h(f, SOCMON_TENSIX_BANK_FPU), 0);
    /* A new start clears the mark. */
    start(f, b);
    assert_int_equal(socmon_tensix_core_l1_undefined(f->c), 0);
    assert_int_equal(socmon_bus_read32(f->bus, REGS + B(b)->out_h, &v), SOCMON_OK);
}

/* OUT_L and OUT_H are 32-bit registers: they wrap. */
static void test_out_registers_wrap(void **state)
{
    fx *f = *state;
    unsigned b = SOCMON_TENSIX_BANK_TDMA_PACK;
    start(f, b);
    run(f, (1ull << 32) + 5);
    assert_int_equal(out_l(f, b), 5);
}

/* L1 is plain memory; the counter layout is the guide's. */
static void test_l1_memory_and_layout(void **state)
{
    fx *f = *state;
    static const uint32_t cfg[3] = {0x16A000, 0x16A408, 0x16A810};
    static const uint32_t data[3] = {0x16A158, 0x16A560, 0x16A968};
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(socmon_tensix_config_addr(t), cfg[t]);
        assert_int_equal(socmon_tensix_data_addr(t), data[t]);
    }
    assert_int_equal(SOCMON_TENSIX_CONFIG_WORDS * 4 + SOCMON_TENSIX_DATA_WORDS * 4, 1032);
    assert_string_equal(socmon_tensix_thread_name(1), "MATH");
    uint32_t v = 0;
    assert_int_equal(socmon_bus_write32(f->bus, L1 + 0x16A968, 0xCAFEF00D), SOCMON_OK);
    assert_int_equal(socmon_bus_read32(f->bus, L1 + 0x16A968, &v), SOCMON_OK);
    assert_int_equal(v, 0xCAFEF00D);
    uint32_t val = 0;
    assert_int_equal(smn_tensix_l1_ops.read(f->c, SOCMON_TENSIX_L1_SIZE, &val), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x16e000"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_register_map),
        cmocka_unit_test_setup_teardown(test_registers_read_back, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mode0_counts_window, setup, teardown),
        cmocka_unit_test_setup_teardown(test_start_rising_edge_and_clear, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_rising_edge, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mode1_reference_period, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mode2_no_reference, setup, teardown),
        cmocka_unit_test_setup_teardown(test_mode_latched_at_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_counter_sel, setup, teardown),
        cmocka_unit_test_setup_teardown(test_perf_cnt_all, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l1_mux_latch, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l1_mux_change_while_running, setup, teardown),
        cmocka_unit_test_setup_teardown(test_out_registers_wrap, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l1_memory_and_layout, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
