/* PLACEHOLDER until branch i25-stats lands (its stats.c replaces this file): crude values. */
#include <math.h>
#include "socmon/compare.h"
double socmon_t95(double df) { return df < 1 ? NAN : df < 2 ? 12.706 : df < 3 ? 4.303 : df < 10 ? 2.262 : 1.96; }
double socmon_welch_p(double ma, double sa, unsigned na, double mb, double sb, unsigned nb)
{
    if (na < 2 || nb < 2) return NAN;
    double se = sqrt(sa * sa / na + sb * sb / nb);
    if (se == 0) return ma == mb ? 1 : 0;
    double t = fabs(ma - mb) / se;
    return erfc(t / sqrt(2));
}
