/* irq_mret: a timer interrupt right after an mret, with the counters running.
 * 1. mret sets mstatus.MIE (from MPIE) while the timer interrupt is already pending: it is taken at
 *    the mret's target, before that instruction executes.
 * 2. The handler returns three times with the interrupt still pending (irq_rearm = 3), so each of
 *    its mrets is followed at once by the next entry; the fourth clears it.
 * 3. A sweep (irq.h) over ecalls, each taken to a four-instruction exception handler (this file's
 *    sm_exception: mepc += 4, mret; s2 is its own): the timer interrupt becomes pending at a
 *    different cycle of each iteration; pending inside the handler (MIE = 0 there), it is taken
 *    right after the handler's mret. (Hand-made mrets cannot be swept: an interrupt between setting
 *    mstatus.MPP = M and the mret returns with MPP = U, and the mret would drop to U-mode.) */
#include "irq.h"
  IRQ_SUPPORT

.macro ECALLS
  .rept 4
  ecall
  addi a5, a5, 1
  .endr
.endm

  .text
  .globl sm_exception
sm_exception:               /* overrides crt0's: only ecalls reach it here */
  csrr s2, mepc
  addi s2, s2, 4
  csrw mepc, s2
  mret

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  IRQ_INIT

  SM_TITLE "mret enables a pending interrupt"
  IRQ_RESET
  SM_ZERO
  la a0, 1f
  csrw mepc, a0
  li a0, 0x1880
  csrs mstatus, a0
  ARM 0
  nop
  nop
  nop
  nop
  SM_START
  mret
1:addi a5, a5, 1
  addi a5, a5, 1
  SM_STOP
  csrci mstatus, 8
  SM_PRINT
  PRINT_TRAPS
  la a1, irq_log
  lw a1, 12(a1)
  la a0, name_mepc
  call sm_print_named

  SM_TITLE "handler returns with the interrupt still pending, 3 times"
  IRQ_RESET
  li a0, 3
  la a1, irq_rearm
  sw a0, 0(a1)
  SM_ZERO
  csrsi mstatus, 8
  SM_START
  ARM 4
  .rept 40
  addi a5, a5, 1
  .endr
  RECORD
  SM_STOP
  csrci mstatus, 8
  DISARM
  SM_PRINT
  PRINT_TRAPS
  li a0, 1
  call irq_print_log

  SWEEP "sweep over ecall and the handler's mret", 2, 24, ECALLS

  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  .section .rodata
name_mepc: .asciz "mepc"
