/* bootaddr: an ELF whose entry point is not the boot address. The Makefile links it with
 * `-e sm_elf_entry`, so e_entry names the code below; crt0's _start stays at 0x100080. Ibex's RTL
 * ignores the ELF's entry: simple_system's core always fetches its first instruction at
 * boot_addr + 0x80 = 0x100080, so this prints "boot address" and how many instructions ran from
 * reset up to main. A loader that started at e_entry would print "ELF entry" instead. */
#include "ibex_test.h"
  .text
  .globl main
main:
  csrr s0, minstret
  csrr s1, mcycle
  mv s2, ra
  la a0, msg_boot
  call sm_puts
  SM_PRINT_REG "minstret-at-main", s0
  SM_PRINT_REG "mcycle-at-main", s1
  li a0, 0
  jr s2

  /* e_entry: no stack, no crt0 start-up; prints and halts */
  .globl sm_elf_entry
sm_elf_entry:
  la a0, msg_elf
  call sm_puts
  j sm_halt

  .section .rodata
msg_boot: .asciz "started at the boot address\n"
msg_elf:  .asciz "started at the ELF entry\n"
