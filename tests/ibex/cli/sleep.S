/* sleep.S: WFI with every interrupt disabled: the core sleeps forever (exit status 5). */
  .section .vectors, "ax"
  .option norvc
  j .
  .option rvc
  .section .text.start, "ax"
  .globl _start
_start:
  csrw mie, zero
  wfi
  j _start
