/* irq_csr: timer interrupts right after CSR writes, with the counters running. Sweeps (irq.h) over
 * flushing writes: a counter write (mhpmcounter12, NumCyclesDivWait, which stays 0 here),
 * mcounteren (reads 0, ignores writes, but flushes) and mie (rewriting MTIE); and, to compare, a
 * write that does not flush (mepc, which the interrupt entry overwrites anyway). */
#include "irq.h"
  IRQ_SUPPORT

.macro W_CNT
  .rept 8
  csrw mhpmcounter12, zero
  addi a5, a5, 1
  .endr
.endm
.macro W_MCOUNTEREN
  .rept 8
  csrw mcounteren, zero
  addi a5, a5, 1
  .endr
.endm
.macro W_MIE
  li a4, 0x80
  .rept 8
  csrs mie, a4
  addi a5, a5, 1
  .endr
.endm
.macro W_MEPC
  .rept 8
  csrw mepc, a5
  addi a5, a5, 1
  .endr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SWEEP "sweep over csrw mhpmcounter12", 2, 16, W_CNT
  SWEEP "sweep over csrw mcounteren", 2, 16, W_MCOUNTEREN
  SWEEP "sweep over csrs mie", 2, 16, W_MIE
  SWEEP "sweep over csrw mepc (no flush)", 2, 12, W_MEPC

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
