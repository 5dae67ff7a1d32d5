/* Configuration presets and options of the Ibex model.
 *
 * Presets are ibex_configs.yaml's (lowRISC/ibex 0a13971f): small = RV32M
 * fast, no writeback stage, no branch target ALU; maxperf = RV32M single
 * cycle, writeback stage, branch target ALU. Both leave MHPMCounterNum at 0
 * there; the model defaults to 10 counters of 40 bits so that every counter
 * of the doc exists unless asked otherwise (issue 10). Parameters this model
 * does not vary (RV32E, RV32B, RegFile, ICache, BranchPredictor, PMP,
 * SecureIbex) are those of both presets: off / FF. */
#include <stdlib.h>
#include <string.h>
#include "core/error.h"
#include "models/ibex/ibex_model.h"

static const char *const rv32m_names[] = {"none", "slow", "fast", "single"};

const char *ibex_rv32m_name(ibex_rv32m m)
{
    return (unsigned)m < 4 ? rv32m_names[m] : "?";
}

socmon_status ibex_config_preset(ibex_config *cfg, const char *name)
{
    if (!cfg || !name)
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL config or preset name");
    memset(cfg, 0, sizeof *cfg);
    cfg->mhpm_num = 10;
    cfg->mhpm_width = 40;
    if (strcmp(name, "small") == 0) {
        cfg->rv32m = IBEX_RV32M_FAST;
    } else if (strcmp(name, "maxperf") == 0) {
        cfg->rv32m = IBEX_RV32M_SINGLE;
        cfg->wb_stage = 1;
        cfg->bt_alu = 1;
    } else {
        return socmon_fail(SOCMON_EINVAL, "ibex: config '%s' unknown (small|maxperf)", name);
    }
    strcpy(cfg->name, name);
    return SOCMON_OK;
}

static socmon_status parse_uint(const char *key, const char *v, unsigned lo, unsigned hi,
                                unsigned *out)
{
    char *end;
    unsigned long n;
    if (!*v || *v == '-' || *v == '+')
        return socmon_fail(SOCMON_EINVAL, "ibex: %s '%s' is not a number (%u..%u)", key, v, lo, hi);
    n = strtoul(v, &end, 10);
    if (*end)
        return socmon_fail(SOCMON_EINVAL, "ibex: %s '%s' is not a number (%u..%u)", key, v, lo, hi);
    if (n < lo || n > hi)
        return socmon_fail(SOCMON_ERANGE, "ibex: %s %s out of range %u..%u", key, v, lo, hi);
    *out = (unsigned)n;
    return SOCMON_OK;
}

socmon_status ibex_config_set(ibex_config *cfg, const char *key, const char *value)
{
    unsigned n;
    socmon_status st;
    if (!cfg || !key || !value)
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL option");
    if (strcmp(key, "config") == 0) {
        ibex_config tmp = *cfg;
        st = ibex_config_preset(&tmp, value);
        if (st == SOCMON_OK) {
            tmp.mhpm_num = cfg->mhpm_num;   /* counter options and entry survive a preset */
            tmp.mhpm_width = cfg->mhpm_width;
            tmp.entry = cfg->entry;
            *cfg = tmp;
        }
        return st;
    }
    if (strcmp(key, "rv32m") == 0) {
        for (unsigned i = 0; i < 4; i++) {
            if (strcmp(value, rv32m_names[i]) == 0) {
                cfg->rv32m = (ibex_rv32m)i;
                return SOCMON_OK;
            }
        }
        return socmon_fail(SOCMON_EINVAL, "ibex: rv32m '%s' unknown (fast|single|slow|none)", value);
    }
    if (strcmp(key, "wb_stage") == 0 || strcmp(key, "bt_alu") == 0) {
        st = parse_uint(key, value, 0, 1, &n);
        if (st == SOCMON_OK)
            *(key[0] == 'w' ? &cfg->wb_stage : &cfg->bt_alu) = (int)n;
        return st;
    }
    if (strcmp(key, "mhpm_num") == 0)
        return parse_uint(key, value, 0, 29, &cfg->mhpm_num);
    if (strcmp(key, "mhpm_width") == 0)
        return parse_uint(key, value, 1, 64, &cfg->mhpm_width);
    if (strcmp(key, "entry") == 0) {
        if (strcmp(value, "boot") == 0 || strcmp(value, "elf") == 0) {
            cfg->entry = value[0] == 'b' ? IBEX_ENTRY_BOOT : IBEX_ENTRY_ELF;
            return SOCMON_OK;
        }
        return socmon_fail(SOCMON_EINVAL, "ibex: entry '%s' unknown (boot|elf)", value);
    }
    return socmon_fail(SOCMON_ENOENT,
                       "ibex: option '%s' unknown (config, rv32m, wb_stage, bt_alu, mhpm_num, "
                       "mhpm_width, entry)", key);
}
