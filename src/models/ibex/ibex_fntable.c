/* The per-function table behind the ibex target's f.fn_* counters: every instruction's counter
 * changes (the attribution hook, smn_ibex_set_attribution) summed per ELF function symbol, one
 * row a function (row 0: code outside every symbol), answered as a read-only register block at
 * IBEX_ATTRBUS_BASE (src/hw/ibex_csr.h: a row every IBEX_ATTRBUS_STRIDE bytes, a counter every 8,
 * low word first), which the Ibex driver reads like any counter. A model of its own, beside the
 * core's CSRs: the target only creates it and maps it. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bus/bus_internal.h"
#include "core/error.h"
#include "hw/ibex_csr.h"
#include "models/ibex/ibex_internal.h"
#include "models/ibex/ibex_model.h"
#include "socmon/bus.h"

struct smn_ibex_fntable {
    ibex_symbol *syms;          /* sorted; row i+1 (row 0: no symbol) */
    size_t nsyms;
    char **funcs;               /* instance names: "_unknown", then one per symbol */
    uint64_t (*sums)[IBEX_ATTR_COUNTERS];
    const ibex_core *core;      /* whose profile finds a PC's row (the same symbols, the same rows) */
    uint64_t mask[IBEX_ATTR_COUNTERS];   /* each counter's width as a mask */
};

static void attribute(void *ctx, uint32_t pc, const uint64_t *delta)
{
    smn_ibex_fntable *t = ctx;
    uint64_t *restrict row = t->sums[smn_ibex_prof_func(t->core, pc)];
    const uint64_t *restrict mask = t->mask;   /* no test of the index in the loop */
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
        row[i] = (row[i] + delta[i]) & mask[i];
}

void smn_ibex_fntable_free(smn_ibex_fntable *t)
{
    if (!t)
        return;
    for (size_t i = 0; t->funcs && i <= t->nsyms; i++)
        free(t->funcs[i]);
    smn_ibex_symbols_free(t->syms, t->nsyms);
    free(t->funcs);
    free(t->sums);
    free(t);
}

/* Counter instances are [A-Za-z0-9_-]+ and unique: other characters (gcc's
 * "f.part.0", "f.cold") become '_', and a name already taken gets "-2",
 * "-3", ... in address order. */
static socmon_status instance_name(smn_ibex_fntable *t, size_t row, const char *sym)
{
    size_t len = strlen(sym) + 16;
    char *p = malloc(len);
    if (!p)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for symbols");
    for (size_t i = 0; i <= strlen(sym); i++) {
        char ch = sym[i];
        p[i] = !ch || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') ||
               ch == '-' || ch == '_' ? ch : '_';
    }
    size_t base = strlen(p);
    for (unsigned k = 2;; k++) {
        size_t j = 0;
        while (j < row && strcmp(t->funcs[j], p) != 0)
            j++;
        if (j == row)
            break;
        snprintf(p + base, len - base, "-%u", k);
    }
    t->funcs[row] = p;
    return SOCMON_OK;
}

socmon_status smn_ibex_fntable_new(ibex_core *core, const ibex_config *cfg, const char *path, size_t max_slices,
                                   smn_ibex_fntable **out)
{
    *out = NULL;
    smn_ibex_fntable *t = calloc(1, sizeof *t);
    if (!t)
        return socmon_fail(SOCMON_ENOMEM, "ibex: out of memory");
    uint64_t hpm = cfg->mhpm_width >= 64 ? UINT64_MAX : (UINT64_C(1) << cfg->mhpm_width) - 1;
    for (unsigned i = 0; i < IBEX_ATTR_COUNTERS; i++)
        t->mask[i] = i < 3 ? UINT64_MAX : hpm;
    socmon_status st = smn_ibex_symbols_read(path, &t->syms, &t->nsyms);
    if (st == SOCMON_OK && t->nsyms + 1 > IBEX_ATTRBUS_MAX_FUNCS)
        st = socmon_fail(SOCMON_ERANGE, "ibex: '%s' has %zu function symbols; per-function counters "
                         "take at most %u", path, t->nsyms, IBEX_ATTRBUS_MAX_FUNCS - 1);
    if (st == SOCMON_OK) {
        t->funcs = calloc(t->nsyms + 1, sizeof *t->funcs);
        t->sums = calloc(t->nsyms + 1, sizeof *t->sums);
        if (!t->funcs || !t->sums)
            st = socmon_fail(SOCMON_ENOMEM, "ibex: out of memory for %zu symbols", t->nsyms);
    }
    if (st == SOCMON_OK)
        st = instance_name(t, 0, "_unknown");   /* code outside every symbol */
    for (size_t i = 0; st == SOCMON_OK && i < t->nsyms; i++)
        st = instance_name(t, i + 1, t->syms[i].name);
    /* the profile (started first) follows the same symbols: its search answers for the rows,
     * and with a profile the attribution's ranges are its frames' (no range callback) */
    if (st == SOCMON_OK)
        st = smn_ibex_profile_start(core, t->syms, t->nsyms, max_slices);
    if (st == SOCMON_OK) {
        t->core = core;
        smn_ibex_set_attribution(core, attribute, NULL, t);
    }
    if (st != SOCMON_OK) {
        smn_ibex_set_attribution(core, NULL, NULL, NULL);
        smn_ibex_fntable_free(t);
        return st;
    }
    *out = t;
    return SOCMON_OK;
}

size_t smn_ibex_fntable_rows(const smn_ibex_fntable *t)
{
    return t ? t->nsyms + 1 : 0;
}

const char *const *smn_ibex_fntable_names(const smn_ibex_fntable *t)
{
    return t ? (const char *const *)t->funcs : NULL;
}

const ibex_symbol *smn_ibex_fntable_symbols(const smn_ibex_fntable *t, size_t *n)
{
    *n = t ? t->nsyms : 0;
    return t ? t->syms : NULL;
}

/* ---- the table on the bus (read-only) ---- */
/* The counter at byte offset off (either of its words). */
static socmon_status counter_at(const smn_ibex_fntable *t, uint64_t off, uint64_t *v)
{
    uint64_t f = off / IBEX_ATTRBUS_STRIDE, k = off % IBEX_ATTRBUS_STRIDE / 8;
    if (f > t->nsyms || k >= IBEX_ATTR_COUNTERS)
        return socmon_fail(SOCMON_EIO, "ibex: attribution table: no counter at offset 0x%llx",
                           (unsigned long long)off);
    *v = t->sums[f][k];
    return SOCMON_OK;
}

static socmon_status table_read(void *model, uint64_t off, uint32_t *val)
{
    uint64_t v = 0;
    socmon_status st = counter_at(model, off, &v);
    *val = (uint32_t)(off % 8 ? v >> 32 : v);
    return st;
}

/* A counter whole: the table's registers are 64 bits wide (hw/ibex_csr.h). */
static socmon_status table_read64(void *model, uint64_t off, uint64_t *val)
{
    return counter_at(model, off, val);
}

/* n counters one after another from off (a run of one function's row: the driver's read of
 * every sample, smn_bus_read64_run). */
static socmon_status table_read64_run(void *model, uint64_t off, size_t n, uint64_t *vals)
{
    const smn_ibex_fntable *t = model;
    uint64_t f = off / IBEX_ATTRBUS_STRIDE, k = off % IBEX_ATTRBUS_STRIDE / 8;
    if (off % 8 || f > t->nsyms || k + n > IBEX_ATTR_COUNTERS)
        return SOCMON_ENOTSUP;   /* not within one row: read one at a time (and each says why) */
    memcpy(vals, &t->sums[f][k], n * sizeof *vals);
    return SOCMON_OK;
}

static socmon_status table_write(void *model, uint64_t off, uint32_t val)
{
    (void)model;
    (void)val;
    return socmon_fail(SOCMON_EIO, "ibex: attribution table is read-only (offset 0x%llx)", (unsigned long long)off);
}

static socmon_status table_write64(void *model, uint64_t off, uint64_t val)
{
    (void)val;
    return table_write(model, off, 0);
}

static const socmon_regmodel_ops table_ops = {.read = table_read,
                                              .write = table_write,
                                              .read64 = table_read64,
                                              .write64 = table_write64,
                                              .size = sizeof(socmon_regmodel_ops)};

socmon_status smn_ibex_fntable_map(smn_ibex_fntable *t, socmon_bus *bus)
{
    socmon_status st = socmon_bus_model_map(bus, IBEX_ATTRBUS_BASE, (t->nsyms + 1) * (uint64_t)IBEX_ATTRBUS_STRIDE,
                                            &table_ops, t);
    return st != SOCMON_OK ? st : smn_bus_model_set_run(bus, IBEX_ATTRBUS_BASE, table_read64_run);
}
