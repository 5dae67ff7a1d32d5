/* halt_print: stores to SimCtrl's output after the halting store. A store whose request is made
 * in one of the last two cycles reaches SimCtrl, which prints it before the simulation ends:
 * small makes one (one '!', NumStores +1), maxperf two ('!!', NumStores +2, both retired). */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: stores to the output after the halting store"
  li a5, '!'
  sw t1, 0(t0)
  sb a5, -8(t0)
  sb a5, -8(t0)
  sb a5, -8(t0)
  j .
