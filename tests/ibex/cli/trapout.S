/* trapout.S: prints "before\n", then executes an illegal instruction. Its exception handler is
 * simple_system's default one, a loop on itself, so the program never halts: socmon must say it
 * trapped out (exit status 3). Linked with ../programs/link.ld, no crt0. */
  .section .vectors, "ax"
  .option norvc
  j default_exc_handler
  .option rvc

  .section .text.start, "ax"
  .globl _start
_start:
  li t0, 0x20000
  la t1, msg
1:lbu t2, 0(t1)
  beqz t2, 2f
  sb t2, 0(t0)
  addi t1, t1, 1
  j 1b
2:.word 0                 /* illegal instruction */
  li t0, 0x20008          /* not reached */
  li t1, 1
  sw t1, 0(t0)

  .text
  .globl default_exc_handler
default_exc_handler:
  j default_exc_handler

  .section .rodata
msg: .asciz "before\n"
