/* diffprog: a C program for socmon diff's test, built twice: -DROUNDS=1 (the baseline) and
 * -DROUNDS=3 (the variant in which crc32 does three times the work). ROUNDS only sets a
 * variable in .data, so both images have the same code at the same addresses and every other
 * function counts exactly the same (the test checks that .text is identical). Nothing is printed
 * after the work: a printed result would change the output routines' branches. */
#include "ibex_test.h"

#ifndef ROUNDS
#define ROUNDS 1
#endif

static volatile unsigned crc_rounds = ROUNDS;
static volatile unsigned sink;
static unsigned char buf[96];

__attribute__((noinline)) static void fill(unsigned seed)
{
    for (unsigned i = 0; i < sizeof buf; i++) {
        seed = seed * 1103515245u + 12345u;
        buf[i] = (unsigned char)(seed >> 16);
    }
}

__attribute__((noinline)) static unsigned crc32(void)
{
    unsigned crc = 0xffffffffu;
    for (unsigned r = 0; r < crc_rounds; r++)
        for (unsigned i = 0; i < sizeof buf; i++) {
            crc ^= buf[i];
            for (int k = 0; k < 8; k++)
                crc = crc & 1 ? (crc >> 1) ^ 0xedb88320u : crc >> 1;
        }
    return ~crc;
}

__attribute__((noinline)) static unsigned sum_squares(void)
{
    unsigned s = 0;
    for (unsigned i = 0; i < sizeof buf; i++)
        s += (unsigned)buf[i] * buf[i];
    return s;
}

int main(void)
{
    fill(7);
    sink = crc32();
    sink = sum_squares();
    return 0;
}
