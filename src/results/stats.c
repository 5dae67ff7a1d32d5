/* Student's t for comparing runs (socmon/compare.h; docs/statistics.md): the two-sided tail of
 * t by the regularized incomplete beta function, I_x(a, b) with x = df / (df + t^2), a = df/2,
 * b = 1/2, evaluated by its continued fraction (Lentz's method; the textbook formulas of
 * Abramowitz & Stegun 26.5.8 and 26.7.1); its 95 % quantile by bisection on that tail; and
 * Welch's t-test with the Welch-Satterthwaite degrees of freedom. */
#include <math.h>

#include "socmon/compare.h"

/* One term of Lentz's method: folds numerator num into the running c and d; returns the
 * factor the fraction's value moves by. */
static double lentz_step(double num, double *c, double *d)
{
    const double tiny = 1e-300;   /* keeps a zero denominator from dividing */
    *d = 1 + num * *d;
    *d = fabs(*d) < tiny ? tiny : *d;
    *c = 1 + num / *c;
    *c = fabs(*c) < tiny ? tiny : *c;
    *d = 1 / *d;
    return *d * *c;
}

/* The continued fraction of I_x(a, b) (converges fast for x < (a + 1) / (a + b + 2)): its even
 * and odd terms in turn. */
static double beta_cf(double a, double b, double x)
{
    double c = 1, d = 1 - (a + b) * x / (a + 1);
    d = 1 / (fabs(d) < 1e-300 ? 1e-300 : d);
    double h = d;
    for (int m = 1; m <= 500; m++) {
        double m2 = 2.0 * m;
        h *= lentz_step(m * (b - m) * x / ((a + m2 - 1) * (a + m2)), &c, &d);
        double step = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1)), &c, &d);
        h *= step;
        if (fabs(step - 1) < 1e-15)
            break;
    }
    return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double betai(double a, double b, double x)
{
    if (x <= 0)
        return 0;
    if (x >= 1)
        return 1;
    double lfront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x);
    if (x < (a + 1) / (a + b + 2))
        return exp(lfront) * beta_cf(a, b, x) / a;
    return 1 - exp(lfront) * beta_cf(b, a, 1 - x) / b;   /* the symmetry I_x(a,b) = 1 - I_1-x(b,a) */
}

/* P(|T| >= t) for Student's t with df degrees of freedom. */
static double t_two_tail(double t, double df)
{
    if (isinf(t))
        return 0;
    return betai(df / 2, 0.5, df / (df + t * t));
}

double socmon_t95(double df)
{
    if (!(df >= 1))
        return NAN;
    if (isinf(df))
        return 1.959963984540054;
    /* the tail falls as t grows: bisect for the t whose two-sided tail is 0.05 (t95 <= 12.71) */
    double lo = 1.9, hi = 12.8;
    for (int i = 0; i < 200 && hi - lo > 1e-13 * hi; i++) {
        double mid = (lo + hi) / 2;
        if (t_two_tail(mid, df) > 0.05)
            lo = mid;
        else
            hi = mid;
    }
    return (lo + hi) / 2;
}

double socmon_welch_p(double mean_a, double sd_a, unsigned n_a, double mean_b, double sd_b, unsigned n_b)
{
    if (n_a < 2 || n_b < 2 || isnan(mean_a) || isnan(mean_b) || isnan(sd_a) || isnan(sd_b) || sd_a < 0 || sd_b < 0)
        return NAN;
    double va = sd_a * sd_a / n_a, vb = sd_b * sd_b / n_b, se2 = va + vb;
    if (se2 == 0)   /* no spread on either side: the means are what they are */
        return mean_a == mean_b ? 1 : 0;
    double t = (mean_b - mean_a) / sqrt(se2);
    double df = se2 * se2 / (va * va / (n_a - 1) + vb * vb / (n_b - 1));
    if (!(df >= 1))
        df = 1;   /* Welch-Satterthwaite is at least min(n) - 1 >= 1; guard rounding */
    return t_two_tail(fabs(t), df);
}
