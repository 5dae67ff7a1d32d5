/* csrread: counters read by the program inside a running window (csrr returns the value the RTL
 * has at that instruction): back-to-back reads, reads right after a load, a taken branch, a jump,
 * a multiply, a divide and a CSR write (flush), and every HPM counter. On maxperf (writeback
 * stage) minstret is read speculatively; at this commit a read after a pipeline bubble reads one
 * too many (upstream issue #2252, fixed in b7d62a24). */
#include "ibex_test.h"

.macro R reg, csr
  csrr \reg, \csr
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)
  la s0, word

  SM_BEGIN "back-to-back mcycle/minstret reads"
  R s2, mcycle
  R s3, mcycle
  R s4, minstret
  R s5, minstret
  R s6, mcycle
  SM_END
  SM_PRINT_REG "mcycle1", s2
  SM_PRINT_REG "mcycle2", s3
  SM_PRINT_REG "minstret1", s4
  SM_PRINT_REG "minstret2", s5
  SM_PRINT_REG "mcycle3", s6

  SM_BEGIN "minstret read first after the start"
  R s2, minstret
  R s3, minstret
  SM_END
  SM_PRINT_REG "minstret1", s2
  SM_PRINT_REG "minstret2", s3

  SM_BEGIN "minstret after load, branch, jump"
  lw a0, 0(s0)
  R s2, minstret
  lw a0, 0(s0)
  addi a0, a0, 1
  R s3, minstret
  beqz zero, 1f
  nop
1:R s4, minstret
  j 2f
  nop
2:R s5, minstret
  R s6, mhpmcounter4
  SM_END
  SM_PRINT_REG "after-load", s2
  SM_PRINT_REG "after-load-use", s3
  SM_PRINT_REG "after-branch", s4
  SM_PRINT_REG "after-jump", s5
  SM_PRINT_REG "ifwait", s6

  SM_BEGIN "reads after mul, div, csr write"
  mul a0, s0, s0
  R s2, minstret
  R s3, mhpmcounter11
  div a0, s0, s0
  R s4, minstret
  R s5, mhpmcounter12
  csrw mscratch, a0
  R s6, minstret
  csrw mepc, a0
  R s7, minstret
  csrw mie, zero
  R s8, minstret
  R s9, mcycle
  SM_END
  SM_PRINT_REG "after-mul", s2
  SM_PRINT_REG "mulwait", s3
  SM_PRINT_REG "after-div", s4
  SM_PRINT_REG "divwait", s5
  SM_PRINT_REG "after-mscratch", s6
  SM_PRINT_REG "after-mepc", s7
  SM_PRINT_REG "after-mie", s8
  SM_PRINT_REG "mcycle", s9

  SM_BEGIN "every hpm counter mid-run"
  lw a0, 0(s0)
  sw a0, 4(s0)
  beqz zero, 1f
1:c.addi a0, 1
  jal zero, 2f
2:mul a1, a0, a0
  div a1, a1, a0
  R s2, mhpmcounter3
  R s3, mhpmcounter4
  R s4, mhpmcounter5
  R s5, mhpmcounter6
  R s6, mhpmcounter7
  R s7, mhpmcounter8
  R s8, mhpmcounter9
  R s9, mhpmcounter10
  R s10, mhpmcounter11
  R s11, mhpmcounter12
  SM_END
  SM_PRINT_REG "hpm3", s2
  SM_PRINT_REG "hpm4", s3
  SM_PRINT_REG "hpm5", s4
  SM_PRINT_REG "hpm6", s5
  SM_PRINT_REG "hpm7", s6
  SM_PRINT_REG "hpm8", s7
  SM_PRINT_REG "hpm9", s8
  SM_PRINT_REG "hpm10", s9
  SM_PRINT_REG "hpm11", s10
  SM_PRINT_REG "hpm12", s11

  SM_BEGIN "hi-lo-hi 64-bit read of mcycle"
1:R s2, mcycleh
  R s3, mcycle
  R s4, mcycleh
  bne s2, s4, 1b
  SM_END
  SM_PRINT_REG "hi", s2
  SM_PRINT_REG "lo", s3

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 3, 0
