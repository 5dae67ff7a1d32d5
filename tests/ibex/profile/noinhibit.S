/* A program that never stops its counters: a loop, then the halt (no crt0: nothing inhibits
 * mcountinhibit anywhere, even around the halt). stat and report must say no note. Built by
 * tests/ibex/profile_views.test.sh with -nostdlib -Ttext=0x100080 (the boot address). */
  .section .text
  .globl _start
_start:
  li t0, 200
1:
  addi t0, t0, -1
  bnez t0, 1b
  li t1, 0x20008          /* SimCtrl halt */
  li t2, 1
  sw t2, 0(t1)
2:
  j 2b
