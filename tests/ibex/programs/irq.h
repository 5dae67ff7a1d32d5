/* irq.h: what the irq_* programs share (assembly only; include it instead of ibex_test.h).
 *
 * The timer of simple_system (0x30000) fires when mtime >= mtimecmp; mtime counts every clock,
 * also while the core sleeps. IRQ_INIT keeps mtimecmp's high word at 0 and its low word at -1
 * (never fires), so ARM needs one store: mtimecmp = mtime + delta. simple_system ties the external,
 * software and fast interrupt lines to 0, so the timer is the only interrupt software can raise.
 *
 * IRQ_SUPPORT emits the timer handler (it overrides crt0's weak one) and irq_print_log. The
 * handler counts in sm_trap_count, stores mepc at 12(s1) (s1 = the current record of a sweep,
 * below), and clears the interrupt by writing -1 to mtimecmp, unless irq_rearm is non-zero: then
 * it decrements irq_rearm and returns with the interrupt still pending, so the next one is taken
 * right after its mret.
 *
 * SWEEP title, base, count, body: one window in which iteration k = 0..count-1 arms the timer
 * base + k cycles ahead (counted from ARM's mtime read) and runs body, which must last longer
 * than base + count cycles, so that the interrupt lands one cycle later in each iteration and the
 * sweep hits every cycle of the body's period. After each body: mid-run reads of mcycle, minstret
 * and mhpmcounter4 (NumCyclesIF) into the record at s1 (16 bytes: those three, then the
 * handler's mepc). After the window: the counters, then "traps N", then one line per record:
 * "r <mcycle> <minstret> <mhpmcounter4> <mepc>" (hex, cumulative from the window's start).
 * Register rules: s0, s1 and x31 (-1) belong to the sweep and the handler; the body may use a1..a7,
 * s2..s11, t2..t5 (the handler saves what it uses).
 * IRQ_SUPPORT skipwfi=1: an interrupt taken with mepc at a wfi (so before it executed) returns past
 * it, so that a sweep over a wfi cannot sleep forever (the timer is disarmed by then).
 */
#include "ibex_test.h"

.macro IRQ_INIT
  li t0, 0x80
  csrs mie, t0              /* MTIE */
  li t0, SM_TIMER_BASE
  li t1, -1
  sw t1, 8(t0)              /* low word -1 first, then high 0: never a match on the way */
  sw zero, 12(t0)
  la s1, irq_log
.endm

/* mtimecmp = mtime + reg (reg not t0 or t1; clobbers t0, t1) */
.macro ARM_REG reg
  li t0, SM_TIMER_BASE
  lw t1, 0(t0)
  add t1, t1, \reg
  sw t1, 8(t0)
.endm
.macro ARM delta
  li t2, \delta
  ARM_REG t2
.endm
/* no interrupt pending any more (clobbers t0, t1) */
.macro DISARM
  li t0, SM_TIMER_BASE
  li t1, -1
  sw t1, 8(t0)
.endm

/* "traps N" from sm_trap_count (clobbers caller-saved registers) */
.macro PRINT_TRAPS
  la a1, sm_trap_count
  lw a1, 0(a1)
  la a0, irq_name_traps
  call sm_print_named
.endm

/* Reset the trap count and the record pointer (outside a window). */
.macro IRQ_RESET
  la t0, sm_trap_count
  sw zero, 0(t0)
  la s1, irq_log
.endm

/* Mid-run reads into the record at s1, then the next record (uses a1..a3). */
.macro RECORD
  csrr a1, mcycle
  csrr a2, minstret
  csrr a3, mhpmcounter4
  sw a1, 0(s1)
  sw a2, 4(s1)
  sw a3, 8(s1)
  addi s1, s1, 16
.endm

.macro SWEEP title, base, count, body
  SM_TITLE "\title"
  IRQ_RESET
  SM_ZERO
  li s0, 0
  csrsi mstatus, 8
  SM_START
1001:
  addi a0, s0, \base
  ARM_REG a0
  \body
  RECORD
  addi s0, s0, 1
  li a0, \count
  blt s0, a0, 1001b
  SM_STOP
  csrci mstatus, 8
  DISARM
  SM_PRINT
  PRINT_TRAPS
  mv a0, s0
  call irq_print_log
.endm

.macro IRQ_SUPPORT skipwfi=0
  .text
  .globl sm_timer_irq
sm_timer_irq:
  csrrw t0, mscratch, t0
  sw t1, 0(t0)
  sw t2, 4(t0)
  lw t1, 16(t0)             /* sm_trap_count */
  addi t1, t1, 1
  sw t1, 16(t0)
  csrr t1, mepc
  sw t1, 12(s1)
.if \skipwfi
  sw t3, 8(t0)
  lhu t2, 0(t1)
  lhu t3, 2(t1)
  slli t3, t3, 16
  or t2, t2, t3
  li t3, 0x10500073         /* wfi */
  bne t2, t3, 3f
  addi t1, t1, 4
  csrw mepc, t1
3:lw t3, 8(t0)
.endif
  la t2, irq_rearm
  lw t1, 0(t2)
  beqz t1, 1f
  addi t1, t1, -1
  sw t1, 0(t2)
  j 2f
1:li t2, SM_TIMER_BASE
  li t1, -1
  sw t1, 8(t2)
2:lw t1, 0(t0)
  lw t2, 4(t0)
  csrrw t0, mscratch, t0
  mret

  /* a0 = number of records at irq_log: "r mcycle minstret mhpmcounter4 mepc" each */
irq_print_log:
  addi sp, sp, -16
  sw ra, 12(sp)
  sw s2, 8(sp)
  sw s3, 4(sp)
  la s2, irq_log
  slli s3, a0, 4
  add s3, s3, s2
1:bgeu s2, s3, 3f
  li a0, 'r'
  call sm_putc
  .irp off, 0, 4, 8, 12
  li a0, ' '
  call sm_putc
  lw a0, \off(s2)
  call sm_puthex
  .endr
  li a0, '\n'
  call sm_putc
  addi s2, s2, 16
  j 1b
3:lw ra, 12(sp)
  lw s2, 8(sp)
  lw s3, 4(sp)
  addi sp, sp, 16
  ret

  .section .rodata
irq_name_traps: .asciz "traps"
  .data
  .balign 4
  .globl irq_rearm
irq_rearm: .word 0
  .bss
  .balign 16
irq_log: .space 64 * 16
  .text
.endm
