/* Instruction text for annotation (report --annotate): the decoder's view of an instruction
 * (a compressed one as the 32-bit form it expands to, as Ibex executes it) in the assembler's
 * syntax with ABI register names: "addi a0, a0, 1", "lw ra, 12(sp)", "bne a5, a4, 0x100376". */
#include <stdio.h>
#include <string.h>
#include "models/ibex/ibex_internal.h"

static const char *const abi[32] = {"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0",
                                    "a1",   "a2", "a3", "a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5",
                                    "s6",   "s7", "s8", "s9", "s10", "s11", "t3", "t4", "t5", "t6"};

static const char *r(unsigned i)
{
    return abi[i & 31];
}

void ibex_disasm(const ibex_config *cfg, uint32_t pc, uint16_t lo, uint16_t hi, char *buf, size_t len)
{
    ibex_decoded d;
    ibex_decode(cfg, lo, hi, &d);
    const char *m = d.mnemonic;
    size_t ml = strlen(m);
    switch (d.iclass) {
    case IBEX_IC_LOAD:
        snprintf(buf, len, "%s %s, %d(%s)", m, r(d.rd), d.imm, r(d.rs1));
        return;
    case IBEX_IC_STORE:
        snprintf(buf, len, "%s %s, %d(%s)", m, r(d.rs2), d.imm, r(d.rs1));
        return;
    case IBEX_IC_BRANCH:
        snprintf(buf, len, "%s %s, %s, 0x%x", m, r(d.rs1), r(d.rs2), pc + (uint32_t)d.imm);
        return;
    case IBEX_IC_JUMP:
        if (strcmp(m, "jal") == 0)
            snprintf(buf, len, "jal %s, 0x%x", r(d.rd), pc + (uint32_t)d.imm);
        else
            snprintf(buf, len, "jalr %s, %d(%s)", r(d.rd), d.imm, r(d.rs1));
        return;
    case IBEX_IC_CSR:
        if (m[ml - 1] == 'i')
            snprintf(buf, len, "%s %s, 0x%03x, %d", m, r(d.rd), d.csr, d.imm);
        else
            snprintf(buf, len, "%s %s, 0x%03x, %s", m, r(d.rd), d.csr, r(d.rs1));
        return;
    case IBEX_IC_ALU:
        if (strcmp(m, "lui") == 0 || strcmp(m, "auipc") == 0) {
            snprintf(buf, len, "%s %s, 0x%x", m, r(d.rd), (uint32_t)d.imm >> 12);
            return;
        }
        if (m[ml - 1] == 'i' || strcmp(m, "sltiu") == 0) {
            snprintf(buf, len, "%s %s, %s, %d", m, r(d.rd), r(d.rs1), d.imm);
            return;
        }
        __attribute__((fallthrough));   /* register-register */
    case IBEX_IC_MUL:
    case IBEX_IC_MULH:
    case IBEX_IC_DIV:
        snprintf(buf, len, "%s %s, %s, %s", m, r(d.rd), r(d.rs1), r(d.rs2));
        return;
    default:
        snprintf(buf, len, "%s", m);
        return;
    }
}
