/* The version macros and functions agree with each other and with the
 * library's build (CMake reads the numbers from socmon/version.h and passes
 * the project version here, so a second copy of the version anywhere would
 * show up as a mismatch). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "socmon/socmon.h"

static void test_macros_and_functions_agree(void **state)
{
    assert_string_equal(socmon_version(), SOCMON_VERSION);
    assert_int_equal(socmon_version_number(), SOCMON_VERSION_NUMBER);
    unsigned ma, mi, pa;
    char tail;
    assert_int_equal(sscanf(SOCMON_VERSION, "%u.%u.%u%c", &ma, &mi, &pa, &tail), 3);
    assert_int_equal(ma, SOCMON_VERSION_MAJOR);
    assert_int_equal(mi, SOCMON_VERSION_MINOR);
    assert_int_equal(pa, SOCMON_VERSION_PATCH);
    assert_int_equal(SOCMON_VERSION_NUMBER, ma * 10000 + mi * 100 + pa);
}

static void test_equals_project_version(void **state)
{
    assert_string_equal(SOCMON_VERSION, SOCMON_PROJECT_VERSION);
}

static void test_number_keeps_order(void **state)
{
    /* Two decimal digits each for minor and patch, or 0.100.0 would equal
     * 1.0.0 and comparisons of SOCMON_VERSION_NUMBER would lie. */
    assert_true(SOCMON_VERSION_MINOR < 100);
    assert_true(SOCMON_VERSION_PATCH < 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_macros_and_functions_agree),
        cmocka_unit_test(test_equals_project_version),
        cmocka_unit_test(test_number_keeps_order),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
