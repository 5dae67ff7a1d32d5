/* ibex_test.h: the tiny freestanding support shared by the Ibex test programs (assembly and C).
 *
 * The programs run unchanged on Ibex's examples/simple_system RTL and on socmon's model, and print
 * what they measured as text through SimCtrl, so the two outputs can be compared byte for byte.
 * The routines themselves (output, counter zeroing/printing, the default trap handler) live in
 * crt0.S so that assembly programs can call them too; this header declares them for C and gives
 * the assembly programs their bracket macros.
 *
 * Measurement convention (spec riscv_hpm_ibex.md §7): counters are zeroed while inhibited, started
 * with `csrw mcountinhibit, x0` and stopped with `csrw mcountinhibit, x31` (x31 = -1), and printed
 * after the stop, so the print loop's own cycles never reach the printed values.
 * Register rules for assembly programs: x31 (t6) holds -1 for SM_STOP and must not be touched
 * inside a window; the print routines clobber every caller-saved register (ra, t*, a*), so values
 * to be printed after a window are kept in s-registers or combined between SM_STOP and SM_PRINT.
 */
#ifndef IBEX_TEST_H
#define IBEX_TEST_H

#define SM_SIMCTRL_OUT   0x20000  /* a byte written here is the program's output */
#define SM_SIMCTRL_CTRL  0x20008  /* writing 1 ends the simulation */
#define SM_TIMER_BASE    0x30000  /* mtime lo/hi at +0/+4, mtimecmp lo/hi at +8/+12 */

#ifdef __ASSEMBLER__

/* Zero every counter (inhibited), then leave them inhibited; x31 = -1 afterwards. */
.macro SM_ZERO
  call sm_zero_counters
  li x31, -1
.endm
/* The measured window: START ... STOP. x31 must still hold -1 at STOP. */
.macro SM_START
  csrw mcountinhibit, x0
.endm
.macro SM_STOP
  csrw mcountinhibit, x31
.endm
/* Print "name value" for mcycle, minstret, mhpmcounter3..12 (low 32 bits, 8 hex digits). */
.macro SM_PRINT
  call sm_print_counters
.endm
/* Print a title line "== text" (outside a window; clobbers the caller-saved registers). */
.macro SM_TITLE text
  .pushsection .rodata
  78: .asciz "== \text\n"
  .popsection
  la a0, 78b
  call sm_puts
.endm
/* A whole window: title, zero, start, BODY-by-caller, then SM_END stops and prints. */
.macro SM_BEGIN text
  SM_TITLE "\text"
  SM_ZERO
  SM_START
.endm
.macro SM_END
  SM_STOP
  SM_PRINT
.endm
/* For the halt_* programs, which halt with the counters running (crt0's sm_halt stops them
 * first): title, zero, start, then t0 = the halt register and t1 = 1, so that `sw t1, 0(t0)` halts.
 * What follows the halting store is what the RTL still runs in its last two clock edges. */
.macro SM_HALT_BEGIN text
  SM_BEGIN "\text"
  li t0, SM_SIMCTRL_CTRL
  li t1, 1
.endm
/* Print a register's value as "label xxxxxxxx\n"; clobbers a0, a1 and the caller-saved registers. */
.macro SM_PRINT_REG label, reg
  .pushsection .rodata
  77: .asciz "\label"
  .popsection
  mv a1, \reg
  la a0, 77b
  call sm_print_named
.endm

#else

#include <stdint.h>

void sm_putc(int c);
void sm_puts(const char *s);
void sm_puthex(uint32_t v);                       /* 8 hex digits, no newline */
void sm_print_named(const char *name, uint32_t v); /* "name xxxxxxxx\n" */
void sm_zero_counters(void);                      /* inhibit all, zero all */
void sm_print_counters(void);
void sm_halt(void) __attribute__((noreturn));

/* Set by the default exception handler in crt0.S. */
extern volatile uint32_t sm_trap_count, sm_last_mcause, sm_last_mtval;

#define SM_CSR_READ(csr) ({ uint32_t v_; __asm__ volatile("csrr %0, " #csr : "=r"(v_)); v_; })
#define SM_CSR_WRITE(csr, v) __asm__ volatile("csrw " #csr ", %0" : : "r"((uint32_t)(v)))
#define SM_START() __asm__ volatile("csrw mcountinhibit, x0")
/* x31 = -1 like the assembly bracket (one extra instruction inside the window), so every
 * window ends with the same `csrw mcountinhibit, x31`. */
#define SM_STOP() __asm__ volatile("li t6, -1\n\tcsrw mcountinhibit, t6" : : : "t6")

#endif
#endif
