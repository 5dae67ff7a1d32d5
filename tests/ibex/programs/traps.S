/* traps: ecall, ebreak, c.ebreak, illegal instructions (32-bit all-ones, 16-bit 0x0000), illegal
 * CSR accesses (reading `cycle` 0xC00 traps at this commit; 0xB01; mhpmevent3h 0x723; writing the
 * read-only mvendorid), each taken to the default handler in crt0.S (records mcause/mtval, skips the
 * instruction, mret). Then a window with mret alone (no trap: mepc set by hand).
 * Expected (spec §7): trapping instructions do not count in minstret; mret does; trap entry plus
 * mret add NumCyclesIF 2. */
#include "ibex_test.h"

.macro TRAP title
  SM_BEGIN "\title"
.endm
.macro TRAP_END
  SM_END
  la s2, sm_last_mcause
  lw s3, 0(s2)
  lw s4, 4(s2)
  lw s5, 8(s2)
  SM_PRINT_REG "mcause", s3
  SM_PRINT_REG "mtval", s4
  SM_PRINT_REG "traps", s5
.endm

  .text
  .globl main
main:
  addi sp, sp, -16
  sw ra, 12(sp)

  TRAP "ecall"
  ecall
  TRAP_END

  TRAP "ebreak"
  .option push
  .option norvc
  ebreak
  .option pop
  TRAP_END

  TRAP "c.ebreak"
  c.ebreak
  TRAP_END

  TRAP "illegal 32-bit 0xffffffff"
  .word 0xffffffff
  TRAP_END

  TRAP "illegal 16-bit 0x0000"
  .half 0x0000
  TRAP_END

  TRAP "csrr cycle (0xc00)"
  csrr a0, 0xc00
  TRAP_END

  TRAP "csrr instret (0xc02)"
  csrr a0, 0xc02
  TRAP_END

  TRAP "csrr hpmcounter3 (0xc03)"
  csrr a0, 0xc03
  TRAP_END

  TRAP "csrr 0xb01"
  csrr a0, 0xb01
  TRAP_END

  TRAP "csrr mhpmevent3h (0x723)"
  csrr a0, 0x723
  TRAP_END

  TRAP "csrw mvendorid (read-only)"
  csrw mvendorid, s2
  TRAP_END

  TRAP "csrr time (0xc01)"
  csrr a0, 0xc01
  TRAP_END

  TRAP "ecall with instructions around"
  addi a0, zero, 1
  ecall
  addi a0, a0, 1
  TRAP_END

  /* mret alone: mepc = the label after it, MPP stays M */
  la a0, 1f
  csrw mepc, a0
  li a1, 0x1800
  csrs mstatus, a1
  SM_BEGIN "mret (no trap)"
  mret
  nop
1:SM_END

  lw ra, 12(sp)
  addi sp, sp, 16
  ret
