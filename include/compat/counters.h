/* tt-llk's C++ performance-counter API (tests/helpers/include/counters.h at
 * V1, 9fa02aa) over socmon, so kernel code written for tt-llk compiles
 * unchanged with g++ -std=c++17 and runs against socmon's Tensix model (or
 * the board, through an mmio bus):
 *
 *     #include "counters.h"
 *     void run_kernel() {
 *         llk_perf::ScopedPerfCounters scoped;   // start(); stop() at scope end
 *         ... kernel work ...
 *     }
 *
 * What tt-llk gives, under its names: CounterBank, CounterResult,
 * PerfCounters (start(), stop() returning std::array<CounterResult, 86>),
 * ScopedPerfCounters, the llk_perf::counter_id:: constants, the register
 * address macros and the L1 layout constants. The thread comes from
 * LLK_TRISC_UNPACK / LLK_TRISC_MATH / LLK_TRISC_PACK as on the device; with
 * none defined it is MATH, as V1 does (V2 also defaulted, V3 #errors).
 *
 * Where firmware writes fixed addresses, a host or simulator first binds the
 * calling thread to a core: llk_perf::bind(bus, regs_base, l1_base) (a
 * thread-local binding, read by start()). Everything below is inline over
 * the exported C API of llk_perf_counters.h (llk_perf_init/start/stop): one
 * implementation of the protocol, never a second.
 *
 * Differences from tt-llk (docs/tensix.md, "C++ (counters.h)"): stop() zeroes
 * the array past the valid slots (tt-llk leaves it uninitialised); misuse
 * (an unbound thread, stop() before start(), a bus error) throws
 * llk_perf::perf_error, or without exceptions (-fno-exceptions) leaves the
 * status in llk_perf::last_status() and returns zeroes, where tt-llk would
 * touch whatever the address holds; PerfCounters is not copyable (it owns a
 * driver handle); the classes live in an inline namespace named for the
 * thread, so three TRISC builds of one kernel link into one host program.
 *
 * The register macros and layout constants (llk_perf_regs.h) are plain
 * macros, usable from C too; the rest is C++ only. */
#ifndef SOCMON_COMPAT_COUNTERS_H
#define SOCMON_COMPAT_COUNTERS_H

#include "llk_perf_regs.h"

#ifdef __cplusplus

#include <array>
#include <cstdint>
#include <stdexcept>

#include "llk_perf_counter_ids.h"
#include "llk_perf_counters.h"
#include "socmon/bus.h"
#include "socmon/status.h"
#include "socmon/tensix.h"

/* The thread this translation unit is built for, chosen as V1 chooses it
 * (UNPACK first, MATH when none is defined). */
#if defined(LLK_TRISC_UNPACK)
#define SOCMON_LLK_TRISC 0
#define SOCMON_LLK_TRISC_NS trisc_unpack
#elif defined(LLK_TRISC_MATH)
#define SOCMON_LLK_TRISC 1
#define SOCMON_LLK_TRISC_NS trisc_math
#elif defined(LLK_TRISC_PACK)
#define SOCMON_LLK_TRISC 2
#define SOCMON_LLK_TRISC_NS trisc_pack
#else
#define SOCMON_LLK_TRISC 1
#define SOCMON_LLK_TRISC_NS trisc_math
#endif

namespace llk_perf
{

enum class CounterBank : std::uint8_t {
    INSTRN_THREAD = 0,
    FPU = 1,
    TDMA_UNPACK = 2,
    L1 = 3,
    TDMA_PACK = 4,
};

inline constexpr std::uint32_t COUNTER_BANK_COUNT = 5;
inline constexpr std::uint32_t COUNTER_SLOT_COUNT = 86;

/* A bank's control registers (*0), OUT_L and OUT_H; 0 for a bank id past the
 * end, as tt-llk returns. */
inline constexpr std::uint32_t get_counter_base_addr(CounterBank bank)
{
    switch (bank) {
    case CounterBank::INSTRN_THREAD: return RISCV_DEBUG_REG_PERF_CNT_INSTRN_THREAD0;
    case CounterBank::FPU: return RISCV_DEBUG_REG_PERF_CNT_FPU0;
    case CounterBank::TDMA_UNPACK: return RISCV_DEBUG_REG_PERF_CNT_TDMA_UNPACK0;
    case CounterBank::L1: return RISCV_DEBUG_REG_PERF_CNT_L1_0;
    case CounterBank::TDMA_PACK: return RISCV_DEBUG_REG_PERF_CNT_TDMA_PACK0;
    }
    return 0u;
}

inline constexpr std::uint32_t get_counter_output_low_addr(CounterBank bank)
{
    switch (bank) {
    case CounterBank::INSTRN_THREAD: return RISCV_DEBUG_REG_PERF_CNT_OUT_L_INSTRN_THREAD;
    case CounterBank::FPU: return RISCV_DEBUG_REG_PERF_CNT_OUT_L_FPU;
    case CounterBank::TDMA_UNPACK: return RISCV_DEBUG_REG_PERF_CNT_OUT_L_TDMA_UNPACK;
    case CounterBank::L1: return RISCV_DEBUG_REG_PERF_CNT_OUT_L_DBG_L1;
    case CounterBank::TDMA_PACK: return RISCV_DEBUG_REG_PERF_CNT_OUT_L_TDMA_PACK;
    }
    return 0u;
}

inline constexpr std::uint32_t get_counter_output_high_addr(CounterBank bank)
{
    /* every bank's OUT_H sits right after its OUT_L (spec §1) */
    const std::uint32_t low = get_counter_output_low_addr(bank);
    return low ? low + 4u : 0u;
}

struct CounterResult {
    std::uint32_t cycles;
    std::uint32_t count;
    CounterBank bank;
    std::uint32_t counter_id;
};

/* What a thread is bound to: the bus the core answers on, the bus address of
 * its debug registers (RISCV_DEBUG_REGS_START_ADDR on silicon) and of L1 byte 0. */
struct CoreBinding {
    socmon_bus *bus = nullptr;
    std::uint64_t regs_base = 0;
    std::uint64_t l1_base = 0;
};

/* Thrown on misuse and bus errors; what() is socmon's message. */
class perf_error : public std::runtime_error
{
public:
    perf_error(socmon_status st, const char *msg) : std::runtime_error(msg), st_(st) {}
    socmon_status status() const noexcept { return st_; }

private:
    socmon_status st_;
};

namespace detail
{
/* One per thread for the whole program: inline functions' statics are
 * merged across translation units. */
inline CoreBinding &binding() noexcept
{
    static thread_local CoreBinding b;
    return b;
}

inline socmon_status &status_slot() noexcept
{
    static thread_local socmon_status st = SOCMON_OK;
    return st;
}

/* Records st as the thread's last status; a failure throws when the build has
 * exceptions. Returns st. */
inline socmon_status settle(socmon_status st)
{
    status_slot() = st;
#if defined(__cpp_exceptions) || defined(__EXCEPTIONS)
    if (st != SOCMON_OK)
        throw perf_error(st, socmon_errmsg());
#endif
    return st;
}

inline const char *this_thread_name() noexcept
{
    return socmon_tensix_thread_name(SOCMON_LLK_TRISC);
}

/* Kernel code that pokes the registers or L1 itself (tt-llk's detail::
 * read_reg/write_reg): a device address becomes the bound core's bus
 * address, the debug-register window relative to regs_base, L1 to l1_base. */
inline socmon_status bus_addr(std::uint32_t addr, std::uint64_t *out)
{
    const CoreBinding &b = binding();
    if (!b.bus)
        return socmon_fail(SOCMON_ESTATE,
                           "llk_perf (thread %s): this thread is not bound to a core "
                           "(call llk_perf::bind(bus, regs_base, l1_base) on it first)",
                           this_thread_name());
    const std::uint32_t regs = RISCV_DEBUG_REGS_START_ADDR;
    if (addr >= regs && addr - regs < SOCMON_TENSIX_REGS_SIZE)
        *out = b.regs_base + (addr - regs);
    else if (addr < SOCMON_TENSIX_L1_SIZE)
        *out = b.l1_base + addr;
    else
        return socmon_fail(SOCMON_ERANGE,
                           "llk_perf: address 0x%08x is neither L1 (0..0x%x) nor the debug "
                           "registers (0x%08x..0x%08x)",
                           (unsigned)addr, SOCMON_TENSIX_L1_SIZE - 1u, (unsigned)regs,
                           (unsigned)(regs + SOCMON_TENSIX_REGS_SIZE - 1u));
    return SOCMON_OK;
}

inline void write_reg(std::uint32_t addr, std::uint32_t value)
{
    std::uint64_t a = 0;
    socmon_status st = bus_addr(addr, &a);
    settle(st == SOCMON_OK ? socmon_bus_write32(binding().bus, a, value) : st);
}

inline std::uint32_t read_reg(std::uint32_t addr)
{
    std::uint64_t a = 0;
    std::uint32_t v = 0;
    socmon_status st = bus_addr(addr, &a);
    settle(st == SOCMON_OK ? socmon_bus_read32(binding().bus, a, &v) : st);
    return v;
}
} // namespace detail

/* Binds the calling thread to a core; later start()s on this thread use it.
 * SOCMON_EINVAL (returned, never thrown) for a NULL bus. */
inline socmon_status bind(socmon_bus *bus, std::uint64_t regs_base, std::uint64_t l1_base) noexcept
{
    if (!bus)
        return detail::status_slot() = socmon_fail(SOCMON_EINVAL, "llk_perf::bind: bus is NULL");
    detail::binding() = CoreBinding{bus, regs_base, l1_base};
    return detail::status_slot() = SOCMON_OK;
}

inline void unbind() noexcept
{
    detail::binding() = CoreBinding{};
}

inline bool is_bound() noexcept
{
    return detail::binding().bus != nullptr;
}

/* The calling thread's last llk_perf status: SOCMON_EUNDEF after a stop()
 * whose L1 results were undefined (the L1 mux moved while counting; those
 * entries read 0 and their L1 pairs 0xFFFFFFFF), the failure itself in a
 * build without exceptions. The message is socmon_errmsg(). */
inline socmon_status last_status() noexcept
{
    return detail::status_slot();
}

inline namespace SOCMON_LLK_TRISC_NS
{

class ScopedPerfCounters;

class PerfCounters
{
public:
    PerfCounters() noexcept : pc_() {}
    ~PerfCounters() { llk_perf_release(&pc_); }
    PerfCounters(const PerfCounters &) = delete;
    PerfCounters &operator=(const PerfCounters &) = delete;

    /* Reads this thread's slots from L1 and starts each configured bank,
     * through the core this thread is bound to. */
    void start()
    {
        llk_perf_release(&pc_);
        pc_ = llk_perf_counters();
        const CoreBinding &b = detail::binding();
        socmon_status st;
        if (!b.bus)
            st = socmon_fail(SOCMON_ESTATE,
                             "llk_perf::PerfCounters::start (thread %s): this thread is not bound "
                             "to a core (call llk_perf::bind(bus, regs_base, l1_base) on it first)",
                             detail::this_thread_name());
        else if ((st = llk_perf_init(&pc_, b.bus, b.regs_base, b.l1_base, SOCMON_LLK_TRISC)) ==
                 SOCMON_OK)
            st = llk_perf_start(&pc_);
        detail::settle(st);
    }

    /* Stops the banks, reads every valid slot into entries [0, n) in slot
     * order, writes the pairs to this thread's L1 data area. Entries [n, 86)
     * are zero. Stopping again reads the frozen banks again, as on the device. */
    std::array<CounterResult, COUNTER_SLOT_COUNT> stop()
    {
        std::array<CounterResult, COUNTER_SLOT_COUNT> out{};
        socmon_status st = collect(out);
        detail::settle(st == SOCMON_EUNDEF ? SOCMON_OK : st);
        detail::status_slot() = st;
        return out;
    }

private:
    friend class ScopedPerfCounters;

    socmon_status collect(std::array<CounterResult, COUNTER_SLOT_COUNT> &out) noexcept
    {
        if (!pc_.started)
            return socmon_fail(SOCMON_ESTATE,
                               "llk_perf::PerfCounters::stop (thread %s): counters were not started "
                               "(call start() first)",
                               detail::this_thread_name());
        const llk_perf_counter_result *r = nullptr;
        size_t n = 0;
        socmon_status st = llk_perf_stop(&pc_, &r, &n);
        if (st != SOCMON_OK && st != SOCMON_EUNDEF)
            return st;
        for (size_t k = 0; k < n && k < COUNTER_SLOT_COUNT; k++)
            out[k] = CounterResult{r[k].cycles, r[k].count, static_cast<CounterBank>(r[k].bank),
                                   r[k].counter_id};
        return st;
    }

    llk_perf_counters pc_;
};

/* Starts at construction; the destructor stops unless stop() was called.
 * A failure in the destructor cannot throw: it lands in last_status(). */
class ScopedPerfCounters
{
public:
    ScopedPerfCounters() { counters_.start(); }
    ~ScopedPerfCounters()
    {
        if (!stopped_ && counters_.pc_.started) {
            std::array<CounterResult, COUNTER_SLOT_COUNT> discard{};
            detail::status_slot() = counters_.collect(discard);
        }
    }

    std::array<CounterResult, COUNTER_SLOT_COUNT> stop()
    {
        stopped_ = true;
        return counters_.stop();
    }

    ScopedPerfCounters(const ScopedPerfCounters &) = delete;
    ScopedPerfCounters &operator=(const ScopedPerfCounters &) = delete;
    ScopedPerfCounters(ScopedPerfCounters &&) = delete;
    ScopedPerfCounters &operator=(ScopedPerfCounters &&) = delete;

private:
    PerfCounters counters_;
    bool stopped_ = false;
};

} // namespace SOCMON_LLK_TRISC_NS
} // namespace llk_perf

#endif /* __cplusplus */
#endif
