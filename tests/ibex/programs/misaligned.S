/* misaligned: loads and stores misaligned within one word (one bus transaction) and split across
 * two words (two transactions). Ibex handles both in hardware (no trap).
 * Expected (spec §7, small): within a word = aligned cost; split = 3 cycles, NumCyclesLSU +2;
 * NumLoads/NumStores count once per instruction (the doc page says twice: it is stale). */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  la s0, buf

  SM_BEGIN "lh +1 (within word)"
  lh a0, 1(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lhu +2 (aligned half)"
  lhu a0, 2(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lh +3 (split)"
  lh a0, 3(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lw +1 (split)"
  lw a0, 1(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lw +2 (split)"
  lw a0, 6(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lw +3 (split)"
  lw a0, 11(s0)
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  SM_BEGIN "lw +3 (split) then use"
  lw a0, 11(s0)
  addi a0, a0, 1
  SM_STOP
  mv s2, a0
  SM_PRINT
  SM_PRINT_REG "val", s2

  li s3, 0xc3d2e1f0
  SM_BEGIN "sh +1 (within word)"
  sh s3, 17(s0)
  SM_END
  SM_BEGIN "sh +3 (split)"
  sh s3, 23(s0)
  SM_END
  SM_BEGIN "sw +1 (split)"
  sw s3, 25(s0)
  SM_END
  SM_BEGIN "sw +2 (split)"
  sw s3, 34(s0)
  SM_END
  SM_BEGIN "sw +3 (split)"
  sw s3, 43(s0)
  SM_END

  SM_BEGIN "mixed x6"
  lw a0, 1(s0)
  sw a0, 49(s0)
  lh a1, 5(s0)
  sh a1, 55(s0)
  lhu a2, 9(s0)
  lw a3, 50(s0)
  SM_STOP
  add s2, a0, a1
  add s2, s2, a2
  add s2, s2, a3
  SM_PRINT
  SM_PRINT_REG "sum", s2

  /* the stores' effect, word by word */
  li s4, 16
1:add t0, s0, s4
  lw s2, 0(t0)
  SM_PRINT_REG "word", s2
  addi s4, s4, 4
  li t0, 60
  blt s4, t0, 1b

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .data
  .balign 4
buf:
  .word 0x03020100, 0x07060504, 0x0b0a0908, 0x0f0e0d0c
  .space 48
