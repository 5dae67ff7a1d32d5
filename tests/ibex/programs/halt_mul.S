/* halt_mul: mulh after the halting store. small (3 stall cycles): one of them counts
 * (NumCyclesMulWait +1), no retirement. maxperf (single-cycle multiplier, mulh takes 2): its stall
 * and its completion both fit; it retires. */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: mulh after the halting store"
  sw t1, 0(t0)
  mulh a2, t1, t1
  addi a1, a0, 1
  j .
