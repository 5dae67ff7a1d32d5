/* The Ibex model's cycle costs and events per instruction class, in the
 * small and maxperf configurations, measured the way the spec's §7
 * measured the RTL: every counter zeroed and inhibited, started with
 * csrw mcountinhibit,x0, the body, stopped with csrw mcountinhibit,x31.
 * Expected values are §7's measured costs (small) and its maxperf summary;
 * the window itself costs mcycle 3, minstret 1, NumCyclesIF 1. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include "ibex/ibex_asm.h"
#include "targets/ibex_config.h"

enum { CYC, RET, LSU, IFW, LD, ST, JMP, BR, TK, CMP, MULW, DIVW, NEV };
static const unsigned cnt_index[NEV] = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};

#define DATA 0x00100800u

typedef void (*emit_fn)(asm_prog *p);

/* Registers the bodies may rely on. */
static void common_setup(asm_prog *p)
{
    asm_li(p, 1, DATA);
    asm32(p, ADDI(2, 0, 7));
    asm32(p, ADDI(4, 0, 1));
    asm_li(p, 5, 0x80000000u);
    asm32(p, ADDI(6, 0, -1));
    asm32(p, ADDI(7, 0, 5));
    asm32(p, ADDI(8, 0, 100));
}

/* Runs body in the window; fills d[] with the window's counts minus its
 * own overhead. Returns the core (for register checks); caller destroys. */
static ibex_core *measure(const ibex_config *cfg, emit_fn body, emit_fn handler, uint64_t d[NEV])
{
    static const uint64_t overhead[NEV] = {3, 1, 0, 1};
    asm_prog p;
    ibex_core *c;
    ibex_stop why;
    asm_init(&p);
    if (handler) {
        asm_org(&p, IBEX_SS_RAM_BASE);
        handler(&p);
        asm_org(&p, IBEX_SS_RESET_PC);
    }
    common_setup(&p);
    asm_window_open(&p);
    body(&p);
    asm_window_close_and_halt(&p);
    c = asm_core(&p, cfg);
    assert_non_null(c);
    assert_int_equal(smn_ibex_run(c, 100000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_HALT);
    for (unsigned i = 0; i < NEV; i++)
        d[i] = smn_ibex_counter(c, cnt_index[i]) - overhead[i];
    return c;
}

static void check(const char *preset, emit_fn body, emit_fn handler, const uint64_t want[NEV])
{
    ibex_config cfg;
    uint64_t d[NEV];
    ibex_core *c;
    assert_int_equal(smn_ibex_config_preset(&cfg, preset), SOCMON_OK);
    c = measure(&cfg, body, handler, d);
    for (unsigned i = 0; i < NEV; i++) {
        if (d[i] != want[i])
            print_error("%s: counter %u: got %llu, want %llu\n", preset, cnt_index[i],
                        (unsigned long long)d[i], (unsigned long long)want[i]);
    }
    for (unsigned i = 0; i < NEV; i++)
        assert_int_equal(d[i], want[i]);
    smn_ibex_destroy(c);
}

#define CASE(name, body_stmts, small_want, maxperf_want)                                   \
    static void body_##name(asm_prog *p) { body_stmts; }                                   \
    static void test_##name(void **state)                                                  \
    {                                                                                      \
        static const uint64_t ws[NEV] = small_want, wm[NEV] = maxperf_want;                \
        (void)state;                                                                       \
        check("small", body_##name, NULL, ws);                                             \
        check("maxperf", body_##name, NULL, wm);                                           \
    }
#define W(...) {__VA_ARGS__}

/*                                      CYC RET LSU IFW LD ST JMP BR TK CMP MULW DIVW */
CASE(empty, (void)p, W(0), W(0))
CASE(alu5, for (int i = 0; i < 5; i++) asm32(p, ADDI(9, 9, 1)), W(5, 5), W(5, 5))
CASE(load_aligned, asm32(p, LW(9, 1, 0)), W(2, 1, 1, 0, 1), W(1, 1, 0, 0, 1))
CASE(store_aligned, asm32(p, SW(2, 1, 0)), W(2, 1, 1, 0, 0, 1), W(1, 1, 0, 0, 0, 1))
CASE(load_split, asm32(p, LW(9, 1, 2)), W(3, 1, 2, 0, 1), W(2, 1, 0, 0, 1))
CASE(store_split, asm32(p, SW(2, 1, 3)), W(3, 1, 2, 0, 0, 1), W(2, 1, 0, 0, 0, 1))
CASE(load_half_inside_word, asm32(p, LH(9, 1, 1)), W(2, 1, 1, 0, 1), W(1, 1, 0, 0, 1))
CASE(load_half_split, asm32(p, LH(9, 1, 3)), W(3, 1, 2, 0, 1), W(2, 1, 0, 0, 1))
CASE(load_use, (asm32(p, LW(9, 1, 0)), asm32(p, ADDI(10, 9, 1))), W(3, 2, 1, 0, 1),
     W(3, 2, 1, 0, 1))
CASE(load_no_use, (asm32(p, LW(9, 1, 0)), asm32(p, ADDI(10, 2, 1))), W(3, 2, 1, 0, 1),
     W(2, 2, 0, 0, 1))
CASE(branch_not_taken, asm32(p, BEQ(0, 4, 8)), W(1, 1, 0, 0, 0, 0, 0, 1), W(1, 1, 0, 0, 0, 0, 0, 1))
CASE(branch_taken, (asm32(p, BEQ(0, 0, 8)), asm32(p, NOP)), W(3, 1, 0, 1, 0, 0, 0, 1, 1),
     W(2, 1, 0, 1, 0, 0, 0, 1, 1))
CASE(jal, (asm32(p, JAL(0, 8)), asm32(p, NOP)), W(2, 1, 0, 0, 0, 0, 1), W(2, 1, 0, 1, 0, 0, 1))
/* jal to a 32-bit instruction straddling a word: one more fetch */
CASE(jal_straddle, (asm32(p, JAL(0, 6)), asm16(p, C_NOP), asm32(p, ADDI(9, 9, 1)),
                    asm16(p, C_NOP)),
     W(5, 3, 0, 1, 0, 0, 1, 0, 0, 1), W(5, 3, 0, 2, 0, 0, 1, 0, 0, 1))
CASE(jalr, (asm32(p, AUIPC(9, 0)), asm32(p, ADDI(9, 9, 16)), asm32(p, JALR(0, 9, 0)),
             asm32(p, NOP)),
     W(4, 3, 0, 0, 0, 0, 1), W(4, 3, 0, 1, 0, 0, 1))
CASE(mul, asm32(p, MUL(9, 2, 7)), W(3, 1, 0, 0, 0, 0, 0, 0, 0, 0, 2),
     W(1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0))
CASE(mulh, asm32(p, MULH(9, 2, 7)), W(4, 1, 0, 0, 0, 0, 0, 0, 0, 0, 3),
     W(2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1))
CASE(div, asm32(p, DIV(9, 8, 2)), W(37, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 36),
     W(37, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 36))
CASE(div_by_zero, asm32(p, DIV(9, 8, 0)), W(2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1),
     W(2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1))
CASE(div_overflow, asm32(p, DIV(9, 5, 6)), W(37, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 36),
     W(37, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 36))
CASE(csr_write_no_flush, asm32(p, CSRW(IBEX_CSR_MSCRATCH, 2)), W(1, 1), W(1, 1))
CASE(csr_write_flush, asm32(p, CSRW(IBEX_CSR_MHPMEVENT3, 2)), W(3, 1, 0, 1), W(3, 1, 0, 1))
CASE(csr_read, asm32(p, CSRR(9, IBEX_CSR_MSCRATCH)), W(1, 1), W(1, 1))
CASE(compressed, (asm16(p, C_ADDI(9, 1)), asm16(p, C_ADDI(9, 1))),
     W(2, 2, 0, 0, 0, 0, 0, 0, 0, 2), W(2, 2, 0, 0, 0, 0, 0, 0, 0, 2))
CASE(fence, asm32(p, FENCE), W(1, 1), W(1, 1))
CASE(fence_i, asm32(p, FENCE_I), W(2, 1, 0, 0, 0, 0, 1), W(2, 1, 0, 1, 0, 0, 1))

/* ecall -> handler at the vector base that skips it: csrr/addi/csrw mepc/mret.
 * Trap entry 3 cycles (not retired), mret 3; one NumCyclesIF each. */
static void ecall_handler(asm_prog *p)
{
    asm32(p, CSRR(20, IBEX_CSR_MEPC));
    asm32(p, ADDI(20, 20, 4));
    asm32(p, CSRW(IBEX_CSR_MEPC, 20));
    asm32(p, MRET);
}
static void body_ecall(asm_prog *p)
{
    asm32(p, ECALL);
}
static void test_ecall_mret(void **state)
{
    static const uint64_t w[NEV] = W(3 + 3 + 3, 4, 0, 2);
    (void)state;
    check("small", body_ecall, ecall_handler, w);
    check("maxperf", body_ecall, ecall_handler, w);
}

/* An illegal instruction traps the same way, with mcause 2 and mtval = the
 * instruction; it is not counted in minstret. */
static void body_illegal(asm_prog *p)
{
    asm32(p, 0xFFFFFFFFu);
}
static void test_illegal(void **state)
{
    static const uint64_t w[NEV] = W(9, 4, 0, 2);
    ibex_config cfg;
    uint64_t d[NEV];
    uint32_t v;
    ibex_core *c;
    (void)state;
    check("small", body_illegal, ecall_handler, w);
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    c = measure(&cfg, body_illegal, ecall_handler, d);
    assert_int_equal(smn_ibex_csr_peek(c, IBEX_CSR_MCAUSE, &v), SOCMON_OK);
    assert_int_equal(v, IBEX_CAUSE_ILLEGAL);
    assert_int_equal(smn_ibex_csr_peek(c, IBEX_CSR_MTVAL, &v), SOCMON_OK);
    assert_int_equal(v, 0xFFFFFFFFu);
    smn_ibex_destroy(c);
}

/* Results of the M extension's corner cases. */
static void body_mdiv_results(asm_prog *p)
{
    asm32(p, DIV(9, 5, 6));     /* INT_MIN / -1 = INT_MIN */
    asm32(p, REM(10, 5, 6));    /* = 0 */
    asm32(p, DIV(11, 8, 0));    /* /0 = -1 */
    asm32(p, REM(12, 8, 0));    /* %0 = dividend */
    asm32(p, DIVU(13, 8, 0));   /* = 0xFFFFFFFF */
    asm32(p, MULH(14, 6, 6));   /* -1 * -1 >> 32 = 0 */
    asm32(p, MULHU(15, 6, 6));  /* 0xFFFFFFFE */
}
static void test_mdiv_results(void **state)
{
    ibex_config cfg;
    uint64_t d[NEV];
    ibex_core *c;
    (void)state;
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    c = measure(&cfg, body_mdiv_results, NULL, d);
    assert_int_equal(smn_ibex_reg(c, 9), 0x80000000u);
    assert_int_equal(smn_ibex_reg(c, 10), 0);
    assert_int_equal(smn_ibex_reg(c, 11), 0xFFFFFFFFu);
    assert_int_equal(smn_ibex_reg(c, 12), 100);
    assert_int_equal(smn_ibex_reg(c, 13), 0xFFFFFFFFu);
    assert_int_equal(smn_ibex_reg(c, 14), 0);
    assert_int_equal(smn_ibex_reg(c, 15), 0xFFFFFFFEu);
    assert_int_equal(d[CYC], 37 + 37 + 2 + 2 + 2 + 4 + 4);
    assert_int_equal(d[DIVW], 36 + 36 + 1 + 1 + 1);
    assert_int_equal(d[MULW], 3 + 3);
    smn_ibex_destroy(c);
}

/* rv32m=slow: MUL stalls per significant bit of op_b, MULH 32 cycles. */
static void body_slow_mul(asm_prog *p)
{
    asm32(p, MUL(9, 2, 0));    /* op_b 0: IDLE + LAST = 2 */
    asm32(p, MUL(9, 2, 7));    /* op_b 5 (3 bits): 2 + 2 = 4 */
    asm32(p, MUL(9, 2, 6));    /* op_b 0xFFFFFFFF: 2 + 31 = 33 */
    asm32(p, MULH(9, 2, 7));   /* 33 */
}
static void test_slow_mul(void **state)
{
    ibex_config cfg;
    uint64_t d[NEV];
    ibex_core *c;
    (void)state;
    assert_int_equal(smn_ibex_config("config=small,rv32m=slow", &cfg), SOCMON_OK);
    c = measure(&cfg, body_slow_mul, NULL, d);
    assert_int_equal(d[CYC], 2 + 4 + 33 + 33);
    assert_int_equal(d[MULW], 1 + 3 + 32 + 32);
    assert_int_equal(smn_ibex_reg(c, 9), 0);   /* mulh(7, 5) */
    smn_ibex_destroy(c);
}

/* rv32m=none: M instructions are illegal (trap, not counted). */
static void test_rv32m_none(void **state)
{
    static const uint64_t w[NEV] = W(9, 4, 0, 2);
    ibex_config cfg;
    uint64_t d[NEV];
    ibex_core *c;
    (void)state;
    (void)w;
    assert_int_equal(smn_ibex_config("config=small,rv32m=none", &cfg), SOCMON_OK);
    c = measure(&cfg, body_mul, ecall_handler, d);
    for (unsigned i = 0; i < NEV; i++)
        assert_int_equal(d[i], w[i]);
    smn_ibex_destroy(c);
}

/* The parameters vary independently: small with the branch target ALU. */
static void test_small_bt_alu(void **state)
{
    ibex_config cfg;
    uint64_t d[NEV];
    ibex_core *c;
    (void)state;
    assert_int_equal(smn_ibex_config("config=small,bt_alu=1", &cfg), SOCMON_OK);
    c = measure(&cfg, body_branch_taken, NULL, d);
    assert_int_equal(d[CYC], 2);
    assert_int_equal(d[IFW], 1);
    smn_ibex_destroy(c);
    c = measure(&cfg, body_load_aligned, NULL, d);
    assert_int_equal(d[CYC], 2);   /* still no writeback stage */
    smn_ibex_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_empty), cmocka_unit_test(test_alu5),
        cmocka_unit_test(test_load_aligned), cmocka_unit_test(test_store_aligned),
        cmocka_unit_test(test_load_split), cmocka_unit_test(test_store_split),
        cmocka_unit_test(test_load_half_inside_word), cmocka_unit_test(test_load_half_split),
        cmocka_unit_test(test_load_use), cmocka_unit_test(test_load_no_use),
        cmocka_unit_test(test_branch_not_taken), cmocka_unit_test(test_branch_taken),
        cmocka_unit_test(test_jal), cmocka_unit_test(test_jal_straddle),
        cmocka_unit_test(test_jalr), cmocka_unit_test(test_mul), cmocka_unit_test(test_mulh),
        cmocka_unit_test(test_div), cmocka_unit_test(test_div_by_zero),
        cmocka_unit_test(test_div_overflow), cmocka_unit_test(test_csr_write_no_flush),
        cmocka_unit_test(test_csr_write_flush), cmocka_unit_test(test_csr_read),
        cmocka_unit_test(test_compressed), cmocka_unit_test(test_fence),
        cmocka_unit_test(test_fence_i), cmocka_unit_test(test_ecall_mret),
        cmocka_unit_test(test_illegal), cmocka_unit_test(test_mdiv_results),
        cmocka_unit_test(test_slow_mul), cmocka_unit_test(test_rv32m_none),
        cmocka_unit_test(test_small_bt_alu),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
