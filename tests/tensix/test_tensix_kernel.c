/* The Tensix kernel model: every documented relation between counters holds
 * over any window, on every kernel shape; the bound option makes the named
 * stage the bottleneck; parameters are checked. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "models/tensix/tensix_model.h"
#include "socmon/tensix.h"

#define NSIG 94

static uint64_t sig(const socmon_tensix_core *c, const char *name)
{
    const socmon_tensix_event *e = socmon_tensix_event_by_name(name);
    assert_non_null(e);
    return socmon_tensix_core_signal(c, e->bank, e->counter_id, e->l1_mux);
}

typedef struct snap {
    uint64_t t;
    uint64_t v[NSIG];
} snap;

static void take(const socmon_tensix_core *c, snap *s)
{
    s->t = socmon_tensix_core_now(c);
    for (size_t i = 0; i < NSIG; i++) {
        const socmon_tensix_event *e = socmon_tensix_event_at(i);
        s->v[i] = socmon_tensix_core_signal(c, e->bank, e->counter_id, e->l1_mux);
    }
}

static uint64_t d(const snap *a, const snap *b, const char *name)
{
    const socmon_tensix_event *e = socmon_tensix_event_by_name(name);
    size_t i = (size_t)(e - socmon_tensix_event_at(0));
    return b->v[i] - a->v[i];
}

/* "small" must never exceed "big" over the window. */
static const char *const le[][2] = {
    {"FPU_INSTRUCTION", "FPU_OR_SFPU_INSTRN"},
    {"SFPU_INSTRUCTION", "FPU_OR_SFPU_INSTRN"},
    {"SRCA_WRITE", "SRCA_WRITE_AVAILABLE"},
    {"SRCA_WRITE_AVAILABLE", "UNPACK0_BUSY_THREAD0"},
    {"SRCB_WRITE", "SRCB_WRITE_AVAILABLE"},
    {"SRCB_WRITE_AVAILABLE", "UNPACK1_BUSY_THREAD0"},
    {"MATH_INSTRN_STARTED", "MATH_INSTRN_AVAILABLE"},
    {"PACKER_DEST_READ_AVAILABLE", "PACKER_BUSY"},
    {"WAITING_FOR_SRCA_CLEAR", "THREAD_STALLS_0"},
    {"WAITING_FOR_SRCB_CLEAR", "THREAD_STALLS_0"},
    {"WAITING_FOR_UNPACK_IDLE_0", "THREAD_STALLS_0"},
    {"SYNC_INSTRN_AVAILABLE_0", "THREAD_STALLS_0"},
    {"WAITING_FOR_SRCA_VALID", "THREAD_STALLS_1"},
    {"WAITING_FOR_SRCB_VALID", "THREAD_STALLS_1"},
    {"WAITING_FOR_NONFULL_SEM_1", "THREAD_STALLS_1"},
    {"WAITING_FOR_MATH_IDLE_1", "THREAD_STALLS_1"},
    {"WAITING_FOR_NONZERO_SEM_2", "THREAD_STALLS_2"},
    {"WAITING_FOR_PACK_IDLE_2", "THREAD_STALLS_2"},
};

/* The per-thread wait reasons (ids 31..57): each <= THREAD_STALLS_t. */
static const char *const thread_waits[] = {"THCON_IDLE", "UNPACK_IDLE", "PACK_IDLE", "MATH_IDLE",
                                           "NONZERO_SEM", "NONFULL_SEM", "MOVE_IDLE", "MMIO_IDLE",
                                           "SFPU_IDLE"};

static void check_window(const snap *a, const snap *b, const char *what)
{
    uint64_t cycles = b->t - a->t;
    for (size_t i = 0; i < NSIG; i++)
        if (b->v[i] - a->v[i] > cycles)
            fail_msg("%s: %s counted %llu in a window of %llu cycles", what,
                     socmon_tensix_event_at(i)->name, (unsigned long long)(b->v[i] - a->v[i]),
                     (unsigned long long)cycles);
    for (size_t k = 0; k < sizeof le / sizeof le[0]; k++)
        if (d(a, b, le[k][0]) > d(a, b, le[k][1]))
            fail_msg("%s: %s %llu > %s %llu over [%llu, %llu)", what, le[k][0],
                     (unsigned long long)d(a, b, le[k][0]), le[k][1],
                     (unsigned long long)d(a, b, le[k][1]), (unsigned long long)a->t,
                     (unsigned long long)b->t);
    for (size_t w = 0; w < sizeof thread_waits / sizeof thread_waits[0]; w++)
        for (int t = 0; t < 3; t++) {
            char wait[48], stalls[32];
            snprintf(wait, sizeof wait, "WAITING_FOR_%s_%d", thread_waits[w], t);
            snprintf(stalls, sizeof stalls, "THREAD_STALLS_%d", t);
            if (d(a, b, wait) > d(a, b, stalls))
                fail_msg("%s: %s %llu > %s %llu over [%llu, %llu)", what, wait,
                         (unsigned long long)d(a, b, wait), stalls, (unsigned long long)d(a, b, stalls),
                         (unsigned long long)a->t, (unsigned long long)b->t);
        }
}

static uint32_t lcg(uint32_t *s)
{
    *s = *s * 1664525u + 1013904223u;
    return *s >> 8;
}

/* Snapshots of one run at random steps (fill, steady, drain, idle); checks
 * every step and 200 random longer windows. */
static void check_run(const socmon_tensix_kernel_params *p, uint32_t *seed)
{
    static snap s[400];
    socmon_tensix_stage_costs k;
    assert_int_equal(socmon_tensix_kernel_costs(p, &k), SOCMON_OK);
    socmon_tensix_core *c;
    assert_int_equal(smn_tensix_core_new(p, &c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    uint64_t span = k.total + 200;
    take(c, &s[0]);
    size_t n = 1;
    while (n < 400 && socmon_tensix_core_now(c) < span) {
        assert_int_equal(socmon_tensix_core_advance(c, 1 + lcg(seed) % (k.period * 2), NULL), SOCMON_OK);
        take(c, &s[n++]);
    }
    char what[128];
    snprintf(what, sizeof what, "%s/%s/%s/%s/%s", socmon_tensix_kernel_name(p->kernel), p->platform->name,
             socmon_tensix_bound_name(p->bound), socmon_tensix_format_name(p->format),
             socmon_tensix_fidelity_name(p->fidelity));
    for (size_t i = 1; i < n; i++)
        check_window(&s[i - 1], &s[i], what);
    for (int r = 0; r < 200; r++) {
        size_t i = lcg(seed) % n, j = lcg(seed) % n;
        if (i < j)
            check_window(&s[i], &s[j], what);
    }
    smn_tensix_core_free(c);
}

/* Every kernel, platform and bound, and a spread of formats and fidelities. */
static void test_relations_hold_in_every_window(void **state)
{
    (void)state;
    uint32_t seed = 12345;
    for (int kn = 0; kn < SOCMON_TENSIX_NKERNELS; kn++)
        for (size_t pf = 0; socmon_tensix_platform_at(pf); pf++)
            for (int b = 0; b < SOCMON_TENSIX_NBOUNDS; b++)
                for (int fmt = 0; fmt < SOCMON_TENSIX_NFORMATS; fmt += 2)
                    for (int fid = 0; fid < SOCMON_TENSIX_NFIDELITIES; fid += 3) {
                        socmon_tensix_kernel_params p;
                        socmon_tensix_kernel_params_default(&p);
                        p.tiles = 20;
                        p.bound = (socmon_tensix_bound)b;
                        p.format = (socmon_tensix_format)fmt;
                        p.fidelity = (socmon_tensix_fidelity)fid;
                        p.platform = socmon_tensix_platform_at(pf);
                        p.kernel = (socmon_tensix_kernel)kn;
                        check_run(&p, &seed);
                    }
}

/* The kernel lasts costs.total cycles; after that nothing counts. */
static void test_kernel_length_and_idle(void **state)
{
    (void)state;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    p.tiles = 10;
    socmon_tensix_stage_costs k;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.total, k.unpack + k.overhead + 10 * k.period + k.pack);
    socmon_tensix_core *c;
    assert_int_equal(smn_tensix_core_new(&p, &c), SOCMON_OK);
    int done = 1;
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(c, k.total - 1, &done), SOCMON_OK);
    assert_int_equal(done, 0);
    assert_int_equal(socmon_tensix_core_advance(c, 1, &done), SOCMON_OK);
    assert_int_equal(done, 1);
    uint64_t fpu = sig(c, "FPU_OR_SFPU_INSTRN");
    assert_true(fpu > 0);
    assert_int_equal(socmon_tensix_core_advance(c, 100000, &done), SOCMON_OK);
    assert_int_equal(sig(c, "FPU_OR_SFPU_INSTRN"), fpu);
    /* A second run counts the same again: the model is deterministic. */
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(c, k.total, &done), SOCMON_OK);
    assert_int_equal(sig(c, "FPU_OR_SFPU_INSTRN"), 2 * fpu);
    smn_tensix_core_free(c);
}

/* Counters the matmul kernel does not touch (the other kernels drive them);
 * every other one moves. */
static const char *const never[] = {
    "FPU_INSTRN_AVAILABLE_0", "FPU_INSTRN_AVAILABLE_2", "UNPACK_INSTRN_AVAILABLE_1",
    "UNPACK_INSTRN_AVAILABLE_2", "PACK_INSTRN_AVAILABLE_0", "PACK_INSTRN_AVAILABLE_1",
    "THCON_INSTRN_AVAILABLE_1", "THCON_INSTRN_AVAILABLE_2", "XSEARCH_INSTRN_AVAILABLE_0",
    "XSEARCH_INSTRN_AVAILABLE_1", "XSEARCH_INSTRN_AVAILABLE_2", "MOVE_INSTRN_AVAILABLE_0",
    "MOVE_INSTRN_AVAILABLE_2",
};

/* Per-thread waits the model drives; the other WAITING_FOR_*_N stay 0. */
static const char *const waits[] = {"WAITING_FOR_UNPACK_IDLE_0", "WAITING_FOR_MATH_IDLE_1",
                                    "WAITING_FOR_PACK_IDLE_2", "WAITING_FOR_NONFULL_SEM_1",
                                    "WAITING_FOR_NONZERO_SEM_2"};

static int is_never(const char *name)
{
    for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
        if (strcmp(name, never[i]) == 0)
            return 1;
    const socmon_tensix_event *e = socmon_tensix_event_by_name(name);
    if (strncmp(name, "WAITING_FOR_", 12) != 0 || e->counter_id < 31)
        return 0;
    for (size_t i = 0; i < sizeof waits / sizeof waits[0]; i++)
        if (strcmp(name, waits[i]) == 0)
            return 0;
    return 1;
}

static void test_counters_driven(void **state)
{
    (void)state;
    unsigned moving = 0;
    /* Over the three forced shapes, every stall reason comes up. */
    uint64_t total[NSIG] = {0};
    for (int b = SOCMON_TENSIX_BOUND_MATH; b <= SOCMON_TENSIX_BOUND_PACK; b++) {
        socmon_tensix_kernel_params p;
        socmon_tensix_kernel_params_default(&p);
        p.bound = (socmon_tensix_bound)b;
        socmon_tensix_core *c;
        assert_int_equal(smn_tensix_core_new(&p, &c), SOCMON_OK);
        assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
        assert_int_equal(socmon_tensix_core_advance(c, 1000000, NULL), SOCMON_OK);
        for (size_t i = 0; i < NSIG; i++) {
            const socmon_tensix_event *e = socmon_tensix_event_at(i);
            total[i] += socmon_tensix_core_signal(c, e->bank, e->counter_id, e->l1_mux);
        }
        smn_tensix_core_free(c);
    }
    for (size_t i = 0; i < NSIG; i++) {
        const char *name = socmon_tensix_event_at(i)->name;
        if (is_never(name)) {
            if (total[i] != 0)
                fail_msg("%s expected idle, counted %llu", name, (unsigned long long)total[i]);
        } else {
            if (total[i] == 0)
                fail_msg("%s never counted", name);
            moving++;
        }
    }
    assert_int_equal(moving, 94 - 13 - 22);   /* 13 instruction types, 22 per-thread waits idle */
}

/* Runs kernel kn with default parameters to its end; totals[i] = signal i. */
static void run_kernel(socmon_tensix_kernel kn, uint64_t *totals)
{
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    p.kernel = kn;
    socmon_tensix_stage_costs k;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    socmon_tensix_core *c;
    assert_int_equal(smn_tensix_core_new(&p, &c), SOCMON_OK);
    snap a, b;
    take(c, &a);
    int done = 0;
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(c, k.total, &done), SOCMON_OK);
    assert_int_equal(done, 1);
    take(c, &b);
    check_window(&a, &b, socmon_tensix_kernel_name(kn));
    for (size_t i = 0; i < NSIG; i++)
        totals[i] = b.v[i] - a.v[i];
    smn_tensix_core_free(c);
}

static uint64_t tot(const uint64_t *totals, const char *name)
{
    const socmon_tensix_event *e = socmon_tensix_event_by_name(name);
    assert_non_null(e);
    return totals[e - socmon_tensix_event_at(0)];
}

/* The promise: every counter of the guide counts in at least one
 * kernel (with its default parameters), with the relations holding. */
static void test_every_counter_driven_by_some_kernel(void **state)
{
    (void)state;
    static uint64_t totals[SOCMON_TENSIX_NKERNELS][NSIG];
    for (int kn = 0; kn < SOCMON_TENSIX_NKERNELS; kn++)
        run_kernel((socmon_tensix_kernel)kn, totals[kn]);
    unsigned undriven = 0;
    for (size_t i = 0; i < NSIG; i++) {
        uint64_t any = 0;
        for (int kn = 0; kn < SOCMON_TENSIX_NKERNELS; kn++)
            any |= totals[kn][i];
        if (!any) {
            print_error("%s is driven by no kernel\n", socmon_tensix_event_at(i)->name);
            undriven++;
        }
    }
    assert_int_equal(undriven, 0);
    /* The guide's table has 94 events; the model drives each of them. */
    assert_non_null(socmon_tensix_event_at(NSIG - 1));
    assert_null(socmon_tensix_event_at(NSIG));
}

/* What distinguishes each kernel shows in its counters. */
static void test_kernels_show_their_work(void **state)
{
    (void)state;
    uint64_t mm[NSIG], sf[NSIG], rd[NSIG], tk[NSIG], sy[NSIG];
    run_kernel(SOCMON_TENSIX_KERNEL_MATMUL, mm);
    run_kernel(SOCMON_TENSIX_KERNEL_SFPU, sf);
    run_kernel(SOCMON_TENSIX_KERNEL_REDUCE, rd);
    run_kernel(SOCMON_TENSIX_KERNEL_TOPK, tk);
    run_kernel(SOCMON_TENSIX_KERNEL_SYNC, sy);
    /* sfpu: the SFPU does the math, the FPU nothing; srcB is never written. */
    assert_true(tot(sf, "SFPU_INSTRUCTION") > 0);
    assert_int_equal(tot(sf, "FPU_INSTRUCTION"), 0);
    assert_true(tot(sf, "SFPU_INSTRUCTION") * 10 > tot(sf, "FPU_OR_SFPU_INSTRN") * 9);
    assert_int_equal(tot(sf, "SRCB_WRITE"), 0);
    assert_int_equal(tot(sf, "UNPACK1_BUSY_THREAD0"), 0);
    assert_true(tot(sf, "SRCA_WRITE") > 0);
    assert_true(tot(sf, "WAITING_FOR_SFPU_IDLE_2") > 0);
    /* matmul: the FPU dominates; it issues no XSEARCH and waits on no SFPU. */
    assert_true(tot(mm, "FPU_INSTRUCTION") > 4 * tot(mm, "SFPU_INSTRUCTION"));
    assert_int_equal(tot(mm, "XSEARCH_INSTRN_AVAILABLE_1"), 0);
    assert_int_equal(tot(mm, "WAITING_FOR_SFPU_IDLE_1"), 0);
    /* reduce: transposes (MOVE) and pools on the FPU; reconfigures via THCON. */
    assert_true(tot(rd, "MOVE_INSTRN_AVAILABLE_1") > tot(mm, "MOVE_INSTRN_AVAILABLE_1"));
    assert_true(tot(rd, "FPU_OR_SFPU_INSTRN") < tot(rd, "MATH_INSTRN_AVAILABLE"));
    assert_true(tot(rd, "THCON_INSTRN_AVAILABLE_2") > 0 && tot(rd, "WAITING_FOR_THCON_IDLE_2") > 0);
    assert_int_equal(tot(rd, "SFPU_INSTRUCTION"), 0);
    /* topk: XSEARCH on every thread; values and indices double the packing. */
    for (int t = 0; t < 3; t++) {
        char n[40];
        snprintf(n, sizeof n, "XSEARCH_INSTRN_AVAILABLE_%d", t);
        assert_true(tot(tk, n) > 0);
    }
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    socmon_tensix_stage_costs ktk, ksf;
    p.kernel = SOCMON_TENSIX_KERNEL_SFPU;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &ksf), SOCMON_OK);
    p.kernel = SOCMON_TENSIX_KERNEL_TOPK;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &ktk), SOCMON_OK);
    assert_true(ktk.pack + 1 >= 2 * ksf.pack && ktk.pack <= 2 * ksf.pack);
    assert_true(tot(tk, "PACKER_BUSY") > tot(sf, "PACKER_BUSY"));
    /* sync: every per-thread wait reason of every thread counts. */
    for (size_t w = 0; w < sizeof thread_waits / sizeof thread_waits[0]; w++)
        for (int t = 0; t < 3; t++) {
            char n[48];
            snprintf(n, sizeof n, "WAITING_FOR_%s_%d", thread_waits[w], t);
            if (tot(sy, n) == 0)
                fail_msg("sync: %s did not count", n);
        }
}

/* Switching kernels keeps every counter monotonic and runs the new kernel's length. */
static void test_set_kernel(void **state)
{
    (void)state;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    socmon_tensix_core *c;
    assert_int_equal(smn_tensix_core_new(&p, &c), SOCMON_OK);
    snap a, b, e;
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(c, 500, NULL), SOCMON_OK);
    take(c, &a);
    /* Cut matmul short mid-steady-state: nothing goes back. */
    assert_int_equal(socmon_tensix_core_set_kernel(c, SOCMON_TENSIX_KERNEL_TOPK), SOCMON_OK);
    take(c, &b);
    check_window(&a, &b, "set_kernel");
    for (size_t i = 0; i < NSIG; i++)
        assert_true(b.v[i] >= a.v[i]);
    int done = 0;
    assert_int_equal(socmon_tensix_core_advance(c, 100, &done), SOCMON_OK);
    assert_int_equal(done, 1);   /* the cut kernel does not resume */
    assert_int_equal(socmon_tensix_core_params(c)->kernel, SOCMON_TENSIX_KERNEL_TOPK);
    socmon_tensix_stage_costs k;
    assert_int_equal(socmon_tensix_kernel_costs(socmon_tensix_core_params(c), &k), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_kernel_start(c), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_advance(c, k.total - 1, &done), SOCMON_OK);
    assert_int_equal(done, 0);
    assert_int_equal(socmon_tensix_core_advance(c, 1, &done), SOCMON_OK);
    assert_int_equal(done, 1);
    take(c, &e);
    check_window(&b, &e, "topk after set_kernel");
    assert_true(d(&b, &e, "XSEARCH_INSTRN_AVAILABLE_0") > 0);
    socmon_clear_error();
    assert_int_equal(socmon_tensix_core_set_kernel(c, SOCMON_TENSIX_NKERNELS), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "kernel 5 out of range 0..4"));
    assert_int_equal(socmon_tensix_core_params(c)->kernel, SOCMON_TENSIX_KERNEL_TOPK);
    smn_tensix_core_free(c);
}

/* bound=X makes stage X the steady-state period, 3x the next slowest. */
static void test_bound_option_shapes_costs(void **state)
{
    (void)state;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    socmon_tensix_stage_costs k;
    p.bound = SOCMON_TENSIX_BOUND_MATH;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.period, k.math);
    assert_true(k.math >= 3 * (k.unpack + k.overhead) && k.math >= 3 * k.pack);
    p.bound = SOCMON_TENSIX_BOUND_UNPACK;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.period, k.unpack + k.overhead);
    assert_true(k.unpack >= 3 * k.math && k.unpack >= 3 * k.pack);
    p.bound = SOCMON_TENSIX_BOUND_PACK;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.period, k.pack);
    p.bound = SOCMON_TENSIX_BOUND_BALANCED;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.math, k.pack);
    assert_int_equal(k.unpack + k.overhead, k.math);
    /* Natural costs follow fidelity: HiFi4 makes math 4x LoFi. */
    p.bound = SOCMON_TENSIX_BOUND_NATURAL;
    socmon_tensix_stage_costs lofi;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &lofi), SOCMON_OK);
    p.fidelity = SOCMON_TENSIX_HIFI4;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &k), SOCMON_OK);
    assert_int_equal(k.math, 4 * lofi.math);
    /* Blackhole's wider NoC word needs 8x fewer flits than Wormhole's. */
    p.platform = socmon_tensix_platform_at(1);
    socmon_tensix_stage_costs bh;
    assert_int_equal(socmon_tensix_kernel_costs(&p, &bh), SOCMON_OK);
    assert_int_equal(bh.noc * 8, k.noc);
}

static void expect_param_error(const char *key, const char *value, const char *needle)
{
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    socmon_clear_error();
    assert_int_not_equal(socmon_tensix_kernel_params_set(&p, key, value), SOCMON_OK);
    if (!strstr(socmon_errmsg(), needle))
        fail_msg("message '%s' lacks '%s'", socmon_errmsg(), needle);
}

static void test_params(void **state)
{
    (void)state;
    socmon_tensix_kernel_params p;
    socmon_tensix_kernel_params_default(&p);
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "tiles", "128"), SOCMON_OK);
    assert_int_equal(p.tiles, 128);
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "format", "bfp8_b"), SOCMON_OK);
    assert_int_equal(p.format, SOCMON_TENSIX_FMT_BFP8_B);
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "fidelity", "HiFi3"), SOCMON_OK);
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "bound", "pack"), SOCMON_OK);
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "platform", "Blackhole"), SOCMON_OK);
    assert_string_equal(p.platform->name, "blackhole");
    assert_true(p.platform->noc_word_bytes == 256 && p.platform->unpack_peak_bpc == 120.0);
    expect_param_error("tiles", "0", "tiles '0' out of range 1..16777216");
    expect_param_error("tiles", "12x", "tiles '12x'");
    expect_param_error("tiles", "-3", "tiles '-3'");
    expect_param_error("format", "int8", "format 'int8' unknown");
    expect_param_error("fidelity", "HiFi5", "fidelity 'HiFi5' unknown");
    expect_param_error("bound", "risc", "bound 'risc' unknown (valid: natural, math, unpack, pack, balanced)");
    expect_param_error("platform", "grayskull", "platform 'grayskull' unknown");
    assert_int_equal(socmon_tensix_kernel_params_set(&p, "kernel", "SFPU"), SOCMON_OK);
    assert_int_equal(p.kernel, SOCMON_TENSIX_KERNEL_SFPU);
    assert_string_equal(socmon_tensix_kernel_name(p.kernel), "sfpu");
    expect_param_error("kernel", "conv", "kernel 'conv' unknown (valid: matmul, sfpu, reduce, topk, sync)");
    expect_param_error("color", "red", "option 'color' unknown (valid: tiles, format");
    p.tiles = 0;
    socmon_tensix_core *c = NULL;
    assert_int_equal(smn_tensix_core_new(&p, &c), SOCMON_ERANGE);
    assert_null(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_relations_hold_in_every_window),
        cmocka_unit_test(test_kernel_length_and_idle),
        cmocka_unit_test(test_counters_driven),
        cmocka_unit_test(test_every_counter_driven_by_some_kernel),
        cmocka_unit_test(test_kernels_show_their_work),
        cmocka_unit_test(test_set_kernel),
        cmocka_unit_test(test_bound_option_shapes_costs),
        cmocka_unit_test(test_params),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
