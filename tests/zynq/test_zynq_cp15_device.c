/* socmon's A9 PMU device through CP15 (smn_za9_cp15_device_new) reads
 * what the window device (smn_za9_device_new) reads: two identical
 * models running the same workload, one read through each path, give the
 * same counters with the same names at every step. The CP15 path never
 * touches the CoreSight lock (spec §5.1: the lock is the window's). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "drivers/zynq/zynq_drv.h"
#include "zynq_cp15_helper.h"

static void test_same_counters_both_ways(void **state)
{
    cfx **pair = *state, *a = pair[0], *b = pair[1];
    smn_za9_config cfg;
    smn_za9_config_spa(&cfg, 500e6);
    cfg.ccnt_div64 = 1;
    socmon_cp15 cps[2];
    for (unsigned k = 0; k < 2; k++)
        assert_int_equal(socmon_zynq_cp15_of(b->soc, k, &cps[k]), SOCMON_OK);
    socmon_device *win, *cp;
    assert_int_equal(smn_za9_device_new(a->bus, &cfg, &win), SOCMON_OK);
    assert_int_equal(smn_za9_cp15_device_new(cps, &cfg, &cp), SOCMON_OK);
    size_t n = socmon_device_ncounters(win);
    assert_int_equal(n, 2 * 7);
    assert_int_equal(socmon_device_ncounters(cp), n);
    for (size_t i = 0; i < n; i++) {
        const socmon_counter *x = socmon_device_counter(win, i), *y = socmon_device_counter(cp, i);
        assert_string_equal(socmon_device_full_name(win, i), socmon_device_full_name(cp, i));
        assert_int_equal(x->width, y->width);
    }
    assert_int_equal(socmon_zynq_soc_start(a->soc, "mixed", 0), SOCMON_OK);
    assert_int_equal(socmon_zynq_soc_start(b->soc, "mixed", 0), SOCMON_OK);
    uint32_t idx[14];
    for (unsigned i = 0; i < n; i++)
        idx[i] = i;
    for (unsigned step = 0; step < 8; step++) {
        uint64_t va[14], vb[14];
        assert_int_equal(socmon_zynq_soc_advance(a->soc, 100000000, NULL), SOCMON_OK);
        assert_int_equal(socmon_zynq_soc_advance(b->soc, 100000000, NULL), SOCMON_OK);
        assert_int_equal(socmon_device_read(win, idx, n, va), SOCMON_OK);
        assert_int_equal(socmon_device_read(cp, idx, n, vb), SOCMON_OK);
        for (size_t i = 0; i < n; i++)
            assert_int_equal(va[i], vb[i]);
        assert_true(va[0] > 0 && va[1] > 0);   /* cpu0 ccnt and inst_rename count */
    }
    /* the CP15 path left model b's windows locked; the window path unlocked a's */
    assert_int_equal(win_rd(b, 0, 0xFB4), 0x3);
    assert_int_equal(win_rd(a, 0, 0xFB4), 0x1);
    socmon_device_free(win);
    socmon_device_free(cp);
}

static void test_bad_arguments(void **state)
{
    cfx **pair = *state, *b = pair[1];
    smn_za9_config cfg;
    smn_za9_config_spa(&cfg, 500e6);
    socmon_cp15 cps[2];
    socmon_device *dev = NULL;
    for (unsigned k = 0; k < 2; k++)
        assert_int_equal(socmon_zynq_cp15_of(b->soc, k, &cps[k]), SOCMON_OK);
    cps[1].write = NULL;
    assert_int_equal(smn_za9_cp15_device_new(cps, &cfg, &dev), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "core 1"));
    assert_int_equal(smn_za9_cp15_device_new(NULL, &cfg, &dev), SOCMON_EINVAL);
    assert_int_equal(smn_za9_cp15_device_new(cps, &cfg, NULL), SOCMON_EINVAL);
    cps[1] = cps[0];
    cfg.events[2] = 0x08;   /* not implemented on the A9 (spec §5.2) */
    assert_int_equal(smn_za9_cp15_device_new(cps, &cfg, &dev), SOCMON_ENOENT);
    assert_null(dev);
}

static int setup2(void **state)
{
    static cfx *pair[2];
    void *s;
    cfx_setup(&s);
    pair[0] = s;
    cfx_setup(&s);
    pair[1] = s;
    *state = pair;
    return 0;
}

static int teardown2(void **state)
{
    cfx **pair = *state;
    void *s = pair[0];
    cfx_teardown(&s);
    s = pair[1];
    cfx_teardown(&s);
    return 0;
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_same_counters_both_ways, setup2, teardown2),
        cmocka_unit_test_setup_teardown(test_bad_arguments, setup2, teardown2),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
