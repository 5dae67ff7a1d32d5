/* jumps: jal, jalr, c.j, c.jal, c.jr, c.jalr, backward jumps, and jumps whose target is a 32-bit
 * instruction straddling a word boundary.
 * Expected (spec §7, small): 2 cycles each, NumJumps +1, NumCyclesIF +0; +1 cycle and +1
 * NumCyclesIF when the target straddles a word. maxperf: jumps add NumCyclesIF 1. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  SM_BEGIN "jal x4 (to aligned 32-bit)"
  .balign 4
  .option push
  .option norvc
  jal zero, 1f
  nop
1:jal zero, 2f
  nop
2:jal zero, 3f
  nop
3:jal zero, 4f
  nop
4:
  .option pop
  SM_END

  SM_BEGIN "jal+jalr call/return x2"
  .option push
  .option norvc
  jal ra, leaf32
  jal ra, leaf32
  .option pop
  SM_END

  SM_BEGIN "c.j c.jal c.jr c.jalr"
  c.j 1f
  c.nop
1:c.jal leaf16
  la a0, leaf16
  c.jalr a0
  la a1, 2f
  c.jr a1
  c.nop
2:
  SM_END

  SM_BEGIN "jal to straddling 32-bit"
  .balign 4
  .option push
  .option norvc
  jal zero, 1f
  .option rvc
  c.nop
  .option norvc
1:addi a0, zero, 1     /* at offset 2 of its word */
  .option pop
  SM_END

  SM_BEGIN "jalr to straddling 32-bit"
  la a2, 1f
  .balign 4
  .option push
  .option norvc
  jalr zero, 0(a2)
  nop
  nop
  .option rvc
  c.nop
  .option norvc
1:addi a0, zero, 2
  .option pop
  SM_END

  SM_BEGIN "c.j to straddling 32-bit"
  .option push
  .balign 4
  c.j 1f
  c.nop
  c.nop
  .option norvc
1:addi a0, zero, 3
  .option pop
  SM_END

  SM_BEGIN "jal to 16-bit at odd half-word"
  .balign 4
  .option push
  .option norvc
  jal zero, 1f
  .option rvc
  c.nop
1:c.li a0, 4
  c.nop
  .option pop
  SM_END

  SM_BEGIN "backward jumps x3"
  li a0, 3
  j 2f
1:addi a0, a0, -1
2:beqz a0, 3f
  j 1b
3:SM_END

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .balign 4
  .option push
  .option norvc
leaf32:
  jalr zero, 0(ra)
  .option pop
  .balign 4
leaf16:
  c.jr ra
