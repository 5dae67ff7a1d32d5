/* A program that stops every counter for a stretch and never writes one: its mcycle plus the
 * note's inhibited cycles must be the run's cycles exactly. Built like noinhibit.S. */
  .section .text
  .globl _start
_start:
  li t3, -1
  csrw mcountinhibit, t3  /* stop them all */
  li t0, 300
1:
  addi t0, t0, -1
  bnez t0, 1b
  csrw mcountinhibit, zero
  li t0, 100
2:
  addi t0, t0, -1
  bnez t0, 2b
  li t1, 0x20008
  li t2, 1
  sw t2, 0(t1)
3:
  j 3b
