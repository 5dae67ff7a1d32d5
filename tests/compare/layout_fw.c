/* layout_fw.c: firmware for the Ibex gate of docs/check.md (tests/compare/check_layout.test.sh).
 * Built three ways: as it is; with -DPAD, one more 16-bit instruction in a function never called,
 * which moves every function after it by two bytes and changes nothing they execute (a
 * layout-only change); with -DEXTRA=8, sum() runs 8 more iterations (a real change). */
#include "ibex_test.h"
#ifndef EXTRA
#define EXTRA 0
#endif
/* never called: with -DPAD one more 16-bit instruction, which moves every function after it by
 * two bytes (a layout-only change) */
__attribute__((noinline, used)) void fw_version(void)
{
#ifdef PAD
    __asm__ volatile("c.nop");
#endif
}

__attribute__((noinline)) uint32_t crc32(const uint8_t *p, uint32_t n)
{
    uint32_t c = 0xFFFFFFFFu;
    for (uint32_t i = 0; i < n; i++) {
        c ^= p[i];
        for (int k = 0; k < 8; k++)
            c = (c >> 1) ^ (0xEDB88320u & -(c & 1));
    }
    return ~c;
}
__attribute__((noinline)) uint32_t sum(const uint32_t *v, uint32_t n)
{
    uint32_t s = 0;
    for (uint32_t i = 0; i < n + EXTRA; i++)
        s += v[i % n] * 3u + (s >> 7);
    return s;
}
static uint8_t buf[256];
static uint32_t words[64];
int main(void)
{
    for (uint32_t i = 0; i < sizeof buf; i++)
        buf[i] = (uint8_t)(i * 7);
    for (uint32_t i = 0; i < 64; i++)
        words[i] = i * 2654435761u;
    sm_print_named("crc", crc32(buf, sizeof buf));
    sm_print_named("sum", sum(words, 64));
    return 0;
}
