/* wfi: WFI woken by the simple_system timer (mtime counts every clock; the interrupt is taken at
 * vector 0x10001c, the default handler in crt0.S pushes mtimecmp to the far future). The core clock
 * is gated while asleep, so mcycle does not advance during the sleep (spec §1.4); mtime does.
 * Also a timer interrupt taken in the middle of a busy loop, and WFI with the interrupt already
 * pending while mstatus.MIE = 0 (wakes without trapping; the trap is taken once MIE is set). */
#include "ibex_test.h"

/* mtimecmp = mtime + \delta (high word first to all ones so no spurious match on the way) */
.macro ARM delta
  li t0, SM_TIMER_BASE
  li t1, -1
  sw t1, 12(t0)
  lw t2, 0(t0)
  addi t2, t2, \delta
  sw t2, 8(t0)
  lw t2, 4(t0)
  sw t2, 12(t0)
.endm

.macro RESULTS
  li t0, SM_TIMER_BASE
  lw s3, 0(t0)
  sub s3, s3, s2
  la t0, sm_trap_count
  lw s4, 0(t0)
  SM_PRINT_REG "traps", s4
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  li t0, 0x80
  csrs mie, t0              /* MTIE */

  SM_TITLE "wfi, timer 200 cycles ahead"
  SM_ZERO
  ARM 200
  csrsi mstatus, 8          /* MIE */
  SM_START
  wfi
  nop
  SM_STOP
  csrci mstatus, 8
  SM_PRINT
  RESULTS

  SM_TITLE "timer interrupt during a busy loop"
  SM_ZERO
  la s0, sm_trap_count
  lw s5, 0(s0)
  ARM 60
  csrsi mstatus, 8
  SM_START
1:lw a0, 0(s0)
  beq a0, s5, 1b
  SM_STOP
  csrci mstatus, 8
  SM_PRINT
  RESULTS

  SM_TITLE "wfi with interrupt pending, MIE off, then MIE on"
  SM_ZERO
  ARM 0
  nop
  nop
  SM_START
  wfi
  nop
  csrsi mstatus, 8
  nop
  SM_STOP
  csrci mstatus, 8
  SM_PRINT
  RESULTS

  li t0, 0x80
  csrc mie, t0
  lw ra, 12(sp)
  addi sp, sp, 16
  ret
