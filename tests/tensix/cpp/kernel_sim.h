/* What the test kernel (kernel.cpp) calls in its host "simulator": the
 * stand-ins for the LLK calls a real kernel makes between start and stop.
 * The harness (test_cpp_kernel.cpp) defines them; on the model, doing the
 * kernel's work means letting the core model run its kernel. */
#ifndef SOCMON_TESTS_TENSIX_CPP_KERNEL_SIM_H
#define SOCMON_TESTS_TENSIX_CPP_KERNEL_SIM_H

#include <array>

#include "counters.h"

/* The calling TRISC's share of the kernel's work. */
void sim_work();
/* Hands the results of an explicit stop() to the harness. */
void sim_report(const std::array<llk_perf::CounterResult, llk_perf::COUNTER_SLOT_COUNT> &results);

#endif
