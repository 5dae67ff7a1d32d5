/* Linux's ARMv7 PMU register sequences (arch/arm/kernel/perf_event_v7.c as
 * spec §5.1 describes them, LNXPMU) run through CP15 against the model:
 * reset, counter setup, reading, and the overflow interrupt handler with
 * Linux's counter index mapping. Written here from the facts in the spec,
 * not from the kernel's code.
 *
 * Facts used (spec §5.1): PMCR P = bit 1, C = bit 2, E = bit 0; idx 0 is
 * CCNT (flag bit 31), idx k >= 1 is counter k - 1 (ARMV7_IDX_TO_COUNTER);
 * reset = disable every counter and interrupt, then PMCR = P | C; the
 * handler reads PMOVSR and writes the value back to clear it. Expected counts
 * follow from the CPU profile (include/socmon/zynq.h): with util 1 every
 * cycle is non-idle; event 0x68 counts ipc per cycle, 0x04 ldst_per_inst per
 * instruction, 0x03 l1d_miss per access (spec §5.2 event meanings). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "zynq_cp15_helper.h"

#define PMNC_E 0x1u
#define PMNC_P 0x2u
#define PMNC_C 0x4u
#define IDX_CYCLE 0u
#define NB_CNT 7u   /* CCNT + PMCR.N (6) */

/* ---- the driver's side, as Linux does it, over a socmon_cp15 ---- */
typedef struct lx {
    socmon_cp15 cp;
} lx;

static uint32_t lx_rd(lx *l, unsigned crm, unsigned opc2)
{
    uint32_t v = 0;
    assert_int_equal(l->cp.read(l->cp.ctx, 0, 9, crm, opc2, &v), SOCMON_OK);
    return v;
}

static void lx_wr(lx *l, unsigned crm, unsigned opc2, uint32_t v)
{
    assert_int_equal(l->cp.write(l->cp.ctx, 0, 9, crm, opc2, v), SOCMON_OK);
}

static uint32_t idx_bit(unsigned idx)
{
    return idx == IDX_CYCLE ? 0x80000000u : 1u << ((idx - 1) & 31);
}

static void select_counter(lx *l, unsigned idx)
{
    lx_wr(l, 12, 5, (idx - 1) & 31);   /* PMSELR, then an ISB on silicon */
}

static void lx_reset(lx *l)
{
    for (unsigned idx = IDX_CYCLE; idx < NB_CNT; idx++) {
        lx_wr(l, 12, 2, idx_bit(idx));   /* disable counter */
        lx_wr(l, 14, 2, idx_bit(idx));   /* disable interrupt */
    }
    lx_wr(l, 12, 0, PMNC_P | PMNC_C);
}

static void lx_enable_event(lx *l, unsigned idx, uint32_t event)
{
    lx_wr(l, 12, 2, idx_bit(idx));
    if (idx != IDX_CYCLE) {
        select_counter(l, idx);
        lx_wr(l, 13, 1, event);
    }
    lx_wr(l, 14, 1, idx_bit(idx));
    lx_wr(l, 12, 1, idx_bit(idx));
}

static void lx_start(lx *l)
{
    lx_wr(l, 12, 0, lx_rd(l, 12, 0) | PMNC_E);
}

static void lx_stop(lx *l)
{
    lx_wr(l, 12, 0, lx_rd(l, 12, 0) & ~PMNC_E);
}

static uint32_t lx_read_counter(lx *l, unsigned idx)
{
    if (idx == IDX_CYCLE)
        return lx_rd(l, 13, 0);
    select_counter(l, idx);
    return lx_rd(l, 13, 2);
}

static void lx_write_counter(lx *l, unsigned idx, uint32_t v)
{
    if (idx == IDX_CYCLE) {
        lx_wr(l, 13, 0, v);
        return;
    }
    select_counter(l, idx);
    lx_wr(l, 13, 2, v);
}

/* The interrupt handler: read and clear the flags, then say which idx
 * overflowed (a bit per idx in *which). */
static uint32_t lx_handle_irq(lx *l)
{
    uint32_t flags = lx_rd(l, 12, 3);
    lx_wr(l, 12, 3, flags);
    uint32_t which = 0;
    for (unsigned idx = IDX_CYCLE; idx < NB_CNT; idx++)
        if (flags & idx_bit(idx))
            which |= 1u << idx;
    return which;
}

/* ---- tests ---- */

static const socmon_zynq_cpu_profile PROF = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.5,
    .store_frac = 0.25, .l1d_miss = 0.125, .stall_per_miss = 10, .wstall_per_store = 0.5,
    .br_per_inst = 0.125, .br_miss = 0.25};

static void test_reset(void **state)
{
    cfx *f = *state;
    lx l;
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 0, &l.cp), SOCMON_OK);
    /* something left running by a previous owner */
    mcr(f, 0, 12, 1, 0x8000003F);
    mcr(f, 0, 14, 1, 0x8000003F);
    mcr(f, 0, 13, 0, 1234);
    mcr(f, 0, 12, 5, 3);
    mcr(f, 0, 13, 2, 99);
    mcr(f, 0, 12, 0, PMNC_E);
    lx_reset(&l);
    assert_int_equal(win_rd(f, 0, 0xC00), 0);                 /* PMCNTENSET */
    assert_int_equal(win_rd(f, 0, 0xC40), 0);                 /* PMINTENSET */
    assert_int_equal(win_rd(f, 0, 0xE04), 0x41093000u);       /* E off, P/C read 0 */
    assert_int_equal(win_rd(f, 0, 0x07C), 0);
    assert_int_equal(win_rd(f, 0, 0x00C), 0);
}

static void test_setup_and_read(void **state)
{
    cfx *f = *state;
    lx l;
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &PROF), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 0, &l.cp), SOCMON_OK);
    lx_reset(&l);
    lx_enable_event(&l, IDX_CYCLE, 0xFF);
    lx_enable_event(&l, 1, 0x68);   /* instructions (Linux's A9 map) */
    lx_enable_event(&l, 2, 0x04);   /* cache references */
    lx_enable_event(&l, 3, 0x03);   /* cache misses */
    assert_int_equal(win_rd(f, 0, 0xC00), 0x80000007u);
    assert_int_equal(win_rd(f, 0, 0x404), 0x04);   /* counter 1 = idx 2 */
    lx_start(&l);
    run_cycles(f, 100000);
    lx_stop(&l);
    run_cycles(f, 5000);   /* stopped: no more counts */
    assert_int_equal(lx_read_counter(&l, IDX_CYCLE), 100000);
    assert_int_equal(lx_read_counter(&l, 1), 100000);         /* ipc 1 */
    assert_int_equal(lx_read_counter(&l, 2), 50000);          /* 0.5 per inst */
    assert_int_equal(lx_read_counter(&l, 3), 6250);           /* 0.125 per access */
    /* the window sees the same numbers */
    assert_int_equal(win_rd(f, 0, 0x000), 100000);
    assert_int_equal(win_rd(f, 0, 0x008), 6250);
}

static void test_overflow_irq(void **state)
{
    cfx *f = *state;
    lx l;
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &PROF), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 0, &l.cp), SOCMON_OK);
    lx_reset(&l);
    lx_enable_event(&l, IDX_CYCLE, 0xFF);
    lx_enable_event(&l, 1, 0x68);
    lx_enable_event(&l, 4, 0x04);
    /* Linux arms a sampling period by writing -(period) */
    lx_write_counter(&l, IDX_CYCLE, (uint32_t)-1000);
    lx_write_counter(&l, 1, (uint32_t)-3000);
    lx_write_counter(&l, 4, (uint32_t)-1000);   /* 0.5/cycle: 2000 cycles */
    lx_start(&l);
    run_cycles(f, 999);
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    run_cycles(f, 1);
    assert_true(socmon_zynq_pmu_irq(f->soc, 0));
    assert_int_equal(lx_handle_irq(&l), 1u << IDX_CYCLE);
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    run_cycles(f, 1000);   /* 2000: idx 4 wraps */
    assert_true(socmon_zynq_pmu_irq(f->soc, 0));
    assert_int_equal(lx_handle_irq(&l), 1u << 4);
    run_cycles(f, 1000);   /* 3000: idx 1 wraps */
    assert_int_equal(lx_handle_irq(&l), 1u << 1);
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    assert_int_equal(lx_read_counter(&l, 1), 0);
    assert_int_equal(lx_read_counter(&l, 4), 500);
    /* with the interrupt disabled the flag still sets, the line stays low */
    lx_wr(&l, 14, 2, idx_bit(IDX_CYCLE));
    lx_write_counter(&l, IDX_CYCLE, (uint32_t)-10);
    run_cycles(f, 10);
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    assert_int_equal(lx_rd(&l, 12, 3), 0x80000000u);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset, cfx_setup, cfx_teardown),
        cmocka_unit_test_setup_teardown(test_setup_and_read, cfx_setup, cfx_teardown),
        cmocka_unit_test_setup_teardown(test_overflow_irq, cfx_setup, cfx_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
