/* Cortex-A9 event table. Numbers and meanings: ARM DDI 0388 (Cortex-A9 TRM)
 * Tables 11-5/11-6 as summarised in docs/zynq.md; names are ours, chosen to
 * match the SPA monitor framework's wording where it names the event. */
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/zynq/a9_events.h"

static const smn_za9_event events[] = {
    {0x00, "sw_incr", "software increment (PMSWINC writes)"},
    {0x01, "l1i_refill", "L1 instruction cache refills"},
    {0x02, "itlb_refill", "instruction micro-TLB refills"},
    {0x03, "l1d_refill", "L1 data cache refills (misses)"},
    {0x04, "l1d_access", "L1 data cache accesses"},
    {0x05, "dtlb_refill", "data micro-TLB refills"},
    {0x06, "mem_read", "memory-reading instructions executed"},
    {0x07, "mem_write", "memory-writing instructions executed"},
    {0x09, "exc_taken", "exceptions taken"},
    {0x0A, "exc_return", "exception returns"},
    {0x0B, "cid_write", "context ID register writes"},
    {0x0C, "pc_write", "software changes of the PC"},
    {0x0D, "pc_imm_branch", "immediate branches executed"},
    {0x0F, "unaligned_ldst", "unaligned loads and stores"},
    {0x10, "br_mis_pred", "mispredicted or not predicted branches"},
    {0x11, "cpu_cycles", "cycles (as an event)"},
    {0x12, "br_pred", "predictable branches"},
    {0x40, "java_hw_bytecode", "Java bytecodes decoded in hardware"},
    {0x41, "java_sw_bytecode", "software Java bytecodes"},
    {0x42, "jazelle_branch", "Jazelle backward branches"},
    {0x50, "coherent_line_miss", "coherent linefills missing all other CPUs"},
    {0x51, "coherent_line_hit", "coherent linefills hitting another CPU"},
    {0x60, "icache_dep_stall", "instruction-side stall cycles with a linefill pending"},
    {0x61, "dcache_dep_stall", "data-side stall cycles with a linefill pending"},
    {0x62, "tlb_miss_dep_stall", "stall cycles on a main TLB miss"},
    {0x63, "strex_passed", "STREX instructions passed"},
    {0x64, "strex_failed", "STREX instructions failed"},
    {0x65, "data_eviction", "data cache evictions due to linefills"},
    {0x66, "issue_no_dispatch", "cycles the issue stage dispatches nothing"},
    {0x67, "issue_empty", "cycles the issue stage is empty"},
    {0x68, "inst_rename", "instructions through register renaming"},
    {0x6E, "predictable_returns", "predictable function returns"},
    {0x70, "main_unit_inst", "instructions executed in the main pipes"},
    {0x71, "second_unit_inst", "instructions executed in the second pipe"},
    {0x72, "ldst_unit_inst", "instructions executed in the load/store unit"},
    {0x73, "fp_inst", "floating-point instructions through renaming"},
    {0x74, "neon_inst", "NEON instructions through renaming"},
    {0x80, "pld_full_stall", "stall cycles with the PLD queue full"},
    {0x81, "mem_write_stall", "stall cycles waiting for memory writes"},
    {0x82, "itlb_miss_stall", "stall cycles on a main I-TLB miss"},
    {0x83, "dtlb_miss_stall", "stall cycles on a main D-TLB miss"},
    {0x84, "micro_itlb_stall", "stall cycles on a micro I-TLB miss"},
    {0x85, "micro_dtlb_stall", "stall cycles on a micro D-TLB miss"},
    {0x86, "dmb_stall", "stall cycles due to DMB"},
    {0x8A, "int_clk_enabled", "cycles the integer core clock is enabled"},
    {0x8B, "de_clk_enabled", "cycles the NEON/VFP clock is enabled"},
    {0x90, "isb_inst", "ISB instructions"},
    {0x91, "dsb_inst", "DSB instructions"},
    {0x92, "dmb_inst", "DMB instructions"},
    {0x93, "ext_interrupts", "external interrupts"},
    {0xA0, "ple_line_done", "preload engine cache line requests completed"},
    {0xA1, "ple_line_skipped", "preload engine cache line requests skipped"},
    {0xA2, "ple_fifo_flush", "preload engine FIFO flushes"},
    {0xA3, "ple_rqst_done", "preload engine requests completed"},
    {0xA4, "ple_fifo_overflow", "preload engine FIFO overflows"},
    {0xA5, "ple_rqst_prog", "preload engine requests programmed"},
};

#define NEVENTS (sizeof events / sizeof events[0])

const smn_za9_event *smn_za9_event_by_code(unsigned code)
{
    for (size_t i = 0; i < NEVENTS; i++)
        if (events[i].code == code)
            return &events[i];
    return NULL;
}

size_t smn_za9_event_count(void)
{
    return NEVENTS;
}

const smn_za9_event *smn_za9_event_at(size_t i)
{
    return i < NEVENTS ? &events[i] : NULL;
}

socmon_status smn_za9_event_parse(const char *s, uint8_t *code)
{
    if (!s || !*s || !code)
        return socmon_fail(SOCMON_EINVAL, "a9 event: empty name");
    for (size_t i = 0; i < NEVENTS; i++)
        if (strcmp(events[i].name, s) == 0) {
            *code = events[i].code;
            return SOCMON_OK;
        }
    char *end = NULL;
    unsigned long v = strtoul(s, &end, 0);
    if (end && *end == '\0' && (s[0] >= '0' && s[0] <= '9')) {
        if (!smn_za9_event_by_code((unsigned)v) || v > 0xFF)
            return socmon_fail(SOCMON_ENOENT,
                               "a9 event %s is not a Cortex-A9 event (see docs/zynq.md)", s);
        *code = (uint8_t)v;
        return SOCMON_OK;
    }
    return socmon_fail(SOCMON_ENOENT,
                       "a9 event '%s' unknown (names such as inst_rename, l1d_refill, or 0x00..0xA5)",
                       s);
}
