/* muldiv: every RV32M instruction alone in a window, back-to-back multiplies, a multiply whose
 * result is used at once, divide by zero and the INT_MIN / -1 overflow.
 * Expected (spec §7, small = RV32MFast): MUL 3 cycles (wait 2), MULH* 4 (wait 3), DIV/REM 37
 * (wait 36, also INT_MIN/-1), divide by zero 2 (wait 1). maxperf (RV32MSingleCycle): MUL wait 0,
 * MULH wait 1. The results are printed too. */
#include "ibex_test.h"

/* One instruction alone in a window; its result is printed after the counters. */
.macro ONE title, insn, a, b
  li s2, \a
  li s3, \b
  SM_BEGIN "\title"
  \insn s4, s2, s3
  SM_END
  SM_PRINT_REG "result", s4
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  ONE "mul", mul, 123456789, -987
  ONE "mulh", mulh, -123456789, 987654321
  ONE "mulhsu", mulhsu, -123456789, 0xfedcba98
  ONE "mulhu", mulhu, 0xfedcba98, 0x89abcdef
  ONE "div", div, -1000000007, 12345
  ONE "divu", divu, 0xfedcba98, 7
  ONE "rem", rem, -1000000007, 12345
  ONE "remu", remu, 0xfedcba98, 7
  ONE "div small operands", div, 7, 2
  ONE "div by zero", div, 12345, 0
  ONE "divu by zero", divu, 12345, 0
  ONE "rem by zero", rem, -12345, 0
  ONE "remu by zero", remu, 12345, 0
  ONE "div INT_MIN/-1", div, 0x80000000, -1
  ONE "rem INT_MIN/-1", rem, 0x80000000, -1
  ONE "divu 0x80000000/0xffffffff", divu, 0x80000000, -1
  ONE "mul by zero", mul, 0, 12345
  ONE "mulhu by one", mulhu, 0xffffffff, 1

  li s2, 3
  li s3, 5
  SM_BEGIN "mul x4 back to back"
  mul a0, s2, s3
  mul a1, s2, s2
  mul a2, s3, s3
  mul a3, a0, a1
  SM_STOP
  add s4, a2, a3
  SM_PRINT
  SM_PRINT_REG "result", s4

  SM_BEGIN "mul then use"
  mul a0, s2, s3
  addi a0, a0, 1
  mulh a1, a0, s3
  add a1, a1, a0
  SM_STOP
  mv s4, a1
  SM_PRINT
  SM_PRINT_REG "result", s4

  SM_BEGIN "div then use then mul"
  li a0, 1000
  div a1, a0, s2
  addi a1, a1, 1
  mul a2, a1, s3
  rem a3, a2, s3
  SM_STOP
  add s4, a2, a3
  SM_PRINT
  SM_PRINT_REG "result", s4

  SM_BEGIN "load then mul (load-use)"
  la a0, word
  lw a1, 0(a0)
  mul a2, a1, s3
  SM_STOP
  mv s4, a2
  SM_PRINT
  SM_PRINT_REG "result", s4

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 77
