/* The BSP shims' coprocessor operand parser (socmon_xil_cp_parse): every
 * PMU string of the BSP's xreg_cortexa9.h ("C9 Register Defines", embeddedsw
 * 97f2baf7) parses to spec §5.1's encoding, the spellings GNU as accepts
 * parse too, and bad strings get SOCMON_EPARSE naming the string and the
 * column, never a crash. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "xpseudo_asm.h"

static void expect(const char *rn, unsigned cp, unsigned opc1, unsigned crn, unsigned crm,
                   unsigned opc2)
{
    socmon_xil_cp_op op = {99, 99, 99, 99, 99};
    if (socmon_xil_cp_parse(rn, &op) != SOCMON_OK)
        fail_msg("\"%s\": %s", rn, socmon_errmsg());
    assert_int_equal(op.coproc, cp);
    assert_int_equal(op.opc1, opc1);
    assert_int_equal(op.crn, crn);
    assert_int_equal(op.crm, crm);
    assert_int_equal(op.opc2, opc2);
}

static void test_bsp_strings(void **state)
{
    (void)state;
    expect(XREG_CP15_PERF_MONITOR_CTRL, 15, 0, 9, 12, 0);
    expect(XREG_CP15_COUNT_ENABLE_SET, 15, 0, 9, 12, 1);
    expect(XREG_CP15_COUNT_ENABLE_CLR, 15, 0, 9, 12, 2);
    expect(XREG_CP15_V_FLAG_STATUS, 15, 0, 9, 12, 3);
    expect(XREG_CP15_SW_INC, 15, 0, 9, 12, 4);
    expect(XREG_CP15_EVENT_CNTR_SEL, 15, 0, 9, 12, 5);
    expect(XREG_CP15_PERF_CYCLE_COUNTER, 15, 0, 9, 13, 0);
    expect(XREG_CP15_EVENT_TYPE_SEL, 15, 0, 9, 13, 1);
    expect(XREG_CP15_PERF_MONITOR_COUNT, 15, 0, 9, 13, 2);
    expect(XREG_CP15_USER_ENABLE, 15, 0, 9, 14, 0);
    expect(XREG_CP15_INTR_ENABLE_SET, 15, 0, 9, 14, 1);
    expect(XREG_CP15_INTR_ENABLE_CLR, 15, 0, 9, 14, 2);
}

static void test_other_spellings(void **state)
{
    (void)state;
    expect("p15,0,%0,c9,c12,0", 15, 0, 9, 12, 0);
    expect("P15, #0, %0, CR9, cr13, #2", 15, 0, 9, 13, 2);
    expect("p15, 0, %0, c9, c14", 15, 0, 9, 14, 0);       /* opc2 left out */
    expect("\tp15 , 0 , %0 , c1 , c0 , 0 \n", 15, 0, 1, 0, 0);
    expect("p14, 7, %0, c15, c15, 7", 14, 7, 15, 15, 7);  /* parses; mfcp refuses p14 */
}

static void expect_bad(const char *rn, const char *why, unsigned col)
{
    socmon_xil_cp_op op = {99, 99, 99, 99, 99};
    assert_int_equal(socmon_xil_cp_parse(rn, &op), SOCMON_EPARSE);
    assert_int_equal(op.coproc, 99);   /* output untouched */
    const char *m = socmon_errmsg();
    if (!strstr(m, why))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", rn, m, why);
    char c[32];
    snprintf(c, sizeof c, "column %u", col);
    if (!strstr(m, c))
        fail_msg("\"%s\": message \"%s\" lacks \"%s\"", rn, m, c);
}

static void test_bad_strings(void **state)
{
    (void)state;
    expect_bad("", "coprocessor", 1);
    expect_bad("p15", "','", 4);
    expect_bad("p16, 0, %0, c9, c12, 0", "p0..p15", 1);
    expect_bad("x15, 0, %0, c9, c12, 0", "p0..p15", 1);
    expect_bad("p15, 8, %0, c9, c12, 0", "opc1 0..7", 6);
    expect_bad("p15, 0, r0, c9, c12, 0", "%0", 9);
    expect_bad("p15, 0, %1, c9, c12, 0", "%0", 9);
    expect_bad("p15, 0, %0, c16, c12, 0", "CRn c0..c15", 13);
    expect_bad("p15, 0, %0, c9, 12, 0", "CRm c0..c15", 17);
    expect_bad("p15, 0, %0, c9, c12, 8", "opc2 0..7", 22);
    expect_bad("p15, 0, %0, c9, c12, 0 junk", "unexpected text", 24);
    expect_bad("p15 0 %0 c9 c12 0", "','", 5);
    expect_bad("p15, 99999999999999999999999, %0, c9, c12, 0", "opc1 0..7", 6);
    expect_bad("p15, 0, %0, c9, c12, 0\n\n", "unexpected text", 24);
    /* a long string is shown cut at 64 characters */
    char longs[300];
    memset(longs, 'z', sizeof longs - 1);
    longs[sizeof longs - 1] = '\0';
    assert_int_equal(socmon_xil_cp_parse(longs, &(socmon_xil_cp_op){0, 0, 0, 0, 0}), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "zzz...\""));
    assert_true(strlen(socmon_errmsg()) < 200);
    /* NULLs */
    socmon_xil_cp_op op;
    assert_int_equal(socmon_xil_cp_parse(NULL, &op), SOCMON_EINVAL);
    assert_int_equal(socmon_xil_cp_parse("p15, 0, %0, c9, c12, 0", NULL), SOCMON_EINVAL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bsp_strings),
        cmocka_unit_test(test_other_spellings),
        cmocka_unit_test(test_bad_strings),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
