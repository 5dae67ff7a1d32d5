/* metrics/tensix.json: every formula on hand-computed inputs, the tie rule,
 * partial configurations (every key, undefined where counters are missing),
 * and the bound classifier on kernels built to be math-, unpack- and
 * pack-bound, on every platform: dominant_bound as tt-llk's pre-merge
 * metrics.py (a73bae96f) computes it, dominant_bound_per_thread on the
 * per-thread risc score. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "socmon/findings.h"

#include "socmon/socmon.h"

typedef struct cv {
    const char *instance, *name;
    uint64_t v;
} cv;

#define MAXC 64

typedef struct run {
    socmon_metricset *ms;
    socmon_metrics *m;
    double out[64];
    socmon_counter ctr[MAXC];   /* the schema evaluated, and its counts */
    uint64_t d[MAXC];
} run;

static void eval(run *r, const cv *c, size_t n)
{
    socmon_counter *ctr = r->ctr;
    uint64_t *d = r->d;
    for (size_t i = 0; i < n; i++) {
        ctr[i] = (socmon_counter){.name = c[i].name, .instance = c[i].instance, .width = 32};
        d[i] = c[i].v;
    }
    static const char *const pn[] = {"noc_word_bytes", "unpack_peak_bpc", "pack_peak_bpc", "clock_hz"};
    static const double pv[] = {32, 80, 80, 1e9};
    socmon_metric_schema sch = {.ncounters = n, .counters = ctr, .nparams = 4, .param_names = pn,
        .param_values = pv};
    const char *text = socmon_builtin_metrics("tensix");
    assert_non_null(text);
    assert_int_equal(socmon_metricset_load_string(text, "tensix.json", &r->ms), SOCMON_OK);
    if (socmon_metrics_bind(r->ms, &sch, &r->m) != SOCMON_OK)
        fail_msg("bind: %s", socmon_errmsg());
    assert_true(socmon_metrics_nresults(r->m) <= 64);
    assert_int_equal(socmon_metrics_eval(r->m, d, 1e-3, r->out), SOCMON_OK);
}

static void done(run *r)
{
    socmon_metrics_free(r->m);
    socmon_metricset_free(r->ms);
}

static int idx(const run *r, const char *name)
{
    for (size_t i = 0; i < socmon_metrics_nresults(r->m); i++)
        if (strcmp(socmon_metrics_result(r->m, i)->def->name, name) == 0)
            return (int)i;
    return -1;
}

static double val(const run *r, const char *name)
{
    int i = idx(r, name);
    if (i < 0)
        fail_msg("metric %s missing", name);
    return r->out[i];
}

#define NEAR(a, b) assert_true(fabs((a) - (b)) < 1e-9)

static const cv base[] = {
    {"fpu", "cycles", 1000}, {"fpu", "FPU_INSTRUCTION", 600}, {"fpu", "SFPU_INSTRUCTION", 100},
    {"fpu", "FPU_OR_SFPU_INSTRN", 650},
    {"tdma_unpack", "cycles", 900}, {"tdma_unpack", "SRCA_WRITE", 300},
    {"tdma_unpack", "UNPACK0_BUSY_THREAD0", 400}, {"tdma_unpack", "SRCB_WRITE", 100},
    {"tdma_unpack", "UNPACK1_BUSY_THREAD0", 500},
    {"tdma_pack", "cycles", 800}, {"tdma_pack", "PACKER_BUSY", 200},
    {"l1", "cycles", 500}, {"l1", "NOC_RING0_INCOMING_1", 100}, {"l1", "NOC_RING0_INCOMING_0", 150},
    {"l1", "NOC_RING0_OUTGOING_1", 50}, {"l1", "NOC_RING0_OUTGOING_0", 25},
    {"l1", "L1_ARB_TDMA_BUNDLE_1", 10}, {"l1", "L1_ARB_TDMA_BUNDLE_0", 20},
    {"l1", "L1_ARB_UNPACKER", 30}, {"l1", "L1_NO_ARB_UNPACKER", 140},
    {"instrn_thread", "cycles", 1200}, {"instrn_thread", "THREAD_STALLS_0", 300},
    {"instrn_thread", "THREAD_STALLS_1", 600}, {"instrn_thread", "THREAD_STALLS_2", 900},
    {"instrn_thread", "THREAD_INSTRUCTIONS_0", 120}, {"instrn_thread", "THREAD_INSTRUCTIONS_1", 240},
    {"instrn_thread", "THREAD_INSTRUCTIONS_2", 360},
};
#define NBASE (sizeof base / sizeof base[0])

static void test_formulas_by_hand(void **state)
{
    (void)state;
    run r;
    eval(&r, base, NBASE);
    NEAR(val(&r, "wall_cycles"), 1200);
    NEAR(val(&r, "fpu_util"), 600.0 / 1000);
    NEAR(val(&r, "sfpu_util"), 100.0 / 1000);
    NEAR(val(&r, "math_util"), 650.0 / 1000);
    NEAR(val(&r, "unpack0_util"), 300.0 / 400);
    NEAR(val(&r, "unpack1_util"), 100.0 / 500);
    NEAR(val(&r, "unpack_util"), (0.75 + 0.2) / 2);
    NEAR(val(&r, "pack_util"), 200.0 / 800);
    NEAR(val(&r, "unpack_est_bpc"), 0.475 * 80);
    NEAR(val(&r, "pack_est_bpc"), 0.25 * 80);
    NEAR(val(&r, "noc_txn_per_cycle"), 325.0 / 500);
    NEAR(val(&r, "noc_bytes_per_cycle"), 325.0 / 500 * 32);
    NEAR(val(&r, "l1_congestion_index"), 60.0 / 200);
    /* tt-llk a73bae96f tests/python_tests/helpers/metrics.py:70-79 (sums over the three
     * threads), :154-155 (stall_rate, issue_rate = sum / cycles_instrn), :158-161 (risc score). */
    NEAR(val(&r, "stall_rate"), 1800.0 / 1200);
    NEAR(val(&r, "issue_rate"), 720.0 / 1200);
    NEAR(val(&r, "stall_rate_per_thread"), 1800.0 / 3600);
    NEAR(val(&r, "issue_rate_per_thread"), 720.0 / 3600);
    NEAR(val(&r, "math_bound_score"), 0.65);
    NEAR(val(&r, "unpack_bound_score"), 0.475);
    NEAR(val(&r, "pack_bound_score"), 0.25);
    NEAR(val(&r, "risc_bound_score"), 1.5 - 0.5 * 0.6);
    NEAR(val(&r, "risc_bound_score_per_thread"), 0.5 - 0.5 * 0.2);
    /* metrics.py:279-290: max over the four scores; risc 1.2 beats math 0.65 */
    NEAR(val(&r, "dominant_bound"), 3);
    NEAR(val(&r, "dominant_bound_score"), 1.2);
    NEAR(val(&r, "dominant_bound_per_thread"), 0);
    /* socmon's bound (issue 37): each stage's thread's unstalled share, against the per-thread
     * risc score, all on 0..1: UNPACK stalls least (300 of 1200), so the others wait for it. */
    NEAR(val(&r, "unpack_thread_busy"), 1 - 300.0 / 1200);
    NEAR(val(&r, "math_thread_busy"), 1 - 600.0 / 1200);
    NEAR(val(&r, "pack_thread_busy"), 1 - 900.0 / 1200);
    NEAR(val(&r, "bound"), 1);
    NEAR(val(&r, "bound_score"), 0.75);
    const socmon_metric_def *def = socmon_metrics_result(r.m, (size_t)idx(&r, "dominant_bound"))->def;
    assert_int_equal(def->nlabels, 4);
    assert_string_equal(def->labels[0], "math-bound");
    assert_string_equal(def->labels[1], "unpack-bound");
    assert_string_equal(def->labels[2], "pack-bound");
    assert_string_equal(def->labels[3], "risc-bound");
    /* Ring-1 metrics need mux-1 counters: absent here, so present and undefined. */
    assert_true(idx(&r, "noc1_txn_per_cycle") >= 0);
    assert_true(isnan(val(&r, "noc1_txn_per_cycle")));
    assert_true(isnan(val(&r, "noc1_bytes_per_cycle")));
    done(&r);
}

static void with(cv *c, const char *name, uint64_t v)
{
    for (size_t i = 0; i < NBASE; i++)
        if (strcmp(c[i].name, name) == 0) {   /* names in base are unique */
            c[i].v = v;
            return;
        }
    fail_msg("no counter %s", name);
}

/* An unpacker with no busy cycles leaves the other one's utilisation. */
/* A thread that issued no instruction (it never ran) is left out of the per-thread means
 * (issue 28): dividing by three would dilute them by a thread that was not there. */
static void test_idle_thread_left_out(void **state)
{
    (void)state;
    cv c[NBASE];
    memcpy(c, base, sizeof c);
    for (size_t i = 0; i < NBASE; i++)
        if (strcmp(c[i].name, "THREAD_INSTRUCTIONS_0") == 0 || strcmp(c[i].name, "THREAD_STALLS_0") == 0)
            c[i].v = 0;
    run r;
    eval(&r, c, NBASE);
    NEAR(val(&r, "threads_ran"), 2);
    NEAR(val(&r, "stall_rate_per_thread"), 1500.0 / 1200 / 2);
    NEAR(val(&r, "issue_rate_per_thread"), 600.0 / 1200 / 2);
    done(&r);
    eval(&r, base, NBASE);
    NEAR(val(&r, "threads_ran"), 3);
    done(&r);
}

/* The findings of metrics/tensix.findings.json over counts c: the lines' texts joined. */
static void tensix_findings_built(const cv *c, size_t n, double built, char *out, size_t cap)
{
    run r;
    eval(&r, c, n);
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    assert_int_equal(socmon_findingset_add_string(fs, socmon_builtin_findings("tensix"), "tensix.findings.json"),
                     SOCMON_OK);
    /* built_bound: the stage the model built the kernel for (NaN: none stated, as on silicon) */
    const char *pn[] = {"built_bound"};
    socmon_source_info info = {.kind = "recording", .target = "tensix", .ncounters = n, .counters = r.ctr,
                               .nparams = isnan(built) ? 0 : 1, .param_names = pn, .param_values = &built};
    socmon_analysis_info a = {.src = &info, .ms = r.ms, .metrics = r.m};
    socmon_totals t = {.runs = 1, .elapsed_ns = 1000000, .raw = r.d, .values = r.d, .metrics = r.out};
    socmon_findings *f = NULL;
    assert_int_equal(socmon_findings_eval(fs, &a, &t, &f), SOCMON_OK);
    out[0] = '\0';
    for (size_t i = 0; i < socmon_findings_count(f); i++)
        snprintf(out + strlen(out), cap - strlen(out), "%s\n", socmon_findings_at(f, i)->text);
    socmon_findings_free(f);
    socmon_findingset_free(fs);
    done(&r);
}

static void tensix_findings(const cv *c, size_t n, char *out, size_t cap)
{
    tensix_findings_built(c, n, NAN, out, cap);
}

/* The headline is the bound the counts show, on one 0..1 scale (issue 37: tt-llk's summed risc
 * score, 0..3, made every kernel risc-bound first); tt-llk's differing classification follows,
 * and a kernel the model built for another stage than the counts show is warned about. */
static void test_bound_finding(void **state)
{
    (void)state;
    char text[4096];
    tensix_findings(base, NBASE, text, sizeof text);
    print_message("%s", text);
    assert_true(strncmp(text, "the kernel is unpack-bound: share of the window each thread ran unstalled "
                              "MATH 0.500, UNPACK 0.750, PACK 0.250", 100) == 0);
    assert_non_null(strstr(text, "\ntt-llk's classification (dominant_bound) says risc-bound: its risc score 1.200"));
    assert_null(strstr(text, "warning: the model built"));
    tensix_findings_built(base, NBASE, 1, text, sizeof text);   /* built unpack-bound: agreed */
    assert_null(strstr(text, "warning: the model built"));
    tensix_findings_built(base, NBASE, 0, text, sizeof text);   /* built math-bound: the counts disagree */
    assert_non_null(strstr(text, "\nwarning: the model built this kernel math-bound, but the counts say unpack-bound\n"));
    /* every thread stalls most of the time: none is the stage the others wait for */
    cv c[NBASE];
    memcpy(c, base, sizeof c);
    with(c, "THREAD_STALLS_0", 1000);
    with(c, "THREAD_STALLS_1", 1000);
    with(c, "THREAD_STALLS_2", 1000);
    tensix_findings(c, NBASE, text, sizeof text);
    assert_true(strncmp(text, "the kernel is risc-bound:", 25) == 0);
    assert_null(strstr(text, "tt-llk's classification"));   /* tt-llk agrees: said once */
}

/* The CLI's warning (stat and report's findings): a thread that issued nothing is named. */
static void test_idle_thread_finding(void **state)
{
    (void)state;
    cv c[NBASE];
    memcpy(c, base, sizeof c);
    for (size_t i = 0; i < NBASE; i++)
        if (strcmp(c[i].name, "THREAD_INSTRUCTIONS_2") == 0)
            c[i].v = 0;
    char text[4096];
    tensix_findings(c, NBASE, text, sizeof text);
    print_message("%s", text);
    assert_non_null(strstr(text, "warning: only 2 of the three threads issued instructions (UNPACK 120, MATH 240, PACK 0)"));
    tensix_findings(base, NBASE, text, sizeof text);
    assert_null(strstr(text, "threads issued"));
}

static void test_unpack_mean_of_defined(void **state)
{
    (void)state;
    cv c[NBASE];
    memcpy(c, base, sizeof c);
    with(c, "UNPACK1_BUSY_THREAD0", 0);
    with(c, "SRCB_WRITE", 0);
    run r;
    eval(&r, c, NBASE);
    assert_true(isnan(val(&r, "unpack1_util")));
    NEAR(val(&r, "unpack_util"), 0.75);
    done(&r);
    with(c, "UNPACK0_BUSY_THREAD0", 0);
    with(c, "SRCA_WRITE", 0);
    eval(&r, c, NBASE);
    assert_true(isnan(val(&r, "unpack_util")));
    /* An undefined score is left out of the classification. */
    NEAR(val(&r, "dominant_bound"), 3);
    NEAR(val(&r, "dominant_bound_per_thread"), 0);
    done(&r);
}

/* Ties go to the earliest of math, unpack, pack, risc (metrics.py:288: Python's max()
 * keeps the first of equal keys). Values are exact in binary, so ties are real ties. */
static void test_ties(void **state)
{
    (void)state;
    cv c[NBASE];
    memcpy(c, base, sizeof c);
    /* tt-llk's risc score: stalls 1200/1200 = 1.0, issue 600/1200 = 0.5 -> 0.75 */
    with(c, "THREAD_STALLS_0", 400);
    with(c, "THREAD_STALLS_1", 400);
    with(c, "THREAD_STALLS_2", 400);
    with(c, "THREAD_INSTRUCTIONS_0", 200);
    with(c, "THREAD_INSTRUCTIONS_1", 200);
    with(c, "THREAD_INSTRUCTIONS_2", 200);
    /* math 0.75 == unpack 0.75 (both unpackers at 0.75) */
    with(c, "FPU_OR_SFPU_INSTRN", 750);
    with(c, "SRCB_WRITE", 375);
    run r;
    eval(&r, c, NBASE);
    NEAR(val(&r, "math_bound_score"), 0.75);
    NEAR(val(&r, "unpack_bound_score"), 0.75);
    assert_true(val(&r, "risc_bound_score") == 0.75);
    NEAR(val(&r, "dominant_bound"), 0);
    NEAR(val(&r, "dominant_bound_per_thread"), 0);
    done(&r);
    /* unpack 0.75 == pack 0.75 == risc 0.75, math lower */
    with(c, "FPU_OR_SFPU_INSTRN", 100);
    with(c, "PACKER_BUSY", 600);
    eval(&r, c, NBASE);
    NEAR(val(&r, "dominant_bound"), 1);
    NEAR(val(&r, "dominant_bound_per_thread"), 1);
    done(&r);
    /* pack 0.75 == risc 0.75, unpack lower */
    with(c, "SRCB_WRITE", 100);
    eval(&r, c, NBASE);
    NEAR(val(&r, "unpack_bound_score"), 0.475);
    NEAR(val(&r, "dominant_bound"), 2);
    done(&r);
    /* risc alone on top */
    with(c, "PACKER_BUSY", 100);
    eval(&r, c, NBASE);
    NEAR(val(&r, "dominant_bound"), 3);
    NEAR(val(&r, "dominant_bound_score"), 0.75);
    done(&r);
    /* The per-thread score ties too: stalls 3600 / (3 * 1200) = 1.0, issue 1800 / 3600 = 0.5 */
    with(c, "PACKER_BUSY", 600);
    with(c, "THREAD_STALLS_0", 1200);
    with(c, "THREAD_STALLS_1", 1200);
    with(c, "THREAD_STALLS_2", 1200);
    with(c, "THREAD_INSTRUCTIONS_0", 600);
    with(c, "THREAD_INSTRUCTIONS_1", 600);
    with(c, "THREAD_INSTRUCTIONS_2", 600);
    eval(&r, c, NBASE);
    assert_true(val(&r, "risc_bound_score_per_thread") == 0.75);
    NEAR(val(&r, "dominant_bound_per_thread"), 2);
    NEAR(val(&r, "dominant_bound"), 3);   /* tt-llk's risc score: 3.0 - 0.75 */
    done(&r);
}

/* A partial configuration (only FPU and TDMA_PACK slots, as a user may configure): every
 * metric key is there, the others undefined (NaN), and the bound is the best defined score
 * (metrics.py:286 filters None scores). */
static void test_partial_configuration(void **state)
{
    (void)state;
    static const cv part[] = {
        {"fpu", "cycles", 1000}, {"fpu", "FPU_INSTRUCTION", 600}, {"fpu", "SFPU_INSTRUCTION", 100},
        {"fpu", "FPU_OR_SFPU_INSTRN", 650}, {"tdma_pack", "cycles", 800}, {"tdma_pack", "PACKER_BUSY", 720},
    };
    run full, r;
    eval(&full, base, NBASE);
    eval(&r, part, sizeof part / sizeof part[0]);
    assert_int_equal(socmon_metrics_nresults(r.m), socmon_metricset_count(r.ms));
    assert_int_equal(socmon_metrics_nresults(r.m), socmon_metrics_nresults(full.m));
    for (size_t i = 0; i < socmon_metricset_count(r.ms); i++)
        assert_null(socmon_metrics_skipped(r.m, i));
    NEAR(val(&r, "wall_cycles"), 1000);
    NEAR(val(&r, "math_util"), 0.65);
    NEAR(val(&r, "pack_util"), 0.9);
    NEAR(val(&r, "pack_est_bpc"), 0.9 * 80);
    static const char *const undef[] = {"unpack0_util", "unpack1_util", "unpack_util", "unpack_est_bpc",
                                        "noc_txn_per_cycle", "noc_bytes_per_cycle", "l1_congestion_index",
                                        "stall_rate", "issue_rate", "stall_rate_per_thread",
                                        "issue_rate_per_thread", "unpack_bound_score", "risc_bound_score",
                                        "risc_bound_score_per_thread"};
    for (size_t i = 0; i < sizeof undef / sizeof undef[0]; i++)
        if (!isnan(val(&r, undef[i])))
            fail_msg("%s = %g, expected undefined", undef[i], val(&r, undef[i]));
    NEAR(val(&r, "dominant_bound"), 2);
    NEAR(val(&r, "dominant_bound_score"), 0.9);
    NEAR(val(&r, "dominant_bound_per_thread"), 2);
    done(&r);
    done(&full);
    /* No counters at all: every key, every value undefined, no bound. */
    eval(&r, NULL, 0);
    assert_int_equal(socmon_metrics_nresults(r.m), socmon_metricset_count(r.ms));
    for (size_t i = 0; i < socmon_metrics_nresults(r.m); i++)
        assert_true(isnan(r.out[i]));
    done(&r);
}

typedef struct acc {
    uint64_t *sum;
} acc;

static socmon_status add(void *user, const socmon_sample *prev, const socmon_sample *cur,
                         const uint64_t *deltas)
{
    acc *a = user;
    for (size_t i = 0; i < cur->n; i++)
        a->sum[i] += deltas[i];
    return SOCMON_OK;
}

static double sum_of(const socmon_set *set, const uint64_t *sum, const char *inst, const char *name)
{
    for (size_t i = 0; i < socmon_set_size(set); i++) {
        const socmon_counter *c = socmon_set_counter(set, i);
        if (strcmp(c->instance, inst) == 0 && strcmp(c->name, name) == 0)
            return (double)sum[i];
    }
    fail_msg("counter %s.%s not in the set", inst, name);
    return 0;
}

/* Runs a target spec to the end of its kernel. label: dominant_bound_per_thread (the
 * Tensix engines' view); tt_label: dominant_bound as tt-llk computes it, checked here
 * against tt-llk's formulas on the run's own counts (a73bae96f metrics.py:70-79, 154-161,
 * 279-290). scores[3] is the per-thread risc score, scores[4] tt-llk's. */
static const char *classify(const char *spec, char *label, size_t cap, double *scores, char *tt_label)
{
    socmon_target *t;
    if (socmon_target_open(spec, &t) != SOCMON_OK)
        fail_msg("open %s: %s", spec, socmon_errmsg());
    socmon_device *dev = socmon_target_device(t);
    socmon_set *set;
    assert_int_equal(socmon_set_new(dev, NULL, &set), SOCMON_OK);
    size_t n = socmon_set_size(set);
    uint64_t sum[128] = {0};
    assert_true(n <= 128);
    acc a = {sum};
    assert_int_equal(socmon_target_start(t, NULL), SOCMON_OK);
    socmon_sampler_opts so = {.interval_ns = 7000};
    assert_int_equal(socmon_sampler_run(t, set, &so, NULL, add, &a, NULL), SOCMON_OK);
    socmon_counter ctr[128];
    for (size_t i = 0; i < n; i++)
        ctr[i] = *socmon_set_counter(set, i);
    const char *pn[8];
    double pv[8];
    size_t np = socmon_device_nparams(dev);
    for (size_t i = 0; i < np && i < 8; i++)
        socmon_device_param_at(dev, i, &pn[i], &pv[i]);
    socmon_metric_schema sch = {.ncounters = n, .counters = ctr, .nparams = np, .param_names = pn,
        .param_values = pv};
    socmon_metricset *ms;
    socmon_metrics *m;
    assert_int_equal(socmon_target_metrics(t, &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &sch, &m), SOCMON_OK);
    double out[64];
    assert_int_equal(socmon_metrics_eval(m, sum, 1e-3, out), SOCMON_OK);
    run r = {.ms = ms, .m = m};
    memcpy(r.out, out, sizeof out);
    const socmon_metric_def *def = socmon_metrics_result(m, (size_t)idx(&r, "dominant_bound"))->def;
    snprintf(label, cap, "%s", def->labels[(int)val(&r, "dominant_bound_per_thread")]);
    snprintf(tt_label, 32, "%s", def->labels[(int)val(&r, "dominant_bound")]);
    scores[0] = val(&r, "math_bound_score");
    scores[1] = val(&r, "unpack_bound_score");
    scores[2] = val(&r, "pack_bound_score");
    scores[3] = val(&r, "risc_bound_score_per_thread");
    scores[4] = val(&r, "risc_bound_score");
    /* tt-llk's stall and issue rates from the raw sums */
    double cyc = sum_of(set, sum, "instrn_thread", "cycles");
    double st = sum_of(set, sum, "instrn_thread", "THREAD_STALLS_0") +
                sum_of(set, sum, "instrn_thread", "THREAD_STALLS_1") +
                sum_of(set, sum, "instrn_thread", "THREAD_STALLS_2");
    double is = sum_of(set, sum, "instrn_thread", "THREAD_INSTRUCTIONS_0") +
                sum_of(set, sum, "instrn_thread", "THREAD_INSTRUCTIONS_1") +
                sum_of(set, sum, "instrn_thread", "THREAD_INSTRUCTIONS_2");
    assert_true(cyc > 0);
    NEAR(val(&r, "stall_rate"), st / cyc);
    NEAR(val(&r, "issue_rate"), is / cyc);
    NEAR(scores[4], st / cyc - 0.5 * (is / cyc));
    NEAR(scores[3], (st / cyc - 0.5 * (is / cyc)) / 3);
    /* tt-llk's dominant bound: the first largest of math, unpack, pack, tt-llk's risc */
    double tt[4] = {scores[0], scores[1], scores[2], scores[4]};
    int best = 0;
    for (int k = 1; k < 4; k++)
        if (tt[k] > tt[best])
            best = k;
    assert_string_equal(tt_label, def->labels[best]);
    NEAR(val(&r, "dominant_bound_score"), tt[best]);
    done(&r);
    socmon_set_free(set);
    socmon_target_close(t);
    return label;
}

/* The per-thread view names the stage each kernel was built to stress, clearly. tt-llk's
 * view (dominant_bound) is checked against its formulas in classify(); on this model every
 * one of these kernels (a stage made 3x the others) is risc-bound by it: two of three
 * threads wait on the third most of the time, so the summed stall rate (up to 3)
 * outweighs any utilisation (up to 1). */
static void test_classifier_names_the_bound(void **state)
{
    (void)state;
    static const char *const platforms[] = {"wormhole_b0", "blackhole", "quasar"};
    static const char *const formats[] = {"Float16_b", "Bfp8_b", "Float32"};
    static const char *const bounds[] = {"math", "unpack", "pack"};
    for (size_t p = 0; p < 3; p++)
        for (size_t f = 0; f < 3; f++)
            for (size_t b = 0; b < 3; b++) {
                char spec[160], label[32], want[32], tt[32];
                double s[5];
                snprintf(spec, sizeof spec, "tensix:bound=%s,tiles=48,platform=%s,format=%s",
                         bounds[b], platforms[p], formats[f]);
                classify(spec, label, sizeof label, s, tt);
                snprintf(want, sizeof want, "%s-bound", bounds[b]);
                if (strcmp(label, want) != 0)
                    fail_msg("%s: classified %s (math %.3f unpack %.3f pack %.3f risc %.3f)", spec,
                             label, s[0], s[1], s[2], s[3]);
                /* and clearly so: a margin of 0.2 over the runner-up */
                for (int k = 0; k < 4; k++)
                    if (k != (int)b)
                        assert_true(s[b] > s[k] + 0.2);
                if (strcmp(tt, "risc-bound") != 0)
                    fail_msg("%s: tt-llk's view %s (risc %.3f)", spec, tt, s[4]);
            }
}

/* Natural costs: high fidelity makes a matmul math-bound, low fidelity unpack-bound (per
 * thread). tt-llk's sums agree on the HiFi4 matmul (its FPU is busy nearly every cycle)
 * and call the LoFi one risc-bound. */
static void test_classifier_natural_kernels(void **state)
{
    (void)state;
    char label[32], tt[32];
    double s[5];
    classify("tensix:fidelity=HiFi4,tiles=48", label, sizeof label, s, tt);
    assert_string_equal(label, "math-bound");
    assert_string_equal(tt, "math-bound");
    classify("tensix:fidelity=LoFi,tiles=48", label, sizeof label, s, tt);
    assert_string_equal(label, "unpack-bound");
    assert_string_equal(tt, "risc-bound");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formulas_by_hand),
        cmocka_unit_test(test_idle_thread_left_out),
        cmocka_unit_test(test_idle_thread_finding),
        cmocka_unit_test(test_bound_finding),
        cmocka_unit_test(test_unpack_mean_of_defined),
        cmocka_unit_test(test_ties),
        cmocka_unit_test(test_partial_configuration),
        cmocka_unit_test(test_classifier_names_the_bound),
        cmocka_unit_test(test_classifier_natural_kernels),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
