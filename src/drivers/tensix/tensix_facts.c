/* The public Tensix counter facts (include/socmon/tensix.h) over the
 * register-level facts of src/hw/tensix_bank.h: names (tt-llk's, unknown ids
 * included), the event table, slot words and their validation, the L1 layout. Validation lives here, on the
 * driver side, because it is the driver's and the APIs' contract; the model
 * accepts any word, as silicon would. */
#include <stdio.h>
#include <strings.h>

#include "hw/tensix_bank.h"
#include "socmon/tensix.h"

/* The public constants restate hardware facts; they must agree. */
_Static_assert(SOCMON_TENSIX_REGS_BASE == TENSIX_REGS_BASE, "regs base");
_Static_assert(SOCMON_TENSIX_REGS_SIZE == TENSIX_REGS_SIZE, "regs size");
_Static_assert(SOCMON_TENSIX_L1_SIZE == TENSIX_L1_SIZE, "L1 size");
#define SAME(a, b) ((int)(a) == (int)(b))
_Static_assert(SAME(SOCMON_TENSIX_BANK_INSTRN_THREAD, TENSIX_BANK_INSTRN_THREAD) &&
                   SAME(SOCMON_TENSIX_BANK_FPU, TENSIX_BANK_FPU) &&
                   SAME(SOCMON_TENSIX_BANK_TDMA_UNPACK, TENSIX_BANK_TDMA_UNPACK) &&
                   SAME(SOCMON_TENSIX_BANK_L1, TENSIX_BANK_L1) &&
                   SAME(SOCMON_TENSIX_BANK_TDMA_PACK, TENSIX_BANK_TDMA_PACK) &&
                   SAME(SOCMON_TENSIX_NBANKS, TENSIX_NBANKS),
               "bank ids");
_Static_assert(SAME(SOCMON_TENSIX_THREAD_UNPACK, TENSIX_THREAD_UNPACK) &&
                   SAME(SOCMON_TENSIX_THREAD_MATH, TENSIX_THREAD_MATH) &&
                   SAME(SOCMON_TENSIX_THREAD_PACK, TENSIX_THREAD_PACK) &&
                   SAME(SOCMON_TENSIX_NTHREADS, TENSIX_NTHREADS),
               "threads");
_Static_assert(SOCMON_TENSIX_CONFIG_WORDS == TENSIX_CONFIG_WORDS &&
                   SOCMON_TENSIX_DATA_WORDS == TENSIX_DATA_WORDS,
               "L1 layout");
_Static_assert(SOCMON_TENSIX_UNDEF_WORD == TENSIX_UNDEF_WORD, "undefined pair");

const char *socmon_tensix_bank_name(unsigned bank)
{
    return bank < TENSIX_NBANKS ? TENSIX_BANKS[bank].name : "?";
}

const char *socmon_tensix_bank_instance(unsigned bank)
{
    return bank < TENSIX_NBANKS ? TENSIX_BANKS[bank].lname : "?";
}

socmon_status socmon_tensix_bank_by_name(const char *name, unsigned *bank)
{
    for (unsigned b = 0; name && b < TENSIX_NBANKS; b++) {
        if (strcasecmp(name, TENSIX_BANKS[b].name) == 0) {
            *bank = b;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_ENOENT,
                       "tensix bank '%s' unknown (valid: INSTRN_THREAD, FPU, TDMA_UNPACK, L1, TDMA_PACK)",
                       name ? name : "(null)");
}

const char *socmon_tensix_thread_name(unsigned thread)
{
    static const char *const names[] = {"UNPACK", "MATH", "PACK"};
    return thread < TENSIX_NTHREADS ? names[thread] : "?";
}

uint32_t socmon_tensix_config_addr(unsigned thread)
{
    return tensix_config_addr(thread);
}

uint32_t socmon_tensix_data_addr(unsigned thread)
{
    return tensix_data_addr(thread);
}

/* ---- events: the public form of TENSIX_EVENTS, index for index ---- */

#define PUBLIC_EVENT(bank, id, mux, name, desc) {TENSIX_BANK_##bank, id, mux, #name, desc},
static const socmon_tensix_event events[] = {TENSIX_EVENTS(PUBLIC_EVENT)};
#define NEVENTS (sizeof events / sizeof events[0])
_Static_assert(NEVENTS == TENSIX_NEVENTS, "one public event per hardware event");

size_t socmon_tensix_nevents(void)
{
    return NEVENTS;
}

const socmon_tensix_event *socmon_tensix_event_at(size_t i)
{
    return i < NEVENTS ? &events[i] : NULL;
}

const socmon_tensix_event *socmon_tensix_event_find(unsigned bank, unsigned counter_id,
                                                    unsigned l1_mux)
{
    int i = tensix_event_index(bank, counter_id, l1_mux);
    return i < 0 ? NULL : &events[i];
}

const socmon_tensix_event *socmon_tensix_event_by_name(const char *name)
{
    int i = tensix_event_index_by_name(name);
    return i < 0 ? NULL : &events[i];
}

size_t socmon_tensix_bank_name_tt(unsigned bank, char *buf, size_t cap)
{
    int n = bank < TENSIX_NBANKS ? snprintf(buf, cap, "%s", TENSIX_BANKS[bank].name)
                                 : snprintf(buf, cap, "UNKNOWN_%u", bank);
    return n < 0 ? 0 : (size_t)n;
}

size_t socmon_tensix_counter_name(unsigned bank, unsigned counter_id, unsigned l1_mux, char *buf,
                                  size_t cap)
{
    int i = tensix_event_index(bank, counter_id, l1_mux);
    int n;
    if (i >= 0)
        n = snprintf(buf, cap, "%s", events[i].name);
    else if (bank == TENSIX_BANK_L1)
        n = snprintf(buf, cap, "L1_UNKNOWN_%u_%u", counter_id, l1_mux);
    else if (bank < TENSIX_NBANKS)
        n = snprintf(buf, cap, "%s_UNKNOWN_%u", TENSIX_BANKS[bank].name, counter_id);
    else
        n = snprintf(buf, cap, "UNKNOWN_%u_UNKNOWN_%u", bank, counter_id);
    return n < 0 ? 0 : (size_t)n;
}

/* ---- slots ---- */

uint32_t socmon_tensix_slot_encode(unsigned bank, unsigned counter_id, unsigned l1_mux)
{
    uint32_t w = SM_FIELD_DP32(0, TENSIX_SLOT, VALID, 1);
    w = SM_FIELD_DP32(w, TENSIX_SLOT, MUX, l1_mux);
    w = SM_FIELD_DP32(w, TENSIX_SLOT, ID, counter_id);
    return SM_FIELD_DP32(w, TENSIX_SLOT, BANK, bank);
}

void socmon_tensix_slot_decode(uint32_t word, socmon_tensix_slot *s)
{
    s->valid = (int)SM_FIELD_EX32(word, TENSIX_SLOT, VALID);
    s->l1_mux = SM_FIELD_EX32(word, TENSIX_SLOT, MUX);
    s->counter_id = SM_FIELD_EX32(word, TENSIX_SLOT, ID);
    s->bank = SM_FIELD_EX32(word, TENSIX_SLOT, BANK);
}

socmon_status socmon_tensix_slot_check(unsigned slot, uint32_t word, socmon_tensix_slot *s)
{
    socmon_tensix_slot tmp;
    if (!s)
        s = &tmp;
    socmon_tensix_slot_decode(word, s);
    if (!s->valid)
        return SOCMON_OK;
    if (s->bank >= TENSIX_NBANKS)
        return socmon_fail(SOCMON_ERANGE, "slot %u (word 0x%08x): bank %u out of range 0..4", slot,
                           word, s->bank);
    if (word & R_TENSIX_SLOT_RESERVED_MASK)
        return socmon_fail(SOCMON_EINVAL,
                           "slot %u (word 0x%08x): reserved bits 30:18 set (0x%08x)", slot, word,
                           word & R_TENSIX_SLOT_RESERVED_MASK);
    if (s->l1_mux && s->bank != TENSIX_BANK_L1)
        return socmon_fail(SOCMON_EINVAL, "slot %u (word 0x%08x): l1_mux bit set for bank %s", slot,
                           word, TENSIX_BANKS[s->bank].name);
    /* Counter ids the guide does not list are legal 9-bit selects, as in tt-llk. */
    return SOCMON_OK;
}

socmon_status socmon_tensix_slots_check(const uint32_t *words, size_t n, socmon_tensix_slot *out,
                                        size_t *nvalid)
{
    if (!words && n)
        return socmon_fail(SOCMON_EINVAL, "tensix slots: words is NULL");
    if (n > TENSIX_CONFIG_WORDS)
        return socmon_fail(SOCMON_ERANGE, "tensix slots: %zu slots, at most %u", n,
                           TENSIX_CONFIG_WORDS);
    size_t nv = 0;
    int mux_slot = -1;
    unsigned mux = 0;
    for (size_t i = 0; i < n; i++) {
        socmon_tensix_slot s;
        socmon_status st = socmon_tensix_slot_check((unsigned)i, words[i], &s);
        if (st != SOCMON_OK)
            return st;
        if (out)
            out[i] = s;
        if (!s.valid)
            continue;
        nv++;
        if (s.bank != TENSIX_BANK_L1)
            continue;
        if (mux_slot < 0) {
            mux_slot = (int)i;
            mux = s.l1_mux;
        } else if (s.l1_mux != mux) {
            return socmon_fail(SOCMON_EINVAL,
                               "slot %zu (word 0x%08x): L1 mux %u conflicts with mux %u of slot %d "
                               "(one measurement latches one mux setting)",
                               i, words[i], s.l1_mux, mux, mux_slot);
        }
    }
    if (nvalid)
        *nvalid = nv;
    return SOCMON_OK;
}

size_t socmon_tensix_default_slots(uint32_t *words, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NEVENTS && n < max && n < TENSIX_CONFIG_WORDS; i++) {
        if (events[i].bank == TENSIX_BANK_L1 && events[i].l1_mux != 0)
            continue;   /* one window latches one mux: the guide's 86 are L1 on mux 0 */
        words[n++] = socmon_tensix_slot_encode(events[i].bank, events[i].counter_id,
                                               events[i].l1_mux);
    }
    return n;
}
