/* A small schema shared by the metrics tests: two tiles with L2 counters, a
 * third tile with only l2_hits, a device-wide cycle counter and parameters. */
#ifndef TESTS_METRICS_FIXTURE_H
#define TESTS_METRICS_FIXTURE_H

#include <math.h>
#include <string.h>
#include "socmon/metrics.h"

enum { T0_HITS, T0_MISS, T1_HITS, T1_MISS, T2_HITS, CYCLES, NCTR };

static const socmon_counter fx_counters[NCTR] = {
    [T0_HITS] = {.name = "l2_hits", .instance = "tile0", .width = 32},
    [T0_MISS] = {.name = "l2_misses", .instance = "tile0", .width = 32},
    [T1_HITS] = {.name = "l2_hits", .instance = "tile1", .width = 32},
    [T1_MISS] = {.name = "l2_misses", .instance = "tile1", .width = 32},
    [T2_HITS] = {.name = "l2_hits", .instance = "tile2", .width = 32},
    [CYCLES] = {.name = "cycles", .instance = "", .width = 64},
};
static const char *const fx_pnames[] = {"clock_hz", "bus_bytes"};
static const double fx_pvalues[] = {250e6, 16};
static const socmon_metric_schema fx_schema = {.ncounters = NCTR, .counters = fx_counters,
    .nparams = 2, .param_names = fx_pnames, .param_values = fx_pvalues};
static const uint64_t fx_deltas[NCTR] = {
    [T0_HITS] = 300, [T0_MISS] = 100, [T1_HITS] = 50, [T1_MISS] = 150, [T2_HITS] = 7,
    [CYCLES] = 4000};

/* Evaluates expr on the fixture with interval 0.5 s; fails the test on error. */
static inline double fx_eval(const char *expr)
{
    double v = -12345;
    socmon_status st = socmon_expr_eval(expr, &fx_schema, fx_deltas, 0.5, &v);
    if (st != SOCMON_OK)
        fail_msg("'%s': %s: %s", expr, socmon_status_name(st), socmon_errmsg());
    return v;
}

/* Expects expr to fail with st and a message containing every piece. */
static inline void fx_eval_fails(const char *expr, socmon_status want, const char *piece1,
                          const char *piece2)
{
    double v = 0;
    socmon_status st = socmon_expr_eval(expr, &fx_schema, fx_deltas, 0.5, &v);
    if (st != want)
        fail_msg("'%s': got %s, want %s (%s)", expr, socmon_status_name(st),
                 socmon_status_name(want), socmon_errmsg());
    if (piece1 && !strstr(socmon_errmsg(), piece1))
        fail_msg("'%s': message '%s' lacks '%s'", expr, socmon_errmsg(), piece1);
    if (piece2 && !strstr(socmon_errmsg(), piece2))
        fail_msg("'%s': message '%s' lacks '%s'", expr, socmon_errmsg(), piece2);
}

#endif
