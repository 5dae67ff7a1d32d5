/* halt_wfi: the end of Ibex's own examples/sw/simple_system crt0.S (halt, then WFI in a loop),
 * written anew here. WFI completes in its first cycle: small retires it in the last cycle;
 * maxperf retires it and sleeps in the second, and the speculative read counts it twice. */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: wfi after the halting store"
  sw t1, 0(t0)
1:wfi
  j 1b
