/* modf for CoreMark's barebones/cvt.c (no libm here): |x| < 2^63 in what CoreMark prints */
#include <math.h>
double modf(double x, double *ip)
{
    double i = (double)(long long)x;
    *ip = i;
    return x - i;
}
