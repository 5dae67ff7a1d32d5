/* The host-side API: configure/read counters on a simulated core, print,
 * CSV column sets, undefined results, metrics on read results, and errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/tensix.h"
#include "llk_perf_counters.h"
#include "llk_perf_host.h"
#include "tensix_tmpdir.h"

static llk_perf_results *run_sim(const char *opts, llk_perf_sim **keep)
{
    llk_perf_sim *s;
    if (llk_perf_sim_new(opts, &s) != SOCMON_OK)
        fail_msg("sim %s: %s", opts, socmon_errmsg());
    assert_int_equal(llk_perf_configure_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s)), SOCMON_OK);
    assert_int_equal(llk_perf_sim_run(s), SOCMON_OK);
    llk_perf_results *r;
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), &r), SOCMON_OK);
    if (keep)
        *keep = s;
    else
        llk_perf_sim_free(s);
    return r;
}

static void test_configure_run_read(void **state)
{
    (void)state;
    llk_perf_results *r = run_sim("tiles=32", NULL);
    assert_int_equal(llk_perf_results_count(r), 3 * 86);
    for (size_t i = 0; i < 3 * 86; i++) {
        const llk_perf_row *w = llk_perf_results_row(r, i);
        const llk_perf_row *w0 = llk_perf_results_row(r, i % 86);
        assert_int_equal(w->thread, i / 86);
        assert_int_equal(w->count, w0->count);    /* one set of banks for all threads */
        assert_int_equal(w->cycles, w0->cycles);
        assert_true(w->count <= w->cycles);
        assert_false(w->undefined);
        assert_int_equal(w->l1_mux, w->bank == SOCMON_TENSIX_BANK_L1 ? 0 : -1);
    }
    const llk_perf_row *w = llk_perf_results_row(r, 86 + 63);
    assert_string_equal(w->thread_name, "MATH");
    assert_string_equal(w->bank_name, "FPU");
    assert_string_equal(w->counter_name, "FPU_OR_SFPU_INSTRN");
    assert_true(w->count >= llk_perf_results_row(r, 86 + 61)->count);   /* >= FPU_INSTRUCTION */
    assert_null(llk_perf_results_row(r, 3 * 86));
    llk_perf_results_free(r);
}

static void three_scoped_threads(llk_perf_sim *s)
{
    socmon_bus *bus = llk_perf_sim_bus(s);
    uint64_t regs = llk_perf_sim_regs_base(s), l1 = llk_perf_sim_l1_base(s);
    LLK_PERF_SCOPED(unpack, bus, regs, l1, LLK_PERF_THREAD_UNPACK);
    LLK_PERF_SCOPED(math, bus, regs, l1, LLK_PERF_THREAD_MATH);
    LLK_PERF_SCOPED(pack, bus, regs, l1, LLK_PERF_THREAD_PACK);
    assert_int_equal(llk_perf_sim_kernel(s), SOCMON_OK);
}

/* The device-side scoped form around the simulator's kernel gives what
 * llk_perf_sim_run gives. */
static void test_scoped_threads_equal_sim_run(void **state)
{
    (void)state;
    llk_perf_sim *s;
    llk_perf_results *a = run_sim("tiles=24,bound=pack", NULL), *b;
    assert_int_equal(llk_perf_sim_new("tiles=24,bound=pack", &s), SOCMON_OK);
    assert_int_equal(llk_perf_configure_counters(llk_perf_sim_bus(s), 0), SOCMON_OK);
    three_scoped_threads(s);
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), 0, &b), SOCMON_OK);
    assert_int_equal(llk_perf_results_count(a), llk_perf_results_count(b));
    for (size_t i = 0; i < llk_perf_results_count(a); i++) {
        assert_int_equal(llk_perf_results_row(a, i)->cycles, llk_perf_results_row(b, i)->cycles);
        assert_int_equal(llk_perf_results_row(a, i)->count, llk_perf_results_row(b, i)->count);
    }
    assert_true(llk_perf_results_row(b, 0)->cycles > 0);
    llk_perf_results_free(a);
    llk_perf_results_free(b);
    llk_perf_sim_free(s);
}

static void test_print(void **state)
{
    (void)state;
    llk_perf_results *r = run_sim("tiles=400", NULL);
    size_t len = 0;
    assert_int_equal(llk_perf_format_counters(r, NULL, 0, &len), SOCMON_OK);
    char *buf = malloc(len + 1);
    assert_int_equal(llk_perf_format_counters(r, buf, len + 1, &len), SOCMON_OK);
    assert_non_null(strstr(buf, "PERFORMANCE COUNTER RESULTS"));
    assert_non_null(strstr(buf, "  THREAD: UNPACK\n"));
    assert_non_null(strstr(buf, "  THREAD: PACK\n"));
    assert_non_null(strstr(buf, "\xe2\x94\x8c\xe2\x94\x80 FPU (cycles: 2"));   /* > 1000 cycles, with commas */
    assert_non_null(strstr(buf, ","));
    assert_non_null(strstr(buf, "NOC_RING0_INCOMING_1 (mux0)"));
    assert_non_null(strstr(buf, "Counter Name"));
    /* snprintf-like truncation */
    char small[16];
    size_t full = 0;
    assert_int_equal(llk_perf_format_counters(r, small, sizeof small, &full), SOCMON_OK);
    assert_int_equal(full, len);
    assert_int_equal(strlen(small), 15);
    free(buf);
    llk_perf_results_free(r);
    llk_perf_results *e;
    assert_int_equal(llk_perf_results_new(&e), SOCMON_OK);
    char out[64];
    assert_int_equal(llk_perf_format_counters(e, out, sizeof out, NULL), SOCMON_OK);
    assert_string_equal(out, "No counter results to display.\n");
    llk_perf_results_free(e);
}

static void test_export_counters_csv(void **state)
{
    (void)state;
    llk_perf_results *r = run_sim("tiles=16", NULL);
    char base[128], path[160];
    snprintf(base, sizeof base, "%s/test_matmul_counters", dir);
    socmon_kv params[] = {{.key = "math_fidelity", .value = "LoFi"}, {.key = "input_format",
        .value = "Float16_b"}, {.key = "note", .value = "a,b"}};
    assert_int_equal(llk_perf_export_counters(r, base, params, 3, "master"), SOCMON_OK);
    assert_int_equal(llk_perf_export_counters(r, base, params, 3, "master"), SOCMON_OK);
    snprintf(path, sizeof path, "%s.master.csv", base);
    static char lines[4][TX_LINE_MAX];
    assert_int_equal(read_lines(path, lines, 4), 1 + 2 * 258);   /* header once, rows appended */
    assert_string_equal(lines[0], "thread,bank,counter_name,counter_id,cycles,count,l1_mux,math_fidelity,"
                                  "input_format,note\n");
    const llk_perf_row *w = llk_perf_results_row(r, 0);
    char want[256];
    snprintf(want, sizeof want, "UNPACK,INSTRN_THREAD,CFG_INSTRN_AVAILABLE_0,0,%u,%u,,LoFi,Float16_b,\"a,b\"\n",
             w->cycles, w->count);
    assert_string_equal(lines[1], want);
    /* Other columns into the same file: refused, naming the file. */
    assert_int_equal(llk_perf_export_counters(r, base, params, 1, "master"), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), path));
    /* Default worker id, no params. */
    assert_int_equal(llk_perf_export_counters(r, base, NULL, 0, NULL), SOCMON_OK);
    snprintf(path, sizeof path, "%s.gw0.csv", base);
    assert_int_equal(read_lines(path, lines, 4), 1 + 258);
    assert_string_equal(lines[0], "thread,bank,counter_name,counter_id,cycles,count,l1_mux\n");
    /* An unwritable place is an error naming it. */
    assert_int_not_equal(llk_perf_export_counters(r, "/nonexistent/dir/x", NULL, 0, NULL), SOCMON_OK);
    assert_non_null(strstr(socmon_errmsg(), "/nonexistent/dir/x.gw0.csv"));
    llk_perf_results_free(r);
}

/* Undefined L1 pairs in L1: rows marked, never numbers in print or CSV,
 * left out of metrics. */
static void test_undefined_rows(void **state)
{
    (void)state;
    llk_perf_sim *s;
    llk_perf_results *r = run_sim("tiles=16", &s);
    llk_perf_results_free(r);
    uint64_t data = llk_perf_sim_l1_base(s) + socmon_tensix_data_addr(1);
    for (unsigned k = 78; k < 86; k++) {   /* MATH's L1 slots */
        socmon_bus_write32(llk_perf_sim_bus(s), data + 8 * k, 0xFFFFFFFFu);
        socmon_bus_write32(llk_perf_sim_bus(s), data + 8 * k + 4, 0xFFFFFFFFu);
    }
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), 0, &r), SOCMON_OK);
    unsigned nundef = 0;
    for (size_t i = 0; i < llk_perf_results_count(r); i++) {
        const llk_perf_row *w = llk_perf_results_row(r, i);
        int want = w->thread == 1 && w->bank == SOCMON_TENSIX_BANK_L1;
        assert_int_equal(w->undefined, want);
        nundef += w->undefined;
    }
    assert_int_equal(nundef, 8);
    char buf[200000];
    assert_int_equal(llk_perf_format_counters(r, buf, sizeof buf, NULL), SOCMON_OK);
    assert_non_null(strstr(buf, "undefined"));
    char base[128], path[160];
    snprintf(base, sizeof base, "%s/undef", dir);
    assert_int_equal(llk_perf_export_counters(r, base, NULL, 0, "w"), SOCMON_OK);
    snprintf(path, sizeof path, "%s.w.csv", base);
    static char lines[200][TX_LINE_MAX];
    read_lines(path, lines, 200);
    assert_string_equal(lines[1 + 86 + 78], "MATH,L1,NOC_RING0_INCOMING_1,0,,,0\n");
    /* The other threads still give the NoC metrics. */
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
    double v;
    assert_int_equal(llk_perf_metrics_value(m, "noc_txn_per_cycle", &v), SOCMON_OK);
    assert_true(v > 0);
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
    llk_perf_sim_free(s);
}

static const char *bound_of(const llk_perf_metrics *m, const char *which)
{
    for (size_t i = 0; i < llk_perf_metrics_count(m); i++) {
        const char *name, *unit, *label;
        double v;
        assert_int_equal(llk_perf_metrics_at(m, i, &name, &v, &unit, &label), SOCMON_OK);
        if (strcmp(name, which) == 0)
            return label;
    }
    return NULL;
}

/* A one-thread kernel (C++ built for MATH only, the default without LLK_TRISC_*): UNPACK's and
 * PACK's areas read 0 cycles. They are left out of the means and named in a warning, so the
 * HiFi4 matmul is math-bound at the utilisation the three-thread run measures (issue 28: tt-llk's
 * mean over the three threads made it 0.33 and unpack-bound). */
static void test_one_thread_kernel(void **state)
{
    (void)state;
    llk_perf_sim *s;
    assert_int_equal(llk_perf_sim_new("fidelity=HiFi4", &s), SOCMON_OK);
    assert_int_equal(llk_perf_configure_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s)), SOCMON_OK);
    {
        LLK_PERF_SCOPED(math, llk_perf_sim_bus(s), llk_perf_sim_regs_base(s), llk_perf_sim_l1_base(s),
                        LLK_PERF_THREAD_MATH);
        assert_int_equal(llk_perf_sim_kernel(s), SOCMON_OK);
    }
    llk_perf_results *r;
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), llk_perf_sim_l1_base(s), &r), SOCMON_OK);
    assert_int_equal(llk_perf_results_row(r, 0)->cycles, 0);          /* UNPACK never started */
    assert_true(llk_perf_results_row(r, 86)->cycles > 0);             /* MATH did */
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
    double v;
    assert_int_equal(llk_perf_metrics_value(m, "math_util", &v), SOCMON_OK);
    assert_true(v > 0.99 && v <= 1.0);
    assert_string_equal(bound_of(m, "dominant_bound"), "math-bound");
    const char *w = llk_perf_metrics_warning(m);
    assert_non_null(w);
    assert_non_null(strstr(w, "UNPACK, PACK"));
    assert_null(strstr(w, "MATH"));
    char buf[16384];
    size_t len;
    assert_int_equal(llk_perf_format_metrics(m, buf, sizeof buf, &len), SOCMON_OK);
    assert_non_null(strstr(buf, "WARNING: threads UNPACK, PACK counted 0 cycles"));
    /* The banks are the core's: MATH's rows counted all three threads' instructions, so
     * threads_ran is 3, and the warning says how that fits with two threads never starting the
     * counters (issue 37: "threads_ran 3.0000" under a warning that only MATH ran). */
    double ran;
    assert_int_equal(llk_perf_metrics_value(m, "threads_ran", &ran), SOCMON_OK);
    assert_true(ran == 3);
    assert_non_null(strstr(buf, "threads_ran                    3.0000"));
    assert_non_null(strstr(w, "still counted instructions of 3 of the three threads (threads_ran)"));
    /* The same kernel with all three threads: the same utilisation, and no warning. */
    llk_perf_results *r3 = run_sim("fidelity=HiFi4", NULL);
    llk_perf_metrics *m3;
    assert_int_equal(llk_perf_compute_metrics(r3, NULL, &m3), SOCMON_OK);
    double v3;
    assert_int_equal(llk_perf_metrics_value(m3, "math_util", &v3), SOCMON_OK);
    assert_true(fabs(v - v3) < 1e-9);
    assert_null(llk_perf_metrics_warning(m3));
    llk_perf_metrics_free(m3);
    llk_perf_results_free(r3);
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
    llk_perf_sim_free(s);
}

static void test_compute_metrics(void **state)
{
    (void)state;
    static const char *const bounds[] = {"math", "unpack", "pack"};
    for (int b = 0; b < 3; b++) {
        char opts[64], want[32];
        snprintf(opts, sizeof opts, "bound=%s,tiles=40", bounds[b]);
        llk_perf_results *r = run_sim(opts, NULL);
        llk_perf_metrics *m;
        assert_int_equal(llk_perf_compute_metrics(r, "wormhole_b0", &m), SOCMON_OK);
        snprintf(want, sizeof want, "%s-bound", bounds[b]);
        /* Per thread, the stage the kernel stresses; tt-llk's summed stall rate (a73bae96f
         * metrics.py:154-161) calls each of them risc-bound (docs/tensix.md). */
        assert_string_equal(bound_of(m, "dominant_bound_per_thread"), want);
        assert_string_equal(bound_of(m, "dominant_bound"), "risc-bound");
        llk_perf_metrics_free(m);
        llk_perf_results_free(r);
    }
    /* The platform table enters as parameters: NoC bytes = txn x word. */
    llk_perf_results *r = run_sim("platform=blackhole", NULL);
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_compute_metrics(r, "blackhole", &m), SOCMON_OK);
    double txn, bytes, u, ub;
    assert_int_equal(llk_perf_metrics_value(m, "noc_txn_per_cycle", &txn), SOCMON_OK);
    assert_int_equal(llk_perf_metrics_value(m, "noc_bytes_per_cycle", &bytes), SOCMON_OK);
    assert_true(fabs(bytes - 256 * txn) < 1e-9);
    assert_int_equal(llk_perf_metrics_value(m, "unpack_util", &u), SOCMON_OK);
    assert_int_equal(llk_perf_metrics_value(m, "unpack_est_bpc", &ub), SOCMON_OK);
    assert_true(fabs(ub - 120 * u) < 1e-9);
    assert_string_equal(llk_perf_metrics_platform(m), "blackhole");
    assert_int_equal(llk_perf_metrics_value(m, "nope", &u), SOCMON_ENOENT);
    assert_int_equal(llk_perf_metrics_at(m, 999, NULL, NULL, NULL, NULL), SOCMON_ERANGE);
    char buf[8192];
    assert_int_equal(llk_perf_format_metrics(m, buf, sizeof buf, NULL), SOCMON_OK);
    assert_non_null(strstr(buf, "KERNEL METRICS (platform blackhole)"));
    assert_non_null(strstr(buf, "Unpacker  util="));
    assert_non_null(strstr(buf, "B/cyc (txn/cyc "));
    assert_non_null(strstr(buf, "Bound     "));
    llk_perf_metrics_free(m);
    assert_int_equal(llk_perf_compute_metrics(r, "grayskull", &m), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "grayskull"));
    llk_perf_results_free(r);
}

/* Counts are averaged over threads and cycles are the bank's maximum. */
static void test_metrics_average_threads(void **state)
{
    (void)state;
    llk_perf_results *r;
    assert_int_equal(llk_perf_results_new(&r), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 0, 1, 257, 0, 1000, 400, 0), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 1, 1, 257, 0, 900, 600, 0), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 2, 1, 257, 0, 800, 200, 0), SOCMON_OK);
    llk_perf_metrics *m;
    assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
    double v;
    assert_int_equal(llk_perf_metrics_value(m, "math_util", &v), SOCMON_OK);
    assert_true(fabs(v - 400.0 / 1000) < 1e-12);
    /* Metrics whose counters were not read are there, undefined (NaN), as tt-llk's None. */
    assert_int_equal(llk_perf_metrics_value(m, "pack_util", &v), SOCMON_OK);
    assert_true(isnan(v));
    assert_int_equal(llk_perf_metrics_value(m, "dominant_bound", &v), SOCMON_OK);
    assert_true(v == 0);   /* math-bound: the one defined score */
    char base[128], path[160];
    snprintf(base, sizeof base, "%s/test_metrics", dir);
    socmon_kv params[] = {{.key = "kt_dim", .value = "4"}};
    assert_int_equal(llk_perf_export_metrics(m, base, params, 1, "gw1"), SOCMON_OK);
    assert_int_equal(llk_perf_export_metrics(m, base, params, 1, "gw1"), SOCMON_OK);
    snprintf(path, sizeof path, "%s.gw1.csv", base);
    static char lines[4][TX_LINE_MAX];
    assert_int_equal(read_lines(path, lines, 4), 3);
    /* Columns: the computed metrics in file order, then the parameters. */
    char want[1024] = "";
    for (size_t i = 0; i < llk_perf_metrics_count(m); i++) {
        const char *name;
        llk_perf_metrics_at(m, i, &name, NULL, NULL, NULL);
        strcat(want, i ? "," : "");
        strcat(want, name);
    }
    strcat(want, ",kt_dim\n");
    assert_string_equal(lines[0], want);
    assert_non_null(strstr(lines[0], "math_util"));
    assert_non_null(strstr(lines[1], "0.4"));
    assert_non_null(strstr(lines[1], ",4\n"));
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
}

/* kernel= picks the simulated kernel; the host path reads and classifies it. */
static void test_sim_kernels(void **state)
{
    (void)state;
    static const char *const kernels[] = {"matmul", "sfpu", "reduce", "topk", "sync"};
    for (size_t k = 0; k < sizeof kernels / sizeof kernels[0]; k++) {
        char opts[64];
        snprintf(opts, sizeof opts, "kernel=%s,tiles=32", kernels[k]);
        llk_perf_results *r = run_sim(opts, NULL);
        assert_int_equal(llk_perf_results_count(r), 3 * 86);
        for (size_t i = 0; i < 3 * 86; i++)
            assert_true(llk_perf_results_row(r, i)->count <= llk_perf_results_row(r, i)->cycles);
        llk_perf_metrics *m;
        assert_int_equal(llk_perf_compute_metrics(r, NULL, &m), SOCMON_OK);
        double fpu, sfpu, u1;
        assert_int_equal(llk_perf_metrics_value(m, "fpu_util", &fpu), SOCMON_OK);
        assert_int_equal(llk_perf_metrics_value(m, "sfpu_util", &sfpu), SOCMON_OK);
        assert_int_equal(llk_perf_metrics_value(m, "unpack1_util", &u1), SOCMON_OK);
        if (!strcmp(kernels[k], "sfpu") || !strcmp(kernels[k], "topk")) {
            /* SFPU work only, and no srcB operand: unpacker 1 is 0/0. */
            assert_true(fpu == 0 && sfpu > 0.8);
            assert_true(isnan(u1));
            assert_string_equal(bound_of(m, "dominant_bound_per_thread"), "math-bound");
            assert_string_equal(bound_of(m, "dominant_bound"), "math-bound");   /* tt-llk agrees */
        } else {
            assert_true(fpu > 0 && u1 > 0);
        }
        llk_perf_metrics_free(m);
        llk_perf_results_free(r);
    }
    llk_perf_sim *s;
    assert_int_equal(llk_perf_sim_new("kernel=conv", &s), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "kernel 'conv' unknown (valid: matmul, sfpu, reduce, topk, sync)"));
}

static void test_errors(void **state)
{
    (void)state;
    llk_perf_results *r;
    assert_int_equal(llk_perf_results_new(&r), SOCMON_OK);
    assert_int_equal(llk_perf_results_add(r, 3, 1, 0, 0, 1, 1, 0), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread 3"));
    assert_int_equal(llk_perf_results_add(r, 0, 7, 0, 0, 1, 1, 0), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "bank 7"));
    assert_int_equal(llk_perf_results_add(r, 0, 5, 0, 0, 1, 1, 0), SOCMON_ERANGE);   /* tt-llk: address 0 */
    assert_non_null(strstr(socmon_errmsg(), "bank 5 out of range 0..4"));
    assert_int_equal(llk_perf_results_add(r, 0, 1, 512, 0, 1, 1, 0), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "counter id 512 out of range 0..511"));
    assert_int_equal(llk_perf_results_add(r, 0, 1, 5, 1, 1, 1, 0), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "l1_mux 1 on bank FPU"));
    assert_int_equal(llk_perf_results_count(r), 0);
    llk_perf_results_free(r);

    llk_perf_sim *s;
    assert_int_equal(llk_perf_sim_new("bound=sideways", &s), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "sideways"));
    assert_int_equal(llk_perf_sim_new("tiles", &s), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "'tiles' is not key=value"));
    assert_int_equal(llk_perf_sim_new(NULL, &s), SOCMON_OK);
    assert_string_equal(llk_perf_sim_platform(s), "wormhole_b0");
    uint32_t bad[2] = {0x80000001u, 0x80000109u};
    assert_int_equal(llk_perf_configure_slots(llk_perf_sim_bus(s), 0, 2, bad, 2), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread PACK"));
    assert_non_null(strstr(socmon_errmsg(), "slot 1"));
    /* A bad word found in L1 by read_counters names thread and slot too. */
    assert_int_equal(llk_perf_configure_counters(llk_perf_sim_bus(s), 0), SOCMON_OK);
    socmon_bus_write32(llk_perf_sim_bus(s), socmon_tensix_config_addr(2) + 4 * 5, 0x80000108u);
    assert_int_equal(llk_perf_read_counters(llk_perf_sim_bus(s), 0, &r), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "thread PACK"));
    assert_non_null(strstr(socmon_errmsg(), "slot 5"));
    /* and so does the device side when the kernel starts */
    assert_int_equal(llk_perf_sim_run(s), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 5"));
    llk_perf_sim_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_configure_run_read),
        cmocka_unit_test(test_scoped_threads_equal_sim_run),
        cmocka_unit_test(test_print),
        cmocka_unit_test(test_export_counters_csv),
        cmocka_unit_test(test_undefined_rows),
        cmocka_unit_test(test_compute_metrics),
        cmocka_unit_test(test_one_thread_kernel),
        cmocka_unit_test(test_metrics_average_threads),
        cmocka_unit_test(test_sim_kernels),
        cmocka_unit_test(test_errors),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
