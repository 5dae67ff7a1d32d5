/* The Ibex model's counter CSRs as the RTL implements them (spec §1.3-§1.6,
 * §7): widths 1..64 with wrap, halves written independently, a write
 * replacing the same cycle's increment, mcountinhibit's writable bits and
 * timing, mhpmevent values, unimplemented counters, illegal accesses. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "ibex/ibex_asm.h"
#include "targets/ibex_config.h"

static ibex_core *run_prog(asm_prog *p, const char *preset, const char *key, const char *val)
{
    ibex_config cfg;
    ibex_core *c;
    ibex_stop why;
    char opts[96];
    snprintf(opts, sizeof opts, "config=%s%s%s%s%s", preset, key ? "," : "", key ? key : "", key ? "=" : "",
             key ? val : "");
    assert_int_equal(smn_ibex_config(opts, &cfg), SOCMON_OK);
    c = asm_core(p, &cfg);
    assert_non_null(c);
    assert_int_equal(smn_ibex_run(c, 1000000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_HALT);
    return c;
}

/* Writes all-ones to mhpmcounter3 (inhibited) and its high half, reads both
 * back; then lets it count from all-ones to see the wrap. */
static void width_case(unsigned width, uint32_t want_lo, uint32_t want_hi)
{
    char w[8];
    asm_prog p;
    ibex_core *c;
    asm_init(&p);
    asm32(&p, ADDI(31, 0, -1));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3, 31));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3 + 0x80, 31));
    asm32(&p, CSRR(10, IBEX_CSR_MHPMCOUNTER3));
    asm32(&p, CSRR(11, IBEX_CSR_MHPMCOUNTER3 + 0x80));
    /* count one load's LSU wait (small: 1) from all-ones: wraps to 0 */
    asm_li(&p, 1, 0x00100800u);
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 0));
    asm32(&p, LW(2, 1, 0));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    asm32(&p, CSRR(12, IBEX_CSR_MHPMCOUNTER3));
    asm32(&p, CSRR(13, IBEX_CSR_MHPMCOUNTER3 + 0x80));
    asm_halt(&p);
    snprintf(w, sizeof w, "%u", width);
    c = run_prog(&p, "small", "mhpm_width", w);
    assert_int_equal(smn_ibex_reg(c, 10), want_lo);
    assert_int_equal(smn_ibex_reg(c, 11), want_hi);
    assert_int_equal(smn_ibex_reg(c, 12), 0);
    assert_int_equal(smn_ibex_reg(c, 13), 0);
    assert_int_equal(smn_ibex_counter(c, 3), 0);
    smn_ibex_destroy(c);
}

static void test_widths(void **state)
{
    (void)state;
    width_case(1, 0x1, 0);
    width_case(31, 0x7FFFFFFF, 0);
    width_case(32, 0xFFFFFFFF, 0);
    width_case(33, 0xFFFFFFFF, 0x1);
    width_case(40, 0xFFFFFFFF, 0xFF);
    width_case(64, 0xFFFFFFFF, 0xFFFFFFFF);
}

/* Writing the high half of a 40-bit counter keeps its low bits; a low write
 * keeps the high bits; a high write of a W <= 32 counter changes nothing. */
static void test_halves(void **state)
{
    asm_prog p;
    ibex_core *c;
    (void)state;
    asm_init(&p);
    asm32(&p, ADDI(31, 0, -1));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    asm_li(&p, 1, 0x12345678u);
    asm_li(&p, 2, 0xABCDEF99u);
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3, 1));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3 + 0x80, 2));     /* hi = 0x99 (8 bits) */
    asm32(&p, CSRR(10, IBEX_CSR_MHPMCOUNTER3));
    asm32(&p, CSRR(11, IBEX_CSR_MHPMCOUNTER3 + 0x80));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3, 0));
    asm32(&p, CSRR(12, IBEX_CSR_MHPMCOUNTER3 + 0x80));     /* still 0x99 */
    asm32(&p, CSRW(IBEX_CSR_MCYCLEH, 2));
    asm32(&p, CSRR(13, IBEX_CSR_MCYCLEH));                 /* 64-bit: all 32 bits */
    asm_halt(&p);
    c = run_prog(&p, "small", NULL, NULL);
    assert_int_equal(smn_ibex_reg(c, 10), 0x12345678u);
    assert_int_equal(smn_ibex_reg(c, 11), 0x99u);
    assert_int_equal(smn_ibex_reg(c, 12), 0x99u);
    assert_int_equal(smn_ibex_reg(c, 13), 0xABCDEF99u);
    assert_int_equal(smn_ibex_counter(c, 3), (uint64_t)0x99 << 32);
    smn_ibex_destroy(c);
}

/* csrw mcycle, X while counting: the next instruction reads X + 2 (the
 * write replaces the write cycle's increment, then the 2-cycle flush). */
static void test_write_wins(void **state)
{
    asm_prog p;
    ibex_core *c;
    (void)state;
    asm_init(&p);
    asm32(&p, ADDI(1, 0, 1000));
    asm32(&p, CSRW(IBEX_CSR_MCYCLE, 1));
    asm32(&p, CSRR(10, IBEX_CSR_MCYCLE));
    asm32(&p, CSRW(IBEX_CSR_MINSTRET, 1));
    asm32(&p, CSRR(11, IBEX_CSR_MINSTRET));
    asm_halt(&p);
    c = run_prog(&p, "small", NULL, NULL);
    assert_int_equal(smn_ibex_reg(c, 10), 1002);
    assert_int_equal(smn_ibex_reg(c, 11), 1000);   /* the writer's own tick is lost */
    smn_ibex_destroy(c);
    c = run_prog(&p, "maxperf", NULL, NULL);
    assert_int_equal(smn_ibex_reg(c, 10), 1002);
    /* writeback stage, before upstream 64184334 and b7d62a24: the writer
     * retires after the write (+1) and the read after the flush bubble adds
     * the speculative +1 (issue #2252) */
    assert_int_equal(smn_ibex_reg(c, 11), 1002);
    smn_ibex_destroy(c);
}

/* mcountinhibit: -1 reads back 0x1ffd with 10 counters, 0x5 with none;
 * mhpmevent3..12 read 1 << (N-3), 13 reads 0, writes are ignored;
 * mhpmcounter13 (unimplemented) reads 0 and ignores writes, no trap;
 * mcounteren reads 0. */
static void test_csr_values(void **state)
{
    asm_prog p;
    ibex_core *c;
    (void)state;
    asm_init(&p);
    asm32(&p, ADDI(31, 0, -1));
    asm32(&p, CSRRW(10, IBEX_CSR_MCOUNTINHIBIT, 31));   /* old value: 0 */
    asm32(&p, CSRR(11, IBEX_CSR_MCOUNTINHIBIT));
    asm32(&p, CSRR(12, IBEX_CSR_MHPMEVENT3));
    asm32(&p, CSRR(13, IBEX_CSR_MHPMEVENT3 + 9));
    asm32(&p, CSRR(14, IBEX_CSR_MHPMEVENT3 + 10));
    asm32(&p, CSRW(IBEX_CSR_MHPMEVENT3, 0));
    asm32(&p, CSRR(15, IBEX_CSR_MHPMEVENT3));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3 + 10, 31));
    asm32(&p, CSRR(16, IBEX_CSR_MHPMCOUNTER3 + 10));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTEREN, 31));
    asm32(&p, CSRR(17, IBEX_CSR_MCOUNTEREN));
    asm_halt(&p);
    c = run_prog(&p, "small", NULL, NULL);
    assert_int_equal(smn_ibex_reg(c, 10), 0);
    assert_int_equal(smn_ibex_reg(c, 11), 0x1FFD);
    assert_int_equal(smn_ibex_reg(c, 12), 0x1);
    assert_int_equal(smn_ibex_reg(c, 13), 0x200);
    assert_int_equal(smn_ibex_reg(c, 14), 0);
    assert_int_equal(smn_ibex_reg(c, 15), 0x1);
    assert_int_equal(smn_ibex_reg(c, 16), 0);
    assert_int_equal(smn_ibex_reg(c, 17), 0);
    smn_ibex_destroy(c);
    c = run_prog(&p, "small", "mhpm_num", "0");
    assert_int_equal(smn_ibex_reg(c, 11), 0x5);
    assert_int_equal(smn_ibex_reg(c, 12), 0);
    smn_ibex_destroy(c);
}

/* Illegal counter accesses trap (mcause 2, mtval = the instruction) and
 * are not counted: 0xB01, cycle (0xC00 at this commit), a write to the
 * read-only 0xF11. The handler skips the instruction and counts in x20. */
static void test_illegal_accesses(void **state)
{
    const uint32_t bad[] = {CSRR(10, 0xB01), CSRR(10, IBEX_CSR_CYCLE),
                                   CSRW(IBEX_CSR_MVENDORID, 1), CSRR(10, 0x723)};
    asm_prog p;
    ibex_core *c;
    uint32_t v;
    (void)state;
    asm_init(&p);
    asm_org(&p, IBEX_SS_RAM_BASE);
    asm32(&p, ADDI(20, 20, 1));
    asm32(&p, CSRR(21, IBEX_CSR_MEPC));
    asm32(&p, ADDI(21, 21, 4));
    asm32(&p, CSRW(IBEX_CSR_MEPC, 21));
    asm32(&p, MRET);
    asm_org(&p, IBEX_SS_RESET_PC);
    for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++)
        asm32(&p, bad[i]);
    asm_halt(&p);
    c = run_prog(&p, "small", NULL, NULL);
    assert_int_equal(smn_ibex_reg(c, 20), 4);
    assert_int_equal(smn_ibex_csr_peek(c, IBEX_CSR_MCAUSE, &v), SOCMON_OK);
    assert_int_equal(v, IBEX_CAUSE_ILLEGAL);
    assert_int_equal(smn_ibex_csr_peek(c, IBEX_CSR_MTVAL, &v), SOCMON_OK);
    assert_int_equal(v, 0x72302573u);
    assert_int_not_equal(smn_ibex_csr_peek(c, IBEX_CSR_CYCLE, &v), SOCMON_OK);
    smn_ibex_destroy(c);
}

/* The instruction writing mcountinhibit is judged by the old value: an
 * inhibiting write's own cycle counts, an enabling write's does not. */
static void test_inhibit_timing(void **state)
{
    asm_prog p;
    ibex_core *c;
    (void)state;
    asm_init(&p);
    asm32(&p, ADDI(31, 0, -1));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    asm32(&p, CSRW(IBEX_CSR_MCYCLE, 0));
    asm32(&p, CSRW(IBEX_CSR_MINSTRET, 0));
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 0));   /* flush 2 counted, itself not */
    asm32(&p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));  /* itself counted */
    asm_halt(&p);
    c = run_prog(&p, "small", NULL, NULL);
    assert_int_equal(smn_ibex_counter(c, 0), 3);
    assert_int_equal(smn_ibex_counter(c, 2), 1);      /* the stopping write */
    smn_ibex_destroy(c);
    c = run_prog(&p, "maxperf", NULL, NULL);
    assert_int_equal(smn_ibex_counter(c, 0), 3);
    assert_int_equal(smn_ibex_counter(c, 2), 1);      /* the starting write (retires in WB) */
    smn_ibex_destroy(c);
}

/* Options: bad values name the value and the range. */
static void test_options(void **state)
{
    ibex_config cfg;
    (void)state;
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    assert_int_equal(cfg.rv32m, IBEX_RV32M_FAST);
    assert_int_equal(cfg.mhpm_num, 10);
    assert_int_equal(cfg.mhpm_width, 40);
    assert_int_equal(smn_ibex_config_preset(&cfg, "huge"), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "huge"));
    assert_int_equal(smn_ibex_config("mhpm_width=65", &cfg), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "1..64"));
    assert_int_equal(smn_ibex_config("mhpm_width=0", &cfg), SOCMON_ERANGE);
    assert_int_equal(smn_ibex_config("mhpm_num=30", &cfg), SOCMON_ERANGE);
    assert_int_equal(smn_ibex_config("mhpm_num=x", &cfg), SOCMON_EINVAL);
    assert_int_not_equal(smn_ibex_config("wb_stage=2", &cfg), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "wb_stage"));
    assert_int_not_equal(smn_ibex_config("rv32m=turbo", &cfg), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "turbo"));
    assert_int_not_equal(smn_ibex_config("speed=1", &cfg), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "unknown option 'speed'"));
    /* the options over the preset, in any order; rv32m, wb_stage and bt_alu only where given */
    assert_int_equal(smn_ibex_config("mhpm_num=29,config=maxperf", &cfg), SOCMON_OK);
    assert_int_equal(cfg.mhpm_num, 29);
    assert_int_equal(cfg.wb_stage, 1);
    assert_int_equal(cfg.rv32m, IBEX_RV32M_SINGLE);
    assert_int_equal(smn_ibex_config("config=maxperf,wb_stage=0,rv32m=slow", &cfg), SOCMON_OK);
    assert_int_equal(cfg.wb_stage, 0);
    assert_int_equal(cfg.bt_alu, 1);
    assert_int_equal(cfg.rv32m, IBEX_RV32M_SLOW);
    assert_string_equal(cfg.name, "maxperf");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_widths),          cmocka_unit_test(test_halves),
        cmocka_unit_test(test_write_wins),      cmocka_unit_test(test_csr_values),
        cmocka_unit_test(test_illegal_accesses), cmocka_unit_test(test_inhibit_timing),
        cmocka_unit_test(test_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
