/* callgraph: the shapes a call tree must survive, for socmon's exact profile (issue 27):
 * recursion (fib), mutual recursion (is_even/is_odd), a tail call (tail_caller jumps to
 * tail_callee: built with -O2 it is a `j`), a call through a function pointer (apply), a trap
 * (raise_trap's ecall enters crt0's sm_exception handler), and a hot loop on a line marked HOT
 * whose cycles the source-line view must show as the largest. Built with -g. */
#include "ibex_test.h"

volatile unsigned sink;

__attribute__((noinline)) static unsigned fib(unsigned n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

/* each adds to the other's result, so neither call can become a jump */
__attribute__((noipa)) static unsigned is_odd(unsigned n);
__attribute__((noipa)) static unsigned is_even(unsigned n)
{
    return n == 0 ? 1 : 2 + is_odd(n - 1);
}
__attribute__((noipa)) static unsigned is_odd(unsigned n)
{
    return n == 0 ? 0 : 3 + is_even(n - 1);
}

__attribute__((noinline)) static unsigned tail_callee(unsigned x)
{
    unsigned s = 0;
    for (unsigned i = 0; i < x; i++)
        s += i * 3;
    sink = s;
    return s;
}

__attribute__((noinline)) unsigned tail_caller(unsigned x)
{
    sink = x;
    return tail_callee(x + 1);   /* -O2: a tail call */
}

__attribute__((noinline)) static unsigned square(unsigned x)
{
    return x * x;
}

__attribute__((noipa)) static unsigned apply(unsigned (*volatile f)(unsigned), unsigned x)
{
    return f(x) + 1;
}

__attribute__((noinline)) static void raise_trap(void)
{
    __asm__ volatile("ecall");
}

__attribute__((noipa)) static unsigned hot(unsigned n)
{
    unsigned a = 1;
    for (unsigned i = 0; i < n; i++)
        a = (a * 2654435761u) ^ (a >> 7) ^ (a * 40503u) ^ i; /* HOT */
    return a;
}

int main(void)
{
    unsigned r = fib(12);
    r += is_even(21) + is_odd(10);
    r += tail_caller(30);
    r += apply(square, 7);
    raise_trap();
    r += hot(4000);
    sink = r;
    sm_print_named("result", r);
    return 0;
}
