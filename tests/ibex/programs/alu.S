/* alu: straight-line ALU instructions, 32-bit and compressed, and a mix in which 32-bit
 * instructions straddle word boundaries (no jumps: the prefetch buffer should hide that).
 * Expected (spec §7, small): 1 cycle each. The results are printed so that the model's
 * arithmetic is checked too. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  li s2, 0x12345678
  li s3, -7
  li s4, 5

  SM_BEGIN "alu32"
  .option push
  .option norvc
  add  a0, s2, s3
  sub  a1, s2, s3
  and  a2, s2, s3
  or   a3, s2, s3
  xor  a4, s2, s3
  sll  a5, s2, s4
  srl  a6, s3, s4
  sra  a7, s3, s4
  slt  t3, s3, s2
  sltu t4, s3, s2
  addi t5, s2, -2048
  andi t2, s2, 0x7f0
  ori  s5, s3, 0x123
  xori s6, s2, -1
  slli s7, s2, 31
  srli s8, s3, 1
  srai s9, s3, 2
  slti s10, s3, -8
  sltiu s11, s4, 6
  lui  s1, 0xfedcb
  auipc s0, 0x1
  .option pop
  SM_STOP
  sub s0, s0, s2        /* auipc result relative to something fixed at link time */
  la t0, main
  sub s0, s0, t0
  add a0, a0, a1
  add a0, a0, a2
  add a0, a0, a3
  add a0, a0, a4
  add a0, a0, a5
  add a0, a0, a6
  add a0, a0, a7
  add a0, a0, t3
  add a0, a0, t4
  add a0, a0, t5
  add a0, a0, t2
  add a0, a0, s5
  add a0, a0, s6
  add a0, a0, s7
  add a0, a0, s8
  add a0, a0, s9
  add a0, a0, s10
  add a0, a0, s11
  add a0, a0, s1
  mv s1, a0
  SM_PRINT
  SM_PRINT_REG "sum", s1
  SM_PRINT_REG "auipc-rel", s0

  SM_BEGIN "alu16"
  c.li   a0, 13
  c.addi a0, -3
  c.lui  a1, 0x1f
  c.mv   a2, a0
  c.add  a2, a1
  c.sub  a2, a0
  c.and  a2, a1
  c.or   a2, a0
  c.xor  a2, a1
  c.slli a2, 3
  c.srli a2, 1
  c.srai a2, 2
  c.andi a2, -17
  c.nop
  c.addi a0, 1
  c.addi a0, 1
  SM_STOP
  mv s1, a0
  mv s2, a2
  SM_PRINT
  SM_PRINT_REG "a0", s1
  SM_PRINT_REG "a2", s2

  SM_BEGIN "alu-straddle"
  /* 16/32/32/16/32... so most 32-bit instructions start at a half-word boundary */
  c.li  a0, 1
  .option push
  .option norvc
  addi  a0, a0, 2
  addi  a0, a0, 3
  .option pop
  c.addi a0, 4
  .option push
  .option norvc
  xori  a0, a0, 0x55
  .option pop
  c.nop
  c.nop
  .option push
  .option norvc
  slli  a0, a0, 1
  addi  a0, a0, 1
  .option pop
  c.addi a0, 1
  .option push
  .option norvc
  addi  a0, a0, 1
  addi  a0, a0, 1
  addi  a0, a0, 1
  .option pop
  SM_STOP
  mv s1, a0
  SM_PRINT
  SM_PRINT_REG "a0", s1

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
