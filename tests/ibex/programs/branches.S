/* branches: conditional branches taken and not taken, forward and backward, 32-bit and
 * compressed (c.beqz/c.bnez), and a taken branch whose target is a 32-bit instruction
 * straddling a word boundary.
 * Expected (spec §7, small): not taken 1 cycle; taken 3 cycles with NumCyclesIF +1;
 * maxperf (branch target ALU) taken 2 cycles. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  li s2, 1
  li s3, -1

  SM_BEGIN "not taken x6"
  .option push
  .option norvc
  beq  s2, s3, 9f
  bne  s2, s2, 9f
  blt  s2, s3, 9f
  bge  s3, s2, 9f
  bltu s3, s2, 9f
  bgeu s2, s3, 9f
  .option pop
9:SM_END

  SM_BEGIN "taken x6"
  .option push
  .option norvc
  beq  s2, s2, 1f
  nop
1:bne  s2, s3, 2f
  nop
2:blt  s3, s2, 3f
  nop
3:bge  s2, s3, 4f
  nop
4:bltu s2, s3, 5f
  nop
5:bgeu s3, s2, 6f
  nop
6:
  .option pop
  SM_END

  SM_BEGIN "compressed c.beqz c.bnez"
  li a0, 0
  li a1, 5
  c.beqz a0, 1f        /* taken */
  c.nop
1:c.bnez a0, 2f        /* not taken */
  c.bnez a1, 2f        /* taken */
  c.nop
2:c.beqz a1, 3f        /* not taken */
3:SM_END

  SM_BEGIN "loop 10 backward"
  li a0, 10
1:addi a0, a0, -1
  bnez a0, 1b
  SM_END

  SM_BEGIN "taken to straddling 32-bit"
  .balign 4
  .option push
  .option norvc
  beq s2, s2, 1f
  nop
  .option rvc
  c.nop
  .option norvc
1:addi a0, zero, 7      /* starts at offset 2 of a word */
  addi a0, a0, 1
  .option pop
  SM_END

  SM_BEGIN "taken to odd half-word 16-bit"
  .balign 4
  .option push
  .option norvc
  beq s2, s2, 1f
  nop
  .option rvc
  c.nop
1:c.addi a0, 1
  c.nop
  .option pop
  SM_END

  SM_BEGIN "branch on load result"
  la a0, word
  lw a1, 0(a0)
  beq a1, s2, 1f
  nop
1:lw a2, 0(a0)
  bne a2, s2, 2f
  SM_STOP
2:SM_STOP
  SM_PRINT

  /* The spec (§1.5, inferred, unverified) suspects that with the writeback stage a branch held in
   * its first cycle behind an outstanding load/store counts in NumBranches more than once. */
  la s0, word
  SM_BEGIN "branches right after a store and an independent load"
  sw s2, 4(s0)
  beq s2, s3, 1f
  lw a0, 0(s0)
  bne s2, s3, 1f
  nop
1:sw s2, 4(s0)
  bne s2, s3, 2f
  nop
2:lw a0, 0(s0)
  beq a0, a0, 3f
  nop
3:SM_END

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .data
  .balign 4
word: .word 1, 0
