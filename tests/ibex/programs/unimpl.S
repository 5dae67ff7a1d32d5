/* unimpl: counters that are not implemented with MHPMCounterNum = 10 (mhpmcounter13..31 and
 * their high halves) read 0, ignore writes and do not trap; the timing of such a write. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  li s5, 0x77

  .irp n, 13, 14, 20, 31
  csrw mhpmcounter\n, s5
  csrw mhpmcounter\n\()h, s5
  csrr s2, mhpmcounter\n
  csrr s3, mhpmcounter\n\()h
  SM_PRINT_REG "mhpmcounter\n", s2
  SM_PRINT_REG "mhpmcounter\n\()h", s3
  .endr

  SM_BEGIN "write mhpmcounter13"
  csrw mhpmcounter13, s5
  SM_END

  SM_BEGIN "read mhpmcounter13h"
  csrr s2, mhpmcounter13h
  SM_END

  SM_BEGIN "csrrs with x0 on mhpmcounter20 (a read)"
  csrrs s2, mhpmcounter20, zero
  SM_END

  la a0, sm_trap_count
  lw s2, 0(a0)
  SM_PRINT_REG "traps", s2

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
