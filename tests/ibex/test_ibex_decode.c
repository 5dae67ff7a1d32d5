/* The Ibex predecoder: every compressed instruction decodes to the same
 * operation as its 32-bit expansion (pairs assembled with Debian's
 * riscv64-unknown-elf-as 2.40), Ibex's illegal encodings are illegal, and
 * instruction classes/operands come out right. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "ibex/ibex_asm.h"
#include "targets/ibex_config.h"

static const struct {
    uint16_t c;
    uint32_t w;
    const char *text;
} pairs[] = {
    {0x0800, 0x01010413, "c.addi4spn s0, sp, 16"},
    {0x451c, 0x00852783, "c.lw a5, 8(a0)"},
    {0xdd7c, 0x06f52e23, "c.sw a5, 124(a0)"},
    {0x1501, 0xfe050513, "c.addi a0, -32"},
    {0x0001, 0x00000013, "c.nop"},
    {0x45fd, 0x01f00593, "c.li a1, 31"},
    {0x7581, 0xfffe05b7, "c.lui a1, 0xfffe0"},
    {0x7101, 0xe0010113, "c.addi16sp sp, -512"},
    {0x80fd, 0x01f4d493, "c.srli s1, 31"},
    {0x860d, 0x40365613, "c.srai a2, 3"},
    {0x9afd, 0xfff6f693, "c.andi a3, -1"},
    {0x8c05, 0x40940433, "c.sub s0, s1"},
    {0x8f3d, 0x00f74733, "c.xor a4, a5"},
    {0x8f5d, 0x00f76733, "c.or a4, a5"},
    {0x8f7d, 0x00f77733, "c.and a4, a5"},
    {0x029e, 0x00729293, "c.slli t0, 7"},
    {0x50fe, 0x0fc12083, "c.lwsp ra, 252(sp)"},
    {0xc07e, 0x01f12023, "c.swsp t6, 0(sp)"},
    {0x8282, 0x00028067, "c.jr t0"},
    {0x9502, 0x000500e7, "c.jalr a0"},
    {0x852e, 0x00b00533, "c.mv a0, a1"},
    {0x952e, 0x00b50533, "c.add a0, a1"},
    {0x9002, 0x00100073, "c.ebreak"},
};

static void decode_pair(uint16_t c16, uint32_t w, const char *text)
{
    ibex_config cfg;
    ibex_decoded a, b;
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    smn_ibex_decode(&cfg, c16, 0, &a);
    smn_ibex_decode(&cfg, (uint16_t)w, (uint16_t)(w >> 16), &b);
    if (strcmp(a.mnemonic, b.mnemonic) != 0 || a.rd != b.rd || a.rs1 != b.rs1 || a.rs2 != b.rs2 ||
        a.imm != b.imm || a.iclass != b.iclass)
        print_error("%s: %s rd%u rs1 %u rs2 %u imm %d vs %s rd%u rs1 %u rs2 %u imm %d\n", text,
                    a.mnemonic, a.rd, a.rs1, a.rs2, a.imm, b.mnemonic, b.rd, b.rs1, b.rs2, b.imm);
    assert_string_equal(a.mnemonic, b.mnemonic);
    assert_int_equal(a.rd, b.rd);
    assert_int_equal(a.rs1, b.rs1);
    assert_int_equal(a.rs2, b.rs2);
    assert_int_equal(a.imm, b.imm);
    assert_int_equal(a.iclass, b.iclass);
    assert_int_equal(a.len, 2);
    assert_int_equal(b.len, 4);
}

static void test_compressed_expansion(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        decode_pair(pairs[i].c, pairs[i].w, pairs[i].text);
    /* c.j / c.jal / c.beqz / c.bnez (as assembled at 0, 2, 4, 6 to 0xd0 / 0xfa) */
    decode_pair(0xa8c1, JAL(0, 0xd0), "c.j");
    decode_pair(0x20f9, JAL(1, 0xce), "c.jal");
    decode_pair(0xc571, BEQ(10, 0, 0xcc), "c.beqz");
    decode_pair(0xebf5, BNE(15, 0, 0xf4), "c.bnez");
}

static void expect_illegal(const ibex_config *cfg, uint32_t w, const char *what)
{
    ibex_decoded d;
    smn_ibex_decode(cfg, (uint16_t)w, (uint16_t)(w >> 16), &d);
    if (d.iclass != IBEX_IC_ILLEGAL)
        print_error("%s (0x%08x) decoded as %s\n", what, w, d.mnemonic);
    assert_int_equal(d.iclass, IBEX_IC_ILLEGAL);
}

static void test_illegal(void **state)
{
    ibex_config cfg;
    (void)state;
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    expect_illegal(&cfg, 0x0000, "c.addi4spn imm 0 (all zeros)");
    expect_illegal(&cfg, 0x4002, "c.lwsp rd=0");
    expect_illegal(&cfg, 0x8002, "c.jr x0");
    expect_illegal(&cfg, 0x6101, "c.addi16sp imm 0");
    expect_illegal(&cfg, 0x6581, "c.lui imm 0");
    expect_illegal(&cfg, 0x1002 | (1u << 7), "c.slli shamt[5]");
    expect_illegal(&cfg, 0x9001 | (8u << 7 & 0x380), "c.srli shamt[5]");
    expect_illegal(&cfg, 0x2000, "c.fld (quadrant 0, funct3 1)");
    expect_illegal(&cfg, 0xFFFFFFFFu, "all ones");
    expect_illegal(&cfg, SLLI(1, 1, 3) | (1u << 25), "slli with bit 25");
    expect_illegal(&cfg, JALR(1, 2, 0) | (1u << 12), "jalr funct3 1");
    expect_illegal(&cfg, ECALL | (1u << 7), "ecall with rd");
    expect_illegal(&cfg, 0x7B200073u, "dret outside debug mode");
    expect_illegal(&cfg, 0x0000400Fu | (2u << 12), "misc-mem funct3 2");
    expect_illegal(&cfg, (CSRRW(1, 0x300, 2) & ~(7u << 12)) | (4u << 12), "system funct3 4");
    expect_illegal(&cfg, LW(1, 2, 0) | (3u << 12), "ld");
    expect_illegal(&cfg, SW(1, 2, 0) | (3u << 12), "sd");
    expect_illegal(&cfg, BEQ(1, 2, 8) | (2u << 12), "branch funct3 2");
    assert_int_equal(smn_ibex_config("rv32m=none", &cfg), SOCMON_OK);
    expect_illegal(&cfg, MUL(1, 2, 3), "mul with rv32m=none");
    expect_illegal(&cfg, DIV(1, 2, 3), "div with rv32m=none");
}

static void test_operands(void **state)
{
    ibex_config cfg;
    ibex_decoded d;
    (void)state;
    assert_int_equal(smn_ibex_config_preset(&cfg, "maxperf"), SOCMON_OK);
    smn_ibex_decode(&cfg, (uint16_t)BLT(3, 4, -8), (uint16_t)(BLT(3, 4, -8) >> 16), &d);
    assert_string_equal(d.mnemonic, "blt");
    assert_int_equal(d.iclass, IBEX_IC_BRANCH);
    assert_int_equal(d.rs1, 3);
    assert_int_equal(d.rs2, 4);
    assert_int_equal(d.imm, -8);
    smn_ibex_decode(&cfg, (uint16_t)JAL(1, -2048), (uint16_t)(JAL(1, -2048) >> 16), &d);
    assert_int_equal(d.imm, -2048);
    assert_int_equal(d.rd, 1);
    smn_ibex_decode(&cfg, (uint16_t)SW(5, 6, -1), (uint16_t)(SW(5, 6, -1) >> 16), &d);
    assert_int_equal(d.iclass, IBEX_IC_STORE);
    assert_int_equal(d.imm, -1);
    /* csrrs with rs1 = x0 is a read: no register operand */
    smn_ibex_decode(&cfg, (uint16_t)CSRR(7, 0xB00), (uint16_t)(CSRR(7, 0xB00) >> 16), &d);
    assert_int_equal(d.iclass, IBEX_IC_CSR);
    assert_int_equal(d.csr, 0xB00);
    assert_int_equal(d.rd, 7);
    assert_int_equal(d.rs1, 0);
    smn_ibex_decode(&cfg, (uint16_t)CSRRWI(0, 0x320, 31), (uint16_t)(CSRRWI(0, 0x320, 31) >> 16), &d);
    assert_string_equal(d.mnemonic, "csrrwi");
    assert_int_equal(d.imm, 31);
    assert_int_equal(d.rs1, 0);
    smn_ibex_decode(&cfg, (uint16_t)FENCE_I, (uint16_t)(FENCE_I >> 16), &d);
    assert_int_equal(d.iclass, IBEX_IC_FENCEI);
    smn_ibex_decode(&cfg, (uint16_t)MULH(1, 2, 3), (uint16_t)(MULH(1, 2, 3) >> 16), &d);
    assert_int_equal(d.iclass, IBEX_IC_MULH);
    /* x0 destinations are reported as 0 */
    smn_ibex_decode(&cfg, (uint16_t)NOP, 0, &d);
    assert_int_equal(d.rd, 0);
}

/* A store into code invalidates the predecoded slot: self-modifying code
 * runs the new instruction. */
static void test_store_into_code(void **state)
{
    asm_prog p;
    ibex_config cfg;
    ibex_core *c;
    ibex_stop why;
    uint32_t patch_at;
    (void)state;
    asm_init(&p);
    asm_li(&p, 1, 0);               /* x1 = address of the patched instruction (set below) */
    asm_li(&p, 2, ADDI(10, 10, 100));
    asm32(&p, ADDI(3, 0, 2));       /* loop twice */
    patch_at = asm_here(&p);
    asm32(&p, ADDI(10, 10, 1));     /* first pass: +1; then patched to +100 */
    asm32(&p, SW(2, 1, 0));
    asm32(&p, ADDI(3, 3, -1));
    asm32(&p, BNE(3, 0, -12));
    asm_halt(&p);
    /* fill in x1 = patch_at */
    asm_put32(&p, IBEX_SS_RESET_PC, LUI(1, (patch_at + 0x800) >> 12));
    asm_put32(&p, IBEX_SS_RESET_PC + 4,
              ADDI(1, 1, (int32_t)((patch_at & 0xFFF) ^ 0x800) - 0x800));
    assert_int_equal(smn_ibex_config_preset(&cfg, "small"), SOCMON_OK);
    c = asm_core(&p, &cfg);
    assert_non_null(c);
    assert_int_equal(smn_ibex_run(c, 100000, &why), SOCMON_OK);
    assert_int_equal(why, IBEX_STOP_HALT);
    assert_int_equal(smn_ibex_reg(c, 10), 101);
    smn_ibex_destroy(c);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compressed_expansion),
        cmocka_unit_test(test_illegal),
        cmocka_unit_test(test_operands),
        cmocka_unit_test(test_store_into_code),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
