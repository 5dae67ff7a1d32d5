/* halt_branch: a taken branch after the halting store. small: only its first cycle runs
 * (NumBranches +1; not yet taken, not retired). maxperf: it completes in the first cycle (taken,
 * retired) and the fetch of its target fills the second (NumCyclesIF +1); nothing enters WB at the
 * last edge, so the speculative read counts the branch twice in minstret (issue #2252). */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: a taken branch after the halting store"
  sw t1, 0(t0)
  beq x0, x0, 1f
  addi a0, a0, 1
1:addi a1, a1, 1
  j .
