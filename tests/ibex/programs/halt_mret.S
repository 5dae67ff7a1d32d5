/* halt_mret: mret after the halting store (mepc = the next instruction, MPP = M). mret completes in
 * its first cycle, then flushes: small retires it in the last cycle; maxperf retires it, flushes in
 * the second, and the speculative read counts it twice (nothing entered WB at the last edge). */
#include "ibex_test.h"
  .text
  .globl main
main:
  la a0, 1f
  csrw mepc, a0
  li a0, 0x1800           /* mstatus.MPP = M */
  csrs mstatus, a0
  SM_HALT_BEGIN "halt: mret after the halting store"
  sw t1, 0(t0)
  mret
1:addi a0, a0, 1
  j .
