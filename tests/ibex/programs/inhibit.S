/* inhibit: mcountinhibit changed in the middle of a window, counter by counter. The write is
 * judged by the OLD inhibit value (spec §7): the instruction that inhibits a counter is still
 * counted by it, the one that enables it is not. Also what mcountinhibit reads back: bit 1 and
 * the bits of unimplemented counters read 0 (writing -1 reads back 0x1ffd with 10 counters). */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  la s0, word

  SM_BEGIN "inhibit minstret for 4 nops"
  li t0, 0x4
  csrw mcountinhibit, t0
  nop
  nop
  nop
  nop
  csrw mcountinhibit, zero
  nop
  SM_END

  SM_BEGIN "inhibit mcycle for 4 nops"
  li t0, 0x1
  csrw mcountinhibit, t0
  nop
  nop
  nop
  nop
  csrw mcountinhibit, zero
  nop
  SM_END

  SM_BEGIN "inhibit NumLoads around 2 of 4 loads"
  lw a0, 0(s0)
  li t0, 0x20
  csrs mcountinhibit, t0
  lw a0, 0(s0)
  lw a0, 0(s0)
  csrc mcountinhibit, t0
  lw a0, 0(s0)
  SM_END

  SM_BEGIN "inhibit all but mcycle, then re-enable one by one"
  li t0, -2
  csrw mcountinhibit, t0
  lw a0, 0(s0)
  mul a1, a0, a0
  li t1, 0x4
  csrc mcountinhibit, t1
  lw a0, 0(s0)
  li t1, 0x20
  csrc mcountinhibit, t1
  lw a0, 0(s0)
  li t1, 0x808
  csrc mcountinhibit, t1
  mul a1, a0, a0
  lw a0, 0(s0)
  SM_END

  SM_BEGIN "csrrs returns old inhibit"
  li t0, 0x10
  csrrs s2, mcountinhibit, t0
  csrrc s3, mcountinhibit, t0
  csrr s4, mcountinhibit
  SM_END
  SM_PRINT_REG "old1", s2
  SM_PRINT_REG "old2", s3
  SM_PRINT_REG "now", s4

  /* read-back values, outside any window */
  li t0, -1
  csrw mcountinhibit, t0
  csrr s2, mcountinhibit
  li t0, 0x2
  csrw mcountinhibit, t0
  csrr s3, mcountinhibit
  li t0, 0xffffe000
  csrw mcountinhibit, t0
  csrr s4, mcountinhibit
  li t0, 0x1005
  csrw mcountinhibit, t0
  csrr s5, mcountinhibit
  li t0, -1
  csrw mcountinhibit, t0
  SM_PRINT_REG "write-ffffffff", s2
  SM_PRINT_REG "write-00000002", s3
  SM_PRINT_REG "write-ffffe000", s4
  SM_PRINT_REG "write-00001005", s5

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 9
