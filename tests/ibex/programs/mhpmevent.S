/* mhpmevent: what mhpmevent3..31 read (1 << (N-3) for an implemented counter, else 0; the doc
 * page's table says 1 << N), that writes to them are ignored (events are hardwired) but still
 * flush the pipeline, and what mcounteren (0x306) does at this commit (reads 0, writes ignored). */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  .irp n, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 20, 31
  csrr s2, mhpmevent\n
  SM_PRINT_REG "mhpmevent\n", s2
  .endr

  li s5, 0x5a5a
  SM_BEGIN "write mhpmevent3 and mhpmevent13"
  csrw mhpmevent3, s5
  csrw mhpmevent13, s5
  csrr s2, mhpmevent3
  csrr s3, mhpmevent13
  SM_END
  SM_PRINT_REG "mhpmevent3", s2
  SM_PRINT_REG "mhpmevent13", s3

  SM_BEGIN "csrw mhpmevent5 zero: counter keeps counting"
  csrw mhpmevent5, zero
  la a0, word
  lw a1, 0(a0)
  lw a1, 0(a0)
  SM_END

  SM_BEGIN "mcounteren write and read"
  li t0, -1
  csrw mcounteren, t0
  csrr s2, mcounteren
  SM_END
  SM_PRINT_REG "mcounteren", s2

  SM_BEGIN "mscratch write (no flush?)"
  csrw mscratch, s5
  csrr s2, mscratch
  SM_END
  la t0, sm_trap_save
  csrw mscratch, t0

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 1
