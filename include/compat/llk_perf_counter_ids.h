/* tt-llk's counter ids by name: llk_perf::counter_id::{instrn_thread, fpu,
 * tdma_unpack, l1, tdma_pack}::NAME, as tests/helpers/include/counters.h
 * defines them (identical in V1 9fa02aa .. V3; spec tensix_counters.md §8).
 * All 94 the guide lists; L1's mux-1 names share ids 0..7 with mux 0 (the
 * slot's l1_mux bit tells them apart). Included by counters.h; C++ only.
 * tests/tensix/cpp/test_cpp_counter_ids.cpp checks each against the C facts
 * table (socmon_tensix_event_at). */
#ifndef SOCMON_COMPAT_LLK_PERF_COUNTER_IDS_H
#define SOCMON_COMPAT_LLK_PERF_COUNTER_IDS_H
#ifdef __cplusplus

#include <cstdint>

namespace llk_perf
{
namespace counter_id
{
namespace instrn_thread
{
inline constexpr std::uint32_t CFG_INSTRN_AVAILABLE_0 = 0;
inline constexpr std::uint32_t CFG_INSTRN_AVAILABLE_1 = 1;
inline constexpr std::uint32_t CFG_INSTRN_AVAILABLE_2 = 2;
inline constexpr std::uint32_t SYNC_INSTRN_AVAILABLE_0 = 3;
inline constexpr std::uint32_t SYNC_INSTRN_AVAILABLE_1 = 4;
inline constexpr std::uint32_t SYNC_INSTRN_AVAILABLE_2 = 5;
inline constexpr std::uint32_t THCON_INSTRN_AVAILABLE_0 = 6;
inline constexpr std::uint32_t THCON_INSTRN_AVAILABLE_1 = 7;
inline constexpr std::uint32_t THCON_INSTRN_AVAILABLE_2 = 8;
inline constexpr std::uint32_t XSEARCH_INSTRN_AVAILABLE_0 = 9;
inline constexpr std::uint32_t XSEARCH_INSTRN_AVAILABLE_1 = 10;
inline constexpr std::uint32_t XSEARCH_INSTRN_AVAILABLE_2 = 11;
inline constexpr std::uint32_t MOVE_INSTRN_AVAILABLE_0 = 12;
inline constexpr std::uint32_t MOVE_INSTRN_AVAILABLE_1 = 13;
inline constexpr std::uint32_t MOVE_INSTRN_AVAILABLE_2 = 14;
inline constexpr std::uint32_t FPU_INSTRN_AVAILABLE_0 = 15;
inline constexpr std::uint32_t FPU_INSTRN_AVAILABLE_1 = 16;
inline constexpr std::uint32_t FPU_INSTRN_AVAILABLE_2 = 17;
inline constexpr std::uint32_t UNPACK_INSTRN_AVAILABLE_0 = 18;
inline constexpr std::uint32_t UNPACK_INSTRN_AVAILABLE_1 = 19;
inline constexpr std::uint32_t UNPACK_INSTRN_AVAILABLE_2 = 20;
inline constexpr std::uint32_t PACK_INSTRN_AVAILABLE_0 = 21;
inline constexpr std::uint32_t PACK_INSTRN_AVAILABLE_1 = 22;
inline constexpr std::uint32_t PACK_INSTRN_AVAILABLE_2 = 23;
inline constexpr std::uint32_t THREAD_STALLS_0 = 24;
inline constexpr std::uint32_t THREAD_STALLS_1 = 25;
inline constexpr std::uint32_t THREAD_STALLS_2 = 26;
inline constexpr std::uint32_t WAITING_FOR_SRCA_CLEAR = 27;
inline constexpr std::uint32_t WAITING_FOR_SRCB_CLEAR = 28;
inline constexpr std::uint32_t WAITING_FOR_SRCA_VALID = 29;
inline constexpr std::uint32_t WAITING_FOR_SRCB_VALID = 30;
inline constexpr std::uint32_t WAITING_FOR_THCON_IDLE_0 = 31;
inline constexpr std::uint32_t WAITING_FOR_THCON_IDLE_1 = 32;
inline constexpr std::uint32_t WAITING_FOR_THCON_IDLE_2 = 33;
inline constexpr std::uint32_t WAITING_FOR_UNPACK_IDLE_0 = 34;
inline constexpr std::uint32_t WAITING_FOR_UNPACK_IDLE_1 = 35;
inline constexpr std::uint32_t WAITING_FOR_UNPACK_IDLE_2 = 36;
inline constexpr std::uint32_t WAITING_FOR_PACK_IDLE_0 = 37;
inline constexpr std::uint32_t WAITING_FOR_PACK_IDLE_1 = 38;
inline constexpr std::uint32_t WAITING_FOR_PACK_IDLE_2 = 39;
inline constexpr std::uint32_t WAITING_FOR_MATH_IDLE_0 = 40;
inline constexpr std::uint32_t WAITING_FOR_MATH_IDLE_1 = 41;
inline constexpr std::uint32_t WAITING_FOR_MATH_IDLE_2 = 42;
inline constexpr std::uint32_t WAITING_FOR_NONZERO_SEM_0 = 43;
inline constexpr std::uint32_t WAITING_FOR_NONZERO_SEM_1 = 44;
inline constexpr std::uint32_t WAITING_FOR_NONZERO_SEM_2 = 45;
inline constexpr std::uint32_t WAITING_FOR_NONFULL_SEM_0 = 46;
inline constexpr std::uint32_t WAITING_FOR_NONFULL_SEM_1 = 47;
inline constexpr std::uint32_t WAITING_FOR_NONFULL_SEM_2 = 48;
inline constexpr std::uint32_t WAITING_FOR_MOVE_IDLE_0 = 49;
inline constexpr std::uint32_t WAITING_FOR_MOVE_IDLE_1 = 50;
inline constexpr std::uint32_t WAITING_FOR_MOVE_IDLE_2 = 51;
inline constexpr std::uint32_t WAITING_FOR_MMIO_IDLE_0 = 52;
inline constexpr std::uint32_t WAITING_FOR_MMIO_IDLE_1 = 53;
inline constexpr std::uint32_t WAITING_FOR_MMIO_IDLE_2 = 54;
inline constexpr std::uint32_t WAITING_FOR_SFPU_IDLE_0 = 55;
inline constexpr std::uint32_t WAITING_FOR_SFPU_IDLE_1 = 56;
inline constexpr std::uint32_t WAITING_FOR_SFPU_IDLE_2 = 57;
inline constexpr std::uint32_t THREAD_INSTRUCTIONS_0 = 256;
inline constexpr std::uint32_t THREAD_INSTRUCTIONS_1 = 257;
inline constexpr std::uint32_t THREAD_INSTRUCTIONS_2 = 258;
} // namespace instrn_thread
namespace fpu
{
inline constexpr std::uint32_t FPU_INSTRUCTION = 0;
inline constexpr std::uint32_t SFPU_INSTRUCTION = 1;
inline constexpr std::uint32_t FPU_OR_SFPU_INSTRN = 257;
} // namespace fpu
namespace tdma_unpack
{
inline constexpr std::uint32_t DATA_HAZARD_STALLS_MOVD2A = 1;
inline constexpr std::uint32_t MATH_INSTRN_STARTED = 3;
inline constexpr std::uint32_t MATH_INSTRN_AVAILABLE = 4;
inline constexpr std::uint32_t SRCB_WRITE_AVAILABLE = 5;
inline constexpr std::uint32_t SRCA_WRITE_AVAILABLE = 6;
inline constexpr std::uint32_t UNPACK0_BUSY_THREAD0 = 7;
inline constexpr std::uint32_t UNPACK1_BUSY_THREAD0 = 8;
inline constexpr std::uint32_t UNPACK0_BUSY_THREAD1 = 9;
inline constexpr std::uint32_t UNPACK1_BUSY_THREAD1 = 10;
inline constexpr std::uint32_t SRCB_WRITE = 259;
inline constexpr std::uint32_t SRCA_WRITE = 261;
} // namespace tdma_unpack
namespace l1
{
// l1_mux = 0
inline constexpr std::uint32_t NOC_RING0_INCOMING_1 = 0;
inline constexpr std::uint32_t NOC_RING0_INCOMING_0 = 1;
inline constexpr std::uint32_t NOC_RING0_OUTGOING_1 = 2;
inline constexpr std::uint32_t NOC_RING0_OUTGOING_0 = 3;
inline constexpr std::uint32_t L1_ARB_TDMA_BUNDLE_1 = 4;
inline constexpr std::uint32_t L1_ARB_TDMA_BUNDLE_0 = 5;
inline constexpr std::uint32_t L1_ARB_UNPACKER = 6;
inline constexpr std::uint32_t L1_NO_ARB_UNPACKER = 7;
// l1_mux = 1
inline constexpr std::uint32_t NOC_RING1_INCOMING_1 = 0;
inline constexpr std::uint32_t NOC_RING1_INCOMING_0 = 1;
inline constexpr std::uint32_t NOC_RING1_OUTGOING_1 = 2;
inline constexpr std::uint32_t NOC_RING1_OUTGOING_0 = 3;
inline constexpr std::uint32_t TDMA_BUNDLE_1_ARB = 4;
inline constexpr std::uint32_t TDMA_BUNDLE_0_ARB = 5;
inline constexpr std::uint32_t TDMA_EXT_UNPACK_9_10 = 6;
inline constexpr std::uint32_t TDMA_PACKER_2_WR = 7;
} // namespace l1
namespace tdma_pack
{
inline constexpr std::uint32_t PACKER_DEST_READ_AVAILABLE = 11;
inline constexpr std::uint32_t PACKER_BUSY = 18;
inline constexpr std::uint32_t AVAILABLE_MATH = 272;
} // namespace tdma_pack
} // namespace counter_id
} // namespace llk_perf

#endif /* __cplusplus */
#endif
