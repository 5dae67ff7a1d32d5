/* The window bus (src/bus/window_bus.h): an inner bus at offsets 0..size-1
 * answers at base..base+size-1, 64-bit accesses pass whole, and any access
 * outside the window, or straddling its end, is refused with a message naming
 * the address and the window, never passed on. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bus/window_bus.h"
#include "socmon/status.h"

/* 16 registers at offset 0: reads give back what was written. */
typedef struct regfile {
    uint32_t r[16];
} regfile;

static socmon_status rf_read(void *model, uint64_t off, uint32_t *val)
{
    *val = ((regfile *)model)->r[off / 4];
    return SOCMON_OK;
}

static socmon_status rf_write(void *model, uint64_t off, uint32_t val)
{
    ((regfile *)model)->r[off / 4] = val;
    return SOCMON_OK;
}

static const socmon_regmodel_ops rf_ops = {.read = rf_read, .write = rf_write};

#define BASE 0x60090000ull

static socmon_bus *windowed(regfile *rf)
{
    socmon_bus *inner, *w;
    assert_int_equal(socmon_bus_model_new(&inner), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(inner, 0, sizeof rf->r, &rf_ops, rf), SOCMON_OK);
    assert_int_equal(smn_bus_window_new(inner, BASE, sizeof rf->r, &w), SOCMON_OK);
    return w;   /* owns inner */
}

static void test_moves_addresses(void **state)
{
    regfile rf = {0};
    rf.r[1] = 0x2a;
    socmon_bus *w = windowed(&rf);
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(w, BASE + 4, &v), SOCMON_OK);
    assert_int_equal(v, 0x2a);
    assert_int_equal(socmon_bus_write32(w, BASE + 60, 7), SOCMON_OK);
    assert_int_equal(rf.r[15], 7);
    uint64_t v64 = 0;
    rf.r[2] = 0x11111111;
    rf.r[3] = 0x22222222;
    assert_int_equal(socmon_bus_read64(w, BASE + 8, &v64), SOCMON_OK);
    assert_true(v64 == 0x2222222211111111ull);
    assert_int_equal(socmon_bus_write64(w, BASE + 56, 0x0000000500000004ull), SOCMON_OK);
    assert_int_equal(rf.r[14], 4);
    assert_int_equal(rf.r[15], 5);
    assert_non_null(strstr(socmon_bus_name(w), "0x60090000"));
    socmon_bus_free(w);
}

static void test_refuses_outside(void **state)
{
    regfile rf = {0};
    socmon_bus *w = windowed(&rf);
    uint32_t v = 0;
    /* offset 4 of the inner bus exists, but address 4 is not in the window */
    assert_int_equal(socmon_bus_read32(w, 4, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "access at 0x4 outside the window 0x60090000..0x6009003f"));
    assert_int_equal(socmon_bus_read32(w, BASE - 4, &v), SOCMON_EIO);
    assert_int_equal(socmon_bus_write32(w, BASE + 64, 1), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x60090040"));
    uint64_t v64 = 0;
    assert_int_equal(socmon_bus_read64(w, BASE + 60, &v64), SOCMON_EIO);   /* straddles the end */
    assert_non_null(strstr(socmon_errmsg(), "8-byte access at 0x6009003c"));
    assert_int_equal(socmon_bus_write64(w, BASE + 60, 1), SOCMON_EIO);
    for (int i = 0; i < 16; i++)
        assert_int_equal(rf.r[i], 0);   /* nothing leaked through */
    socmon_bus_free(w);
}

static void test_bad_arguments(void **state)
{
    socmon_bus *inner, *w = (socmon_bus *)&w;
    assert_int_equal(socmon_bus_model_new(&inner), SOCMON_OK);
    assert_int_equal(smn_bus_window_new(NULL, BASE, 16, &w), SOCMON_EINVAL);
    assert_null(w);
    assert_int_equal(smn_bus_window_new(inner, BASE, 0, &w), SOCMON_ERANGE);
    assert_int_equal(smn_bus_window_new(inner, UINT64_MAX - 3, 16, &w), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "wraps"));
    assert_int_equal(smn_bus_window_new(inner, BASE, 16, NULL), SOCMON_EINVAL);
    socmon_bus_free(inner);   /* failures left it with the caller */
}

/* Two windows as one bus (Zynq's board: the APM through UIO, the PMUs through /dev/mem): each
 * access reaches its own block at its offset, an address between them reaches neither, and
 * overlapping windows are refused. */
static socmon_bus *model_of(regfile *rf)
{
    socmon_bus *b;
    assert_int_equal(socmon_bus_model_new(&b), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(b, 0, sizeof rf->r, &rf_ops, rf), SOCMON_OK);
    return b;
}

static void test_two_windows(void **state)
{
    (void)state;
    regfile apm = {0}, pmu = {0};
    smn_bus_window w[2] = {{.inner = model_of(&apm), .base = 0xF8007000ull, .size = 64},
                           {.inner = model_of(&pmu), .base = 0xF8891000ull, .size = 64}};
    socmon_bus *b = NULL;
    assert_int_equal(smn_bus_windows_new("board", w, 2, &b), SOCMON_OK);
    assert_string_equal(socmon_bus_name(b), "board");
    assert_int_equal(socmon_bus_write32(b, 0xF8007008ull, 3), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(b, 0xF8891008ull, 5), SOCMON_OK);
    assert_int_equal(apm.r[2], 3);
    assert_int_equal(pmu.r[2], 5);
    uint64_t v64 = 0;
    assert_int_equal(socmon_bus_read64(b, 0xF8891008ull, &v64), SOCMON_OK);
    assert_true(v64 == 5);
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(b, 0xF8800000ull, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "board: 4-byte access at 0xf8800000 is in none of its 2 windows"));
    assert_int_equal(socmon_bus_read64(b, 0xF800703Cull, &v64), SOCMON_EIO);   /* straddles the APM's end */
    socmon_bus_free(b);   /* frees both inner buses (the leak check of the sanitizer runs holds it) */

    socmon_bus *x = model_of(&apm), *y = model_of(&pmu);
    smn_bus_window over[2] = {{.inner = x, .base = 0x1000, .size = 0x100}, {.inner = y, .base = 0x10F0, .size = 0x10}};
    assert_int_equal(smn_bus_windows_new("x", over, 2, &b), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "overlap"));
    assert_null(b);
    assert_int_equal(smn_bus_windows_new("x", over, 0, &b), SOCMON_EINVAL);
    assert_int_equal(smn_bus_windows_new("x", over, 9, &b), SOCMON_EINVAL);
    socmon_bus_free(x);
    socmon_bus_free(y);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_moves_addresses),
        cmocka_unit_test(test_refuses_outside),
        cmocka_unit_test(test_bad_arguments),
        cmocka_unit_test(test_two_windows),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
