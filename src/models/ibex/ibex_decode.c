/* The predecoder: one RV32IMC/Zicsr/Zifencei instruction -> one ibex_op.
 *
 * Compressed instructions are first expanded to their 32-bit form exactly as
 * Ibex's rtl/ibex_compressed_decoder.sv does (including which encodings it
 * calls illegal: c.addi4spn with imm 0, c.lui/c.addi16sp with imm 0, c.lwsp
 * and c.jr with rd/rs1 = x0, c.slli/c.srli/c.srai with shamt[5] = 1); the
 * 32-bit decode follows rtl/ibex_decoder.sv with RV32B = None (so e.g. slli
 * with any bit of 31:25 set is illegal, FENCE ignores its other fields,
 * SYSTEM instructions need rd = rs1 = 0, DRET is illegal outside debug mode).
 * The op also gets the static part of its cost from the core's timing. */
#include <string.h>
#include "models/ibex/ibex_internal.h"

static uint32_t bits(uint32_t v, unsigned hi, unsigned lo)
{
    return (v >> lo) & ((1u << (hi - lo + 1)) - 1u);
}

static int32_t sext(uint32_t v, unsigned width)
{
    uint32_t m = 1u << (width - 1);
    return (int32_t)((v ^ m) - m);
}

/* Expands a 16-bit instruction to its 32-bit equivalent; 0 if illegal
 * (0 is itself an illegal 32-bit encoding, so the caller can tell). */
static uint32_t expand_c(uint16_t ci)
{
    uint32_t i = ci;
    unsigned f3 = bits(i, 15, 13);
    unsigned rdp = 8 + bits(i, 4, 2), rs1p = 8 + bits(i, 9, 7);
    unsigned rd = bits(i, 11, 7), rs2 = bits(i, 6, 2);
    switch (i & 3) {
    case 0:
        if (f3 == 0) {   /* c.addi4spn */
            uint32_t imm = bits(i, 10, 7) << 6 | bits(i, 12, 11) << 4 | bits(i, 5, 5) << 3 |
                           bits(i, 6, 6) << 2;
            if (bits(i, 12, 5) == 0)
                return 0;
            return imm << 20 | 2u << 15 | rdp << 7 | 0x13;
        }
        if (f3 == 2 || f3 == 6) {   /* c.lw / c.sw */
            uint32_t imm = bits(i, 5, 5) << 6 | bits(i, 12, 10) << 3 | bits(i, 6, 6) << 2;
            if (f3 == 2)
                return imm << 20 | rs1p << 15 | 2u << 12 | rdp << 7 | 0x03;
            return (imm >> 5) << 25 | rdp << 20 | rs1p << 15 | 2u << 12 | (imm & 31) << 7 | 0x23;
        }
        return 0;
    case 1: {
        uint32_t imm6 = (uint32_t)sext(bits(i, 12, 12) << 5 | bits(i, 6, 2), 6);
        switch (f3) {
        case 0:   /* c.addi (c.nop, hints included) */
            return (imm6 & 0xFFF) << 20 | rd << 15 | rd << 7 | 0x13;
        case 1:   /* c.jal */
        case 5: { /* c.j */
            uint32_t off = bits(i, 12, 12) << 11 | bits(i, 8, 8) << 10 | bits(i, 10, 9) << 8 |
                           bits(i, 6, 6) << 7 | bits(i, 7, 7) << 6 | bits(i, 2, 2) << 5 |
                           bits(i, 11, 11) << 4 | bits(i, 5, 3) << 1;
            uint32_t o = (uint32_t)sext(off, 12);
            uint32_t j = (o >> 20 & 1) << 31 | (o >> 1 & 0x3FF) << 21 | (o >> 11 & 1) << 20 |
                         (o >> 12 & 0xFF) << 12;
            return j | (f3 == 1 ? 1u : 0u) << 7 | 0x6F;
        }
        case 2:   /* c.li */
            return (imm6 & 0xFFF) << 20 | rd << 7 | 0x13;
        case 3:
            if ((bits(i, 12, 12) << 5 | bits(i, 6, 2)) == 0)
                return 0;
            if (rd == 2) {   /* c.addi16sp */
                uint32_t n = bits(i, 12, 12) << 9 | bits(i, 4, 3) << 7 | bits(i, 5, 5) << 6 |
                             bits(i, 2, 2) << 5 | bits(i, 6, 6) << 4;
                return ((uint32_t)sext(n, 10) & 0xFFF) << 20 | 2u << 15 | 2u << 7 | 0x13;
            }
            return (imm6 & 0xFFFFF) << 12 | rd << 7 | 0x37;   /* c.lui */
        case 4:
            switch (bits(i, 11, 10)) {
            case 0:
            case 1:   /* c.srli / c.srai */
                if (bits(i, 12, 12))
                    return 0;
                return (bits(i, 10, 10) ? 0x20u : 0u) << 25 | rs2 << 20 | rs1p << 15 | 5u << 12 |
                       rs1p << 7 | 0x13;
            case 2:   /* c.andi */
                return (imm6 & 0xFFF) << 20 | rs1p << 15 | 7u << 12 | rs1p << 7 | 0x13;
            default: {
                static const uint8_t f3s[4] = {0, 4, 6, 7};   /* sub, xor, or, and */
                unsigned op = bits(i, 6, 5);
                if (bits(i, 12, 12))
                    return 0;
                return (op == 0 ? 0x20u : 0u) << 25 | rdp << 20 | rs1p << 15 |
                       (uint32_t)f3s[op] << 12 | rs1p << 7 | 0x33;
            }
            }
        default: {   /* c.beqz / c.bnez */
            uint32_t off = bits(i, 12, 12) << 8 | bits(i, 6, 5) << 6 | bits(i, 2, 2) << 5 |
                           bits(i, 11, 10) << 3 | bits(i, 4, 3) << 1;
            uint32_t o = (uint32_t)sext(off, 9);
            return (o >> 12 & 1) << 31 | (o >> 5 & 0x3F) << 25 | rs1p << 15 |
                   (f3 == 7 ? 1u : 0u) << 12 | (o >> 1 & 0xF) << 8 | (o >> 11 & 1) << 7 | 0x63;
        }
        }
    }
    case 2:
        switch (f3) {
        case 0:   /* c.slli */
            if (bits(i, 12, 12))
                return 0;
            return rs2 << 20 | rd << 15 | 1u << 12 | rd << 7 | 0x13;
        case 2: { /* c.lwsp */
            uint32_t imm = bits(i, 3, 2) << 6 | bits(i, 12, 12) << 5 | bits(i, 6, 4) << 2;
            if (rd == 0)
                return 0;
            return imm << 20 | 2u << 15 | 2u << 12 | rd << 7 | 0x03;
        }
        case 4:
            if (!bits(i, 12, 12)) {
                if (rs2 != 0)   /* c.mv */
                    return rs2 << 20 | rd << 7 | 0x33;
                if (rd == 0)    /* c.jr x0 */
                    return 0;
                return rd << 15 | 0x67;   /* c.jr */
            }
            if (rs2 != 0)   /* c.add */
                return rs2 << 20 | rd << 15 | rd << 7 | 0x33;
            if (rd == 0)    /* c.ebreak */
                return 0x00100073;
            return rd << 15 | 1u << 7 | 0x67;   /* c.jalr */
        case 6: { /* c.swsp */
            uint32_t imm = bits(i, 8, 7) << 6 | bits(i, 12, 9) << 2;
            return (imm >> 5) << 25 | rs2 << 20 | 2u << 15 | 2u << 12 | (imm & 31) << 7 | 0x23;
        }
        default:
            return 0;
        }
    default:
        return 0;   /* not reached: quadrant 3 is 32-bit */
    }
}

/* Decodes a 32-bit instruction into op->h and operands (cyc set later). */
static void decode32(const ibex_config *cfg, uint32_t w, ibex_op *op)
{
    unsigned opc = w & 0x7F, f3 = bits(w, 14, 12), f7 = bits(w, 31, 25);
    unsigned rd = bits(w, 11, 7), rs1 = bits(w, 19, 15), rs2 = bits(w, 24, 20);
    int32_t immi = sext(bits(w, 31, 20), 12);
    op->h = H_ILLEGAL;
    op->rd = IBEX_RD_DISCARD;
    op->rs1 = op->rs2 = 0;
    op->imm = 0;
    op->sub = 0;
#define RD() (op->rd = rd ? (uint8_t)rd : (uint8_t)IBEX_RD_DISCARD)
    switch (opc) {
    case 0x37: case 0x17:   /* lui, auipc */
        op->h = opc == 0x37 ? H_LUI : H_AUIPC;
        op->imm = (int32_t)(w & 0xFFFFF000u);
        RD();
        return;
    case 0x6F: {   /* jal */
        uint32_t off = bits(w, 31, 31) << 20 | bits(w, 19, 12) << 12 | bits(w, 20, 20) << 11 |
                       bits(w, 30, 21) << 1;
        op->h = H_JAL;
        op->imm = sext(off, 21);
        RD();
        return;
    }
    case 0x67:   /* jalr */
        if (f3 != 0)
            return;
        op->h = H_JALR;
        op->imm = immi;
        op->rs1 = (uint8_t)rs1;
        RD();
        return;
    case 0x63: {   /* branches */
        static const uint8_t hs[8] = {H_BEQ, H_BNE, H_ILLEGAL, H_ILLEGAL, H_BLT, H_BGE, H_BLTU, H_BGEU};
        uint32_t off = bits(w, 31, 31) << 12 | bits(w, 7, 7) << 11 | bits(w, 30, 25) << 5 |
                       bits(w, 11, 8) << 1;
        if (hs[f3] == H_ILLEGAL)
            return;
        op->h = hs[f3];
        op->imm = sext(off, 13);
        op->rs1 = (uint8_t)rs1;
        op->rs2 = (uint8_t)rs2;
        return;
    }
    case 0x03: {   /* loads */
        static const uint8_t hs[8] = {H_LB, H_LH, H_LW, H_ILLEGAL, H_LBU, H_LHU, H_ILLEGAL, H_ILLEGAL};
        if (hs[f3] == H_ILLEGAL)
            return;
        op->h = hs[f3];
        op->imm = immi;
        op->rs1 = (uint8_t)rs1;
        RD();
        return;
    }
    case 0x23: {   /* stores */
        static const uint8_t hs[8] = {H_SB, H_SH, H_SW, H_ILLEGAL, H_ILLEGAL, H_ILLEGAL, H_ILLEGAL,
                                      H_ILLEGAL};
        if (hs[f3] == H_ILLEGAL)
            return;
        op->h = hs[f3];
        op->imm = sext(bits(w, 31, 25) << 5 | bits(w, 11, 7), 12);
        op->rs1 = (uint8_t)rs1;
        op->rs2 = (uint8_t)rs2;
        return;
    }
    case 0x13: {   /* op-imm */
        static const uint8_t hs[8] = {H_ADDI, H_SLLI, H_SLTI, H_SLTIU, H_XORI, H_SRLI, H_ORI, H_ANDI};
        uint8_t h = hs[f3];
        if (f3 == 1 && f7 != 0)
            return;
        if (f3 == 5) {
            if (f7 == 0x20)
                h = H_SRAI;
            else if (f7 != 0)
                return;
        }
        op->h = h;
        op->imm = (f3 == 1 || f3 == 5) ? (int32_t)rs2 : immi;
        op->rs1 = (uint8_t)rs1;
        RD();
        return;
    }
    case 0x33: {   /* op */
        static const uint8_t base[8] = {H_ADD, H_SLL, H_SLT, H_SLTU, H_XOR, H_SRL, H_OR, H_AND};
        static const uint8_t md[8] = {H_MUL, H_MULH, H_MULHSU, H_MULHU, H_DIV, H_DIVU, H_REM, H_REMU};
        if (f7 == 0)
            op->h = base[f3];
        else if (f7 == 0x20 && (f3 == 0 || f3 == 5))
            op->h = f3 == 0 ? H_SUB : H_SRA;
        else if (f7 == 1 && cfg->rv32m != IBEX_RV32M_NONE)
            op->h = md[f3];
        else
            return;
        op->rs1 = (uint8_t)rs1;
        op->rs2 = (uint8_t)rs2;
        RD();
        return;
    }
    case 0x0F:   /* fence / fence.i */
        if (f3 == 0)
            op->h = H_FENCE;
        else if (f3 == 1)
            op->h = H_FENCEI;
        return;
    case 0x73:
        if (f3 == 0) {
            if (rd != 0 || rs1 != 0)
                return;
            switch (bits(w, 31, 20)) {
            case 0x000: op->h = H_ECALL; return;
            case 0x001: op->h = H_EBREAK; return;
            case 0x302: op->h = H_MRET; return;
            case 0x105: op->h = H_WFI; return;
            default: return;   /* dret (outside debug mode) and the rest */
            }
        }
        if (f3 == 4)
            return;
        op->h = H_CSR;
        op->aux = bits(w, 31, 20);
        op->imm = (int32_t)w;   /* the raw instruction: uimm = bits 19:15, mtval if illegal */
        op->sub = (uint8_t)(f3 & 3);
        if (f3 & 4) {
            op->sub |= CSROP_IMM;
        } else {
            op->rs1 = (uint8_t)rs1;
        }
        /* ibex_decoder.sv: csrrs/csrrc with rs1 = x0 or uimm = 0 only read */
        if ((f3 & 3) >= 2 && rs1 == 0)
            op->sub = CSROP_READ | (op->sub & CSROP_IMM);
        RD();
        return;
    default:
        return;
    }
#undef RD
}

/* The static cycles charged before the handler (the rest is dynamic). */
static uint8_t static_cycles(const ibex_timing *t, const ibex_config *cfg, uint8_t h)
{
    switch (h) {
    case H_LB: case H_LH: case H_LW: case H_LBU: case H_LHU:
    case H_SB: case H_SH: case H_SW:
        return t->mem;
    case H_JAL: case H_JALR: case H_FENCEI:
        return t->jump;
    case H_MUL:
        return cfg->rv32m == IBEX_RV32M_SLOW ? 0 : t->mul;
    case H_MULH: case H_MULHSU: case H_MULHU:
        return t->mulh;
    case H_DIV: case H_DIVU: case H_REM: case H_REMU:
    case H_CSR: case H_ECALL: case H_EBREAK: case H_ILLEGAL: case H_MRET: case H_WFI:
        return 0;
    default:
        return 1;
    }
}

void smn_ibex_predecode(const ibex_core *c, uint16_t lo, uint16_t hi, ibex_op *op)
{
    uint32_t w;
    memset(op, 0, sizeof *op);
    if ((lo & 3) != 3) {
        op->len = 2;
        op->compressed = 1;
        w = expand_c(lo);
        if (w == 0) {
            op->h = H_ILLEGAL;
            op->rd = IBEX_RD_DISCARD;
            op->aux = lo;   /* mtval of an illegal compressed instruction: its 16 bits */
            return;
        }
    } else {
        op->len = 4;
        w = (uint32_t)lo | (uint32_t)hi << 16;
    }
    decode32(&c->cfg, w, op);
    if (op->h == H_ILLEGAL)
        op->aux = op->compressed ? lo : w;
    op->cyc = static_cycles(&c->t, &c->cfg, op->h);
}

/* ---- the public view of the predecoder (tests, fuzzer) ---- */
static const struct {
    const char *name;
    ibex_iclass ic;
} handler_info[H_COUNT] = {
    [H_DECODE] = {"?", IBEX_IC_ILLEGAL},
    [H_LUI] = {"lui", IBEX_IC_ALU}, [H_AUIPC] = {"auipc", IBEX_IC_ALU},
    [H_JAL] = {"jal", IBEX_IC_JUMP}, [H_JALR] = {"jalr", IBEX_IC_JUMP},
    [H_BEQ] = {"beq", IBEX_IC_BRANCH}, [H_BNE] = {"bne", IBEX_IC_BRANCH},
    [H_BLT] = {"blt", IBEX_IC_BRANCH}, [H_BGE] = {"bge", IBEX_IC_BRANCH},
    [H_BLTU] = {"bltu", IBEX_IC_BRANCH}, [H_BGEU] = {"bgeu", IBEX_IC_BRANCH},
    [H_LB] = {"lb", IBEX_IC_LOAD}, [H_LH] = {"lh", IBEX_IC_LOAD}, [H_LW] = {"lw", IBEX_IC_LOAD},
    [H_LBU] = {"lbu", IBEX_IC_LOAD}, [H_LHU] = {"lhu", IBEX_IC_LOAD},
    [H_SB] = {"sb", IBEX_IC_STORE}, [H_SH] = {"sh", IBEX_IC_STORE}, [H_SW] = {"sw", IBEX_IC_STORE},
    [H_ADDI] = {"addi", IBEX_IC_ALU}, [H_SLTI] = {"slti", IBEX_IC_ALU},
    [H_SLTIU] = {"sltiu", IBEX_IC_ALU}, [H_XORI] = {"xori", IBEX_IC_ALU},
    [H_ORI] = {"ori", IBEX_IC_ALU}, [H_ANDI] = {"andi", IBEX_IC_ALU},
    [H_SLLI] = {"slli", IBEX_IC_ALU}, [H_SRLI] = {"srli", IBEX_IC_ALU},
    [H_SRAI] = {"srai", IBEX_IC_ALU}, [H_ADD] = {"add", IBEX_IC_ALU}, [H_SUB] = {"sub", IBEX_IC_ALU},
    [H_SLL] = {"sll", IBEX_IC_ALU}, [H_SLT] = {"slt", IBEX_IC_ALU}, [H_SLTU] = {"sltu", IBEX_IC_ALU},
    [H_XOR] = {"xor", IBEX_IC_ALU}, [H_SRL] = {"srl", IBEX_IC_ALU}, [H_SRA] = {"sra", IBEX_IC_ALU},
    [H_OR] = {"or", IBEX_IC_ALU}, [H_AND] = {"and", IBEX_IC_ALU},
    [H_MUL] = {"mul", IBEX_IC_MUL}, [H_MULH] = {"mulh", IBEX_IC_MULH},
    [H_MULHSU] = {"mulhsu", IBEX_IC_MULH}, [H_MULHU] = {"mulhu", IBEX_IC_MULH},
    [H_DIV] = {"div", IBEX_IC_DIV}, [H_DIVU] = {"divu", IBEX_IC_DIV},
    [H_REM] = {"rem", IBEX_IC_DIV}, [H_REMU] = {"remu", IBEX_IC_DIV},
    [H_FENCE] = {"fence", IBEX_IC_FENCE}, [H_FENCEI] = {"fence.i", IBEX_IC_FENCEI},
    [H_CSR] = {"csr", IBEX_IC_CSR}, [H_ECALL] = {"ecall", IBEX_IC_ECALL},
    [H_EBREAK] = {"ebreak", IBEX_IC_EBREAK}, [H_MRET] = {"mret", IBEX_IC_MRET},
    [H_WFI] = {"wfi", IBEX_IC_WFI}, [H_ILLEGAL] = {"illegal", IBEX_IC_ILLEGAL},
};

void smn_ibex_decode(const ibex_config *cfg, uint16_t lo, uint16_t hi, ibex_decoded *d)
{
    static const char *const csr_names[8] = {"csrr?", "csrrw", "csrrs", "csrrc",
                                             "csrr?i", "csrrwi", "csrrsi", "csrrci"};
    ibex_core tmp;   /* only cfg and t are read by the predecoder */
    ibex_op op;
    memset(&tmp, 0, sizeof tmp);
    tmp.cfg = *cfg;
    smn_ibex_timing_init(cfg, &tmp.t);
    smn_ibex_predecode(&tmp, lo, hi, &op);
    memset(d, 0, sizeof *d);
    d->iclass = handler_info[op.h].ic;
    d->mnemonic = handler_info[op.h].name;
    d->len = op.len;
    d->rd = op.rd == IBEX_RD_DISCARD ? 0 : op.rd;
    d->rs1 = op.rs1;
    d->rs2 = op.rs2;
    d->imm = op.imm;
    if (op.h == H_CSR) {
        uint32_t raw = (uint32_t)op.imm;
        d->csr = op.aux;
        d->mnemonic = csr_names[raw >> 12 & 7];
        d->imm = (raw >> 12 & 4) ? (int32_t)(raw >> 15 & 31) : 0;
    }
}
