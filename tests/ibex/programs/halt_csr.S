/* halt_csr: a CSR write that flushes the pipeline (mie) after the halting store. It completes in
 * its first cycle: small retires it in the last cycle; maxperf retires it and flushes in the
 * second, so nothing enters WB at the last edge and the speculative read counts it twice. */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: csrw mie after the halting store"
  sw t1, 0(t0)
  csrw mie, zero
  addi a0, a0, 1
  j .
