/* counters.h built with -fno-exceptions, as device firmware is built: misuse
 * cannot throw, so it leaves its status in llk_perf::last_status() (message in
 * socmon_errmsg()) and stop() returns zeroes. Kernel code that never looks
 * keeps running; a simulator that does learns what went wrong. */
#define LLK_TRISC_UNPACK 1
#include "cpp_fixture.h"

#include "counters.h"

#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
#error "this test must be built with -fno-exceptions"
#endif

static void test_unbound(void **)
{
    llk_perf::unbind();
    llk_perf::PerfCounters pc;
    pc.start();
    assert_int_equal(llk_perf::last_status(), SOCMON_ESTATE);
    assert_non_null(std::strstr(socmon_errmsg(), "thread UNPACK"));
    auto r = pc.stop();
    assert_int_equal(llk_perf::last_status(), SOCMON_ESTATE);
    assert_non_null(std::strstr(socmon_errmsg(), "not started"));
    for (const auto &e : r)
        assert_int_equal(e.cycles | e.count | e.counter_id, 0);
    {
        llk_perf::ScopedPerfCounters scoped;   /* start fails; the destructor must not stop */
        assert_int_equal(llk_perf::last_status(), SOCMON_ESTATE);
    }
    assert_int_equal(llk_perf::detail::read_reg(RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU), 0);
    assert_int_equal(llk_perf::last_status(), SOCMON_ESTATE);
}

static void test_bound(void **)
{
    Core k;
    assert_true(k.ok && k.configure(SOCMON_TENSIX_THREAD_UNPACK));
    assert_int_equal(llk_perf::bind(k.bus, REGS, 0), SOCMON_OK);
    {
        llk_perf::ScopedPerfCounters scoped;
        assert_int_equal(llk_perf::last_status(), SOCMON_OK);
        k.advance(64);
    }
    assert_int_equal(llk_perf::last_status(), SOCMON_OK);
    assert_int_equal(k.word(PERF_COUNTER_UNPACK_DATA_ADDR), 64);
    llk_perf::unbind();
}

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_unbound),
        cmocka_unit_test(test_bound),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
