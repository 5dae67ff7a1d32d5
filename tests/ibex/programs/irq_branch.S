/* irq_branch: timer interrupts on branches, with the counters running. Sweeps (irq.h) over a chain
 * of taken forward branches, a backward counted loop (taken each time but the last) and a chain of
 * branches not taken. */
#include "irq.h"
  IRQ_SUPPORT

.macro TAKEN
  .rept 8
  beq zero, zero, 2f
  c.nop                     /* skipped */
2:addi a5, a5, 1
  .endr
.endm
.macro LOOP
  li a4, 10
3:addi a4, a4, -1
  bnez a4, 3b
.endm
.macro NOT_TAKEN
  .rept 8
  bne zero, zero, 2f
2:addi a5, a5, 1
  .endr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SWEEP "sweep over taken branches", 2, 14, TAKEN
  SWEEP "sweep over a backward loop", 2, 14, LOOP
  SWEEP "sweep over branches not taken", 2, 10, NOT_TAKEN

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
