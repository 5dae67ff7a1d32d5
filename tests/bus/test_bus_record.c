/* The recording bus: it passes every access through unchanged and reports
 * each one, failures included, in order. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/bus.h"

/* A 16-register model at 0x100: reads give back what was written. */
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

typedef struct log {
    socmon_bus_access acc[32];
    size_t n;
} log_t;

static void log_fn(void *user, const socmon_bus_access *acc)
{
    log_t *l = user;
    if (l->n < 32)
        l->acc[l->n++] = *acc;
}

static socmon_bus *model(regfile *rf)
{
    socmon_bus *bus;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x100, 0x40, &rf_ops, rf), SOCMON_OK);
    return bus;
}

static void test_callback_sees_every_access(void **state)
{
    regfile rf = {0};
    log_t l = {0};
    socmon_bus *inner = model(&rf), *rec;
    assert_int_equal(socmon_bus_record_new(inner, log_fn, &l, &rec), SOCMON_OK);
    assert_non_null(strstr(socmon_bus_name(rec), "model"));

    uint32_t v = 0;
    assert_int_equal(socmon_bus_write32(rec, 0x104, 42), SOCMON_OK);
    assert_int_equal(rf.r[1], 42); /* reached the model */
    assert_int_equal(socmon_bus_read32(rec, 0x104, &v), SOCMON_OK);
    assert_int_equal(v, 42);
    socmon_bus_fence(rec);
    assert_int_equal(socmon_bus_read32(rec, 0x200, &v), SOCMON_EIO); /* unmapped */
    assert_non_null(strstr(socmon_errmsg(), "0x200")); /* the inner message survives */

    assert_int_equal(l.n, 4);
    assert_int_equal(l.acc[0].op, 'W');
    assert_int_equal(l.acc[0].addr, 0x104);
    assert_int_equal(l.acc[0].val, 42);
    assert_int_equal(l.acc[0].st, SOCMON_OK);
    assert_int_equal(l.acc[1].op, 'R');
    assert_int_equal(l.acc[1].val, 42);
    assert_int_equal(l.acc[2].op, 'F');
    assert_int_equal(l.acc[3].op, 'R');
    assert_int_equal(l.acc[3].addr, 0x200);
    assert_int_equal(l.acc[3].st, SOCMON_EIO);

    /* both buses count: the recorder its callers' accesses, the inner bus its own */
    socmon_bus_stats s;
    socmon_bus_stats_get(inner, &s);
    assert_int_equal(s.reads, 2);
    assert_int_equal(s.writes, 1);
    assert_int_equal(s.fences, 1);
    assert_int_equal(s.errors, 1);

    socmon_bus_free(rec);
    /* the inner bus is not owned: still usable */
    assert_int_equal(socmon_bus_read32(inner, 0x104, &v), SOCMON_OK);
    assert_int_equal(v, 42);
    socmon_bus_free(inner);
}

static void test_hilohi_through_recorder(void **state)
{
    regfile rf = {0};
    rf.r[2] = 0x89abcdef; /* lo at 0x108 */
    rf.r[3] = 0x01234567; /* hi at 0x10c */
    log_t l = {0};
    socmon_bus *inner = model(&rf), *rec;
    assert_int_equal(socmon_bus_record_new(inner, log_fn, &l, &rec), SOCMON_OK);
    uint64_t v;
    assert_int_equal(socmon_bus_read64_hilohi(rec, 0x108, 0x10c, 0, &v), SOCMON_OK);
    assert_int_equal(v, 0x0123456789abcdefull);
    assert_int_equal(l.n, 3);
    assert_int_equal(l.acc[0].addr, 0x10c);
    assert_int_equal(l.acc[1].addr, 0x108);
    assert_int_equal(l.acc[2].addr, 0x10c);
    socmon_bus_free(rec);
    socmon_bus_free(inner);
}

static void test_file_lines(void **state)
{
    regfile rf = {0};
    rf.r[1] = 0x2a;
    socmon_bus *inner = model(&rf), *rec;
    char *buf = NULL;
    size_t len = 0;
    FILE *fp = open_memstream(&buf, &len);
    assert_non_null(fp);
    assert_int_equal(socmon_bus_record_file(inner, fp, &rec), SOCMON_OK);
    uint32_t v;
    assert_int_equal(socmon_bus_read32(rec, 0x104, &v), SOCMON_OK);
    assert_int_equal(socmon_bus_write32(rec, 0x13c, 0xdeadbeef), SOCMON_OK);
    socmon_bus_fence(rec);
    assert_int_equal(socmon_bus_read32(rec, 0x102, &v), SOCMON_EIO);
    assert_int_equal(socmon_bus_write32(rec, 0x1234567890ull, 1), SOCMON_EIO);
    /* a 64-bit access is logged as the driver made it: one line, 16 digits */
    uint64_t v64;
    assert_int_equal(socmon_bus_write64(rec, 0x108, 0x0000000700000005ull), SOCMON_OK);
    assert_int_equal(socmon_bus_read64(rec, 0x108, &v64), SOCMON_OK);
    assert_true(v64 == 0x0000000700000005ull);
    socmon_bus_free(rec);
    fclose(fp);
    assert_string_equal(buf, "R 0x00000104 = 0x0000002a\n"
                             "W 0x0000013c = 0xdeadbeef\n"
                             "F\n"
                             "R 0x00000102 = 0x00000000 ! SOCMON_EIO\n"
                             "W 0x1234567890 = 0x00000001 ! SOCMON_EIO\n"
                             "W 0x00000108 = 0x0000000700000005\n"
                             "R 0x00000108 = 0x0000000700000005\n");
    free(buf);
    socmon_bus_free(inner);
}

static void test_bad_arguments(void **state)
{
    regfile rf = {0};
    log_t l = {0};
    socmon_bus *inner = model(&rf), *rec = (socmon_bus *)1;
    assert_int_equal(socmon_bus_record_new(NULL, log_fn, &l, &rec), SOCMON_EINVAL);
    assert_null(rec);
    assert_non_null(strstr(socmon_errmsg(), "inner"));
    assert_int_equal(socmon_bus_record_new(inner, NULL, &l, &rec), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "callback"));
    assert_int_equal(socmon_bus_record_new(inner, log_fn, &l, NULL), SOCMON_EINVAL);
    rec = (socmon_bus *)1;
    assert_int_equal(socmon_bus_record_file(inner, NULL, &rec), SOCMON_EINVAL);
    assert_null(rec);
    assert_non_null(strstr(socmon_errmsg(), "FILE"));
    socmon_bus_free(inner);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_callback_sees_every_access),
        cmocka_unit_test(test_hilohi_through_recorder),
        cmocka_unit_test(test_file_lines),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
