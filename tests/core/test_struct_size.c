/* The public structs a caller fills and passes in carry a size (issue 24):
 * 0 (a caller that does not set it) and sizeof(the struct) are accepted, any
 * other size is SOCMON_EINVAL naming the struct, the size and the sizes this
 * library knows, before anything is made. One call per struct. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/bus.h"
#include "socmon/device.h"
#include "socmon/metrics.h"
#include "socmon/perf.h"
#include "socmon/recording.h"
#include "socmon/region.h"
#include "socmon/sampler.h"
#include "socmon/target.h"

/* The message names the struct, the size given and the one known. */
static void refused(socmon_status st, const char *type, size_t given, size_t known)
{
    assert_int_equal(st, SOCMON_EINVAL);
    char want[128];
    snprintf(want, sizeof want, "%s.size %zu", type, given);
    assert_non_null(strstr(socmon_errmsg(), want));
    snprintf(want, sizeof want, "0 or %zu", known);
    assert_non_null(strstr(socmon_errmsg(), want));
}

static socmon_status bus_read(void *p, uint64_t a, uint32_t *v)
{
    (void)p, (void)a;
    *v = 0;
    return SOCMON_OK;
}

static socmon_status bus_write(void *p, uint64_t a, uint32_t v)
{
    (void)p, (void)a, (void)v;
    return SOCMON_OK;
}

static socmon_status reg_read(void *m, uint64_t off, uint32_t *v)
{
    (void)m, (void)off;
    *v = 7;
    return SOCMON_OK;
}

static socmon_status reg_write(void *m, uint64_t off, uint32_t v)
{
    (void)m, (void)off, (void)v;
    return SOCMON_OK;
}

static socmon_status dev_read(void *drv, const uint32_t *idx, size_t n, uint64_t *out)
{
    (void)drv, (void)idx;
    memset(out, 0, n * sizeof *out);
    return SOCMON_OK;
}

static void test_bus_ops(void **state)
{
    (void)state;
    socmon_bus_ops ops = {.read32 = bus_read, .write32 = bus_write, .size = 3};
    socmon_bus *b = NULL;
    refused(socmon_bus_new("b", &ops, NULL, &b), "socmon_bus_ops", 3, sizeof ops);
    assert_null(b);
    ops.size = sizeof ops + 8;
    refused(socmon_bus_new("b", &ops, NULL, &b), "socmon_bus_ops", sizeof ops + 8, sizeof ops);
    assert_non_null(strstr(socmon_errmsg(), "newer socmon"));
    ops.size = sizeof ops;
    assert_int_equal(socmon_bus_new("b", &ops, NULL, &b), SOCMON_OK);
    socmon_bus_free(b);
    ops.size = 0;
    assert_int_equal(socmon_bus_new("b", &ops, NULL, &b), SOCMON_OK);
    socmon_bus_free(b);
}

static void test_regmodel_ops(void **state)
{
    (void)state;
    socmon_bus *b = NULL;
    assert_int_equal(socmon_bus_model_new(&b), SOCMON_OK);
    socmon_regmodel_ops ops = {.read = reg_read, .write = reg_write, .size = 1};
    refused(socmon_bus_model_map(b, 0x1000, 0x100, &ops, NULL), "socmon_regmodel_ops", 1, sizeof ops);
    ops.size = sizeof ops;
    assert_int_equal(socmon_bus_model_map(b, 0x1000, 0x100, &ops, NULL), SOCMON_OK);
    uint32_t v = 0;
    assert_int_equal(socmon_bus_read32(b, 0x1000, &v), SOCMON_OK);
    assert_int_equal(v, 7);
    socmon_bus_free(b);
}

static void test_device_ops_and_schema(void **state)
{
    (void)state;
    socmon_device_ops ops = {.read = dev_read, .size = 2};
    socmon_device *d = NULL;
    refused(socmon_device_new("d", &ops, NULL, &d), "socmon_device_ops", 2, sizeof ops);
    assert_null(d);
    ops.size = sizeof ops;
    assert_int_equal(socmon_device_new("d", &ops, NULL, &d), SOCMON_OK);
    socmon_device_free(d);

    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_string("{\"metrics\": []}", "t", &ms), SOCMON_OK);
    socmon_metric_schema sc = {.ncounters = 0, .size = 5};
    socmon_metrics *m = NULL;
    refused(socmon_metrics_bind(ms, &sc, &m), "socmon_metric_schema", 5, sizeof sc);
    assert_null(m);
    sc.size = 0;
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_OK);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
}

static void test_target_ops_and_sampler_opts(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("esp", &t), SOCMON_OK);
    socmon_target_ops ops = *socmon_target_ops_of(t);
    ops.size = sizeof ops - 1;
    socmon_target *t2 = NULL;
    refused(socmon_target_open_ops(&ops, NULL, 0, &t2), "socmon_target_ops", sizeof ops - 1, sizeof ops);
    assert_null(t2);

    socmon_set *set = NULL;
    assert_int_equal(socmon_set_new(socmon_target_device(t), "*.ddr_accesses", &set), SOCMON_OK);
    socmon_sampler_opts o = {.interval_ns = 1000000, .max_intervals = 2, .size = 4};
    refused(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, NULL), "socmon_sampler_opts", 4, sizeof o);
    o.size = sizeof o;
    socmon_sampler_stats st;
    assert_int_equal(socmon_sampler_run(t, set, &o, NULL, NULL, NULL, &st), SOCMON_OK);
    assert_int_equal(st.samples, 3);

    /* the recording writer: refused before the header is written */
    char path[] = "/tmp/socmon_struct_sizeXXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    socmon_recwriter_opts ro = {.level = 3, .size = 9};
    socmon_recwriter *w = NULL;
    refused(socmon_recwriter_open(fd, set, "esp", 1000000, &ro, &w), "socmon_recwriter_opts", 9, sizeof ro);
    assert_null(w);
    assert_int_equal(lseek(fd, 0, SEEK_END), 0);
    close(fd);
    unlink(path);
    socmon_set_free(set);
    socmon_target_close(t);
}

static void test_perf_and_regions_opts(void **state)
{
    (void)state;
    socmon_perf_attr ev;
    assert_int_equal(socmon_perf_event_parse("task-clock", NULL, &ev), SOCMON_OK);
    socmon_perf_opts po = {.events = &ev, .nevents = 1, .size = 6};
    socmon_device *d = NULL;
    refused(socmon_perf_device_new("perf", &po, &d), "socmon_perf_opts", 6, sizeof po);
    assert_null(d);
    socmon_regions_opts ro = {.path = "/nonexistent/never-written.rec", .size = 7};
    socmon_regions *r = NULL;
    refused(socmon_regions_open(&ro, &r), "socmon_regions_opts", 7, sizeof ro);
    assert_null(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bus_ops),
        cmocka_unit_test(test_regmodel_ops),
        cmocka_unit_test(test_device_ops_and_schema),
        cmocka_unit_test(test_target_ops_and_sampler_opts),
        cmocka_unit_test(test_perf_and_regions_opts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
