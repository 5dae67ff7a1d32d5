/* counters.h kernels on the Tensix model as a simulator runs them: the one
 * kernel.cpp built for UNPACK, MATH and PACK, each on its own std::thread
 * bound with llk_perf::bind to the same core. The results (the arrays
 * stop() returns and each thread's L1 data area) must equal what the C API
 * (llk_perf_init/start/stop) gives for the same configuration and the same
 * sequence, and the counts must be the kernel model's ground truth.
 *
 * The harness runs the threads in a fixed order, as a cycle-stepped
 * simulator would: the three starts (UNPACK, MATH, PACK), the kernel to its
 * end, then the three stops in the same order. On silicon the TRISCs share
 * one set of banks too; the first stop freezes them (spec §5, "Threads"). */
#include "cpp_fixture.h"

#include <array>
#include <condition_variable>
#include <mutex>
#include <string>
#include <thread>

#include "counters.h"
#include "kernel_sim.h"
#include "llk_perf_counters.h"
#include "llk_perf_host.h"
#include <cstring>

using Results = std::array<llk_perf::CounterResult, llk_perf::COUNTER_SLOT_COUNT>;

/* kernel.cpp, once per build (CMake renames the entry points). */
void unpack_run_kernel();
void math_run_kernel();
void pack_run_kernel();
void unpack_run_kernel_explicit();
void math_run_kernel_explicit();
void pack_run_kernel_explicit();
void default_run_kernel_explicit();

/* One simulated core's TRISC threads. lockstep: the order above; otherwise
 * (one thread per core) sim_work just runs the kernel to its end. */
struct Sim {
    Sim(Core *c, bool ls) : core(c), lockstep(ls) {}
    Core *core;
    bool lockstep;
    std::mutex m;
    std::condition_variable cv;
    unsigned turn = 0;     /* 0..2: start of thread turn; 3..5: stop of thread turn - 3 */
    bool failed = false;
    std::string err[3];
    socmon_status bind_st[3] = {SOCMON_EINVAL, SOCMON_EINVAL, SOCMON_EINVAL};
    Results reported[3] = {};
    bool got[3] = {};
    bool ran = false;      /* the kernel ran to its end, once */
};

thread_local Sim *t_sim;
thread_local unsigned t_tid;

void sim_work()
{
    Sim &s = *t_sim;
    if (!s.lockstep) {
        s.ran = s.core->run_to_end();
        return;
    }
    std::unique_lock<std::mutex> lk(s.m);
    if (t_tid == 2) {
        s.ran = s.core->run_to_end();
        s.turn = 3;
    } else {
        s.turn = t_tid + 1;
    }
    s.cv.notify_all();
    s.cv.wait(lk, [&] { return s.turn == 3 + t_tid || s.failed; });
}

void sim_report(const Results &r)
{
    t_sim->reported[t_tid] = r;
    t_sim->got[t_tid] = true;
}

static void trisc(Sim *s, unsigned tid, void (*kernel)())
{
    t_sim = s;
    t_tid = tid;
    s->bind_st[tid] = llk_perf::bind(s->core->bus, REGS, 0);
    if (s->lockstep) {
        std::unique_lock<std::mutex> lk(s->m);
        s->cv.wait(lk, [&] { return s->turn == tid || s->failed; });
    }
    try {
        kernel();
    } catch (const llk_perf::perf_error &e) {
        s->err[tid] = e.what();
        std::lock_guard<std::mutex> lk(s->m);
        s->failed = true;   /* release the others rather than hang */
    }
    if (s->lockstep) {
        std::lock_guard<std::mutex> lk(s->m);
        s->turn = 3 + tid + 1;
    }
    s->cv.notify_all();
}

/* The three TRISCs on one core, in lock step. */
static void run_trisc_threads(Sim &s, void (*const kernels[3])())
{
    std::thread th[3];
    for (unsigned t = 0; t < 3; t++)
        th[t] = std::thread(trisc, &s, t, kernels[t]);
    for (auto &x : th)
        x.join();
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(s.bind_st[t], SOCMON_OK);
        if (!s.err[t].empty())
            fail_msg("thread %u: %s", t, s.err[t].c_str());
    }
    assert_false(s.failed);
    assert_true(s.ran);
}

/* The same configuration and sequence through the C API, on a fresh core. */
static void c_reference(Results out[3], std::vector<std::uint32_t> data[3])
{
    Core k;
    assert_true(k.ok);
    for (unsigned t = 0; t < 3; t++)
        assert_true(k.configure(t));
    llk_perf_counters pc[3];
    for (unsigned t = 0; t < 3; t++) {
        assert_int_equal(llk_perf_init(&pc[t], k.bus, REGS, 0, t), SOCMON_OK);
        assert_int_equal(llk_perf_start(&pc[t]), SOCMON_OK);
    }
    assert_true(k.run_to_end());
    for (unsigned t = 0; t < 3; t++) {
        const llk_perf_counter_result *r;
        size_t n;
        assert_int_equal(llk_perf_stop(&pc[t], &r, &n), SOCMON_OK);
        assert_int_equal(n, 86);
        out[t] = Results{};
        for (size_t i = 0; i < n; i++)
            out[t][i] = {r[i].cycles, r[i].count, static_cast<llk_perf::CounterBank>(r[i].bank),
                         r[i].counter_id};
        llk_perf_release(&pc[t]);
        data[t] = k.data_area(t);
    }
}

static void assert_same(const Results &a, const Results &b)
{
    for (size_t i = 0; i < a.size(); i++) {
        assert_int_equal(a[i].cycles, b[i].cycles);
        assert_int_equal(a[i].count, b[i].count);
        assert_int_equal(static_cast<unsigned>(a[i].bank), static_cast<unsigned>(b[i].bank));
        assert_int_equal(a[i].counter_id, b[i].counter_id);
    }
}

/* What the kernel model implies: every bank counted the whole kernel (all
 * three starts at cycle 0, the first stop at its last cycle), so OUT_L is the
 * kernel's length and OUT_H each counter's ground-truth events. */
static void assert_ground_truth(Core &k, const Results &r)
{
    socmon_tensix_stage_costs costs;
    assert_int_equal(socmon_tensix_kernel_costs(socmon_tensix_core_params(k.c), &costs), SOCMON_OK);
    assert_int_equal(socmon_tensix_core_now(k.c), costs.total);
    std::uint32_t w[86];
    socmon_tensix_default_slots(w, 86);
    for (size_t i = 0; i < 86; i++) {
        socmon_tensix_slot s;
        socmon_tensix_slot_decode(w[i], &s);
        assert_int_equal(static_cast<unsigned>(r[i].bank), s.bank);
        assert_int_equal(r[i].counter_id, s.counter_id);
        assert_int_equal(r[i].cycles, costs.total);
        assert_int_equal(r[i].count,
                         static_cast<std::uint32_t>(socmon_tensix_core_signal(k.c, s.bank, s.counter_id, s.l1_mux)));
    }
    /* the FPU bank's combined counter (slot 63) is the matmul's work, not 0 */
    assert_int_equal(r[63].counter_id, llk_perf::counter_id::fpu::FPU_OR_SFPU_INSTRN);
    assert_true(r[63].count > 0);
}

/* PerfCounters start()/stop() in each TRISC build: the arrays and the L1 data
 * areas equal the C API's, and the counts are the model's. */
static void test_explicit_kernels(void **)
{
    Core k;
    assert_true(k.ok);
    for (unsigned t = 0; t < 3; t++)
        assert_true(k.configure(t));
    Sim s{&k, true};
    void (*const kernels[3])() = {unpack_run_kernel_explicit, math_run_kernel_explicit,
                                  pack_run_kernel_explicit};
    run_trisc_threads(s, kernels);

    Results ref[3];
    std::vector<std::uint32_t> ref_data[3];
    c_reference(ref, ref_data);
    for (unsigned t = 0; t < 3; t++) {
        assert_true(s.got[t]);
        assert_same(s.reported[t], ref[t]);
        assert_true(k.data_area(t) == ref_data[t]);
        assert_ground_truth(k, s.reported[t]);
    }
}

/* ScopedPerfCounters with no arguments: each thread's destructor stop writes
 * its own thread's L1 data area, equal to the C API's. */
static void test_scoped_kernels(void **)
{
    Core k;
    assert_true(k.ok);
    for (unsigned t = 0; t < 3; t++)
        assert_true(k.configure(t));
    Sim s{&k, true};
    void (*const kernels[3])() = {unpack_run_kernel, math_run_kernel, pack_run_kernel};
    run_trisc_threads(s, kernels);

    Results ref[3];
    std::vector<std::uint32_t> ref_data[3];
    c_reference(ref, ref_data);
    for (unsigned t = 0; t < 3; t++) {
        std::vector<std::uint32_t> got = k.data_area(t);
        assert_true(got == ref_data[t]);
        for (size_t i = 0; i < 86; i++) {
            assert_int_equal(got[2 * i], ref[t][i].cycles);
            assert_int_equal(got[2 * i + 1], ref[t][i].count);
        }
    }
}

/* No LLK_TRISC_* define: the MATH thread's slots and data area, as V1
 * (9fa02aa counters.h get_config_mem/get_data_mem #else branch). A partial
 * configuration fills entries [0, 5) and leaves the rest of the array zero. */
static void test_default_thread_is_math(void **)
{
    Core k;
    assert_true(k.ok);
    /* FPU_INSTRUCTION, FPU_OR_SFPU_INSTRN, PACKER_BUSY, an invalid slot, SRCA_WRITE, L1 mux 0 id 7 */
    std::vector<std::uint32_t> w = {
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, llk_perf::counter_id::fpu::FPU_INSTRUCTION, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_FPU, llk_perf::counter_id::fpu::FPU_OR_SFPU_INSTRN, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_TDMA_PACK, llk_perf::counter_id::tdma_pack::PACKER_BUSY, 0),
        0,
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_TDMA_UNPACK, llk_perf::counter_id::tdma_unpack::SRCA_WRITE, 0),
        socmon_tensix_slot_encode(SOCMON_TENSIX_BANK_L1, llk_perf::counter_id::l1::L1_NO_ARB_UNPACKER, 0),
    };
    assert_true(k.configure(SOCMON_TENSIX_THREAD_MATH, w));
    Sim s{&k, false};
    std::thread th(trisc, &s, 1u, default_run_kernel_explicit);
    th.join();
    assert_int_equal(s.bind_st[1], SOCMON_OK);
    if (!s.err[1].empty())
        fail_msg("%s", s.err[1].c_str());
    assert_true(s.got[1] && s.ran);
    const Results &r = s.reported[1];
    const unsigned banks[5] = {1, 1, 4, 2, 3};
    for (size_t i = 0; i < 5; i++) {
        assert_int_equal(static_cast<unsigned>(r[i].bank), banks[i]);
        assert_int_equal(r[i].cycles, socmon_tensix_core_now(k.c));
        assert_int_equal(k.word(PERF_COUNTER_MATH_DATA_ADDR + 8 * i), r[i].cycles);
        assert_int_equal(k.word(PERF_COUNTER_MATH_DATA_ADDR + 8 * i + 4), r[i].count);
    }
    assert_int_equal(r[3].counter_id, 261);
    for (size_t i = 5; i < r.size(); i++) {   /* the zeroed tail (tt-llk leaves it uninitialised) */
        assert_int_equal(r[i].cycles, 0);
        assert_int_equal(r[i].count, 0);
        assert_int_equal(static_cast<unsigned>(r[i].bank), 0);
        assert_int_equal(r[i].counter_id, 0);
    }
    assert_int_equal(k.word(PERF_COUNTER_UNPACK_DATA_ADDR), 0);   /* other threads untouched */
    assert_int_equal(k.word(PERF_COUNTER_PACK_DATA_ADDR), 0);
}

/* The binding is per thread: two threads bound to two cores whose kernels
 * differ in length each measure their own core. */
static void test_threads_bound_to_different_cores(void **)
{
    Core a(4), b(32);
    assert_true(a.ok && b.ok);
    assert_true(a.configure(SOCMON_TENSIX_THREAD_UNPACK) && b.configure(SOCMON_TENSIX_THREAD_PACK));
    Sim sa{&a, false}, sb{&b, false};
    std::thread ta(trisc, &sa, 0u, unpack_run_kernel);
    std::thread tb(trisc, &sb, 2u, pack_run_kernel);
    ta.join();
    tb.join();
    assert_true(sa.err[0].empty() && sb.err[2].empty());
    assert_true(sa.ran && sb.ran);
    assert_true(socmon_tensix_core_now(a.c) < socmon_tensix_core_now(b.c));
    assert_int_equal(a.word(PERF_COUNTER_UNPACK_DATA_ADDR), socmon_tensix_core_now(a.c));
    assert_int_equal(b.word(PERF_COUNTER_PACK_DATA_ADDR), socmon_tensix_core_now(b.c));
    assert_int_equal(a.word(PERF_COUNTER_PACK_DATA_ADDR), 0);
    assert_int_equal(b.word(PERF_COUNTER_UNPACK_DATA_ADDR), 0);
}

/* Issue 28: a one-thread kernel (no LLK_TRISC_* define: MATH only) after the host configured all
 * three threads. UNPACK and PACK read 0 cycles; the host's metrics leave them out of the means and
 * name them in a warning, so math_util is MATH's own FPU_OR_SFPU_INSTRN / cycles, not a third of it. */
static void test_one_thread_kernel_metrics(void **)
{
    Core k;
    assert_true(k.ok);
    assert_int_equal(llk_perf_configure_counters(k.bus, 0), SOCMON_OK);
    Sim s{&k, false};
    std::thread th(trisc, &s, 1u, default_run_kernel_explicit);
    th.join();
    assert_true(s.err[1].empty() && s.ran);
    llk_perf_results *r = nullptr;
    llk_perf_metrics *m = nullptr;
    assert_int_equal(llk_perf_read_counters(k.bus, 0, &r), SOCMON_OK);
    assert_int_equal(llk_perf_compute_metrics(r, nullptr, &m), SOCMON_OK);
    const char *w = llk_perf_metrics_warning(m);
    assert_non_null(w);
    assert_non_null(strstr(w, "UNPACK, PACK"));
    double cyc = 0, n = 0, util = 0;
    for (size_t i = 0; i < llk_perf_results_count(r); i++) {
        const llk_perf_row *row = llk_perf_results_row(r, i);
        if (row->thread == 1 && strcmp(row->counter_name, "FPU_OR_SFPU_INSTRN") == 0)
            cyc = row->cycles, n = row->count;
    }
    assert_true(cyc > 0);
    assert_int_equal(llk_perf_metrics_value(m, "math_util", &util), SOCMON_OK);
    assert_true(util > 0.99 * n / cyc && util < 1.01 * n / cyc);
    llk_perf_metrics_free(m);
    llk_perf_results_free(r);
}

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_explicit_kernels),
        cmocka_unit_test(test_scoped_kernels),
        cmocka_unit_test(test_default_thread_is_math),
        cmocka_unit_test(test_threads_bound_to_different_cores),
        cmocka_unit_test(test_one_thread_kernel_metrics),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
