/* halt_alu: halts with the counters running; ALU instructions follow the halting store. The RTL
 * runs two more clock edges after the store's request (simulator_ctrl.sv), and the counters take
 * them like any others: small finishes the store in the first and retires c.addi in the second
 * (minstret and NumInstrRetC +1); maxperf runs c.addi and add in ID/EX in them, and both count
 * (the add, still in WB at the end, through minstret's speculative read of issue #2252). */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: c.addi, add after the halting store"
  sw t1, 0(t0)
  c.addi a0, 1
  add a1, a0, a0
  xori a2, a1, 5
  j .
