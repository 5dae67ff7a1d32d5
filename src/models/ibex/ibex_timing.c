/* Ibex's cycle costs per instruction class, for each configuration.
 *
 * Measured on the RTL (../shared/specs/riscv_hpm_ibex.md §7, commit 0a13971f,
 * simple_system with 1-cycle memory): ALU / not-taken branch 1; load/store 2
 * (NumCyclesLSU 1) without the writeback stage, 1 with it; a split
 * misaligned access one more cycle; taken branch 3 (NumCyclesIF 1) without
 * the branch target ALU, 2 with it; jal/jalr/fence.i 2 (NumCyclesIF 0, or 1
 * with the branch target ALU); MUL 3 / MULH 4 (fast), 1 / 2 (single-cycle);
 * DIV/REM 37, 2 when dividing by zero.
 * From the RTL (rtl/ibex_multdiv_slow.sv, read, not measured): the slow
 * multiplier takes IDLE + one COMP per remaining bit of op_b + LAST for MUL
 * and 33 cycles for MULH*. docs/ibex.md has the full table. */
#include "models/ibex/ibex_internal.h"

void smn_ibex_timing_init(const ibex_config *cfg, ibex_timing *t)
{
    t->mem = cfg->wb_stage ? 1 : 2;
    t->mem_lsu = cfg->wb_stage ? 0 : 1;
    /* Without WB the second request's wait counts as LSU wait (perf_dside_wait
     * = executing load/store without its final response). With WB the split
     * access stalls on stall_mem, which perf_dside_wait does not include. */
    t->split_lsu = cfg->wb_stage ? 0 : 1;
    /* The PC is set in the cycle the target is known (the 2nd ID cycle of a
     * branch without the branch target ALU, the 1st otherwise; jumps use the
     * main ALU in their 1st cycle and stall a 2nd one without it); the target
     * arrives one fetch cycle later. */
    t->br_taken = cfg->bt_alu ? 2 : 3;
    t->jump = 2;
    t->jump_if = cfg->bt_alu ? 1 : 0;
    switch (cfg->rv32m) {
    case IBEX_RV32M_SINGLE:
        t->mul = 1;
        t->mulh = 2;
        break;
    case IBEX_RV32M_SLOW:
        t->mul = 0;   /* operand-dependent: smn_ibex_slow_mul_cycles */
        t->mulh = 33;
        break;
    default:
        t->mul = 3;
        t->mulh = 4;
        break;
    }
}

/* MUL on the slow multiplier: MD_IDLE, then MD_COMP while op_b shifted right
 * is non-zero (at most 31), then MD_LAST. */
unsigned smn_ibex_slow_mul_cycles(uint32_t op_b)
{
    unsigned len = 0;
    while (op_b) {
        len++;
        op_b >>= 1;
    }
    return 2 + (len > 1 ? len - 1 : 0);
}
