/* spin.S: loops forever without halting, interrupts enabled but none pending ever (mtimecmp is
 * pushed to the far future), so only --max-cycles ends it (exit status 4). */
  .section .vectors, "ax"
  .option norvc
  j .
  .option rvc
  .section .text.start, "ax"
  .globl _start
_start:
  li t0, 0x30000
  li t1, -1
  sw t1, 12(t0)           /* mtimecmp high first: never fires */
  sw t1, 8(t0)
  li t1, 0x80
  csrw mie, t1
  csrsi mstatus, 8
loop:
  addi a0, a0, 1
  j loop
