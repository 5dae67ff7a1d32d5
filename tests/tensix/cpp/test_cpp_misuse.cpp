/* counters.h misuse and edge cases, in a PACK build: an unbound thread, stop
 * before start, double stop, ScopedPerfCounters::stop() then its destructor,
 * the scoped destructor's own stop, a NULL bus, a bad binding, undefined L1
 * results, and tt-llk's detail::read_reg/write_reg over the binding. Each
 * error is a llk_perf::perf_error naming the problem, never a crash. */
#define LLK_TRISC_PACK 1
#include "cpp_fixture.h"

#include <new>
#include <string>
#include <thread>

#include "counters.h"

using Results = std::array<llk_perf::CounterResult, llk_perf::COUNTER_SLOT_COUNT>;
static const std::uint32_t PACK_DATA = PERF_COUNTER_PACK_DATA_ADDR;

/* Runs f, which must throw perf_error with status st and a message holding want. */
template <class F> static void expect_error(F f, socmon_status st, const char *want)
{
    try {
        f();
    } catch (const llk_perf::perf_error &e) {
        assert_int_equal(e.status(), st);
        if (!std::strstr(e.what(), want))
            fail_msg("message '%s' lacks '%s'", e.what(), want);
        assert_int_equal(llk_perf::last_status(), st);
        return;
    }
    fail_msg("no perf_error (wanted '%s')", want);
}

static int setup(void **state)
{
    Core *k = new Core();
    if (!k->ok || !k->configure(SOCMON_TENSIX_THREAD_PACK))
        return -1;
    *state = k;
    return llk_perf::bind(k->bus, REGS, 0) == SOCMON_OK ? 0 : -1;
}

static int teardown(void **state)
{
    llk_perf::unbind();
    delete static_cast<Core *>(*state);
    return 0;
}

static void test_unbound_thread(void **state)
{
    llk_perf::unbind();
    assert_false(llk_perf::is_bound());
    expect_error([] { llk_perf::PerfCounters pc; pc.start(); }, SOCMON_ESTATE, "thread PACK");
    expect_error([] { llk_perf::ScopedPerfCounters scoped; }, SOCMON_ESTATE, "llk_perf::bind(bus, regs_base, l1_base)");
    expect_error([] { (void)llk_perf::detail::read_reg(RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU); }, SOCMON_ESTATE,
                 "not bound");
    /* the binding is per thread: binding here does not bind another thread */
    Core *k = static_cast<Core *>(*state);
    assert_int_equal(llk_perf::bind(k->bus, REGS, 0), SOCMON_OK);
    bool other_bound = true;
    std::thread([&] { other_bound = llk_perf::is_bound(); }).join();
    assert_false(other_bound);
}

static void test_bind_null_bus(void **)
{
    assert_int_equal(llk_perf::bind(nullptr, REGS, 0), SOCMON_EINVAL);
    assert_non_null(std::strstr(socmon_errmsg(), "bus is NULL"));
    assert_true(llk_perf::is_bound());   /* the earlier binding stays */
}

static void test_stop_before_start(void **state)
{
    llk_perf::PerfCounters pc;
    expect_error([&] { (void)pc.stop(); }, SOCMON_ESTATE, "not started");
    assert_int_equal(static_cast<Core *>(*state)->word(PACK_DATA), 0);   /* nothing written */
}

/* A second stop reads the frozen banks again (tt-llk does the same: the stop
 * edge on a stopped bank changes nothing) and rewrites the same L1 pairs. */
static void test_double_stop(void **state)
{
    Core *k = static_cast<Core *>(*state);
    llk_perf::PerfCounters pc;
    pc.start();
    k->advance(100);
    Results a = pc.stop();
    k->advance(50);
    Results b = pc.stop();
    assert_int_equal(llk_perf::last_status(), SOCMON_OK);
    for (size_t i = 0; i < a.size(); i++) {
        assert_int_equal(a[i].cycles, 100);
        assert_int_equal(b[i].cycles, a[i].cycles);
        assert_int_equal(b[i].count, a[i].count);
    }
    assert_int_equal(k->word(PACK_DATA), 100);
}

/* ScopedPerfCounters::stop() then the destructor: the destructor must not
 * stop again. Another PerfCounters re-arms the banks after the scoped stop;
 * if the destructor stopped them, its window would end there. */
static void test_scoped_stop_then_destructor(void **state)
{
    Core *k = static_cast<Core *>(*state);
    llk_perf::PerfCounters later;
    {
        llk_perf::ScopedPerfCounters scoped;
        k->advance(100);
        Results r = scoped.stop();
        assert_int_equal(r[0].cycles, 100);
        later.start();
        k->advance(50);
    }
    k->advance(30);
    Results r = later.stop();
    assert_int_equal(r[0].cycles, 80);
    assert_int_equal(r[85].cycles, 80);
}

/* Without stop(), the destructor stops and writes the thread's L1 pairs. */
static void test_scoped_destructor_stops(void **state)
{
    Core *k = static_cast<Core *>(*state);
    {
        llk_perf::ScopedPerfCounters scoped;
        k->advance(777);
    }
    k->advance(100);
    assert_int_equal(k->word(PACK_DATA), 777);
    assert_int_equal(k->word(PACK_DATA + 8 * 85), 777);
    assert_int_equal(k->word(PERF_COUNTER_MATH_DATA_ADDR), 0);
    assert_int_equal(llk_perf::last_status(), SOCMON_OK);
}

/* Entries past the valid slots are zero (tt-llk's array is uninitialised
 * there). The array is built in storage filled with 0xA5 first (C++17 copy
 * elision puts stop()'s result there), so a tail left uninitialised shows. */
static void test_zeroed_tail(void **state)
{
    Core *k = static_cast<Core *>(*state);
    assert_true(k->configure(SOCMON_TENSIX_THREAD_PACK, 3));
    llk_perf::PerfCounters pc;
    pc.start();
    k->advance(5);
    alignas(Results) unsigned char buf[sizeof(Results)];
    std::memset(buf, 0xA5, sizeof buf);
    Results *r = new (buf) Results(pc.stop());
    for (size_t i = 0; i < 3; i++)
        assert_int_equal((*r)[i].cycles, 5);
    for (size_t i = 3; i < r->size(); i++) {
        assert_int_equal((*r)[i].cycles, 0);
        assert_int_equal((*r)[i].count, 0);
        assert_int_equal(static_cast<unsigned>((*r)[i].bank), 0);
        assert_int_equal((*r)[i].counter_id, 0);
    }
}

/* A binding where no core answers: the bus error comes back as perf_error. */
static void test_bad_binding(void **state)
{
    Core *k = static_cast<Core *>(*state);
    assert_int_equal(llk_perf::bind(k->bus, REGS, 0x40000000ull), SOCMON_OK);
    llk_perf::PerfCounters pc;
    try {
        pc.start();
        fail_msg("start() over an unmapped L1 did not fail");
    } catch (const llk_perf::perf_error &e) {
        assert_int_not_equal(e.status(), SOCMON_OK);
        assert_non_null(std::strstr(e.what(), "thread PACK"));
    }
    expect_error([&] { (void)pc.stop(); }, SOCMON_ESTATE, "not started");
}

/* The L1 mux moved while counting: stop() still returns every result, L1's
 * as zero (their L1 pairs all-ones, as the C API), and last_status() says so. */
static void test_undefined_l1(void **state)
{
    Core *k = static_cast<Core *>(*state);
    llk_perf::PerfCounters pc;
    pc.start();
    k->advance(10);
    llk_perf::detail::write_reg(RISCV_DEBUG_REG_PERF_CNT_MUX_CTRL, 0x10);
    Results r = pc.stop();
    assert_int_equal(llk_perf::last_status(), SOCMON_EUNDEF);
    assert_non_null(std::strstr(socmon_errmsg(), "slot 78"));
    for (size_t i = 0; i < r.size(); i++) {
        bool l1 = r[i].bank == llk_perf::CounterBank::L1;
        assert_int_equal(r[i].cycles, l1 ? 0u : 10u);
        assert_int_equal(k->word(PACK_DATA + 8 * i), l1 ? 0xFFFFFFFFu : 10u);
    }
}

/* tt-llk's detail::read_reg/write_reg reach the bound core: registers by
 * their device address, L1 by its offset; other addresses are errors. */
static void test_detail_registers(void **state)
{
    Core *k = static_cast<Core *>(*state);
    assert_int_equal(llk_perf::detail::read_reg(PERF_COUNTER_PACK_CONFIG_ADDR), k->word(PERF_COUNTER_PACK_CONFIG_ADDR));
    assert_int_equal(llk_perf::detail::read_reg(PERF_COUNTER_PACK_CONFIG_ADDR), 0x80000000u);
    llk_perf::PerfCounters pc;
    pc.start();
    k->advance(42);
    Results r = pc.stop();
    assert_int_equal(llk_perf::detail::read_reg(RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU), 42);
    assert_int_equal(llk_perf::detail::read_reg(PACK_DATA + 4), r[0].count);
    llk_perf::detail::write_reg(RISCV_DEBUG_REG_PERF_CNT_FPU0, 0x1234);
    assert_int_equal(k->word(REGS + 0x018), 0x1234);
    expect_error([] { (void)llk_perf::detail::read_reg(0x80000000u); }, SOCMON_ERANGE, "0x80000000");
}

/* tt-llk's address helpers: the bank's registers, 0 past the last bank. */
static_assert(llk_perf::get_counter_base_addr(llk_perf::CounterBank::TDMA_PACK) == RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK0);
static_assert(llk_perf::get_counter_output_low_addr(llk_perf::CounterBank::FPU) == RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU);
static_assert(llk_perf::get_counter_output_high_addr(llk_perf::CounterBank::L1) == RISCV_DEBUG_REG_PERF_CNT_OUT_H_DBG_L1);
static_assert(sizeof(llk_perf::CounterBank) == 1 && sizeof(llk_perf::CounterResult) == 16);
static_assert(llk_perf::COUNTER_SLOT_COUNT == SOCMON_TENSIX_CONFIG_WORDS && llk_perf::COUNTER_BANK_COUNT == 5);

static void test_address_helpers(void **)
{
    using llk_perf::CounterBank;
    const std::uint32_t base[5] = {0x000, 0x018, 0x00C, 0x030, 0x0F0};   /* bank-id order (spec §1) */
    const std::uint32_t out[5] = {0x100, 0x120, 0x108, 0x118, 0x110};
    for (unsigned b = 0; b < 5; b++) {
        CounterBank bank = static_cast<CounterBank>(b);
        assert_int_equal(llk_perf::get_counter_base_addr(bank), 0xFFB12000u + base[b]);
        assert_int_equal(llk_perf::get_counter_output_low_addr(bank), 0xFFB12000u + out[b]);
        assert_int_equal(llk_perf::get_counter_output_high_addr(bank), 0xFFB12000u + out[b] + 4);
    }
    volatile unsigned past = 7;
    assert_int_equal(llk_perf::get_counter_base_addr(static_cast<CounterBank>(past)), 0);
    assert_int_equal(llk_perf::get_counter_output_low_addr(static_cast<CounterBank>(past)), 0);
    assert_int_equal(llk_perf::get_counter_output_high_addr(static_cast<CounterBank>(past)), 0);
}

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_unbound_thread, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bind_null_bus, setup, teardown),
        cmocka_unit_test_setup_teardown(test_stop_before_start, setup, teardown),
        cmocka_unit_test_setup_teardown(test_double_stop, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scoped_stop_then_destructor, setup, teardown),
        cmocka_unit_test_setup_teardown(test_scoped_destructor_stops, setup, teardown),
        cmocka_unit_test_setup_teardown(test_zeroed_tail, setup, teardown),
        cmocka_unit_test_setup_teardown(test_bad_binding, setup, teardown),
        cmocka_unit_test_setup_teardown(test_undefined_l1, setup, teardown),
        cmocka_unit_test_setup_teardown(test_detail_registers, setup, teardown),
        cmocka_unit_test(test_address_helpers),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
