/* Sampling-interval bound that keeps a counter from wrapping twice unseen. */
#include <math.h>

#include "socmon/delta.h"

uint64_t socmon_max_interval_ns(unsigned width, double max_rate_hz)
{
    if (!(max_rate_hz > 0) || width == 0)
        return UINT64_MAX;
    /* A full period is 2^width events; staying strictly under it means at
     * most one wrap between samples, which socmon_delta undoes exactly. */
    double period = ldexp(1.0, width > 64 ? 64 : (int)width);
    double ns = period / max_rate_hz * 1e9;
    if (ns >= 18446744073709551615.0)
        return UINT64_MAX;
    uint64_t r = (uint64_t)ns;
    /* Doubles round: step down until the bound provably holds in the same
     * arithmetic a caller would check it with. */
    while (r > 0 && max_rate_hz * (double)r / 1e9 >= period)
        r -= (r >> 40) ? (r >> 40) : 1;
    return r;
}
