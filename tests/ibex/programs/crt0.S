/* crt0.S: start-up, vector table, output routines and default trap handlers shared by the Ibex
 * test programs. Written for the memory map of Ibex's examples/simple_system: the core boots at
 * 0x100080 and its vector table is at 0x100000 (Ibex's mtvec is always vectored: exceptions enter
 * at offset 0, interrupt N at offset 4*N; the timer interrupt is N = 7).
 * Everything here is plain RV32IC so that the same file serves both configurations. */
#include "ibex_test.h"

  .section .vectors, "ax"
  .option norvc
  .globl sm_vectors
sm_vectors:
  j sm_exception          /* 0: every synchronous exception */
  .rept 6
  j sm_unexpected         /* 1..6 */
  .endr
  j sm_timer_irq          /* 7: machine timer interrupt */
  .rept 24
  j sm_unexpected         /* 8..31 (fast interrupts, NMI) */
  .endr
  .option rvc

  .section .text.start, "ax"
  .globl _start
_start:
  la sp, _stack_top
  la t0, sm_trap_save
  csrw mscratch, t0
  la t0, _bss_start
  la t1, _bss_end
1:bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:call main
  /* fall through */
  .globl sm_halt
sm_halt:
  li t0, -1
  csrw mcountinhibit, t0  /* counters stop before the halt, so their final values are stable */
  li t0, SM_SIMCTRL_CTRL
  li t1, 1
  sw t1, 0(t0)
3:j 3b

  .text
  .globl sm_putc
sm_putc:
  li t0, SM_SIMCTRL_OUT
  sb a0, 0(t0)
  ret

  .globl sm_puts
sm_puts:
  li t0, SM_SIMCTRL_OUT
1:lbu t1, 0(a0)
  beqz t1, 2f
  sb t1, 0(t0)
  addi a0, a0, 1
  j 1b
2:ret

  /* a0: value; 8 lower-case hex digits */
  .globl sm_puthex
sm_puthex:
  li t0, SM_SIMCTRL_OUT
  li t1, 28
1:srl t2, a0, t1
  andi t2, t2, 15
  addi t2, t2, '0'
  li t3, '9'
  bleu t2, t3, 2f
  addi t2, t2, 'a' - '0' - 10
2:sb t2, 0(t0)
  addi t1, t1, -4
  bgez t1, 1b
  ret

  /* a0: name, a1: value; prints "name xxxxxxxx\n" */
  .globl sm_print_named
sm_print_named:
  addi sp, sp, -16
  sw ra, 12(sp)
  sw a1, 8(sp)
  call sm_puts
  li a0, ' '
  call sm_putc
  lw a0, 8(sp)
  call sm_puthex
  li a0, '\n'
  call sm_putc
  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  /* Inhibit every counter, then zero mcycle, minstret and mhpmcounter3..12 (both halves). */
  .globl sm_zero_counters
sm_zero_counters:
  li t0, -1
  csrw mcountinhibit, t0
  csrw mcycle, zero
  csrw mcycleh, zero
  csrw minstret, zero
  csrw minstreth, zero
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  csrw mhpmcounter\n, zero
  csrw mhpmcounter\n\()h, zero
  .endr
  ret

  .globl sm_print_counters
sm_print_counters:
  addi sp, sp, -16
  sw ra, 12(sp)
  la a0, sm_name_mcycle
  csrr a1, mcycle
  call sm_print_named
  la a0, sm_name_minstret
  csrr a1, minstret
  call sm_print_named
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
  la a0, sm_name_hpm\n
  csrr a1, mhpmcounter\n
  call sm_print_named
  .endr
  lw ra, 12(sp)
  addi sp, sp, 16
  ret

  /* Default exception handler: record mcause/mtval, count the trap, resume after the trapping
   * instruction (2 or 4 bytes, from its low two bits). Uses the save area behind mscratch. */
  .weak sm_exception
sm_exception:
  csrrw t0, mscratch, t0
  sw t1, 0(t0)
  sw t2, 4(t0)
  csrr t1, mcause
  sw t1, 8(t0)
  csrr t1, mtval
  sw t1, 12(t0)
  lw t1, 16(t0)
  addi t1, t1, 1
  sw t1, 16(t0)
  csrr t1, mepc
  lhu t2, 0(t1)
  andi t2, t2, 3
  addi t1, t1, 2
  xori t2, t2, 3
  bnez t2, 1f
  addi t1, t1, 2
1:csrw mepc, t1
  lw t1, 0(t0)
  lw t2, 4(t0)
  csrrw t0, mscratch, t0
  mret

  /* Default timer handler: push mtimecmp to the far future (clears the pending interrupt). */
  .weak sm_timer_irq
sm_timer_irq:
  csrrw t0, mscratch, t0
  sw t1, 0(t0)
  li t1, SM_TIMER_BASE
  sw zero, 8(t1)          /* low first to 0 ... */
  li t0, -1
  sw t0, 12(t1)           /* ... then high = all ones: never fires again */
  sw t0, 8(t1)
  la t0, sm_trap_save
  lw t1, 16(t0)
  addi t1, t1, 1
  sw t1, 16(t0)
  lw t1, 0(t0)
  csrrw t0, mscratch, t0
  mret

sm_unexpected:
  la a0, sm_msg_unexpected
  csrr a1, mcause
  call sm_print_named
  j sm_halt

  .section .rodata
sm_msg_unexpected: .asciz "unexpected-trap mcause"
sm_name_mcycle:    .asciz "mcycle"
sm_name_minstret:  .asciz "minstret"
  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12
sm_name_hpm\n: .asciz "mhpmcounter\n"
  .endr

  .data
  .balign 4
  .globl sm_trap_save, sm_last_mcause, sm_last_mtval, sm_trap_count
sm_trap_save:   .word 0, 0     /* t1, t2 */
sm_last_mcause: .word 0
sm_last_mtval:  .word 0
sm_trap_count:  .word 0
