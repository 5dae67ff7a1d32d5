/* fence: fence (an ALU-like no-op on Ibex) and fence.i (decoded as a jump to pc+4: it counts in
 * NumJumps, spec §7), alone, back to back, and before a straddling 32-bit instruction. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  SM_BEGIN "fence x2"
  fence
  fence rw, rw
  SM_END

  SM_BEGIN "fence.i x1"
  fence.i
  SM_END

  SM_BEGIN "fence.i x3"
  fence.i
  fence.i
  fence.i
  SM_END

  SM_BEGIN "fence.i then straddling 32-bit"
  .balign 4
  c.nop
  fence.i               /* at offset 2: the next instruction straddles a word */
  .option push
  .option norvc
  addi a0, zero, 1
  .option pop
  SM_END

  SM_BEGIN "store then fence.i then load"
  la a0, word
  li a1, 42
  sw a1, 0(a0)
  fence.i
  lw a2, 0(a0)
  SM_END

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 0
