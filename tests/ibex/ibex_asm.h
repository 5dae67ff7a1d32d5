/* A tiny RV32IMC encoder and program builder for the Ibex model's tests:
 * programs are written as C calls (one per instruction) and loaded into the
 * model's RAM at the simple_system reset entry, with the vector table at
 * the RAM base. Encodings follow the RISC-V unprivileged spec. */
#ifndef TESTS_IBEX_ASM_H
#define TESTS_IBEX_ASM_H

#include <stdint.h>
#include <string.h>
#include "hw/ibex_csr.h"
#include "models/ibex/ibex_model.h"

static inline uint32_t rv_r(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
                            unsigned opc)
{
    return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static inline uint32_t rv_i(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned opc)
{
    return ((uint32_t)imm & 0xFFF) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | opc;
}
static inline uint32_t rv_s(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned opc)
{
    uint32_t u = (uint32_t)imm;
    return (u >> 5 & 0x7F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | (u & 31) << 7 | opc;
}
static inline uint32_t rv_b(int32_t off, unsigned rs2, unsigned rs1, unsigned f3)
{
    uint32_t u = (uint32_t)off;
    return (u >> 12 & 1) << 31 | (u >> 5 & 0x3F) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
           (u >> 1 & 0xF) << 8 | (u >> 11 & 1) << 7 | 0x63;
}
static inline uint32_t rv_j(int32_t off, unsigned rd)
{
    uint32_t u = (uint32_t)off;
    return (u >> 20 & 1) << 31 | (u >> 1 & 0x3FF) << 21 | (u >> 11 & 1) << 20 |
           (u >> 12 & 0xFF) << 12 | rd << 7 | 0x6F;
}

#define ADDI(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x13)
#define SLLI(rd, rs1, sh) rv_i((sh), (rs1), 1, (rd), 0x13)
#define LUI(rd, imm20) ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x37)
#define AUIPC(rd, imm20) ((uint32_t)(imm20) << 12 | (rd) << 7 | 0x17)
#define ADD(rd, a, b) rv_r(0, (b), (a), 0, (rd), 0x33)
#define SUB(rd, a, b) rv_r(0x20, (b), (a), 0, (rd), 0x33)
#define MUL(rd, a, b) rv_r(1, (b), (a), 0, (rd), 0x33)
#define MULH(rd, a, b) rv_r(1, (b), (a), 1, (rd), 0x33)
#define MULHU(rd, a, b) rv_r(1, (b), (a), 3, (rd), 0x33)
#define DIV(rd, a, b) rv_r(1, (b), (a), 4, (rd), 0x33)
#define DIVU(rd, a, b) rv_r(1, (b), (a), 5, (rd), 0x33)
#define REM(rd, a, b) rv_r(1, (b), (a), 6, (rd), 0x33)
#define LW(rd, rs1, imm) rv_i((imm), (rs1), 2, (rd), 0x03)
#define LH(rd, rs1, imm) rv_i((imm), (rs1), 1, (rd), 0x03)
#define LB(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x03)
#define LBU(rd, rs1, imm) rv_i((imm), (rs1), 4, (rd), 0x03)
#define SW(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 2, 0x23)
#define SH(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 1, 0x23)
#define SB(rs2, rs1, imm) rv_s((imm), (rs2), (rs1), 0, 0x23)
#define BEQ(a, b, off) rv_b((off), (b), (a), 0)
#define BNE(a, b, off) rv_b((off), (b), (a), 1)
#define BLT(a, b, off) rv_b((off), (b), (a), 4)
#define JAL(rd, off) rv_j((off), (rd))
#define JALR(rd, rs1, imm) rv_i((imm), (rs1), 0, (rd), 0x67)
#define CSRRW(rd, csr, rs1) rv_i((int32_t)(csr), (rs1), 1, (rd), 0x73)
#define CSRRS(rd, csr, rs1) rv_i((int32_t)(csr), (rs1), 2, (rd), 0x73)
#define CSRRC(rd, csr, rs1) rv_i((int32_t)(csr), (rs1), 3, (rd), 0x73)
#define CSRRWI(rd, csr, u) rv_i((int32_t)(csr), (u), 5, (rd), 0x73)
#define CSRR(rd, csr) CSRRS((rd), (csr), 0)
#define CSRW(csr, rs1) CSRRW(0, (csr), (rs1))
#define ECALL 0x00000073u
#define EBREAK 0x00100073u
#define MRET 0x30200073u
#define WFI 0x10500073u
#define FENCE 0x0FF0000Fu
#define FENCE_I 0x0000100Fu
#define NOP ADDI(0, 0, 0)
#define C_NOP 0x0001u
#define C_ADDI(rd, imm) ((uint16_t)(0x0001 | ((imm) & 0x20) << 7 | (rd) << 7 | ((imm) & 31) << 2))

/* A program under construction: code from the reset entry, a vector table
 * at the RAM base (exceptions enter at the base, interrupt i at base+4*i). */
typedef struct asm_prog {
    uint8_t mem[0x4000];
    uint32_t pc;   /* next address to emit at */
} asm_prog;

static inline void asm_init(asm_prog *p)
{
    memset(p->mem, 0, sizeof p->mem);
    p->pc = IBEX_SS_RESET_PC;
}
static inline uint32_t asm_here(const asm_prog *p)
{
    return p->pc;
}
static inline void asm_org(asm_prog *p, uint32_t addr)
{
    p->pc = addr;
}
static inline void asm_put32(asm_prog *p, uint32_t addr, uint32_t w)
{
    uint32_t o = addr - IBEX_SS_RAM_BASE;
    p->mem[o] = (uint8_t)w;
    p->mem[o + 1] = (uint8_t)(w >> 8);
    p->mem[o + 2] = (uint8_t)(w >> 16);
    p->mem[o + 3] = (uint8_t)(w >> 24);
}
static inline void asm32(asm_prog *p, uint32_t w)
{
    asm_put32(p, p->pc, w);
    p->pc += 4;
}
static inline void asm16(asm_prog *p, uint16_t h)
{
    uint32_t o = p->pc - IBEX_SS_RAM_BASE;
    p->mem[o] = (uint8_t)h;
    p->mem[o + 1] = (uint8_t)(h >> 8);
    p->pc += 2;
}
/* rd = any 32-bit constant (lui + addi, always 2 instructions) */
static inline void asm_li(asm_prog *p, unsigned rd, uint32_t v)
{
    uint32_t lo = v & 0xFFF, hi = (v + 0x800) >> 12;
    asm32(p, LUI(rd, hi & 0xFFFFF));
    asm32(p, ADDI(rd, rd, (int32_t)(lo ^ 0x800) - 0x800));
}

/* The counter window of the spec's §7 measurements: x31 = -1, x30 = SimCtrl.
 * asm_window_open inhibits everything, zeroes counters 0..12 (both halves),
 * then starts them with csrw mcountinhibit, x0. */
static inline void asm_window_open(asm_prog *p)
{
    asm32(p, ADDI(31, 0, -1));
    asm32(p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    for (unsigned i = 0; i <= 12; i++) {
        if (i == 1)
            continue;
        asm32(p, CSRW(IBEX_CSR_MCYCLE + i, 0));
        asm32(p, CSRW(IBEX_CSR_MCYCLEH + i, 0));
    }
    asm_li(p, 30, IBEX_SS_SIMCTRL_BASE);
    asm32(p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 0));
}
/* Stops every counter, then halts through SimCtrl. */
static inline void asm_window_close_and_halt(asm_prog *p)
{
    asm32(p, CSRW(IBEX_CSR_MCOUNTINHIBIT, 31));
    asm32(p, ADDI(29, 0, 1));
    asm32(p, SW(29, 30, IBEX_SS_SIMCTRL_CTRL));
    asm32(p, JAL(0, 0));
}
static inline void asm_halt(asm_prog *p)
{
    asm_li(p, 30, IBEX_SS_SIMCTRL_BASE);
    asm32(p, ADDI(29, 0, 1));
    asm32(p, SW(29, 30, IBEX_SS_SIMCTRL_CTRL));
    asm32(p, JAL(0, 0));
}

/* Creates a core of the given preset and loads the program. */
static inline ibex_core *asm_core(const asm_prog *p, const ibex_config *cfg)
{
    ibex_core *c = NULL;
    if (smn_ibex_create(cfg, &c) != SOCMON_OK)
        return NULL;
    if (smn_ibex_load(c, IBEX_SS_RAM_BASE, p->mem, sizeof p->mem) != SOCMON_OK) {
        smn_ibex_destroy(c);
        return NULL;
    }
    return c;
}

#endif
