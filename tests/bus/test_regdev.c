/* regdev: a device whose counters are plain registers or lo/hi pairs. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "bus/bus_internal.h"
#include "drivers/generic/regdev.h"
#include "socmon/bus.h"

/* 8 registers at 0x400. Register 7 holds the high word of a 64-bit counter
 * whose low word is register 6; each access to either advances that counter
 * by `step`, as a running counter would between bus reads. */
typedef struct regs {
    uint32_t r[6];
    uint64_t ctr, step;
} regs;

static socmon_status regs_read(void *model, uint64_t off, uint32_t *val)
{
    regs *m = model;
    size_t i = off / 4;
    if (i < 6) {
        *val = m->r[i];
        return SOCMON_OK;
    }
    *val = i == 6 ? (uint32_t)m->ctr : (uint32_t)(m->ctr >> 32);
    m->ctr += m->step;
    return SOCMON_OK;
}

static const socmon_regmodel_ops regs_ops = {.read = regs_read};

#define B 0x400u

static const socmon_counter ctrs[] = {
    {.name = "cycles", .instance = "core0", .desc = "clock cycles", .unit = "cycles",
     .width = 32, .reg = B + 0x0},
    {.name = "narrow", .instance = "core0", .unit = "events", .width = 12, .reg = B + 0x4},
    {.name = "bytes", .instance = "", .unit = "bytes", .width = 64, .reg = B + 0x18,
     .reg_hi = B + 0x1c},
    {.name = "wide48", .instance = "core1", .unit = "events", .width = 48, .reg = B + 0x18,
     .reg_hi = B + 0x1c},
    {.name = "last", .instance = "core1", .unit = "events", .width = 1, .reg = B + 0x14},
};
#define NC (sizeof ctrs / sizeof ctrs[0])

typedef struct fx {
    regs m;
    socmon_bus *bus;
    socmon_device *dev;
} fx;

static int setup(void **state)
{
    static fx f;
    memset(&f, 0, sizeof f);
    if (socmon_bus_model_new(&f.bus) != SOCMON_OK ||
        socmon_bus_model_map(f.bus, B, 0x20, &regs_ops, &f.m) != SOCMON_OK ||
        smn_regdev_new("regs", f.bus, ctrs, NC, &f.dev) != SOCMON_OK)
        return -1;
    *state = &f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_device_free(f->dev);
    /* the device did not own the bus: it is still ours to use and free */
    uint32_t v;
    int bad = socmon_bus_read32(f->bus, B, &v) != SOCMON_OK;
    socmon_bus_free(f->bus);
    return bad ? -1 : 0;
}

static void test_schema_copied(void **state)
{
    fx *f = *state;
    assert_string_equal(socmon_device_name(f->dev), "regs");
    assert_int_equal(socmon_device_ncounters(f->dev), NC);
    for (size_t i = 0; i < NC; i++) {
        const socmon_counter *c = socmon_device_counter(f->dev, i);
        assert_non_null(c);
        assert_string_equal(c->name, ctrs[i].name);
        assert_int_equal(c->width, ctrs[i].width);
        assert_int_equal(c->reg, ctrs[i].reg);
        assert_int_equal(c->reg_hi, ctrs[i].reg_hi);
    }
    assert_string_equal(socmon_device_full_name(f->dev, 0), "core0.cycles");
    assert_string_equal(socmon_device_full_name(f->dev, 2), "bytes");
}

static void test_values_masked_to_width(void **state)
{
    fx *f = *state;
    f->m.r[0] = 0xfedcba98;
    f->m.r[1] = 0xfedcba98;
    f->m.r[5] = 0x3;
    f->m.ctr = 0xfedcba9876543210ull;
    f->m.step = 0;
    uint32_t idx[] = {4, 3, 2, 1, 0};
    uint64_t out[5];
    assert_int_equal(socmon_device_read(f->dev, idx, 5, out), SOCMON_OK);
    assert_int_equal(out[0], 1);                       /* width 1 */
    assert_int_equal(out[1], 0xba9876543210ull);       /* width 48 */
    assert_int_equal(out[2], 0xfedcba9876543210ull);   /* width 64 */
    assert_int_equal(out[3], 0xa98);                   /* width 12 */
    assert_int_equal(out[4], 0xfedcba98);              /* width 32 */
}

static void test_bus_reads_per_counter(void **state)
{
    fx *f = *state;
    socmon_bus_stats s;
    uint64_t v;
    uint32_t i32 = 0, i64 = 2;
    socmon_bus_stats_reset(f->bus);
    assert_int_equal(socmon_device_read(f->dev, &i32, 1, &v), SOCMON_OK);
    socmon_bus_stats_get(f->bus, &s);
    assert_int_equal(s.reads, 1);
    socmon_bus_stats_reset(f->bus);
    f->m.step = 0;
    assert_int_equal(socmon_device_read(f->dev, &i64, 1, &v), SOCMON_OK);
    socmon_bus_stats_get(f->bus, &s);
    assert_int_equal(s.reads, 3);
    assert_int_equal(s.writes, 0);
}

/* The split counter read at every position relative to a carry is never torn. */
static void test_split_counter_across_carry(void **state)
{
    fx *f = *state;
    uint32_t idx = 2;
    for (uint64_t step = 1; step < 5000; step = step * 3 + 1) {
        for (uint64_t j = 0; j < 8; j++) {
            uint64_t start = 0x0000002a00000000ull - j * step, v;
            f->m.ctr = start;
            f->m.step = step;
            assert_int_equal(socmon_device_read(f->dev, &idx, 1, &v), SOCMON_OK);
            assert_true(v >= start && v <= f->m.ctr);
        }
    }
}

static void test_read_errors_name_counter(void **state)
{
    fx *f = *state;
    socmon_bus *other;
    socmon_device *dev;
    /* a counter whose register is not mapped */
    const socmon_counter bad = {.name = "ghost", .instance = "core9", .width = 32, .reg = 0x9000};
    assert_int_equal(socmon_bus_model_new(&other), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(other, B, 0x20, &regs_ops, &f->m), SOCMON_OK);
    assert_int_equal(smn_regdev_new("holey", other, &bad, 1, &dev), SOCMON_OK);
    uint32_t i = 0;
    uint64_t v;
    assert_int_equal(socmon_device_read(dev, &i, 1, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "holey"));
    assert_non_null(strstr(socmon_errmsg(), "core9.ghost"));
    assert_non_null(strstr(socmon_errmsg(), "0x9000"));
    i = 1;
    assert_int_equal(socmon_device_read(dev, &i, 1, &v), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "index 1 out of range 0..0"));
    socmon_device_free(dev);
    socmon_bus_free(other);
}

static void test_bad_tables(void **state)
{
    fx *f = *state;
    socmon_device *dev = (socmon_device *)1;
    socmon_counter c = {.name = "big", .instance = "x", .width = 40, .reg = B};
    assert_int_equal(smn_regdev_new("t", f->bus, &c, 1, &dev), SOCMON_EINVAL);
    assert_null(dev);
    assert_non_null(strstr(socmon_errmsg(), "width 40"));
    assert_non_null(strstr(socmon_errmsg(), "big"));

    c.width = 64;
    c.reg_hi = B;
    assert_int_equal(smn_regdev_new("t", f->bus, &c, 1, &dev), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "reg_hi 0x400"));

    /* the device layer's own checks come through, with the counter's position */
    c.reg_hi = B + 4;
    c.width = 0;
    assert_int_equal(smn_regdev_new("t", f->bus, &c, 1, &dev), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "width 0"));
    socmon_counter two[2] = {{.name = "a", .width = 8, .reg = B}, {.name = "a", .width = 8, .reg = B + 4}};
    assert_int_equal(smn_regdev_new("t", f->bus, two, 2, &dev), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "counter 1"));
    assert_non_null(strstr(socmon_errmsg(), "duplicate"));
    assert_null(dev);

    assert_int_equal(smn_regdev_new("t", NULL, ctrs, NC, &dev), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "bus"));
    assert_int_equal(smn_regdev_new("", f->bus, ctrs, NC, &dev), SOCMON_EINVAL);
    assert_int_equal(smn_regdev_new("t", f->bus, NULL, 3, &dev), SOCMON_EINVAL);
    assert_int_equal(smn_regdev_new("t", f->bus, ctrs, NC, NULL), SOCMON_EINVAL);

    /* an empty table is a valid, empty device */
    assert_int_equal(smn_regdev_new("empty", f->bus, NULL, 0, &dev), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(dev), 0);
    socmon_device_free(dev);
}

/* A block of 64-bit registers (hw/ibex_csr.h's per-function table): counters from whole_from on
 * whose reg_hi is reg + 4 are read with one 64-bit access where the region has them, the others
 * hi-lo-hi; on a region without 64-bit callbacks the same counters are read hi-lo-hi. */
typedef struct wide64 {
    uint64_t reg[4];
    unsigned r32, r64, calls;   /* 32-bit reads, 64-bit reads, run reads */
} wide64;

static socmon_status wide_read(void *model, uint64_t off, uint32_t *val)
{
    wide64 *w = model;
    w->r32++;
    *val = (uint32_t)(w->reg[off / 8 % 4] >> (off % 8 ? 32 : 0));
    return SOCMON_OK;
}

static socmon_status wide_read64(void *model, uint64_t off, uint64_t *val)
{
    wide64 *w = model;
    w->r64++;
    *val = w->reg[off / 8 % 4];
    return SOCMON_OK;
}

static void test_whole_64bit_registers(void **state)
{
    (void)state;
    static const socmon_regmodel_ops wide_ops = {.read = wide_read, .read64 = wide_read64},
                                     split_ops = {.read = wide_read};
    const socmon_counter cs[] = {
        {.name = "a", .instance = "", .unit = "events", .width = 64, .reg = 0x100, .reg_hi = 0x104},
        {.name = "b", .instance = "", .unit = "events", .width = 64, .reg = 0x108, .reg_hi = 0x10c},
        {.name = "c", .instance = "", .unit = "events", .width = 40, .reg = 0x110, .reg_hi = 0x114},
    };
    for (int split = 0; split < 2; split++) {
        wide64 w = {.reg = {0x1111222233334444ull, 0x5555666677778888ull, 0xAB00000001ull}};
        socmon_bus *bus;
        socmon_device *dev;
        assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
        assert_int_equal(socmon_bus_model_map(bus, 0x100, 0x20, split ? &split_ops : &wide_ops, &w), SOCMON_OK);
        assert_int_equal(smn_regdev_new_whole("wide", bus, cs, 3, 1, &dev), SOCMON_OK);
        uint32_t idx[] = {0, 1, 2};
        uint64_t v[3];
        socmon_bus_stats_reset(bus);
        assert_int_equal(socmon_device_read(dev, idx, 3, v), SOCMON_OK);
        assert_true(v[0] == 0x1111222233334444ull);
        assert_true(v[1] == 0x5555666677778888ull);
        assert_true(v[2] == 0xAB00000001ull);
        socmon_bus_stats s;
        socmon_bus_stats_get(bus, &s);
        /* counter 0 is before whole_from: hi-lo-hi either way */
        assert_int_equal(w.r64, split ? 0 : 2);
        assert_int_equal(w.r32, split ? 9 : 3);
        assert_int_equal(s.reads, split ? 9 : 5);
        socmon_device_free(dev);
        socmon_bus_free(bus);
    }
}

/* A run of 64-bit registers read in one go where the model bus's region has a run reader
 * (smn_bus_model_set_run): one call for counters 1..3, counted as 3 reads; a set that asks for
 * them out of order, or past the region's run, reads them one at a time, with the same values. */
static socmon_status wide_run(void *model, uint64_t off, size_t n, uint64_t *vals)
{
    wide64 *w = model;
    w->calls++;
    for (size_t i = 0; i < n; i++)
        vals[i] = w->reg[off / 8 + i];
    return SOCMON_OK;
}

static void test_runs_of_64bit_registers(void **state)
{
    (void)state;
    static const socmon_regmodel_ops ops = {.read = wide_read, .read64 = wide_read64};
    const socmon_counter cs[] = {
        {.name = "a", .instance = "", .unit = "events", .width = 64, .reg = 0x100, .reg_hi = 0x104},
        {.name = "b", .instance = "", .unit = "events", .width = 64, .reg = 0x108, .reg_hi = 0x10c},
        {.name = "c", .instance = "", .unit = "events", .width = 40, .reg = 0x110, .reg_hi = 0x114},
        {.name = "d", .instance = "", .unit = "events", .width = 64, .reg = 0x118, .reg_hi = 0x11c},
    };
    wide64 w = {.reg = {1, 0x5555666677778888ull, 0xAB00000001ull, 4}};
    socmon_bus *bus;
    socmon_device *dev;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x100, 0x20, &ops, &w), SOCMON_OK);
    assert_int_equal(smn_bus_model_set_run(bus, 0x100, wide_run), SOCMON_OK);
    assert_int_equal(smn_bus_model_set_run(bus, 0x200, wide_run), SOCMON_EINVAL);   /* no region there */
    assert_int_equal(smn_regdev_new_whole("runs", bus, cs, 4, 1, &dev), SOCMON_OK);
    uint32_t all[] = {0, 1, 2, 3}, shuffled[] = {3, 2, 1};
    uint64_t v[4];
    socmon_bus_stats s;
    socmon_bus_stats_reset(bus);
    assert_int_equal(socmon_device_read(dev, all, 4, v), SOCMON_OK);
    assert_true(v[0] == 1 && v[1] == 0x5555666677778888ull && v[2] == 0xAB00000001ull && v[3] == 4);
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(w.calls, 1);   /* b, c, d in one go; a (before whole_from) hi-lo-hi */
    assert_int_equal(w.r64, 0);
    assert_int_equal(s.reads, 3 + 3);
    w.reg[2] = 0xFFFFFFFFFFFFull;   /* c is 40 bits wide: a run's values are cut to their widths too */
    assert_int_equal(socmon_device_read(dev, all, 4, v), SOCMON_OK);
    assert_true(v[2] == 0xFFFFFFFFFFull);
    assert_int_equal(socmon_device_read(dev, shuffled, 3, v), SOCMON_OK);
    assert_true(v[0] == 4 && v[1] == 0xFFFFFFFFFFull && v[2] == 0x5555666677778888ull);
    assert_int_equal(w.calls, 2);
    assert_int_equal(w.r64, 3);
    socmon_device_free(dev);
    socmon_bus_free(bus);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_schema_copied, setup, teardown),
        cmocka_unit_test_setup_teardown(test_values_masked_to_width, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bus_reads_per_counter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_split_counter_across_carry, setup, teardown),
        cmocka_unit_test_setup_teardown(test_read_errors_name_counter, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_tables, setup, teardown),
        cmocka_unit_test(test_whole_64bit_registers),
        cmocka_unit_test(test_runs_of_64bit_registers),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
