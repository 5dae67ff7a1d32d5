/* halt_ecall: a compressed halting store (c.sw), then ecall. The trap's entry takes longer than
 * the last two cycles and nothing of it counts. small: nothing after the store. maxperf: nothing
 * enters WB after the store, so the speculative read counts the store twice (minstret and, as it
 * is compressed, NumInstrRetC). */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: c.sw halts, then ecall"
  li a5, SM_SIMCTRL_CTRL
  li a4, 1
  c.sw a4, 0(a5)
  ecall
  addi a0, a0, 1
  j .
