/* halt_load: a load after the halting store, then a store to SimCtrl's output of the loaded byte.
 * small: the load issues in the last cycle (NumLoads, NumCyclesLSU +1) and does not retire.
 * maxperf: the load runs; the store waits for its data (load-use stall, NumCyclesLSU +1) in the
 * last cycle, so it never issues and prints nothing; with nothing entering WB at the last edge,
 * the speculative read counts the load (compressed) twice in minstret and NumInstrRetC. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  li a2, '?'
  sw a2, 0(sp)
  SM_HALT_BEGIN "halt: a load, then a store of what it loaded"
  sw t1, 0(t0)
  lw a2, 0(sp)
  sb a2, -8(t0)
  j .
