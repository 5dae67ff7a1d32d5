/* The "esp" target: options, workloads, a run of the default workload read
 * through the device, and the hardware path over a file standing in for /dev/mem. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "models/esp/esp_soc.h"
#include "socmon/socmon.h"

static void test_workloads_match_model(void **state)
{
    const socmon_target_ops *ops = socmon_target_lookup("esp");
    assert_non_null(ops);
    const char *const *w = socmon_esp_workloads();
    size_t i = 0;
    for (; w[i]; i++) {
        assert_non_null(ops->workloads[i]);
        assert_string_equal(ops->workloads[i], w[i]);
    }
    /* then the two that take arguments: the chosen NoC traffic (docs/esp-model.md) */
    assert_non_null(ops->workloads[i]);
    assert_string_equal(ops->workloads[i++], "noc-trace:FILE");
    assert_non_null(ops->workloads[i]);
    assert_true(strncmp(ops->workloads[i++], "noc:pattern=", 12) == 0);
    assert_null(ops->workloads[i]);
    assert_true(socmon_target_has_workload(ops, "noc-trace:any/file.trace"));
    assert_true(socmon_target_has_workload(ops, "noc:pattern=uniform"));
    assert_true(socmon_target_has_workload(ops, "idle"));
    assert_false(socmon_target_has_workload(ops, "noc-trace"));
    assert_false(socmon_target_has_workload(ops, "idle:x"));
    assert_false(socmon_target_has_workload(ops, "noc"));
    assert_string_equal(ops->metrics, "esp");
    assert_string_equal(ops->hotspots, "*.noc_out_*");
    socmon_metricset *ms = NULL;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("esp", &t), SOCMON_OK);
    assert_int_equal(socmon_target_metrics(t, &ms), SOCMON_OK);
    assert_true(socmon_metricset_count(ms) > 10);
    socmon_metricset_free(ms);
    socmon_target_close(t);
}

static void test_bad_options(void **state)
{
    static const struct {
        const char *spec, *msg;
    } cases[] = {
        {"esp:bogus=1", "unknown option 'bogus'"},
        {"esp:devmem=2", "devmem=2 must be 0 or 1"},
        {"esp:base=0x3", "base=0x3 is not a 4-byte-aligned address"},
        {"esp:base=zz", "base=zz"},
        {"esp:soc=/nonexistent/x.soc", "/nonexistent/x.soc"},
        {"esp:devmem=1,dev=/nonexistent/mem", "/nonexistent/mem"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        socmon_target *t = NULL;
        socmon_status st = socmon_target_open(cases[i].spec, &t);
        if (st == SOCMON_OK || !strstr(socmon_errmsg(), cases[i].msg))
            fail_msg("%s: status %s, message '%s'", cases[i].spec, socmon_status_name(st),
                     socmon_errmsg());
        assert_null(t);
    }
}

/* The default workload runs to completion; its accelerator work shows in the
 * device's counters, read through a set like `socmon stat` does. */
static void test_multifft_run(void **state)
{
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("esp", &t), SOCMON_OK);
    assert_int_equal(socmon_target_start(t, "multifft"), SOCMON_OK);
    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(socmon_target_device(t),
                                    "*.acc_invocations,*.acc_tot_cycles,tile1.ddr_accesses,"
                                    "tile0.dvfs_op*",
                                    &set),
                     SOCMON_OK);
    socmon_sample a, b;
    assert_int_equal(socmon_sample_alloc(set, &a), SOCMON_OK);
    assert_int_equal(socmon_sample_alloc(set, &b), SOCMON_OK);
    assert_int_equal(socmon_set_read(set, socmon_target_now_ns(t), &a), SOCMON_OK);
    int done = 0;
    for (int i = 0; i < 100000 && !done; i++)
        assert_int_equal(socmon_target_advance(t, 100000, &done), SOCMON_OK);
    assert_true(done);
    assert_int_equal(socmon_set_read(set, socmon_target_now_ns(t), &b), SOCMON_OK);
    uint64_t d[16];
    assert_true(socmon_set_size(set) <= 16);
    assert_int_equal(socmon_set_diff(set, &a, &b, d), SOCMON_OK);
    uint64_t inv = 0, ddr = 0, dvfs = 0;
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const char *n = socmon_set_full_name(set, i);
        if (strstr(n, "acc_invocations"))
            inv += d[i];
        if (strstr(n, "ddr_accesses"))
            ddr += d[i];
        if (strstr(n, "dvfs_op"))
            dvfs += d[i];
    }
    assert_true(inv > 0);
    assert_true(ddr > 0);
    /* tile 0's op-point cycles add up to the time that passed. */
    double cycles = (b.t_ns - a.t_ns) * 78e6 / 1e9;
    assert_true(dvfs > 0.99 * cycles && dvfs < 1.01 * cycles + 2);
    socmon_sample_free(&a);
    socmon_sample_free(&b);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_devmem_file(void **state)
{
    char path[] = "/tmp/socmon_esp_targetXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    assert_int_equal(ftruncate(fd, 0x1000 + 6 * 0x200), 0);
    uint32_t v = 424242;   /* tile 3: acc_invocations (monitor 18) */
    assert_int_equal(pwrite(fd, &v, 4, 0x1000 + 3 * 0x200 + 4 * 19), 4);
    char spec[256];
    snprintf(spec, sizeof spec, "esp:devmem=1,base=0x1000,dev=%s", path);
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), SOCMON_OK);
    uint32_t idx;
    assert_int_equal(socmon_device_find(socmon_target_device(t), "tile3.acc_invocations", &idx),
                     SOCMON_OK);
    uint64_t out = 0;
    assert_int_equal(socmon_device_read(socmon_target_device(t), &idx, 1, &out), SOCMON_OK);
    assert_int_equal(out, 424242);
    /* The target's bus answers at the model's addresses (monitor base +
     * tile * 0x200 + 4 * (monitor + 1)), not at offsets in the mapping. */
    socmon_bus *bus = socmon_target_bus(t);
    uint32_t w = 0;
    assert_int_equal(socmon_bus_read32(bus, 0x1000 + 3 * 0x200 + 4 * 19, &w), SOCMON_OK);
    assert_int_equal(w, 424242);
    assert_int_equal(socmon_bus_read32(bus, 3 * 0x200 + 4 * 19, &w), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "outside the window 0x1000..0x1bff"));
    assert_int_equal(socmon_target_start(t, "multifft"), SOCMON_ENOTSUP);
    uint64_t t0 = socmon_target_now_ns(t);
    int done = 1;
    assert_int_equal(socmon_target_advance(t, 1000000, &done), SOCMON_OK);
    assert_int_equal(done, 0);
    assert_true(socmon_target_now_ns(t) - t0 >= 1000000);   /* real time passed */
    socmon_target_close(t);
    close(fd);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_workloads_match_model),
        cmocka_unit_test(test_bad_options),
        cmocka_unit_test(test_multifft_run),
        cmocka_unit_test(test_devmem_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
