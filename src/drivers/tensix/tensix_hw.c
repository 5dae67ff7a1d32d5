/* Tensix counter facts: bank registers, slot words, L1 layout, event table. */
#include <strings.h>

#include "core/error.h"
#include "drivers/tensix/tensix_hw.h"

/* Offsets from the guide's register map. The OUT pairs are laid out in the
 * order INSTRN, UNPACK, PACK, L1, FPU, which is not the bank-id order. */
static const socmon_tensix_bank_regs banks[SOCMON_TENSIX_NBANKS] = {
    {"INSTRN_THREAD", "instrn_thread", 0x000, 0x100, 0x104},
    {"FPU", "fpu", 0x018, 0x120, 0x124},
    {"TDMA_UNPACK", "tdma_unpack", 0x00C, 0x108, 0x10C},
    {"L1", "l1", 0x030, 0x118, 0x11C},
    {"TDMA_PACK", "tdma_pack", 0x0F0, 0x110, 0x114},
};

const socmon_tensix_bank_regs *socmon_tensix_bank(unsigned bank)
{
    return bank < SOCMON_TENSIX_NBANKS ? &banks[bank] : NULL;
}

socmon_status socmon_tensix_bank_by_name(const char *name, unsigned *bank)
{
    for (unsigned b = 0; name && b < SOCMON_TENSIX_NBANKS; b++) {
        if (strcasecmp(name, banks[b].name) == 0) {
            *bank = b;
            return SOCMON_OK;
        }
    }
    return socmon_fail(SOCMON_ENOENT,
                       "tensix bank '%s' unknown (valid: INSTRN_THREAD, FPU, TDMA_UNPACK, L1, TDMA_PACK)",
                       name ? name : "(null)");
}

uint32_t socmon_tensix_slot_encode(unsigned bank, unsigned counter_id, unsigned l1_mux)
{
    return SOCMON_TENSIX_SLOT_VALID | ((uint32_t)(l1_mux & 1u) << SOCMON_TENSIX_SLOT_MUX_SHIFT) |
           ((uint32_t)(counter_id & SOCMON_TENSIX_SLOT_ID_MASK) << SOCMON_TENSIX_SLOT_ID_SHIFT) |
           (bank & SOCMON_TENSIX_SLOT_BANK_MASK);
}

void socmon_tensix_slot_decode(uint32_t word, socmon_tensix_slot *s)
{
    s->valid = (word & SOCMON_TENSIX_SLOT_VALID) != 0;
    s->l1_mux = (word >> SOCMON_TENSIX_SLOT_MUX_SHIFT) & 1u;
    s->counter_id = (word >> SOCMON_TENSIX_SLOT_ID_SHIFT) & SOCMON_TENSIX_SLOT_ID_MASK;
    s->bank = word & SOCMON_TENSIX_SLOT_BANK_MASK;
}

socmon_status socmon_tensix_slot_check(unsigned slot, uint32_t word, socmon_tensix_slot *s)
{
    socmon_tensix_slot tmp;
    if (!s)
        s = &tmp;
    socmon_tensix_slot_decode(word, s);
    if (!s->valid)
        return SOCMON_OK;
    if (s->bank >= SOCMON_TENSIX_NBANKS)
        return socmon_fail(SOCMON_ERANGE, "slot %u (word 0x%08x): bank %u out of range 0..4", slot,
                           word, s->bank);
    if (word & SOCMON_TENSIX_SLOT_RESERVED)
        return socmon_fail(SOCMON_EINVAL,
                           "slot %u (word 0x%08x): reserved bits 30:18 set (0x%08x)", slot, word,
                           word & SOCMON_TENSIX_SLOT_RESERVED);
    if (s->l1_mux && s->bank != SOCMON_TENSIX_BANK_L1)
        return socmon_fail(SOCMON_EINVAL, "slot %u (word 0x%08x): l1_mux bit set for bank %s", slot,
                           word, banks[s->bank].name);
    if (!socmon_tensix_event_find(s->bank, s->counter_id, s->l1_mux)) {
        if (s->bank == SOCMON_TENSIX_BANK_L1)
            return socmon_fail(SOCMON_ENOENT,
                               "slot %u (word 0x%08x): counter id %u unknown for bank L1 mux %u (valid 0..7)",
                               slot, word, s->counter_id, s->l1_mux);
        return socmon_fail(SOCMON_ENOENT, "slot %u (word 0x%08x): counter id %u unknown for bank %s",
                           slot, word, s->counter_id, banks[s->bank].name);
    }
    return SOCMON_OK;
}

const char *socmon_tensix_thread_name(unsigned thread)
{
    static const char *const names[] = {"UNPACK", "MATH", "PACK"};
    return thread < SOCMON_TENSIX_NTHREADS ? names[thread] : "?";
}

uint32_t socmon_tensix_config_addr(unsigned thread)
{
    return SOCMON_TENSIX_COUNTERS_BASE + thread * SOCMON_TENSIX_THREAD_SIZE;
}

uint32_t socmon_tensix_data_addr(unsigned thread)
{
    return socmon_tensix_config_addr(thread) + 4u * SOCMON_TENSIX_CONFIG_WORDS;
}

static const socmon_tensix_event events[] = {
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 0, 0, "CFG_INSTRN_AVAILABLE_0", "CFG instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 1, 0, "CFG_INSTRN_AVAILABLE_1", "CFG instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 2, 0, "CFG_INSTRN_AVAILABLE_2", "CFG instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 3, 0, "SYNC_INSTRN_AVAILABLE_0", "SYNC instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 4, 0, "SYNC_INSTRN_AVAILABLE_1", "SYNC instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 5, 0, "SYNC_INSTRN_AVAILABLE_2", "SYNC instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 6, 0, "THCON_INSTRN_AVAILABLE_0", "THCON instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 7, 0, "THCON_INSTRN_AVAILABLE_1", "THCON instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 8, 0, "THCON_INSTRN_AVAILABLE_2", "THCON instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 9, 0, "XSEARCH_INSTRN_AVAILABLE_0", "XSEARCH instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 10, 0, "XSEARCH_INSTRN_AVAILABLE_1", "XSEARCH instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 11, 0, "XSEARCH_INSTRN_AVAILABLE_2", "XSEARCH instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 12, 0, "MOVE_INSTRN_AVAILABLE_0", "MOVE instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 13, 0, "MOVE_INSTRN_AVAILABLE_1", "MOVE instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 14, 0, "MOVE_INSTRN_AVAILABLE_2", "MOVE instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 15, 0, "FPU_INSTRN_AVAILABLE_0", "FPU/SFPU instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 16, 0, "FPU_INSTRN_AVAILABLE_1", "FPU/SFPU instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 17, 0, "FPU_INSTRN_AVAILABLE_2", "FPU/SFPU instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 18, 0, "UNPACK_INSTRN_AVAILABLE_0", "UNPACK instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 19, 0, "UNPACK_INSTRN_AVAILABLE_1", "UNPACK instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 20, 0, "UNPACK_INSTRN_AVAILABLE_2", "UNPACK instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 21, 0, "PACK_INSTRN_AVAILABLE_0", "PACK instruction available, thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 22, 0, "PACK_INSTRN_AVAILABLE_1", "PACK instruction available, thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 23, 0, "PACK_INSTRN_AVAILABLE_2", "PACK instruction available, thread 2"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 24, 0, "THREAD_STALLS_0", "Cycles thread 0 was stalled"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 25, 0, "THREAD_STALLS_1", "Cycles thread 1 was stalled"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 26, 0, "THREAD_STALLS_2", "Cycles thread 2 was stalled"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 27, 0, "WAITING_FOR_SRCA_CLEAR", "Cycles waiting for srcA to be cleared"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 28, 0, "WAITING_FOR_SRCB_CLEAR", "Cycles waiting for srcB to be cleared"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 29, 0, "WAITING_FOR_SRCA_VALID", "Cycles waiting for srcA data to be valid"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 30, 0, "WAITING_FOR_SRCB_VALID", "Cycles waiting for srcB data to be valid"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 31, 0, "WAITING_FOR_THCON_IDLE_0", "Cycles thread 0 waited for THCON idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 32, 0, "WAITING_FOR_THCON_IDLE_1", "Cycles thread 1 waited for THCON idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 33, 0, "WAITING_FOR_THCON_IDLE_2", "Cycles thread 2 waited for THCON idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 34, 0, "WAITING_FOR_UNPACK_IDLE_0", "Cycles thread 0 waited for unpack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 35, 0, "WAITING_FOR_UNPACK_IDLE_1", "Cycles thread 1 waited for unpack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 36, 0, "WAITING_FOR_UNPACK_IDLE_2", "Cycles thread 2 waited for unpack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 37, 0, "WAITING_FOR_PACK_IDLE_0", "Cycles thread 0 waited for pack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 38, 0, "WAITING_FOR_PACK_IDLE_1", "Cycles thread 1 waited for pack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 39, 0, "WAITING_FOR_PACK_IDLE_2", "Cycles thread 2 waited for pack idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 40, 0, "WAITING_FOR_MATH_IDLE_0", "Cycles thread 0 waited for math idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 41, 0, "WAITING_FOR_MATH_IDLE_1", "Cycles thread 1 waited for math idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 42, 0, "WAITING_FOR_MATH_IDLE_2", "Cycles thread 2 waited for math idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 43, 0, "WAITING_FOR_NONZERO_SEM_0", "Cycles thread 0 waited for semaphore > 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 44, 0, "WAITING_FOR_NONZERO_SEM_1", "Cycles thread 1 waited for semaphore > 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 45, 0, "WAITING_FOR_NONZERO_SEM_2", "Cycles thread 2 waited for semaphore > 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 46, 0, "WAITING_FOR_NONFULL_SEM_0", "Cycles thread 0 waited for semaphore < max"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 47, 0, "WAITING_FOR_NONFULL_SEM_1", "Cycles thread 1 waited for semaphore < max"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 48, 0, "WAITING_FOR_NONFULL_SEM_2", "Cycles thread 2 waited for semaphore < max"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 49, 0, "WAITING_FOR_MOVE_IDLE_0", "Cycles thread 0 waited for MOVE idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 50, 0, "WAITING_FOR_MOVE_IDLE_1", "Cycles thread 1 waited for MOVE idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 51, 0, "WAITING_FOR_MOVE_IDLE_2", "Cycles thread 2 waited for MOVE idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 52, 0, "WAITING_FOR_MMIO_IDLE_0", "Cycles thread 0 waited for MMIO idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 53, 0, "WAITING_FOR_MMIO_IDLE_1", "Cycles thread 1 waited for MMIO idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 54, 0, "WAITING_FOR_MMIO_IDLE_2", "Cycles thread 2 waited for MMIO idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 55, 0, "WAITING_FOR_SFPU_IDLE_0", "Cycles thread 0 waited for SFPU idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 56, 0, "WAITING_FOR_SFPU_IDLE_1", "Cycles thread 1 waited for SFPU idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 57, 0, "WAITING_FOR_SFPU_IDLE_2", "Cycles thread 2 waited for SFPU idle"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 256, 0, "THREAD_INSTRUCTIONS_0", "Instructions executed by thread 0"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 257, 0, "THREAD_INSTRUCTIONS_1", "Instructions executed by thread 1"},
    {SOCMON_TENSIX_BANK_INSTRN_THREAD, 258, 0, "THREAD_INSTRUCTIONS_2", "Instructions executed by thread 2"},
    {SOCMON_TENSIX_BANK_FPU, 0, 0, "FPU_INSTRUCTION", "Cycles FPU instructions were executed"},
    {SOCMON_TENSIX_BANK_FPU, 1, 0, "SFPU_INSTRUCTION", "Cycles SFPU instructions were executed"},
    {SOCMON_TENSIX_BANK_FPU, 257, 0, "FPU_OR_SFPU_INSTRN", "Cycles FPU or SFPU instructions were executed"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 1, 0, "DATA_HAZARD_STALLS_MOVD2A", "Cycles stalled on MOVD2A data hazards"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 3, 0, "MATH_INSTRN_STARTED", "Math instructions started"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 4, 0, "MATH_INSTRN_AVAILABLE", "Math instructions available in the buffer"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 5, 0, "SRCB_WRITE_AVAILABLE", "Cycles the srcB write port was available"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 6, 0, "SRCA_WRITE_AVAILABLE", "Cycles the srcA write port was available"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 7, 0, "UNPACK0_BUSY_THREAD0", "Unpacker 0 busy cycles (thread 0)"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 8, 0, "UNPACK1_BUSY_THREAD0", "Unpacker 1 busy cycles (thread 0)"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 9, 0, "UNPACK0_BUSY_THREAD1", "Unpacker 0 busy cycles (thread 1)"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 10, 0, "UNPACK1_BUSY_THREAD1", "Unpacker 1 busy cycles (thread 1)"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 259, 0, "SRCB_WRITE", "srcB writes completed"},
    {SOCMON_TENSIX_BANK_TDMA_UNPACK, 261, 0, "SRCA_WRITE", "srcA writes completed"},
    {SOCMON_TENSIX_BANK_TDMA_PACK, 11, 0, "PACKER_DEST_READ_AVAILABLE", "Cycles destination data was available to the packer"},
    {SOCMON_TENSIX_BANK_TDMA_PACK, 18, 0, "PACKER_BUSY", "Cycles the packer was working"},
    {SOCMON_TENSIX_BANK_TDMA_PACK, 272, 0, "AVAILABLE_MATH", "Cycles math results were available for packing"},
    {SOCMON_TENSIX_BANK_L1, 0, 0, "NOC_RING0_INCOMING_1", "NoC ring 0 incoming channel 1 read/write"},
    {SOCMON_TENSIX_BANK_L1, 1, 0, "NOC_RING0_INCOMING_0", "NoC ring 0 incoming channel 0 read/write"},
    {SOCMON_TENSIX_BANK_L1, 2, 0, "NOC_RING0_OUTGOING_1", "NoC ring 0 outgoing channel 1 read/write"},
    {SOCMON_TENSIX_BANK_L1, 3, 0, "NOC_RING0_OUTGOING_0", "NoC ring 0 outgoing channel 0 read/write"},
    {SOCMON_TENSIX_BANK_L1, 4, 0, "L1_ARB_TDMA_BUNDLE_1", "L1 arbitration for TDMA bundle 1"},
    {SOCMON_TENSIX_BANK_L1, 5, 0, "L1_ARB_TDMA_BUNDLE_0", "L1 arbitration for TDMA bundle 0"},
    {SOCMON_TENSIX_BANK_L1, 6, 0, "L1_ARB_UNPACKER", "L1 arbitration for the unpacker"},
    {SOCMON_TENSIX_BANK_L1, 7, 0, "L1_NO_ARB_UNPACKER", "L1 no-arbitration unpacker path"},
    {SOCMON_TENSIX_BANK_L1, 0, 1, "NOC_RING1_INCOMING_1", "NoC ring 1 incoming channel 1 read/write"},
    {SOCMON_TENSIX_BANK_L1, 1, 1, "NOC_RING1_INCOMING_0", "NoC ring 1 incoming channel 0 read/write"},
    {SOCMON_TENSIX_BANK_L1, 2, 1, "NOC_RING1_OUTGOING_1", "NoC ring 1 outgoing channel 1 read/write"},
    {SOCMON_TENSIX_BANK_L1, 3, 1, "NOC_RING1_OUTGOING_0", "NoC ring 1 outgoing channel 0 read/write"},
    {SOCMON_TENSIX_BANK_L1, 4, 1, "TDMA_BUNDLE_1_ARB", "TDMA bundle 1 arbitration"},
    {SOCMON_TENSIX_BANK_L1, 5, 1, "TDMA_BUNDLE_0_ARB", "TDMA bundle 0 arbitration"},
    {SOCMON_TENSIX_BANK_L1, 6, 1, "TDMA_EXT_UNPACK_9_10", "TDMA extended unpacker interface"},
    {SOCMON_TENSIX_BANK_L1, 7, 1, "TDMA_PACKER_2_WR", "TDMA packer 2 write interface to L1"},
};

#define NEVENTS (sizeof events / sizeof events[0])

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
    if (bank != SOCMON_TENSIX_BANK_L1)
        l1_mux = 0;
    for (size_t i = 0; i < NEVENTS; i++)
        if (events[i].bank == bank && events[i].counter_id == counter_id &&
            events[i].l1_mux == l1_mux)
            return &events[i];
    return NULL;
}

const socmon_tensix_event *socmon_tensix_event_by_name(const char *name)
{
    for (size_t i = 0; name && i < NEVENTS; i++)
        if (strcasecmp(events[i].name, name) == 0)
            return &events[i];
    return NULL;
}

size_t socmon_tensix_default_slots(uint32_t *words, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < NEVENTS && n < max && n < SOCMON_TENSIX_CONFIG_WORDS; i++) {
        if (events[i].bank == SOCMON_TENSIX_BANK_L1 && events[i].l1_mux != 0)
            continue;
        words[n++] = socmon_tensix_slot_encode(events[i].bank, events[i].counter_id,
                                               events[i].l1_mux);
    }
    return n;
}
