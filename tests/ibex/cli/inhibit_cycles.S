/* inhibit_cycles.S: inhibits mcycle alone (mcountinhibit = 1) and then loads in a loop, so
 * minstret and the mhpmcounters count while mcycle stands still: every share of mcycle and the
 * IPC come out far past their range (issue 37, item 12), which socmon must show as undefined. */
  .section .vectors, "ax"
  .option norvc
  j .
  .option rvc
  .section .text.start, "ax"
  .globl _start
_start:
  csrwi mcountinhibit, 1
  la s0, word
  li t1, 3000
loop:
  lw a0, 0(s0)
  div a1, a0, t1
  addi t1, t1, -1
  bnez t1, loop
  li t0, 0x20008
  li t1, 1
  sw t1, 0(t0)
  j .
  .data
word: .word 12345
