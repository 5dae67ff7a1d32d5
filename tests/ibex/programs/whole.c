/* whole: never touches the counters, so the final values at halt cover the whole run from reset
 * (crt0 start-up, the computation, every byte of printing) until crt0 inhibits them before the
 * halt. It checks a model's timing over ordinary code, not only inside small windows. */
#include "ibex_test.h"

static const char msg[] = "whole-program run\n";

__attribute__((noinline)) static uint32_t fib(uint32_t n)
{
    return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

int main(void)
{
    sm_puts(msg);
    uint32_t f = fib(12);
    uint32_t q = 0;
    for (uint32_t i = 1; i < 20; i++)
        q += (f * i) / (i + 3) - (f % i);
    sm_print_named("fib12", f);
    sm_print_named("q", q);
    return 0;
}
