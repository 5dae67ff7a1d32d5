/* cprog: a small C program built with -O2: a loop calling a non-inlined function that multiplies
 * and divides, plus an array walk. The window covers the whole computation; the results are
 * printed after it. */
#include "ibex_test.h"

static int table[64];

__attribute__((noinline)) static int mix(int a, int b)
{
    int p = a * b + 7;
    return p / (b | 1) + p % 13;
}

__attribute__((noinline)) static unsigned checksum(const int *v, int n)
{
    unsigned s = 0;
    for (int i = 0; i < n; i++)
        s = (s << 3 | s >> 29) ^ (unsigned)v[i];
    return s;
}

int main(void)
{
    sm_zero_counters();
    SM_START();
    int acc = 1;
    for (int i = 0; i < 64; i++) {
        acc = mix(acc + i, i - 17);
        table[i] = acc;
    }
    unsigned sum = checksum(table, 64);
    SM_STOP();
    sm_print_counters();
    sm_print_named("acc", (uint32_t)acc);
    sm_print_named("checksum", sum);
    return 0;
}
