/* trapframes: what the exact profile's views show of traps, tail calls and file names (issue 39,
 * item 3). It has each of:
 * - an exception taken inside a function: do_ecall's ecall enters crt0's vector table
 *   (sm_vectors), which jumps to sm_exception; its mret returns into do_ecall;
 * - an interrupt taken inside a function: spin arms the timer and polls until crt0's timer handler
 *   (sm_vectors + 0x1c, a jump to sm_timer_irq) has run; its mret returns into spin's loop;
 * - a tail call: hop's last act is `j leaf` (-O2), so leaf runs in place of hop, under main;
 * - a fall-through: fall_a has no return and runs on into fall_b (the next symbol);
 * - a relative file name in its DWARF: crt0.S is built as ../programs/crt0.S, so its line table
 *   names directory "../programs", relative to the compile directory (DW_AT_comp_dir).
 * Built with -g. The committed image elf/trapframes.elf is this file built by `make image`
 * (README.md), so the tests that read it need no cross compiler. */
#include "ibex_test.h"

volatile unsigned sink;

/* the tail call: hop ends with a jump to leaf, which returns to main itself */
__attribute__((noinline)) static unsigned leaf(unsigned x)
{
    unsigned s = 0;
    for (unsigned i = 0; i < x; i++)
        s += i ^ x;
    sink = s;
    return s;
}

__attribute__((noinline)) unsigned hop(unsigned x)
{
    sink = x;
    return leaf(x + 3);   /* -O2: `j leaf` */
}

/* an exception inside a function */
__attribute__((noipa)) static unsigned do_ecall(unsigned x)
{
    sink = x;
    __asm__ volatile("ecall");
    return sink + 1;
}

/* an interrupt inside a function: mtimecmp = mtime + delay (high word first to all ones, so no
 * match on the way), MTIE and MIE on, then poll the handler's count */
__attribute__((noipa)) static unsigned spin(unsigned delay)
{
    volatile uint32_t *timer = (volatile uint32_t *)SM_TIMER_BASE;
    unsigned before = sm_trap_count, n = 0;
    timer[3] = 0xffffffffu;
    timer[2] = timer[0] + delay;
    timer[3] = timer[1];
    __asm__ volatile("csrs mie, %0" : : "r"(0x80u));
    __asm__ volatile("csrsi mstatus, 8");
    while (sm_trap_count == before)
        n++;
    __asm__ volatile("csrci mstatus, 8");
    __asm__ volatile("csrc mie, %0" : : "r"(0x80u));
    return n;
}

/* the fall-through: fall_a adds 1 and runs on into fall_b, which adds 2 and returns */
unsigned fall_a(unsigned x);
__asm__(".text\n"
        ".globl fall_a\n"
        ".type fall_a, @function\n"
        "fall_a:\n"
        "  addi a0, a0, 1\n"
        ".size fall_a, .-fall_a\n"
        ".globl fall_b\n"
        ".type fall_b, @function\n"
        "fall_b:\n"
        "  addi a0, a0, 2\n"
        "  ret\n"
        ".size fall_b, .-fall_b\n");

int main(void)
{
    unsigned r = hop(20);
    r += do_ecall(5);
    r += spin(150);
    r += fall_a(7);
    r += hop(10);
    sink = r;
    sm_print_named("result", r);
    sm_print_named("traps", sm_trap_count);
    return 0;
}
