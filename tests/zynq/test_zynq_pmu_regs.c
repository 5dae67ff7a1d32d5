/* Cortex-A9 PMU model: PMCR, enables, lock, divider, overflow flags, events. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "drivers/zynq/a9_events.h"
#include "models/zynq/zynq_model.h"
#include "socmon/socmon.h"

typedef struct fx {
    socmon_zynq_soc *soc;
    socmon_bus *bus;
    double cpu_hz;
} fx;

static int setup(void **state)
{
    fx *f = calloc(1, sizeof *f);
    socmon_zynq_desc d;
    socmon_zynq_desc_default(&d);
    d.cpu_hz = 500e6;   /* 2 ns per cycle: easy arithmetic */
    f->cpu_hz = d.cpu_hz;
    assert_int_equal(smn_zynq_soc_new(&d, &f->soc), SOCMON_OK);
    /* exact cycle counts below: accesses take no time (issue 13 gave them some) */
    assert_int_equal(socmon_zynq_soc_set_access_ns(f->soc, 0), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&f->bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(f->soc, f->bus), SOCMON_OK);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    socmon_bus_free(f->bus);
    smn_zynq_soc_free(f->soc);
    free(f);
    return 0;
}

static uint32_t rd(fx *f, unsigned core, uint32_t off)
{
    uint32_t v = 0xDEADBEEF;
    uint64_t b = core ? SOCMON_ZA9_CPU1_BASE : SOCMON_ZA9_CPU0_BASE;
    assert_int_equal(socmon_bus_read32(f->bus, b + off, &v), SOCMON_OK);
    return v;
}

static void wr(fx *f, unsigned core, uint32_t off, uint32_t v)
{
    uint64_t b = core ? SOCMON_ZA9_CPU1_BASE : SOCMON_ZA9_CPU0_BASE;
    assert_int_equal(socmon_bus_write32(f->bus, b + off, v), SOCMON_OK);
}

static void cycles(fx *f, uint64_t n)
{
    assert_int_equal(socmon_zynq_soc_advance(f->soc, n * 2, NULL), SOCMON_OK);
}

static void busy(fx *f, unsigned core, double util, double ipc)
{
    socmon_zynq_cpu_profile p = {.util = util, .ipc = ipc, .ldst_per_inst = 0.4, .store_frac = 0.25,
        .l1d_miss = 0.1, .stall_per_miss = 10, .wstall_per_store = 0.5, .br_per_inst = 0.1,
        .br_miss = 0.05};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, core, &p), SOCMON_OK);
}

static void test_reset_and_lock(void **state)
{
    fx *f = *state;
    assert_int_equal(rd(f, 0, A_ZA9_PMCR), ZA9_PMCR_RESET);
    assert_int_equal((rd(f, 0, A_ZA9_PMCR) >> 11) & 0x1F, 6);   /* N = 6 counters */
    assert_int_equal(rd(f, 0, A_ZA9_PMLSR), 0x3);                /* locked */
    wr(f, 0, A_ZA9_PMCNTENSET, 0xFFFFFFFF);
    assert_int_equal(rd(f, 0, A_ZA9_PMCNTENSET), 0);              /* ignored while locked */
    wr(f, 0, A_ZA9_PMLAR, 0x12345678);
    assert_int_equal(rd(f, 0, A_ZA9_PMLSR), 0x3);
    wr(f, 0, A_ZA9_PMLAR, ZA9_LAR_KEY);
    assert_int_equal(rd(f, 0, A_ZA9_PMLSR), 0x1);
    wr(f, 0, A_ZA9_PMCNTENSET, 0xFFFFFFFF);
    assert_int_equal(rd(f, 0, A_ZA9_PMCNTENSET), ZA9_CNT_MASK);
    wr(f, 0, A_ZA9_PMCNTENCLR, 0x3);
    assert_int_equal(rd(f, 0, A_ZA9_PMCNTENSET), ZA9_CNT_MASK & ~0x3u);
    /* the other core's window is separate and still locked */
    assert_int_equal(rd(f, 1, A_ZA9_PMLSR), 0x3);
    assert_int_equal(rd(f, 0, A_ZA9_PMDEVTYPE), 0x16);
}

static void unlock_enable(fx *f, unsigned core, uint32_t pmcr)
{
    wr(f, core, A_ZA9_PMLAR, ZA9_LAR_KEY);
    wr(f, core, A_ZA9_PMCR, pmcr | R_ZA9_PMCR_P_MASK | R_ZA9_PMCR_C_MASK);
    wr(f, core, A_ZA9_PMCNTENSET, ZA9_CNT_MASK);
}

static void test_ccnt_counts_non_idle_cycles(void **state)
{
    fx *f = *state;
    busy(f, 0, 0.5, 1.0);
    cycles(f, 1000);   /* not enabled yet */
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 0);
    unlock_enable(f, 0, R_ZA9_PMCR_E_MASK);
    cycles(f, 100000);
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 50000);
    /* PMCR.E off stops everything; the enable bit alone does not restart it */
    wr(f, 0, A_ZA9_PMCR, 0);
    cycles(f, 100000);
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 50000);
    /* P and C are actions: they clear and read back as 0 */
    wr(f, 0, A_ZA9_PMCR, R_ZA9_PMCR_C_MASK);
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 0);
    assert_int_equal(rd(f, 0, A_ZA9_PMCR) & 0x3F, 0);
}

static void test_divider(void **state)
{
    fx *f = *state;
    busy(f, 0, 1.0, 1.0);
    unlock_enable(f, 0, R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_D_MASK);
    assert_int_equal(rd(f, 0, A_ZA9_PMCR) & 0x3F, R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_D_MASK);
    cycles(f, 64 * 1000 + 63);
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 1000);
    cycles(f, 1);   /* the 64th cycle of the next group completes it */
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 1001);
    /* event counters are not divided */
    wr(f, 0, za9_pmxevtyper(0), 0x11);   /* CPU_CYCLES */
    uint32_t c0 = rd(f, 0, za9_pmxevcntr(0));
    cycles(f, 6400);
    assert_int_equal(rd(f, 0, za9_pmxevcntr(0)) - c0, 6400);
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 1101);
}

static void test_overflow_flags_w1c(void **state)
{
    fx *f = *state;
    busy(f, 1, 1.0, 1.0);
    unlock_enable(f, 1, R_ZA9_PMCR_E_MASK);
    wr(f, 1, za9_pmxevtyper(2), 0x68);
    wr(f, 1, A_ZA9_PMCCNTR, 0xFFFFFF00u);
    wr(f, 1, za9_pmxevcntr(2), 0xFFFFFF80u);
    cycles(f, 100);
    assert_int_equal(rd(f, 1, A_ZA9_PMOVSR), 0);
    assert_int_equal(rd(f, 1, A_ZA9_PMCCNTR), 0xFFFFFF64u);
    cycles(f, 200);
    uint32_t ov = rd(f, 1, A_ZA9_PMOVSR);
    assert_int_equal(ov, ZA9_CCNT_BIT | (1u << 2));
    assert_int_equal(rd(f, 1, A_ZA9_PMCCNTR), 300 - 0x100);   /* wrapped */
    assert_int_equal(rd(f, 1, za9_pmxevcntr(2)), 300 - 0x80);
    /* IRQ only for counters whose interrupt is enabled */
    assert_false(socmon_zynq_pmu_irq(f->soc, 1));
    wr(f, 1, A_ZA9_PMINTENSET, 1u << 2);
    assert_true(socmon_zynq_pmu_irq(f->soc, 1));
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    /* write 1 to clear, one flag at a time */
    wr(f, 1, A_ZA9_PMOVSR, 1u << 2);
    assert_int_equal(rd(f, 1, A_ZA9_PMOVSR), ZA9_CCNT_BIT);
    assert_false(socmon_zynq_pmu_irq(f->soc, 1));
    /* PMCR.C resets the counter but not its flag */
    wr(f, 1, A_ZA9_PMCR, R_ZA9_PMCR_E_MASK | R_ZA9_PMCR_C_MASK);
    assert_int_equal(rd(f, 1, A_ZA9_PMOVSR), ZA9_CCNT_BIT);
    wr(f, 1, A_ZA9_PMOVSR, 0xFFFFFFFF);
    assert_int_equal(rd(f, 1, A_ZA9_PMOVSR), 0);
    wr(f, 1, A_ZA9_PMINTENCLR, 0xFFFFFFFF);
    assert_int_equal(rd(f, 1, A_ZA9_PMINTENSET), 0);
}

static void test_event_selection(void **state)
{
    fx *f = *state;
    busy(f, 0, 0.8, 1.25);
    unlock_enable(f, 0, R_ZA9_PMCR_E_MASK);
    const uint8_t ev[6] = {0x68, 0x04, 0x03, 0x11, 0x08, 0x68};
    for (unsigned n = 0; n < 6; n++)
        wr(f, 0, za9_pmxevtyper(n), ev[n]);
    assert_int_equal(rd(f, 0, za9_pmxevtyper(1)), 0x04);
    cycles(f, 1000000);
    uint32_t inst = rd(f, 0, za9_pmxevcntr(0));
    uint32_t acc = rd(f, 0, za9_pmxevcntr(1));
    uint32_t refill = rd(f, 0, za9_pmxevcntr(2));
    assert_int_equal(rd(f, 0, za9_pmxevcntr(3)), 800000);      /* cycles as an event */
    assert_int_equal(rd(f, 0, za9_pmxevcntr(4)), 0);           /* 0x08: not on an A9 */
    assert_int_equal(rd(f, 0, za9_pmxevcntr(5)), inst);        /* same event, same count */
    assert_int_equal(inst, 1000000);                                   /* 1.25 * 800000 */
    assert_int_equal(acc, 400000);                                     /* 0.4 per instruction */
    assert_int_equal(refill, 40000);                                   /* 10 % of accesses */
    assert_int_equal(rd(f, 0, A_ZA9_PMCCNTR), 800000);
    /* disabling one counter freezes just that one */
    wr(f, 0, A_ZA9_PMCNTENCLR, 1u << 1);
    cycles(f, 1000);
    assert_int_equal(rd(f, 0, za9_pmxevcntr(1)), acc);
    assert_true(rd(f, 0, za9_pmxevcntr(0)) > inst);
}

static void test_swinc(void **state)
{
    fx *f = *state;
    unlock_enable(f, 0, R_ZA9_PMCR_E_MASK);
    wr(f, 0, za9_pmxevtyper(0), 0x00);
    wr(f, 0, za9_pmxevtyper(1), 0x68);
    wr(f, 0, A_ZA9_PMSWINC, 0x3);
    wr(f, 0, A_ZA9_PMSWINC, 0x1);
    assert_int_equal(rd(f, 0, za9_pmxevcntr(0)), 2);
    assert_int_equal(rd(f, 0, za9_pmxevcntr(1)), 0);   /* not a SW_INCR counter */
}

static void test_event_table(void **state)
{
    (void)state;
    uint8_t code = 0;
    assert_int_equal(smn_za9_event_parse("inst_rename", &code), SOCMON_OK);
    assert_int_equal(code, 0x68);
    assert_int_equal(smn_za9_event_parse("0x81", &code), SOCMON_OK);
    assert_string_equal(smn_za9_event_by_code(code)->name, "mem_write_stall");
    assert_int_equal(smn_za9_event_parse("0x08", &code), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "0x08"));
    assert_int_equal(smn_za9_event_parse("nonsense", &code), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "nonsense"));
    /* every event the table lists counts or is documented as a software event */
    for (size_t i = 0; i < smn_za9_event_count(); i++)
        assert_non_null(smn_za9_event_by_code(smn_za9_event_at(i)->code));
}

static void test_cpu_profile_errors(void **state)
{
    fx *f = *state;
    socmon_zynq_cpu_profile p = {.util = 1.5, .ipc = 1, .ldst_per_inst = 0, .store_frac = 0,
        .l1d_miss = 0, .stall_per_miss = 0, .wstall_per_store = 0, .br_per_inst = 0, .br_miss = 0};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &p), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "util 1.5"));
    p.util = 0.5;
    p.l1d_miss = -0.1;
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &p), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "l1d_miss -0.1"));
    p.l1d_miss = 0.1;
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 2, &p), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "core 2"));
    assert_int_equal(smn_zynq_pmu_poke(f->soc, 0, 9, 0), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "9"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_reset_and_lock, setup, teardown),
        cmocka_unit_test_setup_teardown(test_ccnt_counts_non_idle_cycles, setup, teardown),
        cmocka_unit_test_setup_teardown(test_divider, setup, teardown),
        cmocka_unit_test_setup_teardown(test_overflow_flags_w1c, setup, teardown),
        cmocka_unit_test_setup_teardown(test_event_selection, setup, teardown),
        cmocka_unit_test_setup_teardown(test_swinc, setup, teardown),
        cmocka_unit_test(test_event_table),
        cmocka_unit_test_setup_teardown(test_cpu_profile_errors, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
