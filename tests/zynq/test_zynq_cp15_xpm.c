/* Xilinx's Xpm flow (standalone BSP xpm_counter.c) through the BSP shims
 * (xpseudo_asm.h mtcp/mfcp, xreg_cortexa9.h strings) on a model core running
 * a known profile: our own sequence, written from spec §5.1's description of
 * Xpm_SetEvents/Xpm_GetEventCounters, must
 *  - make exactly the CP15 accesses embeddedsw's unmodified xpm_counter.c
 *    made in the reference run and read the same counts
 *    (tests/zynq/fixtures/xpm_counter_a9.txt, README next to it), and
 *  - read the counts the profile implies.
 * Also: the shim's failure record (nothing bound, bad strings). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

#include "models/zynq/zynq_model.h"
#include "xil_io.h"
#include "xpm_harness.h"

static uint32_t Xil_In32_shim_probe(void)
{
    return Xil_In32(0xF8891E04u);   /* CPU0 PMCR, spec §5.1 */
}

/* The events of XPM_CNTRCFG1..11 the harness runs (ESW-BSP xpm_counter.h,
 * the XPM_CNTRCFGx comment, at embeddedsw 97f2baf7; event meanings spec §5.2). */
static const uint32_t CFG_EVENTS[11][6] = {
    [0] = {0x00, 0x01, 0x02, 0x03, 0x04, 0x05},
    [5] = {0x68, 0x6E, 0x70, 0x71, 0x72, 0x73},
    [10] = {0x61, 0x01, 0x02, 0x03, 0x04, 0x05},
};

/* spec §5.1: disable the event counters (read PMCNTENCLR, keep CCNT's bit
 * out, add all six), then per counter select and set its type, then PMCR |= P,
 * then PMCNTENSET |= 0x3F. */
static void disable_counters(void)
{
    uint32_t v = mfcp(XREG_CP15_COUNT_ENABLE_CLR);
    mtcp(XREG_CP15_COUNT_ENABLE_CLR, (v & 0x7FFFFFFFu) | 0x3Fu);
}

static void our_set_events(int32_t cfg)
{
    disable_counters();
    for (uint32_t i = 0; i < 6; i++) {
        mtcp(XREG_CP15_EVENT_CNTR_SEL, i);
        mtcp(XREG_CP15_EVENT_TYPE_SEL, CFG_EVENTS[cfg][i]);
    }
    mtcp(XREG_CP15_PERF_MONITOR_CTRL, mfcp(XREG_CP15_PERF_MONITOR_CTRL) | 0x2u);
    mtcp(XREG_CP15_COUNT_ENABLE_SET, mfcp(XREG_CP15_COUNT_ENABLE_SET) | 0x3Fu);
}

static void our_get_counters(uint32_t *v)
{
    disable_counters();
    for (uint32_t i = 0; i < 6; i++) {
        mtcp(XREG_CP15_EVENT_CNTR_SEL, i);
        v[i] = mfcp(XREG_CP15_PERF_MONITOR_COUNT);
    }
}

static char *slurp(const char *path)
{
    FILE *fp = fopen(path, "rb");
    assert_non_null(fp);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    buf[n] = '\0';
    return buf;
}

static void test_matches_the_reference_run(void **state)
{
    (void)state;
    static char out[1 << 16];
    assert_int_equal(xpmh_run(our_set_events, our_get_counters, out, sizeof out), SOCMON_OK);
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/zynq/fixtures/xpm_counter_a9.txt", getenv("SOCMON_SRC"));
    const char *want = slurp(path);
    /* line by line, so a failure names the first differing access */
    const char *a = out, *b = want;
    unsigned line = 1;
    while (*a || *b) {
        size_t la = strcspn(a, "\n"), lb = strcspn(b, "\n");
        if (la != lb || memcmp(a, b, la) != 0)
            fail_msg("line %u: ours \"%.*s\", reference \"%.*s\"", line, (int)la, a, (int)lb, b);
        a += la + (a[la] == '\n');
        b += lb + (b[lb] == '\n');
        line++;
    }
    assert_true(line > 100);   /* the whole trace, not an empty file */
}

static void counts_of(const char *out, unsigned k, unsigned v[6], unsigned *ccnt)
{
    const char *p = out;
    for (unsigned i = 0; i <= k; i++) {
        p = strstr(p, "counts ");
        assert_non_null(p);
        p++;
    }
    assert_int_equal(sscanf(p - 1, "counts %u %u %u %u %u %u", &v[0], &v[1], &v[2], &v[3], &v[4],
                            &v[5]), 6);
    p = strstr(p, "ccnt ");
    assert_non_null(p);
    assert_int_equal(sscanf(p, "ccnt %u", ccnt), 1);
}

static void test_counts_follow_the_profile(void **state)
{
    (void)state;
    static char out[1 << 16];
    unsigned v[6], ccnt;
    const double n = XPMH_CYCLES;   /* util 1: every cycle is non-idle */
    const socmon_zynq_cpu_profile *p = &XPMH_PROF;
    const double inst = n * p->ipc, ldst = inst * p->ldst_per_inst, refill = ldst * p->l1d_miss;
    assert_int_equal(xpmh_run(our_set_events, our_get_counters, out, sizeof out), SOCMON_OK);
    counts_of(out, 0, v, &ccnt);                 /* XPM_CNTRCFG1 */
    assert_int_equal(v[0], 0);                    /* SW_INCR: no software increments */
    assert_int_equal(v[3], (unsigned)refill);     /* L1D refill */
    assert_int_equal(v[4], (unsigned)ldst);       /* L1D access */
    assert_int_equal(ccnt, (unsigned)(n / 64));   /* boot set PMCR.D */
    counts_of(out, 1, v, &ccnt);                  /* XPM_CNTRCFG6 */
    assert_int_equal(v[0], (unsigned)inst);       /* INSTRRENAME */
    assert_int_equal(v[4], (unsigned)ldst);       /* LDRSTR: load/store unit */
    assert_int_equal(ccnt, (unsigned)(2 * n / 64));
    counts_of(out, 2, v, &ccnt);                  /* XPM_CNTRCFG11 */
    /* DATASTALL: stall_per_miss cycles per refill, at most every cycle */
    double stall = refill * p->stall_per_miss;
    assert_int_equal(v[0], (unsigned)(stall < n ? stall : n));
    assert_int_equal(v[3], (unsigned)refill);
}

/* Binding again starts a new run: a failure recorded before the binding is
 * not reported against the new model. */
static void test_rebinding_forgets_old_failures(void **state)
{
    (void)state;
    assert_int_equal(socmon_xil_bind_cp15(NULL), SOCMON_OK);
    (void)mfcp(XREG_CP15_PERF_MONITOR_CTRL);          /* nothing bound: recorded */
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_cp15 cp;
    socmon_zynq_desc_default(&d);
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_of(soc, 0, &cp), SOCMON_OK);
    assert_int_equal(socmon_xil_bind_cp15(&cp), SOCMON_OK);
    assert_int_equal(mfcp(XREG_CP15_PERF_MONITOR_CTRL), 0x41093000u);
    assert_int_equal(socmon_xil_status(), SOCMON_OK);
    (void)mfcp(XREG_CP15_PERF_MONITOR_CTRL);
    assert_int_equal(socmon_xil_bind_cp15(NULL), SOCMON_OK);
    (void)Xil_In32(0xF8891E04u);                        /* no bus: recorded */
    assert_int_equal(socmon_xil_bind_bus(NULL), SOCMON_OK);
    assert_int_equal(socmon_xil_status(), SOCMON_OK);
    smn_zynq_soc_free(soc);
}

static void test_shim_failures_are_recorded(void **state)
{
    (void)state;
    assert_int_equal(socmon_xil_status(), SOCMON_OK);
    /* nothing bound: reads 0, remembered with a message naming the call */
    assert_int_equal(mfcp(XREG_CP15_PERF_MONITOR_CTRL), 0);
    mtcp(XREG_CP15_PERF_MONITOR_CTRL, 1);
    assert_int_equal(socmon_xil_status(), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "socmon_xil_bind_cp15"));
    assert_int_equal(socmon_xil_status(), SOCMON_OK);   /* cleared */
    assert_int_equal(Xil_In32_shim_probe(), 0);
    assert_int_equal(socmon_xil_status(), SOCMON_ESTATE);
    assert_non_null(strstr(socmon_errmsg(), "Xil_In32(0xf8891e04)"));

    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_cp15 cp;
    socmon_zynq_desc_default(&d);
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_of(soc, 1, &cp), SOCMON_OK);
    assert_int_equal(socmon_xil_bind_cp15(&cp), SOCMON_OK);
    assert_int_equal(mfcp(XREG_CP15_PERF_MONITOR_CTRL), 0x41093000u);
    /* a malformed string, another coprocessor, an encoding the A9 lacks */
    assert_int_equal(mfcp("p15, 0, %0, c9, c12"), 0x41093000u);   /* opc2 left out: 0 */
    assert_int_equal(mfcp("p15, 0, r0, c9, c12, 0"), 0);
    assert_int_equal(socmon_xil_status(), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "p15, 0, r0, c9, c12, 0"));
    assert_int_equal(mfcp("p14, 0, %0, c0, c1, 0"), 0);
    assert_int_equal(socmon_xil_status(), SOCMON_ENOTSUP);
    mtcp("p15, 0, %0,  c9, c12, 6", 1);
    assert_int_equal(socmon_xil_status(), SOCMON_ENOTSUP);
    assert_non_null(strstr(socmon_errmsg(), "c9, c12, 6"));
    /* the first failure is the one kept */
    (void)mfcp("bogus");
    (void)mfcp("p14, 0, %0, c0, c1, 0");
    assert_int_equal(socmon_xil_status(), SOCMON_EPARSE);
    socmon_cp15 half = {.read = cp.read, .write = NULL, .ctx = cp.ctx};
    assert_int_equal(socmon_xil_bind_cp15(&half), SOCMON_EINVAL);
    assert_int_equal(socmon_xil_bind_cp15(NULL), SOCMON_OK);
    smn_zynq_soc_free(soc);
}

/* Xil_In32/Xil_Out32 reach the bound bus: the window, with its lock. */
static void test_xil_io_on_the_window(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_bus *bus;
    socmon_zynq_desc_default(&d);
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    assert_int_equal(socmon_bus_model_new(&bus), SOCMON_OK);
    assert_int_equal(smn_zynq_soc_map(soc, bus), SOCMON_OK);
    assert_int_equal(socmon_xil_bind_bus(bus), SOCMON_OK);
    assert_int_equal(Xil_In32(0xF8891E04u), 0x41093000u);
    Xil_Out32(0xF8891C00u, 0x1);                         /* locked: ignored */
    assert_int_equal(Xil_In32(0xF8891C00u), 0);
    Xil_Out32(0xF8891FB0u, 0xC5ACCE55u);                 /* PMLAR key */
    Xil_Out32(0xF8891C00u, 0x1);
    assert_int_equal(Xil_In32(0xF8891C00u), 1);
    assert_int_equal(socmon_xil_status(), SOCMON_OK);
    (void)Xil_In32(0x10);                                /* nothing mapped there */
    assert_int_not_equal(socmon_xil_status(), SOCMON_OK);
    assert_int_equal(socmon_xil_bind_bus(NULL), SOCMON_OK);
    socmon_bus_free(bus);
    smn_zynq_soc_free(soc);
}

/* Each thread has its own binding: two threads on two cores at once. */
typedef struct th {
    socmon_zynq_soc *soc;
    unsigned core;
    uint32_t seen;
    socmon_status st;
} th;

static void *on_core(void *arg)
{
    th *t = arg;
    socmon_cp15 cp;
    t->st = socmon_zynq_cp15_of(t->soc, t->core, &cp);
    if (!t->st)
        t->st = socmon_xil_bind_cp15(&cp);
    for (unsigned i = 0; !t->st && i < 10000; i++) {
        mtcp(XREG_CP15_EVENT_CNTR_SEL, t->core);
        mtcp(XREG_CP15_PERF_MONITOR_COUNT, i * 2 + t->core);
        t->seen = mfcp(XREG_CP15_PERF_MONITOR_COUNT);
        if (t->seen != i * 2 + t->core)
            break;
    }
    if (!t->st)
        t->st = socmon_xil_status();
    return NULL;
}

static void test_bindings_are_per_thread(void **state)
{
    (void)state;
    socmon_zynq_desc d;
    socmon_zynq_soc *soc;
    socmon_zynq_desc_default(&d);
    assert_int_equal(smn_zynq_soc_new(&d, &soc), SOCMON_OK);
    th t[2] = {{soc, 0, 0, SOCMON_OK}, {soc, 1, 0, SOCMON_OK}};
    pthread_t id[2];
    for (unsigned i = 0; i < 2; i++)
        assert_int_equal(pthread_create(&id[i], NULL, on_core, &t[i]), 0);
    for (unsigned i = 0; i < 2; i++)
        assert_int_equal(pthread_join(id[i], NULL), 0);
    for (unsigned i = 0; i < 2; i++) {
        assert_int_equal(t[i].st, SOCMON_OK);
        assert_int_equal(t[i].seen, 9999 * 2 + i);
    }
    /* each core's counter n = core holds its own thread's last value */
    uint32_t v = 0;
    assert_int_equal(socmon_zynq_cp15_write(soc, 1, 0, 9, 12, 5, 1), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_read(soc, 1, 0, 9, 13, 2, &v), SOCMON_OK);
    assert_int_equal(v, 9999 * 2 + 1);
    assert_int_equal(socmon_zynq_cp15_read(soc, 0, 0, 9, 13, 2, &v), SOCMON_OK);
    assert_int_equal(v, 9999 * 2);   /* core 0: its thread selected counter 0 */
    assert_int_equal(socmon_zynq_cp15_write(soc, 0, 0, 9, 12, 5, 1), SOCMON_OK);
    assert_int_equal(socmon_zynq_cp15_read(soc, 0, 0, 9, 13, 2, &v), SOCMON_OK);
    assert_int_equal(v, 0);   /* core 0's counter 1 was never written */
    /* this thread bound nothing */
    assert_int_equal(mfcp(XREG_CP15_PERF_MONITOR_CTRL), 0);
    assert_int_equal(socmon_xil_status(), SOCMON_ESTATE);
    smn_zynq_soc_free(soc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_matches_the_reference_run),
        cmocka_unit_test(test_counts_follow_the_profile),
        cmocka_unit_test(test_shim_failures_are_recorded),
        cmocka_unit_test(test_rebinding_forgets_old_failures),
        cmocka_unit_test(test_xil_io_on_the_window),
        cmocka_unit_test(test_bindings_are_per_thread),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
