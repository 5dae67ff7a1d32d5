/* The Ibex counter driver (see ibex_drv.h). Event names and meanings follow
 * Ibex's documentation (doc/03_reference/performance_counters.rst, and
 * ../shared/seeds/ibex_performance_counters.txt): NumCyclesLSU, NumCyclesIF,
 * NumLoads, NumStores, NumJumps, NumBranches, NumBranchesTaken,
 * NumInstrRetC, NumCyclesMulWait, NumCyclesDivWait on mhpmcounter3..12. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/error.h"
#include "drivers/generic/regdev.h"
#include "drivers/ibex/ibex_drv.h"
#include "hw/ibex_csr.h"

static const struct {
    const char *name, *desc, *unit;
} events[IBEX_CNT_EVENTS] = {
    [IBEX_CNT_CYCLE] = {"cycles", "mcycle: core clock cycles (not while asleep in WFI)", "cycles"},
    [IBEX_CNT_INSTRET] = {"instret", "minstret: instructions retired", "instructions"},
    [IBEX_CNT_LSU_WAIT] = {"lsu_wait", "NumCyclesLSU: cycles waiting for data memory", "cycles"},
    [IBEX_CNT_IF_WAIT] = {"fetch_wait", "NumCyclesIF: cycles waiting for instruction fetch", "cycles"},
    [IBEX_CNT_LOADS] = {"loads", "NumLoads: loads", "events"},
    [IBEX_CNT_STORES] = {"stores", "NumStores: stores", "events"},
    [IBEX_CNT_JUMPS] = {"jumps", "NumJumps: unconditional jumps (jal, jalr, fence.i)", "events"},
    [IBEX_CNT_BRANCHES] = {"branches", "NumBranches: conditional branches", "events"},
    [IBEX_CNT_TAKEN] = {"branches_taken", "NumBranchesTaken: taken conditional branches", "events"},
    [IBEX_CNT_COMPRESSED] = {"compressed", "NumInstrRetC: compressed instructions retired", "instructions"},
    [IBEX_CNT_MUL_WAIT] = {"mul_wait", "NumCyclesMulWait: cycles waiting for a multiply", "cycles"},
    [IBEX_CNT_DIV_WAIT] = {"div_wait", "NumCyclesDivWait: cycles waiting for a divide", "cycles"},
};

static const char *const hpm_names[IBEX_CNT_MAX] = {
    [13] = "mhpmcounter13", [14] = "mhpmcounter14", [15] = "mhpmcounter15", [16] = "mhpmcounter16",
    [17] = "mhpmcounter17", [18] = "mhpmcounter18", [19] = "mhpmcounter19", [20] = "mhpmcounter20",
    [21] = "mhpmcounter21", [22] = "mhpmcounter22", [23] = "mhpmcounter23", [24] = "mhpmcounter24",
    [25] = "mhpmcounter25", [26] = "mhpmcounter26", [27] = "mhpmcounter27", [28] = "mhpmcounter28",
    [29] = "mhpmcounter29", [30] = "mhpmcounter30", [31] = "mhpmcounter31",
};

const char *smn_ibex_drv_counter_name(unsigned i)
{
    if (i < IBEX_CNT_EVENTS)
        return events[i].name;
    return i < IBEX_CNT_MAX ? hpm_names[i] : NULL;
}

static unsigned width_of(const ibex_drv_config *cfg, unsigned i)
{
    return i < 3 ? 64u : cfg->mhpm_width;
}

/* Counter i (0, 2, 3..) of Ibex, as CSR lo/hi (hi only if wider than 32). */
static socmon_counter csr_counter(const ibex_drv_config *cfg, unsigned i)
{
    unsigned w = width_of(cfg, i);
    unsigned csr = IBEX_CSR_MCYCLE + i;
    socmon_counter c = {
        .name = smn_ibex_drv_counter_name(i),
        .instance = "",
        .desc = i < IBEX_CNT_EVENTS ? events[i].desc : "mhpmcounter without an event (never counts)",
        .unit = i < IBEX_CNT_EVENTS ? events[i].unit : "events",
        .width = w,
        .reg = IBEX_CSRBUS_ADDR(csr),
        .reg_hi = w > 32 ? IBEX_CSRBUS_ADDR(IBEX_CSR_HI(csr)) : 0,
        .max_rate_hz = cfg->clock_hz,   /* every event counts at most once a cycle */
    };
    return c;
}

socmon_status smn_ibex_device_new(socmon_bus *bus, const ibex_drv_config *cfg, socmon_device **out)
{
    if (!cfg || !out)
        return socmon_fail(SOCMON_EINVAL, "ibex driver: NULL config or output pointer");
    *out = NULL;
    if (cfg->mhpm_num > IBEX_MHPM_NUM_MAX)
        return socmon_fail(SOCMON_ERANGE, "ibex driver: mhpm_num %u out of range 0..%u", cfg->mhpm_num,
                           IBEX_MHPM_NUM_MAX);
    if (cfg->mhpm_width < 1 || cfg->mhpm_width > IBEX_MHPM_WIDTH_MAX)
        return socmon_fail(SOCMON_ERANGE, "ibex driver: mhpm_width %u out of range 1..%u", cfg->mhpm_width,
                           IBEX_MHPM_WIDTH_MAX);
    if (cfg->nfuncs > IBEX_ATTRBUS_MAX_FUNCS || (cfg->nfuncs && !cfg->funcs))
        return socmon_fail(SOCMON_ERANGE, "ibex driver: %zu functions (at most %u)", cfg->nfuncs,
                           IBEX_ATTRBUS_MAX_FUNCS);
    /* the counters that exist: 0, 2 and 3..(2+mhpm_num) */
    unsigned idx[IBEX_CNT_MAX], nidx = 0;
    idx[nidx++] = IBEX_CNT_CYCLE;
    idx[nidx++] = IBEX_CNT_INSTRET;
    for (unsigned i = 3; i < 3 + cfg->mhpm_num; i++)
        idx[nidx++] = i;
    unsigned nev = 0;   /* of those, the ones with events (attributed per function) */
    while (nev < nidx && idx[nev] < IBEX_CNT_EVENTS)
        nev++;
    size_t n = nidx + cfg->nfuncs * nev;
    socmon_counter *cs = calloc(n, sizeof *cs);
    char (*names)[24] = calloc(nev ? nev : 1, sizeof *names);
    if (!cs || !names) {
        free(cs);
        free(names);
        return socmon_fail(SOCMON_ENOMEM, "ibex driver: out of memory for %zu counters", n);
    }
    for (unsigned k = 0; k < nidx; k++)
        cs[k] = csr_counter(cfg, idx[k]);
    for (unsigned k = 0; k < nev; k++)
        snprintf(names[k], sizeof names[k], "fn_%s", events[idx[k]].name);
    for (size_t f = 0; f < cfg->nfuncs; f++) {
        for (unsigned k = 0; k < nev; k++) {
            unsigned i = idx[k], w = width_of(cfg, i);
            socmon_counter *c = &cs[nidx + f * nev + k];
            *c = csr_counter(cfg, i);
            c->name = names[k];
            c->instance = cfg->funcs[f];
            c->desc = events[i].desc;
            c->reg = IBEX_ATTRBUS_ADDR(f, i);
            c->reg_hi = w > 32 ? IBEX_ATTRBUS_ADDR(f, i) + 4 : 0;
        }
    }
    /* the table's 64-bit registers are read whole (hw/ibex_csr.h), the CSRs' lo/hi pairs hi-lo-hi */
    socmon_status st = smn_regdev_new_whole("ibex", bus, cs, n, nidx, out);
    if (st == SOCMON_OK && ((st = socmon_device_set_param(*out, "clock_hz", cfg->clock_hz)) ||
                            (st = socmon_device_set_param(*out, "mhpm_num", cfg->mhpm_num)) ||
                            (st = socmon_device_set_param(*out, "mhpm_width", cfg->mhpm_width)))) {
        socmon_device_free(*out);
        *out = NULL;
    }
    free(cs);
    free(names);
    return st;
}
