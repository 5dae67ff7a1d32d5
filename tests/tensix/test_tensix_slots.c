/* Tensix counter slots: encoding round trips, the guide's default
 * configuration, the event table, and per-slot errors for bad words. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "hw/tensix_bank.h"
#include "socmon/tensix.h"

static void test_encode_decode_round_trip(void **state)
{
    (void)state;
    for (unsigned bank = 0; bank < 5; bank++)
        for (unsigned id = 0; id < 512; id += 7)
            for (unsigned mux = 0; mux < 2; mux++) {
                uint32_t w = socmon_tensix_slot_encode(bank, id, mux);
                socmon_tensix_slot s;
                socmon_tensix_slot_decode(w, &s);
                assert_true(s.valid);
                assert_int_equal(s.bank, bank);
                assert_int_equal(s.counter_id, id);
                assert_int_equal(s.l1_mux, mux);
                assert_int_equal(w & R_TENSIX_SLOT_RESERVED_MASK, 0);
            }
    /* Every documented event round-trips through a word and validates. */
    for (size_t i = 0; i < socmon_tensix_nevents(); i++) {
        const socmon_tensix_event *e = socmon_tensix_event_at(i);
        uint32_t w = socmon_tensix_slot_encode(e->bank, e->counter_id, e->l1_mux);
        socmon_tensix_slot s;
        assert_int_equal(socmon_tensix_slot_check((unsigned)i, w, &s), SOCMON_OK);
        assert_ptr_equal(socmon_tensix_event_find(s.bank, s.counter_id, s.l1_mux), e);
    }
}

/* Field positions from the guide: bit 31 valid, 17 mux, 16:8 id, 7:0 bank. */
static void test_known_words(void **state)
{
    (void)state;
    assert_int_equal(socmon_tensix_slot_encode(0, 0, 0), 0x80000000u);
    assert_int_equal(socmon_tensix_slot_encode(0, 256, 0), 0x80010000u);
    assert_int_equal(socmon_tensix_slot_encode(1, 257, 0), 0x80010101u);
    assert_int_equal(socmon_tensix_slot_encode(4, 272, 0), 0x80011004u);
    assert_int_equal(socmon_tensix_slot_encode(3, 0, 0), 0x80000003u);
    assert_int_equal(socmon_tensix_slot_encode(3, 7, 1), 0x80020703u);
    socmon_tensix_slot s;
    socmon_tensix_slot_decode(0x00020703u, &s);
    assert_false(s.valid);
}

static void test_default_slots(void **state)
{
    (void)state;
    uint32_t w[100];
    size_t n = socmon_tensix_default_slots(w, 100);
    assert_int_equal(n, 86);
    assert_int_equal(w[0], 0x80000000u);
    assert_int_equal(w[58], 0x80010000u);    /* INSTRN 256 */
    assert_int_equal(w[63], 0x80010101u);    /* FPU 257 */
    assert_int_equal(w[77], 0x80011004u);    /* PACK 272 */
    assert_int_equal(w[78], 0x80000003u);    /* L1 0, mux 0 */
    size_t nvalid = 0;
    assert_int_equal(socmon_tensix_slots_check(w, n, NULL, &nvalid), SOCMON_OK);
    assert_int_equal(nvalid, 86);
    assert_int_equal(socmon_tensix_default_slots(w, 10), 10);
}

static void test_event_table(void **state)
{
    (void)state;
    unsigned per_bank[5] = {0};
    assert_int_equal(socmon_tensix_nevents(), 94);
    for (size_t i = 0; i < socmon_tensix_nevents(); i++)
        per_bank[socmon_tensix_event_at(i)->bank]++;
    assert_int_equal(per_bank[SOCMON_TENSIX_BANK_INSTRN_THREAD], 61);
    assert_int_equal(per_bank[SOCMON_TENSIX_BANK_FPU], 3);
    assert_int_equal(per_bank[SOCMON_TENSIX_BANK_TDMA_UNPACK], 11);
    assert_int_equal(per_bank[SOCMON_TENSIX_BANK_L1], 16);
    assert_int_equal(per_bank[SOCMON_TENSIX_BANK_TDMA_PACK], 3);
    const socmon_tensix_event *e = socmon_tensix_event_by_name("WAITING_FOR_SFPU_IDLE_2");
    assert_non_null(e);
    assert_int_equal(e->counter_id, 57);
    e = socmon_tensix_event_by_name("TDMA_PACKER_2_WR");
    assert_int_equal(e->counter_id, 7);
    assert_int_equal(e->l1_mux, 1);
    assert_string_equal(socmon_tensix_event_find(2, 261, 0)->name, "SRCA_WRITE");
    assert_null(socmon_tensix_event_find(2, 0, 0));
    assert_null(socmon_tensix_event_by_name("NOPE"));
    unsigned b;
    assert_int_equal(socmon_tensix_bank_by_name("tdma_pack", &b), SOCMON_OK);
    assert_int_equal(b, 4);
    assert_int_equal(socmon_tensix_bank_by_name("dram", &b), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "'dram'"));
}

static void expect_bad(uint32_t word, unsigned slot, socmon_status want, const char *needle)
{
    socmon_clear_error();
    assert_int_equal(socmon_tensix_slot_check(slot, word, NULL), want);
    char slotname[32];
    snprintf(slotname, sizeof slotname, "slot %u", slot);
    assert_non_null(strstr(socmon_errmsg(), slotname));
    if (!strstr(socmon_errmsg(), needle))
        fail_msg("message '%s' lacks '%s'", socmon_errmsg(), needle);
}

/* Bad config words: a clear error naming the slot and the bad field. */
static void test_bad_words(void **state)
{
    (void)state;
    expect_bad(0x80000005u, 3, SOCMON_ERANGE, "bank 5 out of range 0..4");
    expect_bad(0x800000FFu, 85, SOCMON_ERANGE, "bank 255");
    expect_bad(0x80040000u, 1, SOCMON_EINVAL, "reserved bits");
    expect_bad(0xC0000001u, 2, SOCMON_EINVAL, "reserved bits");
    expect_bad(socmon_tensix_slot_encode(4, 18, 1), 7, SOCMON_EINVAL, "l1_mux");
    /* Ids the guide does not list are legal 9-bit selects, as in tt-llk (issue 13; counters.py
     * at 9fa02aa decodes (w >> 8) & 0x1FF and names the rest {BANK}_UNKNOWN_{id}). */
    static const unsigned unknown[][3] = {{1, 2, 0}, {0, 58, 0}, {3, 8, 0}, {3, 511, 1}, {2, 0, 0}, {4, 300, 0}};
    for (size_t i = 0; i < sizeof unknown / sizeof unknown[0]; i++) {
        socmon_tensix_slot s;
        uint32_t w = socmon_tensix_slot_encode(unknown[i][0], unknown[i][1], unknown[i][2]);
        assert_int_equal(socmon_tensix_slot_check(4, w, &s), SOCMON_OK);
        assert_int_equal(s.counter_id, unknown[i][1]);
        assert_null(socmon_tensix_event_find(s.bank, s.counter_id, s.l1_mux));
    }
    /* Invalid words are skipped whatever else they hold. */
    assert_int_equal(socmon_tensix_slot_check(0, 0x7FFFFFFFu, NULL), SOCMON_OK);
}

/* A whole configuration: the first bad slot is named; L1 slots must agree on the mux. */
static void test_slots_check(void **state)
{
    (void)state;
    uint32_t w[86];
    size_t n = socmon_tensix_default_slots(w, 86);
    w[40] = 0x80000009u;
    assert_int_equal(socmon_tensix_slots_check(w, n, NULL, NULL), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "slot 40"));
    n = socmon_tensix_default_slots(w, 86);
    w[85] = socmon_tensix_slot_encode(3, 2, 1);
    assert_int_equal(socmon_tensix_slots_check(w, n, NULL, NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "slot 85"));
    assert_non_null(strstr(socmon_errmsg(), "slot 78"));
    assert_int_equal(socmon_tensix_slots_check(w, 87, NULL, NULL), SOCMON_ERANGE);
    w[85] = 0;
    size_t nv;
    assert_int_equal(socmon_tensix_slots_check(w, 86, NULL, &nv), SOCMON_OK);
    assert_int_equal(nv, 85);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_encode_decode_round_trip),
        cmocka_unit_test(test_known_words),
        cmocka_unit_test(test_default_slots),
        cmocka_unit_test(test_event_table),
        cmocka_unit_test(test_bad_words),
        cmocka_unit_test(test_slots_check),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
