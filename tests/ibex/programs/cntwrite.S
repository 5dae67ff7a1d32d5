/* cntwrite: counter writes while the counters run. A CSR write to a counter replaces that cycle's
 * increment; halves are written independently; csrrw/csrrs/csrrc return the old value; carries
 * from the low to the high half; a 40-bit counter's high half keeps 8 bits and wraps at 2^40.
 * Writing minstret: small does not count the writing instruction; maxperf at this commit does
 * (spec §7, fixed upstream later in 64184334). Values read inside the window are printed after it. */
#include "ibex_test.h"
  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  li s5, 1000
  SM_BEGIN "csrw mcycle mid-run"
  nop
  nop
  csrw mcycle, s5
  nop
  nop
  nop
  csrr s2, mcycle
  SM_END
  SM_PRINT_REG "read", s2

  SM_BEGIN "csrw minstret mid-run"
  nop
  nop
  csrw minstret, s5
  csrr s2, minstret
  nop
  nop
  nop
  csrr s3, minstret
  SM_END
  SM_PRINT_REG "read1", s2
  SM_PRINT_REG "read2", s3

  SM_BEGIN "csrrw mcycle returns old"
  nop
  csrrw s2, mcycle, s5
  csrrw s3, minstret, s5
  csrr s4, mcycle
  SM_END
  SM_PRINT_REG "old-mcycle", s2
  SM_PRINT_REG "old-minstret", s3
  SM_PRINT_REG "mcycle", s4

  li s5, 0x0f0
  SM_BEGIN "csrrs/csrrc on counters"
  nop
  nop
  csrrs s2, mcycle, s5
  csrrc s3, minstret, s5
  csrrs s4, mhpmcounter4, s5
  csrrsi s6, mhpmcounter7, 0x10
  csrrci s7, mcycle, 0x3
  csrr s8, mcycle
  csrr s9, minstret
  csrr s10, mhpmcounter4
  csrr s11, mhpmcounter7
  SM_END
  SM_PRINT_REG "s-mcycle-old", s2
  SM_PRINT_REG "c-minstret-old", s3
  SM_PRINT_REG "s-hpm4-old", s4
  SM_PRINT_REG "si-hpm7-old", s6
  SM_PRINT_REG "ci-mcycle-old", s7
  SM_PRINT_REG "mcycle", s8
  SM_PRINT_REG "minstret", s9
  SM_PRINT_REG "hpm4", s10
  SM_PRINT_REG "hpm7", s11

  li s5, 7
  SM_BEGIN "high halves: mcycleh minstreth"
  csrw mcycleh, s5
  csrw minstreth, s5
  csrr s2, mcycleh
  csrr s3, mcycle
  csrr s4, minstreth
  csrr s6, minstret
  SM_END
  SM_PRINT_REG "mcycleh", s2
  SM_PRINT_REG "mcycle", s3
  SM_PRINT_REG "minstreth", s4
  SM_PRINT_REG "minstret", s6
  csrr s2, mcycleh
  csrr s3, minstreth
  SM_PRINT_REG "mcycleh-final", s2
  SM_PRINT_REG "minstreth-final", s3

  li s5, -8
  SM_BEGIN "carry low to high (mcycle, minstret)"
  csrw mcycle, s5
  csrw minstret, s5
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  nop
  csrr s2, mcycleh
  csrr s3, mcycle
  csrr s4, minstreth
  csrr s6, minstret
  SM_END
  SM_PRINT_REG "mcycleh", s2
  SM_PRINT_REG "mcycle", s3
  SM_PRINT_REG "minstreth", s4
  SM_PRINT_REG "minstret", s6

  la s0, word
  li s5, 0x12345678
  SM_BEGIN "hpm high write keeps low bits"
  lw a0, 0(s0)
  lw a0, 0(s0)
  csrw mhpmcounter5h, s5
  csrr s2, mhpmcounter5h
  csrr s3, mhpmcounter5
  lw a0, 0(s0)
  csrw mhpmcounter5, s5
  csrr s4, mhpmcounter5h
  csrr s6, mhpmcounter5
  SM_END
  SM_PRINT_REG "h-after-hwrite", s2
  SM_PRINT_REG "lo-after-hwrite", s3
  SM_PRINT_REG "h-after-lowrite", s4
  SM_PRINT_REG "lo-after-lowrite", s6
  csrr s2, mhpmcounter5h
  SM_PRINT_REG "h-final", s2

  li s5, -1
  SM_BEGIN "hpm wraps at its width"
  csrw mhpmcounter5, s5
  csrw mhpmcounter5h, s5
  csrr s2, mhpmcounter5h
  csrr s3, mhpmcounter5
  lw a0, 0(s0)
  lw a0, 0(s0)
  csrr s4, mhpmcounter5h
  csrr s6, mhpmcounter5
  SM_END
  SM_PRINT_REG "h-before", s2
  SM_PRINT_REG "lo-before", s3
  SM_PRINT_REG "h-after", s4
  SM_PRINT_REG "lo-after", s6

  li s5, 100
  SM_BEGIN "write while inhibited, then count"
  li t0, 0x1
  csrw mcountinhibit, t0
  csrw mcycle, s5
  nop
  csrw mcountinhibit, zero
  nop
  csrr s2, mcycle
  SM_END
  SM_PRINT_REG "mcycle", s2

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
  .data
  .balign 4
word: .word 5
