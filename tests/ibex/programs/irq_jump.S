/* irq_jump: timer interrupts on jumps to word-straddling targets, with the counters running.
 * Each hop is a compressed jump at a word boundary to a 32-bit instruction at an address = 2 mod 4
 * (it straddles two words: maxperf's fetch needs both). Sweeps (irq.h) move the interrupt one cycle
 * per iteration across c.jal hops, c.j hops and 32-bit jal hops. */
#include "irq.h"
  IRQ_SUPPORT

.macro HOPS insn
  .rept 8
  .balign 4
  \insn 2f
  c.nop                     /* skipped */
  c.nop                     /* skipped */
  .option push
  .option norvc
2:addi a5, a5, 1            /* at 4n + 6: straddles a word */
  .option pop
  .endr
.endm
.macro CJAL_HOPS
  HOPS c.jal
.endm
.macro CJ_HOPS
  HOPS c.j
.endm
.macro JAL_HOPS
  .rept 8
  .balign 4
  .option push
  .option norvc
  jal 2f
  .option pop
  c.nop                     /* skipped */
  .option push
  .option norvc
2:addi a5, a5, 1            /* at 4n + 6 */
  .option pop
  .endr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SWEEP "sweep over c.jal to straddling targets", 2, 16, CJAL_HOPS
  SWEEP "sweep over c.j to straddling targets", 2, 16, CJ_HOPS
  SWEEP "sweep over jal to straddling targets", 2, 16, JAL_HOPS

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
