/* crt0.S: the smallest start-up the example needs on Ibex's examples/simple_system
 * (socmon's Ibex model runs the same memory map): the vector table at 0x100000 (Ibex's
 * mtvec is always vectored; every trap here is unexpected, so it prints its mcause and
 * halts), the reset entry at 0x100080, a stack, a zeroed .bss, main(), then the halt
 * through SimCtrl (writing 1 to 0x20008). */
  .section .vectors, "ax"
  .option norvc
  .rept 32
  j trap
  .endr
  .option rvc

  .section .text.start, "ax"
  .globl _start
_start:
  la sp, _stack_top
  la t0, _bss_start
  la t1, _bss_end
1:bgeu t0, t1, 2f
  sw zero, 0(t0)
  addi t0, t0, 4
  j 1b
2:call main
halt:
  li t0, 0x20008
  li t1, 1
  sw t1, 0(t0)
3:j 3b

  .text
trap:
  la a0, trap_msg
  li t0, 0x20000
1:lbu t1, 0(a0)
  beqz t1, 2f
  sb t1, 0(t0)
  addi a0, a0, 1
  j 1b
2:csrr t2, mcause
  addi t2, t2, '0'
  sb t2, 0(t0)
  li t1, '\n'
  sb t1, 0(t0)
  j halt

  .section .rodata
trap_msg: .asciz "unexpected trap, mcause "
