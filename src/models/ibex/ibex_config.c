/* Configuration presets and options of the Ibex model.
 *
 * Presets are ibex_configs.yaml's (lowRISC/ibex 0a13971f): small = RV32M
 * fast, no writeback stage, no branch target ALU; maxperf = RV32M single
 * cycle, writeback stage, branch target ALU. Both leave MHPMCounterNum at 0
 * there; the model defaults to 10 counters of 40 bits so that every counter
 * of the doc exists unless asked otherwise (issue 10). Parameters this model
 * does not vary (RV32E, RV32B, RegFile, ICache, BranchPredictor, PMP,
 * SecureIbex) are those of both presets: off / FF. The options over a
 * preset are the ibex target's table (src/targets/ibex.c; smn_ibex_config
 * for a core built without the target). */
#include <stdio.h>
#include <string.h>
#include "core/error.h"
#include "models/ibex/ibex_model.h"

static const char *const rv32m_names[] = {"none", "slow", "fast", "single"};

const char *smn_ibex_rv32m_name(ibex_rv32m m)
{
    return (unsigned)m < 4 ? rv32m_names[m] : "?";
}

/* The presets, the one place they are written (the ibex target's option `config` chooses among
 * smn_ibex_config_names). */
static const struct {
    const char *name;
    ibex_rv32m rv32m;
    int wb_stage, bt_alu;
} presets[] = {
    {"small", IBEX_RV32M_FAST, 0, 0},
    {"maxperf", IBEX_RV32M_SINGLE, 1, 1},
};

const char *const smn_ibex_config_names[] = {"small", "maxperf", NULL};

socmon_status smn_ibex_config_preset(ibex_config *cfg, const char *name)
{
    if (!cfg || !name)
        return socmon_fail(SOCMON_EINVAL, "ibex: NULL config or preset name");
    for (size_t i = 0; i < sizeof presets / sizeof presets[0]; i++)
        if (strcmp(name, presets[i].name) == 0) {
            memset(cfg, 0, sizeof *cfg);
            cfg->mhpm_num = 10;
            cfg->mhpm_width = 40;
            cfg->rv32m = presets[i].rv32m;
            cfg->wb_stage = presets[i].wb_stage;
            cfg->bt_alu = presets[i].bt_alu;
            snprintf(cfg->name, sizeof cfg->name, "%s", name);
            return SOCMON_OK;
        }
    return socmon_fail(SOCMON_EINVAL, "ibex: config '%s' unknown (small|maxperf)", name);
}
