/* The harness of the Xilinx Xpm reference check (tests/zynq/fixtures/
 * xpm_counter_README.md): a Zynq model whose core 0 runs a fixed CPU
 * profile, its CP15 bound to the thread through the BSP shims with every
 * access traced, the BSP's boot-time PMU setup, then for three counter
 * configurations: set the events, run 200000 cycles, read the counters.
 *
 * What sets and reads the events is a parameter: the test passes its own
 * sequence, written from spec §5.1; the reference run passed embeddedsw's
 * unmodified Xpm_SetEvents/Xpm_GetEventCounters. Both print the same text,
 * so the test compares its output with the reference run's, line by line. */
#ifndef SOCMON_TESTS_ZYNQ_XPM_HARNESS_H
#define SOCMON_TESTS_ZYNQ_XPM_HARNESS_H

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "models/zynq/zynq_model.h"
#include "socmon_xil.h"
#include "xpseudo_asm.h"
#include "socmon/zynq.h"

#define XPMH_CYCLES 200000u
#define XPMH_HZ 500e6

/* util 1, ipc 1, exact binary fractions so that expected counts are exact */
static const socmon_zynq_cpu_profile XPMH_PROF = {.util = 1.0, .ipc = 1.0, .ldst_per_inst = 0.5,
    .store_frac = 0.25, .l1d_miss = 0.125, .stall_per_miss = 10, .wstall_per_store = 0.5,
    .br_per_inst = 0.125, .br_miss = 0.25};
/* the configurations run: indexes of XPM_CNTRCFG1, 6 and 11 */
static const int XPMH_CFGS[3] = {0, 5, 10};

typedef struct xpmh {
    socmon_cp15 inner;
    char *out;
    size_t cap, len;
} xpmh;

static void xpmh_printf(xpmh *h, const char *fmt, ...) SOCMON_PRINTF(2, 3);
static void xpmh_printf(xpmh *h, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(h->out + h->len, h->cap - h->len, fmt, ap);
    va_end(ap);
    if (n > 0)
        h->len = h->len + (size_t)n < h->cap ? h->len + (size_t)n : h->cap - 1;
}

static socmon_status xpmh_read(void *ctx, unsigned opc1, unsigned crn, unsigned crm,
                               unsigned opc2, uint32_t *val)
{
    xpmh *h = ctx;
    socmon_status st = h->inner.read(h->inner.ctx, opc1, crn, crm, opc2, val);
    xpmh_printf(h, "mrc p15, %u, c%u, c%u, %u -> 0x%08x\n", opc1, crn, crm, opc2,
                st ? 0u : (unsigned)*val);
    return st;
}

static socmon_status xpmh_write(void *ctx, unsigned opc1, unsigned crn, unsigned crm,
                                unsigned opc2, uint32_t val)
{
    xpmh *h = ctx;
    xpmh_printf(h, "mcr p15, %u, c%u, c%u, %u <- 0x%08x\n", opc1, crn, crm, opc2, (unsigned)val);
    return h->inner.write(h->inner.ctx, opc1, crn, crm, opc2, val);
}

/* Runs the whole check into out (cap bytes); SOCMON_OK or the first failure. */
static socmon_status xpmh_run(void (*set_events)(int32_t cfg), void (*get_counters)(uint32_t *v),
                              char *out, size_t cap)
{
    socmon_zynq_desc d;
    socmon_zynq_soc *soc = NULL;
    xpmh h = {{NULL, NULL, NULL}, out, cap, 0};
    out[0] = '\0';
    socmon_zynq_desc_default(&d);
    d.cpu_hz = XPMH_HZ;
    socmon_status st = smn_zynq_soc_new(&d, &soc);
    if (!st)
        st = socmon_zynq_soc_set_cpu(soc, 0, &XPMH_PROF);
    if (!st)
        st = socmon_zynq_cp15_of(soc, 0, &h.inner);
    socmon_cp15 traced = {.read = xpmh_read, .write = xpmh_write, .ctx = &h};
    if (!st)
        st = socmon_xil_bind_cp15(&traced);
    if (st) {
        smn_zynq_soc_free(soc);
        return st;
    }
    /* the BSP's boot (cortexa9/gcc/cpu_init.S): clear the CCNT overflow,
     * PMCR = D | C | E, enable CCNT; Xpm_SetEvents relies on PMCR.E */
    xpmh_printf(&h, "# boot\n");
    mtcp(XREG_CP15_V_FLAG_STATUS, 0x80000000u);
    mtcp(XREG_CP15_PERF_MONITOR_CTRL, 0xDu);
    mtcp(XREG_CP15_COUNT_ENABLE_SET, 0x80000000u);
    for (unsigned i = 0; !st && i < 3; i++) {
        uint32_t v[6] = {0};
        xpmh_printf(&h, "# Xpm_SetEvents(%d)\n", XPMH_CFGS[i]);
        set_events(XPMH_CFGS[i]);
        st = socmon_zynq_soc_advance(soc, (uint64_t)(XPMH_CYCLES * 1e9 / XPMH_HZ), NULL);
        xpmh_printf(&h, "# Xpm_GetEventCounters\n");
        get_counters(v);
        xpmh_printf(&h, "counts %u %u %u %u %u %u\n", (unsigned)v[0], (unsigned)v[1],
                    (unsigned)v[2], (unsigned)v[3], (unsigned)v[4], (unsigned)v[5]);
        /* the cycle counter the BSP keeps for time: D set at boot, so /64 */
        xpmh_printf(&h, "ccnt %u\n", (unsigned)mfcp(XREG_CP15_PERF_CYCLE_COUNTER));
    }
    socmon_status shim = socmon_xil_status();
    socmon_xil_bind_cp15(NULL);
    smn_zynq_soc_free(soc);
    return st ? st : shim;
}

#endif
