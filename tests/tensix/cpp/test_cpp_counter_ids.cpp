/* Every llk_perf::counter_id:: constant of counters.h equals the id the C
 * facts table (socmon_tensix_event_at, from src/hw/tensix_bank.h) gives the
 * counter of that bank, L1 mux and name; the table and this list hold the same
 * 94 counters. The ids are tt-llk's (tests/helpers/include/counters.h at
 * 9fa02aa, lines 147-271; spec tensix_counters.md §8): a reference check ran
 * tt-llk's header through a name/value extractor and compared it line by line
 * with llk_perf_counter_ids.h (docs/tensix.md, "C++ (counters.h)"). */
#include "cpp_fixture.h"

#include <set>
#include <string>

#include "counters.h"

struct Constant {
    const char *ns;       /* the counter_id sub-namespace */
    unsigned bank;
    unsigned l1_mux;
    const char *name;
    std::uint32_t value;  /* the C++ constant */
};

/* One line per constant, written out so a constant missing from the header
 * fails to compile and one the header adds is not silently skipped. */
#define C(ns, bank, mux, name) {#ns, SOCMON_TENSIX_BANK_##bank, mux, #name, llk_perf::counter_id::ns::name}
static const Constant constants[] = {
    C(instrn_thread, INSTRN_THREAD, 0, CFG_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, CFG_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, CFG_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, SYNC_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, SYNC_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, SYNC_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, THCON_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, THCON_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, THCON_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, XSEARCH_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, XSEARCH_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, XSEARCH_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, MOVE_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, MOVE_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, MOVE_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, FPU_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, FPU_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, FPU_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, UNPACK_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, UNPACK_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, UNPACK_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, PACK_INSTRN_AVAILABLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, PACK_INSTRN_AVAILABLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, PACK_INSTRN_AVAILABLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_STALLS_0),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_STALLS_1),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_STALLS_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SRCA_CLEAR),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SRCB_CLEAR),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SRCA_VALID),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SRCB_VALID),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_THCON_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_THCON_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_THCON_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_UNPACK_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_UNPACK_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_UNPACK_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_PACK_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_PACK_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_PACK_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MATH_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MATH_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MATH_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONZERO_SEM_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONZERO_SEM_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONZERO_SEM_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONFULL_SEM_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONFULL_SEM_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_NONFULL_SEM_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MOVE_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MOVE_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MOVE_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MMIO_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MMIO_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_MMIO_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SFPU_IDLE_0),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SFPU_IDLE_1),
    C(instrn_thread, INSTRN_THREAD, 0, WAITING_FOR_SFPU_IDLE_2),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_INSTRUCTIONS_0),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_INSTRUCTIONS_1),
    C(instrn_thread, INSTRN_THREAD, 0, THREAD_INSTRUCTIONS_2),
    C(fpu, FPU, 0, FPU_INSTRUCTION),
    C(fpu, FPU, 0, SFPU_INSTRUCTION),
    C(fpu, FPU, 0, FPU_OR_SFPU_INSTRN),
    C(tdma_unpack, TDMA_UNPACK, 0, DATA_HAZARD_STALLS_MOVD2A),
    C(tdma_unpack, TDMA_UNPACK, 0, MATH_INSTRN_STARTED),
    C(tdma_unpack, TDMA_UNPACK, 0, MATH_INSTRN_AVAILABLE),
    C(tdma_unpack, TDMA_UNPACK, 0, SRCB_WRITE_AVAILABLE),
    C(tdma_unpack, TDMA_UNPACK, 0, SRCA_WRITE_AVAILABLE),
    C(tdma_unpack, TDMA_UNPACK, 0, UNPACK0_BUSY_THREAD0),
    C(tdma_unpack, TDMA_UNPACK, 0, UNPACK1_BUSY_THREAD0),
    C(tdma_unpack, TDMA_UNPACK, 0, UNPACK0_BUSY_THREAD1),
    C(tdma_unpack, TDMA_UNPACK, 0, UNPACK1_BUSY_THREAD1),
    C(tdma_unpack, TDMA_UNPACK, 0, SRCB_WRITE),
    C(tdma_unpack, TDMA_UNPACK, 0, SRCA_WRITE),
    C(tdma_pack, TDMA_PACK, 0, PACKER_DEST_READ_AVAILABLE),
    C(tdma_pack, TDMA_PACK, 0, PACKER_BUSY),
    C(tdma_pack, TDMA_PACK, 0, AVAILABLE_MATH),
    C(l1, L1, 0, NOC_RING0_INCOMING_1),
    C(l1, L1, 0, NOC_RING0_INCOMING_0),
    C(l1, L1, 0, NOC_RING0_OUTGOING_1),
    C(l1, L1, 0, NOC_RING0_OUTGOING_0),
    C(l1, L1, 0, L1_ARB_TDMA_BUNDLE_1),
    C(l1, L1, 0, L1_ARB_TDMA_BUNDLE_0),
    C(l1, L1, 0, L1_ARB_UNPACKER),
    C(l1, L1, 0, L1_NO_ARB_UNPACKER),
    C(l1, L1, 1, NOC_RING1_INCOMING_1),
    C(l1, L1, 1, NOC_RING1_INCOMING_0),
    C(l1, L1, 1, NOC_RING1_OUTGOING_1),
    C(l1, L1, 1, NOC_RING1_OUTGOING_0),
    C(l1, L1, 1, TDMA_BUNDLE_1_ARB),
    C(l1, L1, 1, TDMA_BUNDLE_0_ARB),
    C(l1, L1, 1, TDMA_EXT_UNPACK_9_10),
    C(l1, L1, 1, TDMA_PACKER_2_WR),
};
#undef C

static void test_every_table_entry_has_its_constant(void **)
{
    const size_t n = sizeof constants / sizeof constants[0];
    assert_int_equal(socmon_tensix_nevents(), 94);
    assert_int_equal(n, 94);
    std::set<std::string> seen;
    for (size_t i = 0; i < socmon_tensix_nevents(); i++) {
        const socmon_tensix_event *e = socmon_tensix_event_at(i);
        const Constant *hit = nullptr;
        for (const Constant &c : constants)
            if (c.bank == e->bank && c.l1_mux == e->l1_mux && std::strcmp(c.name, e->name) == 0)
                hit = &c;
        if (!hit)
            fail_msg("no llk_perf::counter_id constant for %s (bank %u, mux %u)", e->name, e->bank, e->l1_mux);
        if (hit->value != e->counter_id)
            fail_msg("llk_perf::counter_id::%s::%s = %u, the facts table says %u", hit->ns, hit->name,
                     hit->value, e->counter_id);
        seen.insert(std::string(hit->ns) + "::" + hit->name);
    }
    assert_int_equal(seen.size(), n);   /* distinct: each table entry matched its own constant */
}

/* Spot checks against tt-llk's header text itself (9fa02aa counters.h line in
 * brackets), so a change to both the table and the header is still caught. */
static void test_known_values(void **)
{
    namespace id = llk_perf::counter_id;
    assert_int_equal(id::instrn_thread::CFG_INSTRN_AVAILABLE_0, 0);        /* [153] */
    assert_int_equal(id::instrn_thread::THREAD_STALLS_2, 26);              /* [180] */
    assert_int_equal(id::instrn_thread::WAITING_FOR_SFPU_IDLE_2, 57);      /* [213] */
    assert_int_equal(id::instrn_thread::THREAD_INSTRUCTIONS_2, 258);       /* [217] */
    assert_int_equal(id::fpu::FPU_OR_SFPU_INSTRN, 257);                    /* [224] */
    assert_int_equal(id::tdma_unpack::SRCA_WRITE, 261);                    /* [239] */
    assert_int_equal(id::l1::L1_NO_ARB_UNPACKER, 7);                       /* [252] */
    assert_int_equal(id::l1::TDMA_PACKER_2_WR, 7);                         /* [262] */
    assert_int_equal(id::tdma_pack::AVAILABLE_MATH, 272);                  /* [269] */
}

int main()
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_every_table_entry_has_its_constant),
        cmocka_unit_test(test_known_values),
    };
    return cmocka_run_group_tests(tests, nullptr, nullptr);
}
