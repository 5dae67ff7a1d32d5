/* halt_div: c.addi, then div, after the halting store. small: c.addi retires in the last cycle.
 * maxperf: c.addi, then the first of div's 36 stall cycles (NumCyclesDivWait +1); nothing enters WB
 * at the last edge, so the speculative read counts c.addi twice (minstret, NumInstrRetC). */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: c.addi, div after the halting store"
  sw t1, 0(t0)
  c.addi a0, 1
  div a2, t1, t1
  j .
