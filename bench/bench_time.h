/* What the benches time with: a monotonic clock in ns, and sorting samples for their median
 * (the median of repeated batches: one slow batch, a page fault or a preemption, does not move
 * it). */
#ifndef SOCMON_BENCH_TIME_H
#define SOCMON_BENCH_TIME_H

#include <stdlib.h>
#include <time.h>

static inline double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int bench_cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Sorts v[0..n) ascending and returns its median (n > 0). */
static inline double bench_median(double *v, size_t n)
{
    qsort(v, n, sizeof v[0], bench_cmp_double);
    return v[n / 2];
}

#endif
