/* Growable arrays (core/grow.h): room appears only when the array is full,
 * capacity doubles from the first size, contents survive, and an impossible
 * size leaves the array as it was. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdlib.h>

#include "core/grow.h"

static void test_doubles_and_keeps_contents(void **state)
{
    int *a = NULL;
    size_t cap = 0, n = 0;
    for (int i = 0; i < 100; i++) {
        assert_int_equal(SOCMON_GROW(a, cap, n, 4), 0);
        assert_true(cap > n);
        a[n++] = i;
    }
    assert_int_equal(cap, 128); /* 4, 8, ..., 128 */
    for (int i = 0; i < 100; i++)
        assert_int_equal(a[i], i);
    int *before = a;
    assert_int_equal(SOCMON_GROW(a, cap, 100, 4), 0); /* not full: nothing moves */
    assert_ptr_equal(a, before);
    assert_int_equal(cap, 128);
    free(a);
}

static void test_overflow_leaves_array(void **state)
{
    char *a = malloc(4);
    assert_non_null(a);
    size_t cap = SIZE_MAX / 2 + 1;   /* doubling would wrap */
    assert_int_equal(smn_grow(&a, &cap, cap, 1, 4), -1);
    assert_int_equal(cap, SIZE_MAX / 2 + 1);
    size_t cap2 = 8;
    assert_int_equal(smn_grow(&a, &cap2, 8, SIZE_MAX / 8, 4), -1); /* 16 * elem overflows */
    assert_int_equal(cap2, 8);
    free(a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_doubles_and_keeps_contents),
        cmocka_unit_test(test_overflow_leaves_array),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
