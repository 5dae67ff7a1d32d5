/* loadstore: aligned loads and stores of each width, 32-bit and compressed, independent and
 * load-use dependent, and a store followed by a load of the same word.
 * Expected (spec §7): small 2 cycles each, NumCyclesLSU +1; maxperf 1 cycle, NumCyclesLSU only
 * for load-use stalls. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  la s0, buf

  SM_BEGIN "lw x4"
  lw a0, 0(s0)
  lw a1, 4(s0)
  lw a2, 8(s0)
  lw a3, 12(s0)
  SM_STOP
  add s2, a0, a1
  add s2, s2, a2
  add s2, s2, a3
  SM_PRINT
  SM_PRINT_REG "sum", s2

  SM_BEGIN "lb lbu lh lhu"
  lb  a0, 3(s0)
  lbu a1, 3(s0)
  lh  a2, 6(s0)
  lhu a3, 6(s0)
  SM_STOP
  mv s2, a0
  mv s3, a1
  mv s4, a2
  mv s5, a3
  SM_PRINT
  SM_PRINT_REG "lb", s2
  SM_PRINT_REG "lbu", s3
  SM_PRINT_REG "lh", s4
  SM_PRINT_REG "lhu", s5

  li s2, 0xa5a5a5a5
  SM_BEGIN "sw sh sb x4"
  .option push
  .option norvc
  sw s2, 16(s0)
  sh s2, 20(s0)
  sb s2, 22(s0)
  sb s2, 23(s0)
  .option pop
  SM_END
  lw s2, 16(s0)
  lw s3, 20(s0)
  SM_PRINT_REG "w16", s2
  SM_PRINT_REG "w20", s3

  SM_BEGIN "load-use x4"
  lw a0, 0(s0)
  addi a0, a0, 1
  lw a1, 4(s0)
  add a1, a1, a0
  lbu a2, 1(s0)
  sub a2, a2, a1
  lw a3, 8(s0)
  sw a3, 24(s0)
  SM_STOP
  mv s2, a2
  SM_PRINT
  SM_PRINT_REG "a2", s2

  SM_BEGIN "store-load same word"
  li a0, 0x1234
  sw a0, 28(s0)
  lw a1, 28(s0)
  addi a1, a1, 1
  sb a1, 29(s0)
  lhu a2, 28(s0)
  SM_STOP
  mv s2, a2
  SM_PRINT
  SM_PRINT_REG "lhu", s2

  SM_BEGIN "compressed c.lw c.sw c.lwsp c.swsp"
  c.lw a0, 0(s0)
  c.lw a1, 4(s0)
  c.sw a0, 32(s0)
  c.sw a1, 36(s0)
  c.swsp a0, 0(sp)
  c.lwsp a2, 0(sp)
  SM_STOP
  mv s2, a2
  SM_PRINT
  SM_PRINT_REG "lwsp", s2

  SM_BEGIN "back-to-back stores x8"
  sw zero, 40(s0)
  sw zero, 44(s0)
  sw zero, 48(s0)
  sw zero, 52(s0)
  sw s0, 56(s0)
  sw s0, 60(s0)
  sw s0, 64(s0)
  sw s0, 68(s0)
  SM_END

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .data
  .balign 4
buf:
  .word 0x80706050, 0x11223344, 0xfedcba98, 0x0badcafe
  .space 64
