/* umode.S: drops to U-mode and runs a counted loop there (LOOPS iterations of addi + bne), then
 * ecalls back to M-mode and halts. Before the loop, U-mode tries two counter reads that must trap:
 * mcycle (0xB00, an M-mode CSR) and cycle (0xC00: mcounteren is clear, and this Ibex commit does
 * not decode the shadows). The M-mode handler counts those traps, skips the instruction and
 * returns to U-mode; on the ecall it prints "traps N" and halts. Linked with
 * ../programs/link.ld, no crt0 (umode_record.test.sh builds it). */
#ifndef LOOPS
#define LOOPS 100000
#endif
  .section .vectors, "ax"
  .option norvc
  j trap                  /* every synchronous exception */
  .rept 31
  j .                     /* no interrupt is ever enabled */
  .endr
  .option rvc

  .section .text.start, "ax"
  .globl _start
_start:
  li s1, 0                /* traps taken in U-mode */
  la t0, user
  csrw mepc, t0
  li t0, 0x1800
  csrc mstatus, t0        /* MPP = U: mret enters U-mode */
  mret

user:
  csrr a0, mcycle         /* traps: M-mode CSR */
  csrr a0, cycle          /* traps: mcounteren clear */
  li a0, 0
  li a1, LOOPS
1:addi a0, a0, 1
  bne a0, a1, 1b
  ecall
  j .

trap:
  csrr t0, mcause
  li t1, 8                /* environment call from U-mode: the end */
  beq t0, t1, done
  addi s1, s1, 1
  csrr t0, mepc
  addi t0, t0, 4          /* the trapping csrr is 32-bit */
  csrw mepc, t0
  mret                    /* back to U-mode: MPP holds the privilege the trap came from */

done:
  li t0, 0x20000
  la t1, msg
2:lbu t2, 0(t1)
  beqz t2, 3f
  sb t2, 0(t0)
  addi t1, t1, 1
  j 2b
3:addi t2, s1, '0'
  sb t2, 0(t0)
  li t2, '\n'
  sb t2, 0(t0)
  li t0, 0x20008
  li t1, 1
  sw t1, 0(t0)
  j .

  .section .rodata
msg: .asciz "traps "
