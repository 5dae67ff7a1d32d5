/* The model bus: accesses reach the model mapped at their address, with
 * region-relative offsets; overlaps, unmapped and unaligned accesses are
 * refused with messages naming the address; every access is counted. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <string.h>

#include "socmon/bus.h"

/* Records the last access so a test can see which model got it, at what offset. */
typedef struct probe {
    uint32_t id;
    uint64_t last_off;
    uint32_t last_val;
    unsigned reads, writes;
} probe;

static socmon_status p_read(void *model, uint64_t off, uint32_t *val)
{
    probe *p = model;
    p->last_off = off;
    p->reads++;
    *val = p->id << 16 | (uint32_t)off;
    return SOCMON_OK;
}

static socmon_status p_write(void *model, uint64_t off, uint32_t val)
{
    probe *p = model;
    p->last_off = off;
    p->last_val = val;
    p->writes++;
    return SOCMON_OK;
}

/* A model whose register 0x8 refuses access, as a device register might. */
static socmon_status picky_read(void *model, uint64_t off, uint32_t *val)
{
    *val = 0;
    return off == 8 ? SOCMON_EIO : SOCMON_OK;
}

static const socmon_regmodel_ops p_ops = {.read = p_read, .write = p_write};
static const socmon_regmodel_ops picky_ops = {.read = picky_read, .write = p_write};

static void test_dispatch_by_region(void **state)
{
    probe a = {.id = 1}, b = {.id = 2}, c = {.id = 3};
    socmon_bus *bus;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    /* mapped out of order on purpose */
    assert_int_equal(socmon_bus_model_map(bus, 0x2000, 0x100, &p_ops, &b), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1000, 0x1000, &p_ops, &a), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x100000000ull, 0x10, &p_ops, &c), SOCMON_OK);

    uint32_t v;
    assert_int_equal(socmon_bus_read32(bus, 0x1000, &v), SOCMON_OK);
    assert_int_equal(v, 1u << 16 | 0);
    assert_int_equal(socmon_bus_read32(bus, 0x1ffc, &v), SOCMON_OK); /* last word of a */
    assert_int_equal(v, 1u << 16 | 0xffc);
    assert_int_equal(socmon_bus_read32(bus, 0x2000, &v), SOCMON_OK); /* first word of b */
    assert_int_equal(v, 2u << 16 | 0);
    assert_int_equal(socmon_bus_read32(bus, 0x100000008ull, &v), SOCMON_OK);
    assert_int_equal(v, 3u << 16 | 8);
    assert_int_equal(socmon_bus_write32(bus, 0x20fc, 77), SOCMON_OK);
    assert_int_equal(b.last_off, 0xfc);
    assert_int_equal(b.last_val, 77);
    /* interleaved regions, so a cached last hit must not leak into the next */
    for (int i = 0; i < 100; i++) {
        uint64_t addr = i % 3 == 0 ? 0x1010 : i % 3 == 1 ? 0x2010 : 0x100000004ull;
        assert_int_equal(socmon_bus_read32(bus, addr, &v), SOCMON_OK);
        assert_int_equal(v >> 16, (uint32_t)(i % 3 + 1));
    }
    assert_int_equal(a.reads, 2 + 34);
    assert_int_equal(b.reads, 1 + 33);
    assert_int_equal(b.writes, 1);
    socmon_bus_free(bus);
}

static void test_overlap_rejected(void **state)
{
    probe a = {.id = 1};
    socmon_bus *bus;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1000, 0x100, &p_ops, &a), SOCMON_OK);
    const struct {
        uint64_t base, size;
    } bad[] = {
        {0x1000, 0x100},  /* same */
        {0x0f00, 0x104},  /* overlaps the start */
        {0x10fc, 0x100},  /* overlaps the end */
        {0x1040, 0x10},   /* inside */
        {0x0800, 0x1000}, /* around */
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        assert_int_equal(socmon_bus_model_map(bus, bad[i].base, bad[i].size, &p_ops, &a),
                         SOCMON_ERANGE);
        assert_non_null(strstr(socmon_errmsg(), "overlaps 0x1000..0x10ff"));
    }
    /* touching is not overlapping */
    assert_int_equal(socmon_bus_model_map(bus, 0x0f00, 0x100, &p_ops, &a), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1100, 0x100, &p_ops, &a), SOCMON_OK);
    /* a region between two existing ones is checked against both */
    assert_int_equal(socmon_bus_model_map(bus, 0x3000, 0x100, &p_ops, &a), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1200, 0x1e04, &p_ops, &a), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "0x3000"));
    assert_int_equal(socmon_bus_model_map(bus, 0x1200, 0x1e00, &p_ops, &a), SOCMON_OK);

    assert_int_equal(socmon_bus_model_map(bus, 0x9000, 0, &p_ops, &a), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "0x9000"));
    assert_int_equal(socmon_bus_model_map(bus, UINT64_MAX - 0xf, 0x20, &p_ops, &a), SOCMON_ERANGE);
    assert_int_equal(socmon_bus_model_map(bus, 0x9000, 0x10, NULL, &a), SOCMON_EINVAL);
    socmon_bus_free(bus);
}

static void test_overlap_at_top_of_address_space(void **state)
{
    socmon_bus *bus;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0xFFFFFFFFFFFFF000ull, 0x1000, &p_ops, NULL), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0xFFFFFFFFFFFFF800ull, 0x100, &p_ops, NULL), SOCMON_ERANGE);
    assert_int_equal(socmon_bus_model_map(bus, 0xFFFFFFFFFFFFE000ull, 0x2000, &p_ops, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "overlaps"));
    assert_int_equal(socmon_bus_model_map(bus, 0xFFFFFFFFFFFFE000ull, 0x1000, &p_ops, NULL), SOCMON_OK);
    socmon_bus_free(bus);
}

static void test_unmapped_and_unaligned(void **state)
{
    probe a = {.id = 1};
    socmon_bus *bus;
    uint32_t v;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1000, 0x100, &p_ops, &a), SOCMON_OK);

    assert_int_equal(socmon_bus_read32(bus, 0x1100, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x1100"));
    assert_non_null(strstr(socmon_errmsg(), "mapped"));
    assert_int_equal(socmon_bus_read32(bus, 0xffc, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0xffc"));
    assert_int_equal(socmon_bus_write32(bus, 0x5000, 1), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x5000"));

    assert_int_equal(socmon_bus_read32(bus, 0x1002, &v), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x1002"));
    assert_non_null(strstr(socmon_errmsg(), "aligned"));
    assert_int_equal(socmon_bus_write32(bus, 0x1001, 1), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "0x1001"));
    assert_int_equal(a.reads + a.writes, 0); /* none of them reached the model */
    socmon_bus_free(bus);
}

static void test_stats_count_every_access(void **state)
{
    probe a = {.id = 1};
    socmon_bus *bus;
    uint32_t v;
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0, 0x40, &p_ops, &a), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x100, 0x10, &picky_ops, NULL), SOCMON_OK);
    for (int i = 0; i < 10; i++)
        assert_int_equal(socmon_bus_read32(bus, 4u * (unsigned)i, &v), SOCMON_OK);
    for (int i = 0; i < 3; i++)
        assert_int_equal(socmon_bus_write32(bus, 0x10, (uint32_t)i), SOCMON_OK);
    socmon_bus_fence(bus);
    socmon_bus_fence(bus);
    assert_int_equal(socmon_bus_read32(bus, 0x80, &v), SOCMON_EIO);      /* unmapped */
    assert_int_equal(socmon_bus_read32(bus, 0x108, &v), SOCMON_EIO);     /* the model says no */
    assert_int_equal(socmon_bus_write32(bus, 0x3, 0), SOCMON_EIO);       /* unaligned */

    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.reads, 12);
    assert_int_equal(s.writes, 4);
    assert_int_equal(s.fences, 2);
    assert_int_equal(s.errors, 3);
    assert_int_equal(a.reads, 10);
    assert_int_equal(a.writes, 3);

    socmon_bus_stats_reset(bus);
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.reads + s.writes + s.fences + s.errors, 0);
    uint64_t w;
    assert_int_equal(socmon_bus_read64_hilohi(bus, 0x8, 0xc, 0, &w), SOCMON_OK);
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.reads, 3); /* hi, lo, hi: a stable counter needs one try */
    socmon_bus_free(bus);
}

static void test_map_needs_model_bus(void **state)
{
    probe a = {.id = 1};
    socmon_bus *bus;
    assert_int_equal(socmon_bus_model_map(NULL, 0, 0x10, &p_ops, &a), SOCMON_EINVAL);
    const socmon_bus_ops ops = {.read32 = p_read, .write32 = p_write};
    assert_int_equal(socmon_bus_new("custom", &ops, &a, &bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0, 0x10, &p_ops, &a), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "custom"));
    socmon_bus_free(bus);
}

/* A model with one native 64-bit register at 0x0 and 32-bit halves elsewhere. */
typedef struct wide {
    uint64_t reg;
    unsigned r64, w64;
} wide;

static socmon_status w_read64(void *model, uint64_t off, uint64_t *val)
{
    wide *w = model;
    w->r64++;
    *val = w->reg + off;
    return SOCMON_OK;
}

static socmon_status w_write64(void *model, uint64_t off, uint64_t val)
{
    wide *w = model;
    w->w64++;
    w->reg = val;
    return SOCMON_OK;
}

static void test_64bit_native_and_split(void **state)
{
    socmon_bus *bus;
    wide w = {.reg = 0x1122334455667788ull};
    probe p = {.id = 7};
    const socmon_regmodel_ops wide_ops = {.read = p_read, .write = p_write, .read64 = w_read64,
        .write64 = w_write64};
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x1000, 0x100, &wide_ops, &w), SOCMON_OK);
    assert_int_equal(socmon_bus_model_map(bus, 0x2000, 0x100, &p_ops, &p), SOCMON_OK);

    /* native: one access each way, counted once */
    uint64_t v = 0;
    assert_int_equal(socmon_bus_read64(bus, 0x1008, &v), SOCMON_OK);
    assert_true(v == 0x1122334455667790ull);
    assert_int_equal(socmon_bus_write64(bus, 0x1000, 0xA5A5A5A5DEADBEEFull), SOCMON_OK);
    assert_true(w.reg == 0xA5A5A5A5DEADBEEFull);
    assert_int_equal(w.r64, 1);
    assert_int_equal(w.w64, 1);
    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.reads, 1);
    assert_int_equal(s.writes, 1);
    assert_int_equal(socmon_bus_read64(bus, 0x1004, &v), SOCMON_EIO); /* 8-byte alignment */
    /* in the region of the last access (the fast path) and after another region's */
    assert_int_equal(socmon_bus_read64(bus, 0x1010, &v), SOCMON_OK);
    assert_true(v == 0xA5A5A5A5DEADBEFFull);
    uint32_t v32;
    assert_int_equal(socmon_bus_read32(bus, 0x2000, &v32), SOCMON_OK);
    p.reads = 0;
    assert_int_equal(socmon_bus_read64(bus, 0x1018, &v), SOCMON_OK);
    assert_true(v == 0xA5A5A5A5DEADBF07ull);
    assert_int_equal(w.r64, 3);
    assert_int_equal(p.reads, 0);
    assert_int_equal(socmon_bus_read64(bus, 0x1100, &v), SOCMON_EIO); /* past the region: unmapped */

    /* split: hi-lo-hi for a read, low word then high word for a write */
    assert_int_equal(socmon_bus_read64(bus, 0x2010, &v), SOCMON_OK);
    assert_true(v == ((uint64_t)(7u << 16 | 0x14) << 32 | (7u << 16 | 0x10)));
    assert_int_equal(p.reads, 3);
    assert_int_equal(p.last_off, 0x14);
    assert_int_equal(socmon_bus_write64(bus, 0x2020, 0x0000000200000001ull), SOCMON_OK);
    assert_int_equal(p.writes, 2);
    assert_int_equal(p.last_off, 0x24);
    assert_int_equal(p.last_val, 2);
    assert_int_equal(socmon_bus_read64(bus, 0x3000, &v), SOCMON_EIO); /* unmapped */
    socmon_bus_free(bus);
}

/* A bus with only 32-bit callbacks: the generic layer splits 64-bit accesses. */
static uint32_t regs32[4];
static socmon_status r32(void *priv, uint64_t addr, uint32_t *val)
{
    *val = regs32[addr / 4 % 4];
    return SOCMON_OK;
}
static socmon_status w32(void *priv, uint64_t addr, uint32_t val)
{
    regs32[addr / 4 % 4] = val;
    return SOCMON_OK;
}

static void test_64bit_on_a_32bit_bus(void **state)
{
    const socmon_bus_ops ops = {.read32 = r32, .write32 = w32};
    socmon_bus *bus;
    assert_int_equal(socmon_bus_new("b32", &ops, NULL, &bus), SOCMON_OK);
    assert_int_equal(socmon_bus_write64(bus, 0, 0x0123456789ABCDEFull), SOCMON_OK);
    assert_int_equal(regs32[0], 0x89ABCDEFu);
    assert_int_equal(regs32[1], 0x01234567u);
    uint64_t v;
    assert_int_equal(socmon_bus_read64(bus, 0, &v), SOCMON_OK);
    assert_true(v == 0x0123456789ABCDEFull);
    socmon_bus_stats s;
    socmon_bus_stats_get(bus, &s);
    assert_int_equal(s.writes, 2);
    assert_int_equal(s.reads, 3);
    assert_int_equal(socmon_bus_read64(bus, 0, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_bus_write64(NULL, 0, 0), SOCMON_EINVAL);
    socmon_bus_free(bus);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_dispatch_by_region),
        cmocka_unit_test(test_overlap_rejected),
        cmocka_unit_test(test_overlap_at_top_of_address_space),
        cmocka_unit_test(test_unmapped_and_unaligned),
        cmocka_unit_test(test_stats_count_every_access),
        cmocka_unit_test(test_map_needs_model_bus),
        cmocka_unit_test(test_64bit_native_and_split),
        cmocka_unit_test(test_64bit_on_a_32bit_bus),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
