/* A test kernel written the way tt-llk's kernels are (tests/sources/
 * matmul_test.cpp with the TEMP counters commit be56e6fbc): it includes
 * "counters.h", declares llk_perf::ScopedPerfCounters with no arguments
 * around its work, or uses PerfCounters start()/stop(). Nothing here names a
 * core, a bus or a thread: the thread comes from -DLLK_TRISC_UNPACK/MATH/PACK
 * (or none: MATH, as tt-llk V1) and the core from the binding the host made.
 *
 * CMake compiles this file once per TRISC (and once with no define) and
 * renames run_kernel / run_kernel_explicit per build (-Drun_kernel=...), as a
 * simulator that links the three TRISC images into one host program must. */
#include "counters.h"
#include "kernel_sim.h"

void run_kernel();
void run_kernel_explicit();

void run_kernel()
{
    llk_perf::ScopedPerfCounters scoped;
    sim_work();
}

void run_kernel_explicit()
{
    llk_perf::PerfCounters counters;
    counters.start();
    sim_work();
    std::array<llk_perf::CounterResult, llk_perf::COUNTER_SLOT_COUNT> results = counters.stop();
    sim_report(results);
}
