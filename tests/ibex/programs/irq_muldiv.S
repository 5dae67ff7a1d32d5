/* irq_muldiv: timer interrupts during multi-cycle multiplies and divides, with the counters running.
 * Sweeps (irq.h) across two back-to-back divides (long on both configurations), a divide by zero,
 * and mulh (multi-cycle on small's fast multiplier, one cycle on maxperf's). */
#include "irq.h"
  IRQ_SUPPORT

.macro DIVS
  li a6, 1000003
  li a7, 7
  div a5, a6, a7
  rem a4, a6, a7
.endm
.macro DIV0
  li a6, 1000003
  .rept 6
  divu a5, a6, zero
  .endr
.endm
.macro MULHS
  li a6, 1000003
  li a7, -7
  .rept 8
  mulh a5, a6, a7
  addi a6, a6, 1
  .endr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SWEEP "sweep over div and rem", 2, 44, DIVS
  SWEEP "sweep over divide by zero", 2, 12, DIV0
  SWEEP "sweep over mulh", 2, 16, MULHS

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
