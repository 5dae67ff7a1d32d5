/* irq_wfi: timer interrupts in and out of wfi, with the counters running (mcycle stops while the
 * core sleeps, mtime does not).
 * 1. wfi woken 100 cycles later; mid-run reads right after the wake (the handler ran in between).
 * 2. A sweep (irq.h) arming the timer 0..15 cycles before a wfi: the interrupt is taken before the
 *    wfi (the handler then returns past it: IRQ_SUPPORT skipwfi=1), while it goes to sleep, or
 *    wakes it after it has slept.
 * 3. wfi with mstatus.MIE = 0 and the interrupt arriving during the sleep: it wakes without a trap;
 *    the trap is taken when MIE is set. */
#include "irq.h"
  IRQ_SUPPORT 1

.macro WFI_BODY
  wfi
  addi a5, a5, 1
  addi a5, a5, 1
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SM_TITLE "wfi woken 100 cycles later, reads after the wake"
  IRQ_RESET
  SM_ZERO
  csrsi mstatus, 8
  SM_START
  ARM 100
  wfi
  RECORD
  SM_STOP
  csrci mstatus, 8
  DISARM
  SM_PRINT
  PRINT_TRAPS
  li a0, 1
  call irq_print_log

  SWEEP "sweep over wfi", 0, 16, WFI_BODY

  SM_TITLE "wfi with MIE off, woken by the timer, then MIE on"
  IRQ_RESET
  SM_ZERO
  SM_START
  ARM 40
  wfi
  RECORD
  csrsi mstatus, 8
  addi a5, a5, 1
  addi a5, a5, 1
  SM_STOP
  csrci mstatus, 8
  DISARM
  SM_PRINT
  PRINT_TRAPS
  li a0, 1
  call irq_print_log

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
