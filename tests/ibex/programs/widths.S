/* widths: MHPMCounterWidth at work (run on configs small_w1, _w31, _w32, _w33, _w64 and the 40-bit
 * small/maxperf): what all-ones written to both halves reads back, wrap-around at the width,
 * crossing bit 31, and a high-half write in the middle of a run (for W <= 32 it changes no bit). */
#include "ibex_test.h"

.macro HALVES tag, n
  csrr s2, mhpmcounter\n
  csrr s3, mhpmcounter\n\()h
  SM_PRINT_REG "\tag-lo", s2
  SM_PRINT_REG "\tag-hi", s3
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  la s0, word

  SM_TITLE "probe: all ones written to mhpmcounter3 (inhibited)"
  SM_ZERO
  li t0, -1
  csrw mhpmcounter3, t0
  csrw mhpmcounter3h, t0
  HALVES "hpm3", 3

  SM_TITLE "wrap: NumLoads from all ones, 3 loads"
  SM_ZERO
  csrw mhpmcounter5, x31
  csrw mhpmcounter5h, x31
  SM_START
  lw a0, 0(s0)
  lw a0, 0(s0)
  lw a0, 0(s0)
  SM_STOP
  SM_PRINT
  HALVES "hpm5", 5

  SM_TITLE "cross bit 31: NumStores from 0x7ffffffe, 4 stores"
  SM_ZERO
  li t0, 0x7ffffffe
  csrw mhpmcounter6, t0
  SM_START
  sw a0, 4(s0)
  sw a0, 4(s0)
  sw a0, 4(s0)
  sw a0, 4(s0)
  SM_STOP
  SM_PRINT
  HALVES "hpm6", 6

  SM_TITLE "cross bit 32: NumJumps from 0xfffffffe, 3 jumps"
  SM_ZERO
  li t0, 0xfffffffe
  csrw mhpmcounter7, t0
  SM_START
  j 1f
1:j 2f
2:j 3f
3:SM_STOP
  SM_PRINT
  HALVES "hpm7", 7

  SM_TITLE "high-half write mid-run (NumLoads)"
  SM_ZERO
  li s5, 0x12345679
  SM_START
  lw a0, 0(s0)
  csrw mhpmcounter5h, s5
  lw a0, 0(s0)
  csrr s6, mhpmcounter5
  csrr s7, mhpmcounter5h
  SM_STOP
  SM_PRINT
  SM_PRINT_REG "read-lo", s6
  SM_PRINT_REG "read-hi", s7

  SM_TITLE "low-half write mid-run keeps the high half (NumLoads)"
  SM_ZERO
  li s5, 3
  csrw mhpmcounter5h, s5
  SM_START
  lw a0, 0(s0)
  csrw mhpmcounter5, x31
  lw a0, 0(s0)
  SM_STOP
  SM_PRINT
  HALVES "hpm5", 5

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 1, 0
