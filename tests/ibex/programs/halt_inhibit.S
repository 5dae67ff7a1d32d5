/* halt_inhibit: the counters stopped (csrw mcountinhibit, -1) right after the halting store.
 * mcountinhibit is registered: the writer's own cycle still counts, the rest do not. small: the
 * writer is the last cycle and also retires under the old value. maxperf: mcycle counts the
 * writer's cycle but not the flush after it (mcycle one less than with the counters running);
 * the writer reaches WB under the new value and does not count. */
#include "ibex_test.h"
  .text
  .globl main
main:
  SM_HALT_BEGIN "halt: csrw mcountinhibit after the halting store"
  sw t1, 0(t0)
  csrw mcountinhibit, x31
  addi a0, a0, 1
  j .
