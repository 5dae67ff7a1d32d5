/* The Cortex-A9 PMU through CP15: every encoding of spec §5.1's table
 * reaches the same state as its memory-mapped offset (both ways), PMSELR
 * selection, PMSWINC, PMOVSR write-1-to-clear, the SET/CLR pairs, PMCR's P, C
 * and D, the CoreSight lock not applying to CP15, and the encodings the A9
 * does not implement refused.
 *
 * Expected values: the encoding/offset pairs are spec §5.1's table (CP15
 * column from Linux perf_event_v7.c and ESW-BSP xreg_cortexa9.h, offsets from
 * the UG585-derived Zynq-7000 headers); PMCR reset 0x41093000 and the
 * writable mask 0x3F from §5.1 (QEMU cortex_a9_initfn, LNXPMU
 * ARMV7_PMNC_MASK); D = every 64th cycle from §5.1 (LNXPMU ARMV7_PMNC_D). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include "zynq_cp15_helper.h"

/* spec §5.1: {CRm, opc2, memory-mapped offset} of the registers that have one */
static const struct { unsigned crm, opc2; uint32_t off; } MAPPED[] = {
    {12, 0, 0xE04},   /* PMCR */
    {12, 1, 0xC00},   /* PMCNTENSET */
    {12, 2, 0xC20},   /* PMCNTENCLR */
    {12, 3, 0xC80},   /* PMOVSR */
    {13, 0, 0x07C},   /* PMCCNTR */
    {14, 0, 0xE08},   /* PMUSERENR */
    {14, 1, 0xC40},   /* PMINTENSET */
    {14, 2, 0xC60},   /* PMINTENCLR */
};

static void unlock(cfx *f, unsigned core)
{
    win_wr(f, core, 0xFB0, 0xC5ACCE55);   /* PMLAR key (CoreSight) */
}

static void test_reads_match_the_window(void **state)
{
    cfx *f = *state;
    /* reset values, as each interface sees them */
    assert_int_equal(mrc(f, 0, 12, 0), 0x41093000);
    for (unsigned i = 0; i < sizeof MAPPED / sizeof MAPPED[0]; i++)
        for (unsigned core = 0; core < 2; core++)
            assert_int_equal(mrc(f, core, MAPPED[i].crm, MAPPED[i].opc2),
                             win_rd(f, core, MAPPED[i].off));
}

static void test_cp15_writes_seen_in_the_window(void **state)
{
    cfx *f = *state;
    /* PMCR: only E, P, C, D, X, DP are writable; P and C act and read 0 */
    mcr(f, 0, 12, 0, 0xFFFFFFFF);
    assert_int_equal(win_rd(f, 0, 0xE04), 0x41093000u | 0x39u);
    mcr(f, 0, 12, 0, 0);
    assert_int_equal(win_rd(f, 0, 0xE04), 0x41093000u);
    /* the SET/CLR pairs: bit 31 CCNT, bits 5:0 the counters; others ignored */
    mcr(f, 0, 12, 1, 0xFFFFFFFF);
    assert_int_equal(win_rd(f, 0, 0xC00), 0x8000003Fu);
    assert_int_equal(win_rd(f, 0, 0xC20), 0x8000003Fu);
    mcr(f, 0, 12, 2, 0x80000005);
    assert_int_equal(win_rd(f, 0, 0xC00), 0x0000003Au);
    mcr(f, 0, 14, 1, 0x80000003);
    assert_int_equal(win_rd(f, 0, 0xC40), 0x80000003u);
    mcr(f, 0, 14, 2, 0x00000001);
    assert_int_equal(win_rd(f, 0, 0xC60), 0x80000002u);
    /* PMUSERENR: bit 0 only */
    mcr(f, 0, 14, 0, 0xFFFFFFFF);
    assert_int_equal(win_rd(f, 0, 0xE08), 1);
    /* PMCCNTR */
    mcr(f, 0, 13, 0, 0x12345678);
    assert_int_equal(win_rd(f, 0, 0x07C), 0x12345678);
    /* core 1's window saw none of it */
    assert_int_equal(win_rd(f, 1, 0xC00), 0);
    assert_int_equal(win_rd(f, 1, 0x07C), 0);
    assert_int_equal(win_rd(f, 1, 0xE08), 0);
}

static void test_window_writes_seen_by_cp15(void **state)
{
    cfx *f = *state;
    unlock(f, 1);
    win_wr(f, 1, 0xC00, 0x80000011);
    assert_int_equal(mrc(f, 1, 12, 1), 0x80000011);
    assert_int_equal(mrc(f, 1, 12, 2), 0x80000011);
    win_wr(f, 1, 0x07C, 0xCAFE);
    assert_int_equal(mrc(f, 1, 13, 0), 0xCAFE);
    win_wr(f, 1, 0x008, 777);              /* PMXEVCNTR2 */
    win_wr(f, 1, 0x408, 0xFFFFFF68);       /* PMXEVTYPER2: evtCount[7:0] only */
    mcr(f, 1, 12, 5, 2);                   /* PMSELR = 2 */
    assert_int_equal(mrc(f, 1, 13, 2), 777);
    assert_int_equal(mrc(f, 1, 13, 1), 0x68);
    assert_int_equal(mrc(f, 0, 13, 2), 0);  /* core 0 untouched */
}

static void test_pmselr_selects(void **state)
{
    cfx *f = *state;
    for (unsigned n = 0; n < 6; n++) {
        mcr(f, 0, 12, 5, n);
        assert_int_equal(mrc(f, 0, 12, 5), n);
        mcr(f, 0, 13, 1, 0x60 + n);          /* PMXEVTYPER -> 0x400 + 4n */
        mcr(f, 0, 13, 2, 1000 + n);          /* PMXEVCNTR -> 0x000 + 4n */
    }
    for (unsigned n = 0; n < 6; n++) {
        assert_int_equal(win_rd(f, 0, 0x400 + 4 * n), 0x60 + n);
        assert_int_equal(win_rd(f, 0, 0x000 + 4 * n), 1000 + n);
    }
    /* SEL is bits 4:0; the reserved bits are dropped */
    mcr(f, 0, 12, 5, 0xFFFFFFE4);
    assert_int_equal(mrc(f, 0, 12, 5), 4);
    assert_int_equal(mrc(f, 0, 13, 2), 1004);
}

static void test_pmselr_beyond_the_counters_is_unpredictable(void **state)
{
    cfx *f = *state;
    static const unsigned sels[] = {6, 7, 30, 31};
    mcr(f, 0, 12, 5, 1);
    mcr(f, 0, 13, 2, 55);
    for (unsigned i = 0; i < 4; i++) {
        uint32_t v = 0xDEADBEEF;
        mcr(f, 0, 12, 5, sels[i]);
        assert_int_equal(mrc(f, 0, 12, 5), sels[i]);   /* PMSELR itself holds it */
        assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 13, 2, &v), SOCMON_EUNDEF);
        assert_int_equal(v, 0);
        char want[32];
        snprintf(want, sizeof want, "PMSELR.SEL = %u", sels[i]);
        assert_non_null(strstr(socmon_errmsg(), want));
        assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 13, 1, &v), SOCMON_EUNDEF);
        assert_int_equal(socmon_zynq_cp15_write(f->soc, 0, 0, 9, 13, 2, 9), SOCMON_EUNDEF);
        assert_int_equal(socmon_zynq_cp15_write(f->soc, 0, 0, 9, 13, 1, 9), SOCMON_EUNDEF);
    }
    /* the refused writes changed nothing */
    for (unsigned n = 0; n < 6; n++) {
        assert_int_equal(win_rd(f, 0, 0x000 + 4 * n), n == 1 ? 55 : 0);
        assert_int_equal(win_rd(f, 0, 0x400 + 4 * n), 0);
    }
    assert_int_equal(win_rd(f, 0, 0x07C), 0);
}

static void test_pmswinc(void **state)
{
    cfx *f = *state;
    /* counters 0 and 2 on SW_INCR (0x00), counter 1 on another event */
    mcr(f, 0, 12, 5, 1);
    mcr(f, 0, 13, 1, 0x68);
    mcr(f, 0, 12, 1, 0x7);
    mcr(f, 0, 12, 4, 0x7);            /* PMCR.E clear: nothing counts */
    assert_int_equal(win_rd(f, 0, 0x000), 0);
    mcr(f, 0, 12, 0, 1);              /* E */
    mcr(f, 0, 12, 4, 0x7);
    mcr(f, 0, 12, 4, 0x1);
    assert_int_equal(win_rd(f, 0, 0x000), 2);
    assert_int_equal(win_rd(f, 0, 0x004), 0);   /* not a SW_INCR counter */
    assert_int_equal(win_rd(f, 0, 0x008), 1);
    assert_int_equal(mrc(f, 0, 12, 4), 0);      /* write-only: reads 0, as the window */
}

static void test_pmovsr_w1c_and_irq(void **state)
{
    cfx *f = *state;
    socmon_zynq_cpu_profile p = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.5, .store_frac = 0.25,
        .l1d_miss = 0.125, .stall_per_miss = 10, .wstall_per_store = 0.5, .br_per_inst = 0.125,
        .br_miss = 0.25};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &p), SOCMON_OK);
    mcr(f, 0, 13, 0, 0xFFFFFFFF - 9);   /* CCNT 10 cycles from wrapping */
    mcr(f, 0, 14, 1, 0x80000000);
    mcr(f, 0, 12, 1, 0x80000000);
    mcr(f, 0, 12, 0, 1);
    run_cycles(f, 20);
    assert_int_equal(mrc(f, 0, 12, 3), 0x80000000);
    assert_int_equal(win_rd(f, 0, 0xC80), 0x80000000);
    assert_int_equal(mrc(f, 0, 13, 0), 10);
    assert_true(socmon_zynq_pmu_irq(f->soc, 0));
    mcr(f, 0, 12, 3, 0x0000003F);        /* other bits: no effect */
    assert_int_equal(mrc(f, 0, 12, 3), 0x80000000);
    mcr(f, 0, 12, 3, 0x80000000);
    assert_int_equal(mrc(f, 0, 12, 3), 0);
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
}

static void test_pmcr_p_c_d(void **state)
{
    cfx *f = *state;
    socmon_zynq_cpu_profile p = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.5, .store_frac = 0.25,
        .l1d_miss = 0.125, .stall_per_miss = 10, .wstall_per_store = 0.5, .br_per_inst = 0.125,
        .br_miss = 0.25};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &p), SOCMON_OK);
    mcr(f, 0, 12, 5, 0);
    mcr(f, 0, 13, 1, 0x68);                      /* instructions through rename */
    mcr(f, 0, 12, 1, 0x80000001);
    mcr(f, 0, 12, 0, 0x1);
    run_cycles(f, 1000);
    assert_int_equal(mrc(f, 0, 13, 0), 1000);    /* util 1: every cycle */
    assert_int_equal(mrc(f, 0, 13, 2), 1000);    /* ipc 1 */
    mcr(f, 0, 12, 0, 0x1 | 0x2);                 /* P: event counters only */
    assert_int_equal(mrc(f, 0, 13, 2), 0);
    assert_int_equal(mrc(f, 0, 13, 0), 1000);
    assert_int_equal(mrc(f, 0, 12, 0) & 0x3F, 0x1);   /* P reads 0 */
    mcr(f, 0, 12, 0, 0x1 | 0x4);                 /* C: the cycle counter */
    assert_int_equal(mrc(f, 0, 13, 0), 0);
    assert_int_equal(mrc(f, 0, 12, 0) & 0x3F, 0x1);
    mcr(f, 0, 12, 0, 0x1 | 0x8);                 /* D: CCNT every 64th cycle */
    run_cycles(f, 6400);
    assert_int_equal(mrc(f, 0, 13, 0), 100);
    assert_int_equal(mrc(f, 0, 13, 2), 6400);
}

static void test_lock_guards_only_the_window(void **state)
{
    cfx *f = *state;
    assert_int_equal(win_rd(f, 0, 0xFB4), 0x3);   /* PMLSR: implemented, locked */
    win_wr(f, 0, 0xC00, 0x1);                      /* ignored: locked */
    assert_int_equal(mrc(f, 0, 12, 1), 0);
    mcr(f, 0, 12, 1, 0x2);                         /* CP15 is not locked */
    assert_int_equal(win_rd(f, 0, 0xC00), 0x2);
    mcr(f, 0, 12, 0, 0x1);
    assert_int_equal(win_rd(f, 0, 0xE04) & 1, 1);
    assert_int_equal(win_rd(f, 0, 0xFB4), 0x3);   /* and does not unlock it */
}

static void test_unknown_encodings_refused(void **state)
{
    cfx *f = *state;
    uint32_t v = 0xDEADBEEF;
    /* PMUv2's PMCEID0/1: Undefined Instruction on the A9 */
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 12, 6, &v), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "c9, c12, 6"));
    assert_int_equal(v, 0);
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 12, 7, &v), SOCMON_ENOTSUP);
    assert_int_equal(socmon_zynq_cp15_write(f->soc, 0, 0, 9, 12, 6, 1), SOCMON_ENOTSUP);
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 1, 9, 12, 0, &v), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "p15, 1,"));
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 1, 0, 0, &v), SOCMON_ENOTSUP);
    /* not encodable at all */
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 8, 9, 12, 0, &v), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 16, 12, 0, &v), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 16, 0, &v), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_cp15_write(f->soc, 0, 0, 9, 12, 8, 0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "c9, c12, 8"));
    /* bad arguments */
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 2, 0, 9, 12, 0, &v), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "core 2"));
    assert_int_equal(socmon_zynq_cp15_read(f->soc, 0, 0, 9, 12, 0, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_zynq_cp15_read(NULL, 0, 0, 9, 12, 0, &v), SOCMON_EINVAL);
    /* exactly the twelve encodings of the table are implemented */
    unsigned ok = 0;
    for (unsigned opc1 = 0; opc1 < 8; opc1++)
        for (unsigned crn = 0; crn < 16; crn++)
            for (unsigned crm = 0; crm < 16; crm++)
                for (unsigned opc2 = 0; opc2 < 8; opc2++) {
                    socmon_status st = socmon_zynq_cp15_read(f->soc, 0, opc1, crn, crm, opc2, &v);
                    assert_true(st == SOCMON_OK || st == SOCMON_ENOTSUP);
                    ok += st == SOCMON_OK;
                }
    assert_int_equal(ok, 12);
}

static void test_interface(void **state)
{
    cfx *f = *state;
    socmon_cp15 cp;
    uint32_t v = 0;
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 1, &cp), SOCMON_OK);
    assert_int_equal(cp.write(cp.ctx, 0, 9, 12, 1, 0x80000000), SOCMON_OK);
    assert_int_equal(win_rd(f, 1, 0xC00), 0x80000000);
    assert_int_equal(cp.read(cp.ctx, 0, 9, 12, 1, &v), SOCMON_OK);
    assert_int_equal(v, 0x80000000);
    assert_int_equal(cp.read(cp.ctx, 0, 9, 12, 6, &v), SOCMON_ENOTSUP);
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 2, &cp), SOCMON_ERANGE);
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 0, NULL), SOCMON_EINVAL);
#if !defined(__arm__)
    assert_int_equal(socmon_cp15_native(&cp), SOCMON_ENOTSUP);
    assert_null(cp.read);
#else
    assert_int_equal(socmon_cp15_native(&cp), SOCMON_OK);
    assert_int_equal(cp.read(cp.ctx, 0, 9, 12, 6, &v), SOCMON_ENOTSUP);   /* never executed */
#endif
}

static void count_edges(void *ctx, socmon_zynq_soc *soc, socmon_zynq_irq line, uint64_t edge_ns)
{
    (void)soc;
    (void)edge_ns;
    if (line == SOCMON_ZYNQ_IRQ_PMU0)
        ++*(int *)ctx;
}

/* A CP15 write that raises the PMU line (PMINTENSET over a pending
 * overflow flag) delivers the interrupt at once, through the interface as
 * well as the direct call: no bus access or advance is needed to see it. */
static void test_cp15_write_delivers_pmu_irq(void **state)
{
    cfx *f = *state;
    int edges = 0;
    socmon_cp15 cp;
    assert_int_equal(socmon_zynq_soc_set_irq_handler(f->soc, count_edges, &edges), SOCMON_OK);
    socmon_zynq_cpu_profile p = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.5, .store_frac = 0.25,
        .l1d_miss = 0.125, .stall_per_miss = 10, .wstall_per_store = 0.5, .br_per_inst = 0.125,
        .br_miss = 0.25};
    assert_int_equal(socmon_zynq_soc_set_cpu(f->soc, 0, &p), SOCMON_OK);   /* never idle */
    assert_int_equal(socmon_zynq_cp15_of(f->soc, 0, &cp), SOCMON_OK);
    mcr(f, 0, 13, 0, 0xFFFFFFFF - 9);   /* CCNT 10 cycles from wrapping, interrupt off */
    mcr(f, 0, 12, 1, 0x80000000);
    mcr(f, 0, 12, 0, 1);
    run_cycles(f, 20);
    assert_int_equal(mrc(f, 0, 12, 3), 0x80000000);
    assert_int_equal(edges, 0);
    assert_int_equal(cp.write(cp.ctx, 0, 9, 14, 1, 0x80000000), SOCMON_OK);   /* PMINTENSET */
    assert_int_equal(edges, 1);
    mcr(f, 0, 12, 3, 0x80000000);      /* W1C: the line drops */
    assert_false(socmon_zynq_pmu_irq(f->soc, 0));
    mcr(f, 0, 14, 2, 0x80000000);      /* PMINTENCLR */
    mcr(f, 0, 13, 0, 0xFFFFFFFF - 9);
    run_cycles(f, 20);
    mcr(f, 0, 14, 1, 0x80000000);      /* again, through the direct call */
    assert_int_equal(edges, 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
#define T(fn) cmocka_unit_test_setup_teardown(fn, cfx_setup, cfx_teardown)
        T(test_reads_match_the_window),
        T(test_cp15_writes_seen_in_the_window),
        T(test_window_writes_seen_by_cp15),
        T(test_pmselr_selects),
        T(test_pmselr_beyond_the_counters_is_unpredictable),
        T(test_pmswinc),
        T(test_pmovsr_w1c_and_irq),
        T(test_cp15_write_delivers_pmu_irq),
        T(test_pmcr_p_c_d),
        T(test_lock_guards_only_the_window),
        T(test_unknown_encodings_refused),
        T(test_interface),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
