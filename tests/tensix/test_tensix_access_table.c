/* The Tensix access table (TENSIX_REGINFO, src/hw/tensix_bank.h) against the
 * model on a bus: every register resets to the table's value, read-only bits
 * keep their value under writes, plain bits hold what is written, the table
 * and the bank map agree, and every other word of the debug window reads 0
 * and ignores writes. The table has no W1C or clear-on-read bits, and the
 * test checks that too, so adding one without its behaviour fails here. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "hw/tensix_bank.h"
#include "socmon/bus.h"
#include "socmon/tensix.h"
#include "tensix/tensix_fixture.h"

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

/* The table is bank-major (ref, mode, ctrl, out_l, out_h), then PERF_CNT_ALL
 * and MUX_CTRL, and says the same offsets as the bank map. */
static void test_table_matches_bank_map(void **state)
{
    (void)state;
    assert_int_equal(sizeof TENSIX_REGINFO / sizeof TENSIX_REGINFO[0], TENSIX_NREGS);
    for (unsigned b = 0; b < TENSIX_NBANKS; b++) {
        const tensix_bank_regs *r = tensix_bank(b);
        const smn_reginfo *ri = &TENSIX_REGINFO[b * TENSIX_NROLES];
        assert_int_equal(ri[TENSIX_ROLE_REF].addr, r->ref);
        assert_int_equal(ri[TENSIX_ROLE_MODE].addr, r->mode);
        assert_int_equal(ri[TENSIX_ROLE_CTRL].addr, r->ctrl);
        assert_int_equal(ri[TENSIX_ROLE_OUT_L].addr, r->out_l);
        assert_int_equal(ri[TENSIX_ROLE_OUT_H].addr, r->out_h);
        assert_int_equal(r->mode, r->ref + 4);   /* three consecutive control words */
        assert_int_equal(r->ctrl, r->ref + 8);
        assert_non_null(strstr(ri[0].name, r->name));
    }
    assert_int_equal(TENSIX_REGINFO[TENSIX_REG_ALL].addr, 0x03C);
    assert_int_equal(TENSIX_REGINFO[TENSIX_REG_MUX_CTRL].addr, 0x218);
    for (unsigned i = 0; i < TENSIX_NREGS; i++) {
        assert_int_equal(tensix_reg_index(TENSIX_REGINFO[i].addr), (int)i);
        assert_int_equal(TENSIX_REGINFO[i].w1c, 0);
        assert_int_equal(TENSIX_REGINFO[i].cor, 0);
        assert_int_equal(TENSIX_REGINFO[i].addr % 4, 0);
        assert_true(TENSIX_REGINFO[i].addr < TENSIX_REGS_SIZE);
    }
}

/* A fresh core reads every table register at its reset value. */
static void test_reset_values(void **state)
{
    fx *f = *state;
    for (unsigned i = 0; i < TENSIX_NREGS; i++)
        assert_int_equal(rd(f, TENSIX_REGINFO[i].addr), TENSIX_REGINFO[i].reset);
}

/* A write leaves exactly what socmon_reg_write says: plain bits take the
 * value, read-only bits keep theirs. Start and stop bits rise together in
 * each write, so every window is empty and OUT registers stay at 0. */
static void test_writes_follow_table(void **state)
{
    fx *f = *state;
    static const uint32_t patterns[] = {0xFFFFFFFFu, 0x5A5A5A5Au, 0x00000000u, 0xA5A5A5A7u};
    for (size_t p = 0; p < sizeof patterns / sizeof patterns[0]; p++) {
        for (unsigned i = 0; i < TENSIX_NREGS; i++) {
            const smn_reginfo *ri = &TENSIX_REGINFO[i];
            uint32_t before = rd(f, ri->addr);
            wr(f, ri->addr, patterns[p]);
            assert_int_equal(rd(f, ri->addr), socmon_reg_write(ri, before, patterns[p]));
        }
    }
    assert_int_equal(socmon_tensix_core_l1_undefined(f->c), 0);
}

/* Read-only registers keep a counting value under writes: OUT_L of a running
 * bank is its elapsed cycles whatever is written to it. */
static void test_read_only_out_registers(void **state)
{
    fx *f = *state;
    const tensix_bank_regs *r = tensix_bank(TENSIX_BANK_FPU);
    wr(f, r->mode, 0);
    wr(f, r->ctrl, 0);
    wr(f, r->ctrl, 1);
    assert_int_equal(socmon_tensix_core_advance(f->c, 777, NULL), SOCMON_OK);
    for (unsigned role = TENSIX_ROLE_OUT_L; role <= TENSIX_ROLE_OUT_H; role++) {
        const smn_reginfo *ri = &TENSIX_REGINFO[TENSIX_BANK_FPU * TENSIX_NROLES + role];
        assert_int_equal(ri->ro, 0xFFFFFFFFu);
        uint32_t before = rd(f, ri->addr);
        wr(f, ri->addr, ~before);
        assert_int_equal(rd(f, ri->addr), before);
    }
    assert_int_equal(rd(f, r->out_l), 777);
}

/* Words of the debug window outside the table read 0 and keep nothing. */
static void test_unmodelled_words(void **state)
{
    fx *f = *state;
    unsigned n = 0;
    for (uint32_t off = 0; off < TENSIX_REGS_SIZE; off += 4) {
        if (tensix_reg_index(off) >= 0)
            continue;
        wr(f, off, 0xFFFFFFFFu);
        assert_int_equal(rd(f, off), 0);
        n++;
    }
    assert_int_equal(n, TENSIX_REGS_SIZE / 4 - TENSIX_NREGS);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_table_matches_bank_map),
        cmocka_unit_test_setup_teardown(test_reset_values, setup, teardown),
        cmocka_unit_test_setup_teardown(test_writes_follow_table, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_only_out_registers, setup, teardown),
        cmocka_unit_test_setup_teardown(test_unmodelled_words, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
