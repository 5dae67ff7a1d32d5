/* irq_lsu: timer interrupts on loads and stores that stall, with the counters running. Sweeps
 * (irq.h) over aligned loads each followed by a use of the loaded value, aligned stores, loads
 * split across two words (two bus transactions) and split stores. */
#include "irq.h"
  IRQ_SUPPORT

.macro LOADS
  la a6, data
  .rept 8
  lw a5, 0(a6)
  addi a5, a5, 1
  .endr
.endm
.macro STORES
  la a6, data
  .rept 8
  sw a5, 4(a6)
  addi a5, a5, 1
  .endr
.endm
.macro SPLIT_LOADS
  la a6, data
  .rept 6
  lw a5, 2(a6)
  addi a5, a5, 1
  .endr
.endm
.macro SPLIT_STORES
  la a6, data
  .rept 6
  sw a5, 10(a6)
  addi a5, a5, 1
  .endr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SWEEP "sweep over loads and their use", 2, 16, LOADS
  SWEEP "sweep over stores", 2, 16, STORES
  SWEEP "sweep over loads split across words", 2, 16, SPLIT_LOADS
  SWEEP "sweep over stores split across words", 2, 16, SPLIT_STORES

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .data
  .balign 4
data: .word 0x11223344, 0x55667788, 0x99aabbcc, 0xddeeff00
