/* The register-facts helpers every block header uses: offsets and field
 * macros, and the access-table rules models apply (read-only, W1C,
 * clear-on-read, reserved bits). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "hw/regfields.h"

SM_REG32(CTL, 0x300)
SM_FIELD(CTL, EN, 0, 1)
SM_FIELD(CTL, MODE, 4, 3)
SM_FIELD(CTL, TOP, 31, 1)

static void test_offsets_and_fields(void **state)
{
    assert_int_equal(A_CTL, 0x300);
    assert_int_equal(R_CTL, 0xc0);
    assert_int_equal(R_CTL_MODE_MASK, 0x70);
    assert_int_equal(R_CTL_TOP_MASK, 0x80000000u);
    uint32_t v = SM_FIELD_DP32(0xffffffffu, CTL, MODE, 5);
    assert_int_equal(v, 0xffffffdfu);
    assert_int_equal(SM_FIELD_EX32(v, CTL, MODE), 5);
    assert_int_equal(SM_FIELD_DP32(0, CTL, MODE, 9), 0x10); /* too wide: masked */
    assert_int_equal(SM_FIELD_EX32(0x80000001u, CTL, TOP), 1);
    assert_int_equal(SM_FIELD_EX32(0x80000001u, CTL, EN), 1);
}

static const smn_reginfo table[] = {
    {"IS", 0x38, 0, 0x100, 0x3, 0x0, 0xf0000000u},
    {"CNT", 0x40, 0x5, 0, 0, 0x4, 0},
};

static void test_access_rules(void **state)
{
    const smn_reginfo *is = socmon_reginfo_find(table, 2, 0x38);
    assert_non_null(is);
    assert_null(socmon_reginfo_find(table, 2, 0x3c));
    /* read-only bit kept, W1C bits cleared by 1s, reserved bits stay 0, plain bits written */
    assert_int_equal(socmon_reg_write(is, 0x103, 0xffffffffu), 0x0ffffffcu);
    assert_int_equal(socmon_reg_write(is, 0x3, 0x1), 0x2);       /* clears only what is written 1 */
    assert_int_equal(socmon_reg_write(is, 0x0, 0x3), 0x0);       /* writing 1 never sets a W1C bit */
    assert_int_equal(socmon_reg_write(is, 0x0, 0x100), 0x0);     /* nor a read-only one */
    const smn_reginfo *cnt = socmon_reginfo_find(table, 2, 0x40);
    uint32_t storage = cnt->reset;
    assert_int_equal(socmon_reg_read(cnt, &storage), 0x5);      /* returns, then clears bit 2 */
    assert_int_equal(storage, 0x1);
    assert_int_equal(socmon_reg_read(cnt, &storage), 0x1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_offsets_and_fields),
        cmocka_unit_test(test_access_rules),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
