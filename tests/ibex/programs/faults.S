/* faults: loads and stores that get a bus error (simple_system answers an address outside RAM,
 * SimCtrl and the timer with an error response): load and store access faults (mcause 5 and 7),
 * and a misaligned word load whose second half falls outside RAM. A faulting load/store is not
 * counted in minstret but is counted in NumLoads/NumStores (at its first request, spec §1.5).
 * Also loads from the timer (a device other than RAM) inside a window. */
#include "ibex_test.h"

.macro RESULTS
  la s2, sm_last_mcause
  lw s3, 0(s2)
  lw s4, 4(s2)
  lw s5, 8(s2)
  SM_PRINT_REG "mcause", s3
  SM_PRINT_REG "mtval", s4
  SM_PRINT_REG "traps", s5
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  li s0, 0x00040000
  SM_BEGIN "load from unmapped 0x40000"
  lw a0, 0(s0)
  SM_END
  RESULTS

  SM_BEGIN "store to unmapped 0x40004"
  sw s0, 4(s0)
  SM_END
  RESULTS

  SM_BEGIN "byte load from unmapped 0x0"
  lbu a0, 0(zero)
  SM_END
  RESULTS

  li s0, 0x001ffffe
  SM_BEGIN "misaligned lw at 0x1ffffe: second half outside RAM"
  lw a0, 0(s0)
  SM_END
  RESULTS

  SM_BEGIN "misaligned sw at 0x1ffffd: second half outside RAM"
  sw s0, -1(s0)
  SM_END
  RESULTS

  li s0, SM_TIMER_BASE
  SM_BEGIN "two loads from the timer (mtime lo, hi)"
  lw a0, 0(s0)
  lw a1, 4(s0)
  SM_STOP
  mv s2, a1
  SM_PRINT
  SM_PRINT_REG "mtimeh", s2

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
