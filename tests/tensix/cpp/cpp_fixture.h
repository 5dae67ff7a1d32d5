/* What the C++ counters.h tests share: cmocka from C++ (its header has no
 * extern "C" of its own), and a Tensix core model on a model bus with the
 * guide's slots loaded for chosen threads, as configure_counters leaves L1.
 * The core is an opened "tensix" target's (public API only), its L1 areas
 * emptied of the target's own slots so only what a test configures is there. */
#ifndef SOCMON_TESTS_TENSIX_CPP_FIXTURE_H
#define SOCMON_TESTS_TENSIX_CPP_FIXTURE_H

#include <csetjmp>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
extern "C" {
#include <cmocka.h>
}
#include <vector>

#include "socmon/bus.h"
#include "socmon/target.h"
#include "socmon/tensix.h"

#define REGS SOCMON_TENSIX_REGS_BASE

/* One core: model, bus, and a driver handle for configuring L1. */
struct Core {
    socmon_target *t = nullptr;
    socmon_tensix_core *c = nullptr;
    socmon_bus *bus = nullptr;
    socmon_tensix_drv *d = nullptr;
    bool ok = false;

    explicit Core(std::uint64_t tiles = 8)
    {
        char spec[64];
        std::snprintf(spec, sizeof spec, "tensix:tiles=%llu", (unsigned long long)tiles);
        ok = socmon_target_open(spec, &t) == SOCMON_OK && (c = socmon_tensix_core_of_target(t)) &&
             (bus = socmon_target_bus(t)) && socmon_tensix_drv_new(bus, REGS, 0, &d) == SOCMON_OK;
        for (unsigned th = 0; ok && th < SOCMON_TENSIX_NTHREADS; th++)
            ok = socmon_tensix_drv_store_config(d, th, nullptr, 0) == SOCMON_OK;
        ok = ok && socmon_tensix_core_kernel_start(c) == SOCMON_OK;
    }
    ~Core()
    {
        socmon_tensix_drv_free(d);
        socmon_target_close(t);
    }
    Core(const Core &) = delete;
    Core &operator=(const Core &) = delete;

    /* The guide's 86 default slots (or the first n of them) on a thread. */
    bool configure(unsigned thread, size_t n = SOCMON_TENSIX_CONFIG_WORDS)
    {
        std::uint32_t w[SOCMON_TENSIX_CONFIG_WORDS];
        size_t all = socmon_tensix_default_slots(w, SOCMON_TENSIX_CONFIG_WORDS);
        return socmon_tensix_drv_store_config(d, thread, w, n < all ? n : all) == SOCMON_OK;
    }
    bool configure(unsigned thread, const std::vector<std::uint32_t> &words)
    {
        return socmon_tensix_drv_store_config(d, thread, words.data(), words.size()) == SOCMON_OK;
    }

    /* Runs the kernel to its last cycle: the length the kernel model's stage
     * costs give (socmon_tensix_kernel_costs().total); the core says done there. */
    bool run_to_end()
    {
        socmon_tensix_stage_costs costs;
        int done = 0;
        return socmon_tensix_kernel_costs(socmon_tensix_core_params(c), &costs) == SOCMON_OK &&
               costs.total > socmon_tensix_core_now(c) &&
               socmon_tensix_core_advance(c, costs.total - socmon_tensix_core_now(c), &done) == SOCMON_OK &&
               done;
    }

    void advance(std::uint64_t cycles) { socmon_tensix_core_advance(c, cycles, nullptr); }

    std::uint32_t word(std::uint64_t addr)
    {
        std::uint32_t v = 0xDEADBEEF;
        socmon_bus_read32(bus, addr, &v);
        return v;
    }

    std::vector<std::uint32_t> data_area(unsigned thread)
    {
        std::vector<std::uint32_t> v;
        for (unsigned k = 0; k < SOCMON_TENSIX_DATA_WORDS; k++)
            v.push_back(word(socmon_tensix_data_addr(thread) + 4 * k));
        return v;
    }
};

#endif
