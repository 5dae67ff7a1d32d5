/* The Tensix driver over the model: the start/stop register sequences,
 * readout in slot order, skipped slots, the L1 mux, undefined L1 results
 * (from the model's mark and from the driver's own check) and the device. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <string.h>

#include "drivers/tensix/tensix_drv.h"
#include "hw/tensix_bank.h"
#include "models/tensix/tensix_model.h"
#include "socmon/tensix.h"
#include "socmon/socmon.h"

#define REGS SOCMON_TENSIX_REGS_BASE

typedef struct fx {
    socmon_tensix_core *c;
    socmon_bus *model, *bus;   /* bus records every access of model */
    socmon_tensix_drv *d;
    socmon_bus_access log[4096];
    size_t nlog;
    uint32_t w[86];
    size_t n;
} fx;

static void on_access(void *user, const socmon_bus_access *a)
{
    fx *f = user;
    if (f->nlog < sizeof f->log / sizeof f->log[0])
        f->log[f->nlog++] = *a;
}

static int setup(void **state)
{
    static fx f;
    memset(&f, 0, sizeof f);
    if (smn_tensix_core_new(NULL, &f.c) != SOCMON_OK || socmon_bus_model_new(&f.model) != SOCMON_OK ||
        smn_tensix_core_map(f.c, f.model, REGS, 0) != SOCMON_OK ||
        socmon_bus_record_new(f.model, on_access, &f, &f.bus) != SOCMON_OK ||
        socmon_tensix_drv_new(f.bus, REGS, 0, &f.d) != SOCMON_OK)
        return -1;
    f.n = socmon_tensix_default_slots(f.w, 86);
    *state = &f;
    return socmon_tensix_core_kernel_start(f.c) == SOCMON_OK ? 0 : -1;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_tensix_drv_free(f->d);
    socmon_bus_free(f->bus);
    socmon_bus_free(f->model);
    smn_tensix_core_free(f->c);
    return 0;
}

static size_t writes(const fx *f, socmon_bus_access *out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < f->nlog && n < max; i++)
        if (f->log[i].op == 'W')
            out[n++] = f->log[i];
    return n;
}

/* Each configured bank: period 0xFFFFFFFF, mode 0, control 0 then 1, in the
 * order of the banks' first slots; the L1 mux is set before L1's edge. */
static void test_start_sequence(void **state)
{
    fx *f = *state;
    f->w[78] = socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_L1, 0, 1);
    for (size_t i = 79; i < 86; i++)
        f->w[i] = socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_L1, (unsigned)(i - 78), 1);
    assert_int_equal(socmon_bus_write32(f->model, REGS + A_TENSIX_PERF_CNT_MUX_CTRL, 0x5), SOCMON_OK);
    f->nlog = 0;
    assert_int_equal(smn_tensix_drv_start(f->d, f->w, f->n), SOCMON_OK);
    socmon_bus_access w[64];
    size_t nw = writes(f, w, 64);
    static const unsigned order[] = {0, 1, 2, 4, 3};   /* INSTRN, FPU, UNPACK, PACK, L1 */
    assert_int_equal(nw, 5 * 4 + 1);
    size_t k = 0;
    for (unsigned i = 0; i < 5; i++) {
        uint32_t base = tensix_bank(order[i])->ref;
        if (order[i] == SOCMON_TENSIX_BANK_L1) {
            assert_int_equal(w[k].addr, REGS + A_TENSIX_PERF_CNT_MUX_CTRL);
            assert_int_equal(w[k].val, 0x15);   /* bit 4 set, other bits kept */
            k++;
        }
        assert_int_equal(w[k].addr, REGS + base);
        assert_int_equal(w[k++].val, 0xFFFFFFFFu);
        assert_int_equal(w[k].addr, REGS + base + 4);
        assert_int_equal(w[k++].val, 0);
        assert_int_equal(w[k].addr, REGS + base + 8);
        assert_int_equal(w[k++].val, 0);
        assert_int_equal(w[k].addr, REGS + base + 8);
        assert_int_equal(w[k++].val, 1);
    }
}

/* Stop: every bank stopped (0 then 2) before any readout; then one result
 * per valid slot, in slot order, equal to the model's events in the window. */
static void test_stop_reads_slots_in_order(void **state)
{
    fx *f = *state;
    uint64_t before[86];
    for (size_t i = 0; i < f->n; i++) {
        socmon_tensix_slot s;
        socmon_tensix_slot_decode(f->w[i], &s);
        before[i] = socmon_tensix_core_signal(f->c, s.bank, s.counter_id, s.l1_mux);
    }
    assert_int_equal(smn_tensix_drv_start(f->d, f->w, f->n), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(f->c, 2500, NULL), SOCMON_OK);
    f->nlog = 0;
    socmon_tensix_result r[86];
    size_t nr = 0;
    assert_int_equal(smn_tensix_drv_stop(f->d, f->w, f->n, r, 86, &nr), SOCMON_OK);
    assert_int_equal(nr, 86);
    socmon_bus_access w[16];
    assert_int_equal(writes(f, w, 10), 10);
    for (unsigned i = 0; i < 10; i++)
        assert_int_equal(w[i].val, i % 2 ? 2 : 0);
    for (size_t i = 0; i < nr; i++) {
        socmon_tensix_slot s;
        socmon_tensix_slot_decode(f->w[i], &s);
        assert_int_equal(r[i].slot, i);
        assert_int_equal(r[i].bank, s.bank);
        assert_int_equal(r[i].counter_id, s.counter_id);
        assert_int_equal(r[i].cycles, 2500);
        assert_false(r[i].undefined);
        uint64_t after = socmon_tensix_core_signal(f->c, s.bank, s.counter_id, s.l1_mux);
        assert_int_equal(r[i].count, after - before[i]);
        assert_true(r[i].count <= r[i].cycles);
    }
}

/* Invalid slots are skipped: results stay compact, in slot order. */
static void test_invalid_slots_skipped(void **state)
{
    fx *f = *state;
    uint32_t w[86] = {0};
    w[3] = socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, 257, 0);
    w[10] = 0x7FFFFFFFu;   /* not valid, whatever else it holds */
    w[50] = socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_TDMA_PACK, 18, 0);
    w[85] = socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, 0, 0);
    assert_int_equal(smn_tensix_drv_start(f->d, w, 86), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(f->c, 700, NULL), SOCMON_OK);
    socmon_tensix_result r[3];
    size_t nr;
    assert_int_equal(smn_tensix_drv_stop(f->d, w, 86, r, 3, &nr), SOCMON_OK);
    assert_int_equal(nr, 3);
    assert_int_equal(r[0].slot, 3);
    assert_int_equal(r[1].slot, 50);
    assert_int_equal(r[2].slot, 85);
    assert_true(r[2].count <= r[0].count);   /* FPU <= FPU_OR_SFPU in one window */
    /* Not enough room is an error, not a truncation. */
    assert_int_equal(smn_tensix_drv_start(f->d, w, 86), SOCMON_OK);
    assert_int_equal(smn_tensix_drv_stop(f->d, w, 86, r, 2, &nr), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "3 valid slots"));
}

/* A bad slot stops start() before any register is touched. */
static void test_bad_slot_rejected(void **state)
{
    fx *f = *state;
    f->w[17] = 0x80000007u;
    f->nlog = 0;
    assert_int_equal(smn_tensix_drv_start(f->d, f->w, f->n), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 17"));
    assert_int_equal(f->nlog, 0);
    socmon_tensix_result r[86];
    size_t nr = 99;
    assert_int_equal(smn_tensix_drv_stop(f->d, f->w, f->n, r, 86, &nr), SOCMON_ERANGE);
    assert_int_equal(nr, 0);
}

/* A mux change while L1 runs: stop reports SOCMON_EUNDEF naming the slot;
 * L1 entries are marked, never numbers; other banks are read normally. */
static void test_l1_undefined(void **state)
{
    fx *f = *state;
    for (int back = 0; back < 2; back++) {
        assert_int_equal(smn_tensix_drv_start(f->d, f->w, f->n), SOCMON_OK);
        assert_int_equal(socmon_tensix_core_advance(f->c, 300, NULL), SOCMON_OK);
        socmon_bus_write32(f->model, REGS + A_TENSIX_PERF_CNT_MUX_CTRL, 0x10);
        if (back)   /* changed back: only the model's mark can tell */
            socmon_bus_write32(f->model, REGS + A_TENSIX_PERF_CNT_MUX_CTRL, 0);
        socmon_tensix_result r[86];
        size_t nr = 0;
        socmon_clear_error();
        assert_int_equal(smn_tensix_drv_stop(f->d, f->w, f->n, r, 86, &nr), SOCMON_EUNDEF);
        assert_non_null(strstr(socmon_errmsg(), "slot 78"));
        assert_non_null(strstr(socmon_errmsg(), "L1"));
        assert_non_null(strstr(socmon_errmsg(), "8 undefined results"));
        assert_int_equal(nr, 86);
        for (size_t i = 0; i < nr; i++) {
            int l1 = r[i].bank == SOCMON_TENSIX_BANK_L1;
            assert_int_equal(r[i].undefined, l1);
            if (l1)
                assert_int_equal(r[i].count, 0);
            else
                assert_int_equal(r[i].cycles, 300);
        }
        socmon_bus_write32(f->model, REGS + A_TENSIX_PERF_CNT_MUX_CTRL, 0);
    }
}

/* The device: each bank's cycles plus one counter per slot, read live. */
static void test_device(void **state)
{
    fx *f = *state;
    socmon_device *dev;
    assert_int_equal(smn_tensix_drv_device(f->d, "tensix", f->w, f->n, 1e9, &dev), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(dev), 86 + 5);
    uint32_t ic, ifpu, il1;
    assert_int_equal(socmon_device_find(dev, "fpu.cycles", &ic), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "fpu.FPU_OR_SFPU_INSTRN", &ifpu), SOCMON_OK);
    assert_int_equal(socmon_device_find(dev, "l1.NOC_RING0_INCOMING_0", &il1), SOCMON_OK);
    const socmon_counter *c = socmon_device_counter(dev, ifpu);
    assert_int_equal(c->width, 32);
    assert_true(c->max_rate_hz == 1e9);
    assert_int_equal(smn_tensix_drv_start(f->d, f->w, f->n), SOCMON_OK);
    uint64_t s0 = socmon_tensix_core_signal(f->c, 1, 257, 0);
    assert_int_equal(socmon_tensix_core_advance(f->c, 1234, NULL), SOCMON_OK);
    uint64_t s1 = socmon_tensix_core_signal(f->c, 1, 257, 0);
    uint32_t idx[3] = {ic, ifpu, il1};
    uint64_t v[3];
    assert_int_equal(socmon_device_read(dev, idx, 3, v), SOCMON_OK);
    assert_int_equal(v[0], 1234);
    assert_int_equal(v[1], s1 - s0);
    /* Undefined L1 values: EUNDEF naming the bank, other values still read. */
    socmon_bus_write32(f->model, REGS + A_TENSIX_PERF_CNT_MUX_CTRL, 0x10);
    assert_int_equal(socmon_device_read(dev, idx, 3, v), SOCMON_EUNDEF);
    assert_non_null(strstr(socmon_errmsg(), "L1"));
    assert_int_equal(v[0], 1234);
    assert_int_equal(v[2], 0);
    socmon_device_free(dev);
    /* Repeated slots give one counter; a bad slot fails naming it. */
    uint32_t w2[3] = {f->w[63], f->w[63], 0x80000006u};
    assert_int_equal(smn_tensix_drv_device(f->d, "t", w2, 2, 1e9, &dev), SOCMON_OK);
    assert_int_equal(socmon_device_ncounters(dev), 2);
    socmon_device_free(dev);
    assert_int_equal(smn_tensix_drv_device(f->d, "t", w2, 3, 1e9, &dev), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 2"));
}

/* Config words in L1 per thread: store zeroes the rest and the data area. */
static void test_config_store_load(void **state)
{
    fx *f = *state;
    uint32_t back[86];
    socmon_bus_write32(f->model, socmon_tensix_data_addr(2) + 40, 0x1234);
    assert_int_equal(socmon_tensix_drv_store_config(f->d, 2, f->w, 10), SOCMON_OK);
    assert_int_equal(socmon_tensix_drv_load_config(f->d, 2, back), SOCMON_OK);
    assert_memory_equal(back, f->w, 10 * 4);
    assert_int_equal(back[10], 0);
    uint32_t v = 1;
    socmon_bus_read32(f->model, socmon_tensix_data_addr(2) + 40, &v);
    assert_int_equal(v, 0);
    assert_int_equal(socmon_tensix_drv_load_config(f->d, 1, back), SOCMON_OK);
    assert_int_equal(back[0], 0);   /* other threads untouched */
    assert_int_equal(socmon_tensix_drv_store_config(f->d, 3, f->w, 10), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread 3"));
    assert_int_equal(socmon_tensix_drv_store_config(f->d, 0, f->w, 87), SOCMON_ERANGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_start_sequence, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_reads_slots_in_order, setup, teardown),
        cmocka_unit_test_setup_teardown(test_invalid_slots_skipped, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_slot_rejected, setup, teardown),
        cmocka_unit_test_setup_teardown(test_l1_undefined, setup, teardown),
        cmocka_unit_test_setup_teardown(test_device, setup, teardown),
        cmocka_unit_test_setup_teardown(test_config_store_load, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
