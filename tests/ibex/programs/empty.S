/* empty: the measuring bracket with nothing inside, i.e. the window overhead every other
 * program's figures include (spec §7: mcycle 3, minstret 1, NumCyclesIF 1 on `small`). */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  SM_ZERO
  SM_START
  SM_STOP
  SM_PRINT
  lw ra, 12(sp)
  addi sp, sp, 16
  ret
