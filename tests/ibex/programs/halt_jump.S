/* halt_jump: c.addi, then jal, after the halting store. small: c.addi retires in the last cycle.
 * maxperf: c.addi, then jal completes in the last cycle (NumJumps +1, retired); the fetch of its
 * target would come after the end, so NumCyclesIF does not move. */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: c.addi, jal after the halting store"
  sw t1, 0(t0)
  c.addi a0, 1
  jal a5, 1f
  addi a0, a0, 1
1:addi a1, a1, 1
  j .
