/* The Ibex driver over a fake CSR bus (counter layout, names, widths, lo/hi pairs, a carry
 * between the halves of a read, per-function counters), the model's CSR bus (what the driver
 * reads is what csrr reads; unreadable CSRs and writes are bus errors), the per-instruction
 * attribution hook (deltas summed over instructions equal the counters, also with a counter
 * written by the program; the events of the clock edges after the halt), and the ibex target's option table (presets, overrides, ranges). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>
#include "drivers/ibex/ibex_drv.h"
#include "ibex/ibex_asm.h"
#include "socmon/socmon.h"

/* ---- a fake CSR space: CSR n at byte n*4 ---- */
typedef struct fake_csrs {
    uint64_t mcycle;          /* 64-bit, split over 0xB00 / 0xB80 */
    int carry_on_lo_read;     /* the next read of mcycle's low half first adds 1 (a carry) */
    unsigned reads;
    uint32_t other[0x1000];
} fake_csrs;

static socmon_status fake_read(void *priv, uint64_t addr, uint32_t *val)
{
    fake_csrs *f = priv;
    uint32_t csr = (uint32_t)(addr / 4);
    f->reads++;
    if (addr % 4 || csr >= 0x1000)
        return SOCMON_EIO;
    if (csr == IBEX_CSR_MCYCLE) {
        if (f->carry_on_lo_read) {
            f->carry_on_lo_read = 0;
            f->mcycle++;
        }
        *val = (uint32_t)f->mcycle;
    } else if (csr == IBEX_CSR_MCYCLEH) {
        *val = (uint32_t)(f->mcycle >> 32);
    } else {
        *val = f->other[csr];
    }
    return SOCMON_OK;
}

static socmon_status fake_write(void *priv, uint64_t addr, uint32_t val)
{
    (void)priv, (void)addr, (void)val;
    return SOCMON_EIO;
}

static const socmon_bus_ops fake_ops = {.read32 = fake_read, .write32 = fake_write};

static socmon_device *open_dev(fake_csrs *f, socmon_bus **bus, const ibex_drv_config *cfg)
{
    socmon_device *dev = NULL;
    assert_int_equal(socmon_bus_new("fake-csr", &fake_ops, f, bus), SOCMON_OK);
    assert_int_equal(smn_ibex_device_new(*bus, cfg, &dev), SOCMON_OK);
    return dev;
}

static uint64_t read_named(socmon_device *dev, const char *name)
{
    uint32_t idx;
    uint64_t v = 0;
    if (socmon_device_find(dev, name, &idx) != SOCMON_OK)
        fail_msg("no counter %s", name);
    assert_int_equal(socmon_device_read(dev, &idx, 1, &v), SOCMON_OK);
    return v;
}

static void test_layout(void **state)
{
    (void)state;
    static fake_csrs f;
    socmon_bus *bus;
    ibex_drv_config cfg = {.mhpm_num = 10, .mhpm_width = 40, .clock_hz = 50e6};
    socmon_device *dev = open_dev(&f, &bus, &cfg);
    static const char *const names[] = {"cycles", "instret", "lsu_wait", "fetch_wait", "loads", "stores",
                                        "jumps", "branches", "branches_taken", "compressed", "mul_wait",
                                        "div_wait"};
    assert_int_equal(socmon_device_ncounters(dev), 12);
    for (unsigned i = 0; i < 12; i++) {
        const socmon_counter *c = socmon_device_counter(dev, i);
        unsigned csr = i < 2 ? IBEX_CSR_MCYCLE + 2 * i : IBEX_CSR_MCYCLE + i + 1;
        assert_string_equal(c->name, names[i]);
        assert_string_equal(c->instance, "");
        assert_int_equal(c->width, i < 2 ? 64 : 40);
        assert_int_equal(c->reg, csr * 4);
        assert_int_equal(c->reg_hi, (csr + 0x80) * 4);
        assert_true(c->max_rate_hz == 50e6);
    }
    double hz = 0;
    assert_int_equal(socmon_device_param(dev, "clock_hz", &hz), SOCMON_OK);
    assert_true(hz == 50e6);
    /* 40-bit counters keep only 40 bits of the pair */
    f.other[0xB03] = 0xFFFFFFFFu;
    f.other[0xB83] = 0xFFFFFFFFu;
    assert_int_equal(read_named(dev, "lsu_wait"), (UINT64_C(1) << 40) - 1);
    socmon_device_free(dev);
    socmon_bus_free(bus);

    /* mhpm_num=3, width 32: three event counters, single registers; mhpm_num=12: 13 and 14 */
    cfg.mhpm_num = 3;
    cfg.mhpm_width = 32;
    dev = open_dev(&f, &bus, &cfg);
    assert_int_equal(socmon_device_ncounters(dev), 5);
    assert_string_equal(socmon_device_counter(dev, 4)->name, "loads");
    assert_int_equal(socmon_device_counter(dev, 4)->reg_hi, 0);
    socmon_device_free(dev);
    socmon_bus_free(bus);
    cfg.mhpm_num = 12;
    dev = open_dev(&f, &bus, &cfg);
    assert_int_equal(socmon_device_ncounters(dev), 14);
    assert_string_equal(socmon_device_counter(dev, 13)->name, "mhpmcounter14");
    socmon_device_free(dev);
    socmon_bus_free(bus);

    /* out of range */
    socmon_device *bad = NULL;
    assert_int_equal(socmon_bus_new("fake-csr", &fake_ops, &f, &bus), SOCMON_OK);
    cfg.mhpm_num = 30;
    assert_int_equal(smn_ibex_device_new(bus, &cfg, &bad), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "mhpm_num 30 out of range 0..29"));
    cfg.mhpm_num = 10;
    cfg.mhpm_width = 65;
    assert_int_equal(smn_ibex_device_new(bus, &cfg, &bad), SOCMON_ERANGE);
    assert_null(bad);
    socmon_bus_free(bus);
}

/* A carry from mcycle into mcycleh between the two halves: hi-lo-hi retries, never off by 2^32. */
static void test_torn_read(void **state)
{
    (void)state;
    static fake_csrs f;
    socmon_bus *bus;
    ibex_drv_config cfg = {.mhpm_num = 10, .mhpm_width = 40, .clock_hz = 50e6};
    socmon_device *dev = open_dev(&f, &bus, &cfg);
    f.mcycle = UINT64_C(0x1FFFFFFFF);
    f.carry_on_lo_read = 1;
    f.reads = 0;
    assert_int_equal(read_named(dev, "cycles"), UINT64_C(0x200000000));
    assert_int_equal(f.reads, 6);   /* hi, lo (carry), hi disagree; hi, lo, hi agree */
    f.reads = 0;
    assert_int_equal(read_named(dev, "cycles"), UINT64_C(0x200000000));
    assert_int_equal(f.reads, 3);
    socmon_device_free(dev);
    socmon_bus_free(bus);
}

static void test_functions(void **state)
{
    (void)state;
    static fake_csrs f;
    socmon_bus *bus;
    static const char *const funcs[] = {"_unknown", "main", "helper"};
    ibex_drv_config cfg = {.mhpm_num = 10, .mhpm_width = 40, .clock_hz = 50e6, .nfuncs = 3, .funcs = funcs};
    socmon_device *dev = open_dev(&f, &bus, &cfg);
    assert_int_equal(socmon_device_ncounters(dev), 12 + 3 * 12);
    uint32_t idx;
    assert_int_equal(socmon_device_find(dev, "main.fn_cycles", &idx), SOCMON_OK);
    const socmon_counter *c = socmon_device_counter(dev, idx);
    assert_int_equal(c->reg, IBEX_ATTRBUS_ADDR(1, IBEX_CNT_CYCLE));
    assert_int_equal(c->reg_hi, IBEX_ATTRBUS_ADDR(1, IBEX_CNT_CYCLE) + 4);
    assert_int_equal(socmon_device_find(dev, "helper.fn_div_wait", &idx), SOCMON_OK);
    assert_int_equal(socmon_device_counter(dev, idx)->reg, IBEX_ATTRBUS_ADDR(2, IBEX_CNT_DIV_WAIT));
    assert_int_equal(socmon_device_counter(dev, idx)->width, 40);
    socmon_device_free(dev);
    socmon_bus_free(bus);
}

/* ---- the model's CSR bus and the attribution hook ---- */
typedef struct attr_sum {
    uint64_t sum[IBEX_ATTR_COUNTERS];
    uint64_t bucket[0x400][IBEX_ATTR_COUNTERS];   /* by 16-byte block of the first 16 KiB of RAM */
    unsigned calls;
    uint32_t first_pc;
} attr_sum;

static void add(void *ctx, uint32_t pc, const uint64_t *d)
{
    attr_sum *a = ctx;
    if (!a->calls++)
        a->first_pc = pc;
    uint32_t b = (pc - IBEX_SS_RAM_BASE) >> 4;
    assert_true(b < 0x400);
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++) {
        a->sum[i] += d[i];
        a->bucket[b][i] += d[i];
    }
}

/* ranges of 16 bytes: runs of up to 4 instructions attributed together */
static void range16(void *ctx, uint32_t pc, uint32_t *lo, uint32_t *hi)
{
    (void)ctx;
    *lo = pc & ~15u;
    *hi = *lo + 16;
}

static void test_model_csr_bus_and_attribution(void **state)
{
    (void)state;
    static asm_prog p;
    asm_init(&p);
    asm32(&p, ADDI(5, 0, 7));
    asm32(&p, ADDI(6, 0, 3));
    asm32(&p, MUL(7, 5, 6));
    asm32(&p, DIV(8, 5, 6));
    asm32(&p, CSRW(IBEX_CSR_MHPMCOUNTER3, 0));   /* a counter write: its change goes to this instruction */
    asm32(&p, SW(7, 2, 0));                       /* x2 = 0: a bus error, trap to the vector */
    asm_halt(&p);
    asm_org(&p, IBEX_SS_RAM_BASE);                /* exception handler: skip the faulting store */
    asm32(&p, CSRR(10, IBEX_CSR_MEPC));
    asm32(&p, ADDI(10, 10, 4));
    asm32(&p, CSRW(IBEX_CSR_MEPC, 10));
    asm32(&p, 0x30200073u);                       /* mret */
    static attr_sum each[2];   /* per instruction, by preset: what the 16-byte ranges must give per block */
    for (int run = 0; run < 4; run++) {
        int preset = run % 2;
        ibex_config cfg;
        assert_int_equal(smn_ibex_config_preset(&cfg, preset ? "maxperf" : "small"), SOCMON_OK);
        ibex_core *c = asm_core(&p, &cfg);
        static attr_sum a;
        memset(&a, 0, sizeof a);
        smn_ibex_set_attribution(c, add, run >= 2 ? range16 : NULL, &a);
        socmon_bus *bus;
        assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
        assert_int_equal(smn_ibex_map_csrs(c, bus), SOCMON_OK);
        uint64_t v = 1;
        assert_int_equal(socmon_bus_read64_hilohi(bus, IBEX_CSRBUS_ADDR(0xB00), IBEX_CSRBUS_ADDR(0xB80), 0, &v),
                         SOCMON_OK);
        assert_int_equal(v, 0);   /* at reset every counter reads 0 */
        ibex_stop why;
        assert_int_equal(smn_ibex_run(c, 100000, &why), SOCMON_OK);
        assert_int_equal(why, IBEX_STOP_HALT);
        assert_int_equal(a.first_pc, IBEX_SS_RESET_PC);   /* the boot cycles went to the first instruction */
        for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++) {
            if (i == 1)
                continue;
            uint64_t mask = i < 3 ? UINT64_MAX : (UINT64_C(1) << cfg.mhpm_width) - 1;
            if ((a.sum[i] & mask) != smn_ibex_counter(c, i))
                fail_msg("%s counter %u: attributed %llu, counter %llu", cfg.name, i,
                         (unsigned long long)(a.sum[i] & mask), (unsigned long long)smn_ibex_counter(c, i));
            uint32_t lo = 0;
            assert_int_equal(socmon_bus_read32(bus, IBEX_CSRBUS_ADDR(0xB00 + i), &lo), SOCMON_OK);
            assert_int_equal(lo, (uint32_t)smn_ibex_counter(c, i));
        }
        assert_true(smn_ibex_counter(c, IBEX_CNT_DIV_WAIT) > 0);
        /* attributing runs inside a range gives each range exactly what it gets per instruction */
        if (run < 2)
            each[preset] = a;
        else
            assert_memory_equal(a.bucket, each[preset].bucket, sizeof a.bucket);
        uint32_t x;
        assert_int_equal(socmon_bus_read32(bus, IBEX_CSRBUS_ADDR(0xB01), &x), SOCMON_EIO);   /* illegal */
        assert_int_equal(socmon_bus_write32(bus, IBEX_CSRBUS_ADDR(0xB00), 0), SOCMON_EIO);  /* read-only */
        socmon_bus_free(bus);
        smn_ibex_destroy(c);
    }
}

/* `j .` with interrupts off stops the run instead of spinning until the cycle limit. */
static void test_spin_stops(void **state)
{
    (void)state;
    static asm_prog p;
    asm_init(&p);
    asm32(&p, ADDI(5, 0, 1));
    asm32(&p, JAL(0, 0));
    ibex_config cfg;
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    ibex_core *c = asm_core(&p, &cfg);
    ibex_stop why;
    assert_int_equal(smn_ibex_run(c, 1000000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_SPIN);
    assert_true(smn_ibex_time(c) < 100);
    assert_int_equal(smn_ibex_pc(c), IBEX_SS_RESET_PC + 4);
    smn_ibex_destroy(c);
}

/* The two clock edges after the halting store (ibex_halt.c): their events go to the
 * instructions issued in them, the speculative minstret read of the WB stage to the instruction
 * it counts twice; a second run after the halt changes nothing. */
typedef struct pc_deltas {
    uint32_t pc[64];
    uint64_t d[64][IBEX_ATTR_COUNTERS];
    unsigned n;
} pc_deltas;

static void per_pc(void *ctx, uint32_t pc, const uint64_t *d)
{
    pc_deltas *a = ctx;
    unsigned k = 0;
    while (k < a->n && a->pc[k] != pc)
        k++;
    assert_true(k < 64);
    if (k == a->n)
        a->pc[a->n++] = pc;
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
        a->d[k][i] += d[i];
}

static const uint64_t *deltas_at(const pc_deltas *a, uint32_t pc)
{
    static const uint64_t none[IBEX_ATTR_COUNTERS];
    for (unsigned k = 0; k < a->n; k++)
        if (a->pc[k] == pc)
            return a->d[k];
    return none;
}

static void test_halt_edges(void **state)
{
    (void)state;
    static asm_prog p;
    asm_init(&p);
    asm_li(&p, 30, IBEX_SS_SIMCTRL_BASE);
    asm32(&p, ADDI(29, 0, 1));
    asm32(&p, ADDI(5, 0, 7));
    asm32(&p, ADDI(6, 0, 3));
    uint32_t st = asm_here(&p);
    asm32(&p, SW(29, 30, IBEX_SS_SIMCTRL_CTRL));   /* halts */
    asm16(&p, C_ADDI(10, 1));
    asm32(&p, DIV(8, 5, 6));
    asm32(&p, JAL(0, 0));
    for (int preset = 0; preset < 2; preset++) {
        ibex_config cfg;
        assert_int_equal(smn_ibex_config_preset(&cfg, preset ? "maxperf" : "small"), SOCMON_OK);
        ibex_core *c = asm_core(&p, &cfg);
        static pc_deltas a;
        memset(&a, 0, sizeof a);
        smn_ibex_set_attribution(c, per_pc, NULL, &a);
        ibex_stop why;
        assert_int_equal(smn_ibex_run(c, 100000, &why), SOCMON_OK);
        assert_int_equal(why, IBEX_STOP_HALT);
        const uint64_t *s = deltas_at(&a, st), *ca = deltas_at(&a, st + 4), *dv = deltas_at(&a, st + 6);
        if (!preset) {
            /* small: the store's second cycle, then c.addi's only one; div never starts */
            assert_int_equal(s[IBEX_CNT_CYCLE], 2);
            assert_int_equal(ca[IBEX_CNT_CYCLE], 1);
            assert_int_equal(ca[IBEX_CNT_INSTRET], 1);
            assert_int_equal(ca[IBEX_CNT_COMPRESSED], 1);
            assert_int_equal(dv[IBEX_CNT_CYCLE], 0);
        } else {
            /* maxperf: c.addi, then div's first stall cycle; c.addi is counted again by the
             * speculative read (nothing enters WB at the last edge) */
            assert_int_equal(s[IBEX_CNT_CYCLE], 1);
            assert_int_equal(ca[IBEX_CNT_CYCLE], 1);
            assert_int_equal(ca[IBEX_CNT_INSTRET], 2);
            assert_int_equal(ca[IBEX_CNT_COMPRESSED], 2);
            assert_int_equal(dv[IBEX_CNT_CYCLE], 1);
            assert_int_equal(dv[IBEX_CNT_DIV_WAIT], 1);
            assert_int_equal(dv[IBEX_CNT_INSTRET], 0);
        }
        assert_int_equal(s[IBEX_CNT_INSTRET], 1);
        assert_int_equal(s[IBEX_CNT_STORES], 1);
        uint64_t before[IBEX_ATTR_COUNTERS];
        for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++) {
            uint64_t sum = 0;
            for (unsigned k = 0; k < a.n; k++)
                sum += a.d[k][i];
            before[i] = smn_ibex_counter(c, i);
            if (i != 1 && sum != before[i])
                fail_msg("%s counter %u: attributed %llu, counter %llu", cfg.name, i,
                         (unsigned long long)sum, (unsigned long long)before[i]);
        }
        /* what a debugger reads now is what smn_ibex_counter says: the speculative part is frozen in */
        uint32_t v;
        assert_int_equal(smn_ibex_csr_peek(c, IBEX_CSR_MINSTRET, &v), SOCMON_OK);
        assert_int_equal(v, (uint32_t)before[IBEX_CNT_INSTRET]);
        unsigned calls = a.n;
        uint64_t t = smn_ibex_time(c);
        assert_int_equal(smn_ibex_run(c, 100000, &why), SOCMON_OK);
        assert_int_equal(why, IBEX_STOP_HALT);
        assert_int_equal(smn_ibex_time(c), t);
        for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
            assert_int_equal(smn_ibex_counter(c, i), before[i]);
        assert_int_equal(a.n, calls);
        smn_ibex_destroy(c);
    }
}

/* ---- the target's option table ---- */
static uint32_t target_misa(const char *spec)
{
    socmon_target *t = NULL;
    uint32_t v = 0;
    assert_int_equal(socmon_target_open(spec, &t), SOCMON_OK);
    assert_int_equal(socmon_bus_read32(socmon_target_bus(t), IBEX_CSRBUS_ADDR(IBEX_CSR_MISA), &v), SOCMON_OK);
    socmon_target_close(t);
    return v;
}

static void open_fails(const char *spec, socmon_status want, const char *msg)
{
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open(spec, &t), want);
    assert_null(t);
    if (!strstr(socmon_errmsg(), msg))
        fail_msg("'%s': message '%s' lacks '%s'", spec, socmon_errmsg(), msg);
}

static void test_target_options(void **state)
{
    (void)state;
    socmon_target *t = NULL;
    assert_int_equal(socmon_target_open("ibex", &t), SOCMON_OK);
    socmon_device *dev = socmon_target_device(t);
    assert_int_equal(socmon_device_ncounters(dev), 12);   /* mhpm_num 10 by default */
    assert_int_equal(socmon_device_counter(dev, 2)->width, 40);
    double hz = 0;
    assert_int_equal(socmon_device_param(dev, "clock_hz", &hz), SOCMON_OK);
    assert_true(hz == 50e6);
    /* without a program the target opens (list counters works) but will not run */
    assert_int_equal(socmon_target_start(t, NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "no program to run"));
    socmon_target_close(t);

    assert_int_equal(socmon_target_open("ibex:mhpm_num=0,mhpm_width=64,clock_mhz=100", &t), SOCMON_OK);
    dev = socmon_target_device(t);
    assert_int_equal(socmon_device_ncounters(dev), 2);
    assert_int_equal(socmon_device_param(dev, "clock_hz", &hz), SOCMON_OK);
    assert_true(hz == 100e6);
    socmon_target_close(t);

    /* the presets have the M extension; rv32m=none overrides either */
    assert_true(target_misa("ibex") & IBEX_MISA_M);
    assert_true(target_misa("ibex:config=maxperf") & IBEX_MISA_M);
    assert_false(target_misa("ibex:config=maxperf,rv32m=none") & IBEX_MISA_M);

    open_fails("ibex:mhpm_num=30", SOCMON_ERANGE, "ibex: mhpm_num=30 out of range 0..29");
    open_fails("ibex:mhpm_width=0", SOCMON_ERANGE, "ibex: mhpm_width=0 out of range 1..64");
    open_fails("ibex:config=big", SOCMON_EINVAL, "small");
    open_fails("ibex:rv32m=quick", SOCMON_EINVAL, "fast");
    open_fails("ibex:wb_stage=2", SOCMON_EINVAL, "ibex: wb_stage=2 must be 0 or 1");
    open_fails("ibex:symbols=1", SOCMON_EINVAL, "symbols=1 needs a program");
    open_fails("ibex:program=/nonexistent.elf", SOCMON_ENOENT, "cannot open '/nonexistent.elf'");
    open_fails("ibex:colour=red", SOCMON_EINVAL, "unknown option 'colour'");
    open_fails("ibex:entry=reset", SOCMON_EINVAL, "boot");
    assert_int_equal(socmon_target_open("ibex:entry=elf", &t), SOCMON_OK);
    socmon_target_close(t);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layout),        cmocka_unit_test(test_torn_read),
        cmocka_unit_test(test_functions),     cmocka_unit_test(test_model_csr_bus_and_attribution),
        cmocka_unit_test(test_spin_stops),    cmocka_unit_test(test_halt_edges),
        cmocka_unit_test(test_target_options),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
