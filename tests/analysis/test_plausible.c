/* Issue 37, item 15: a delta its counter could not have made is flagged, not hidden. Every
 * counter declares its maximum rate (socmon_counter.max_rate_hz); a delta above what that rate
 * allows in the interval (with a margin) is SOCMON_VALUE_IMPLAUSIBLE on the row and in the
 * run's totals, the delta is kept as read, and every metric over it is undefined; a block whose
 * every counter reads all-ones is SOCMON_VALUE_DEAD_BUS. A counter of unknown rate (0) is never
 * judged, and one counter alone reading all-ones is no dead bus. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "export/output.h"
#include "socmon/analysis.h"

static const socmon_counter counters[] = {
    {.name = "a", .instance = "blk", .unit = "events", .width = 32, .max_rate_hz = 1e6},
    {.name = "b", .instance = "blk", .unit = "events", .width = 32, .max_rate_hz = 1e6},
    {.name = "cyc", .instance = "", .unit = "cycles", .width = 64, .max_rate_hz = 1e9},
    {.name = "free", .instance = "", .unit = "events", .width = 32, .max_rate_hz = 0},
    {.name = "solo", .instance = "one", .unit = "events", .width = 8, .max_rate_hz = 1e9},
};
static const char *const names[] = {"blk.a", "blk.b", "cyc", "free", "one.solo"};
#define N 5
static const char metrics_json[] = "{\"metrics\": ["
                                   "{\"name\": \"a_per_cyc\", \"expr\": \"a / cyc\"},"
                                   "{\"name\": \"cyc_rate\", \"expr\": \"cyc / interval_s\"},"
                                   "{\"name\": \"ab\", \"expr\": \"1 + a + b\"}]}";
#define NM 3

typedef struct seen {
    unsigned flags[16];
    unsigned char bad[16][N];
    uint64_t raw[16][N];
    double mv[16][NM];
    size_t nrows;
    socmon_totals t;
    unsigned char tbad[N];
    double tmv[NM];
} seen;

static socmon_status c_begin(void *self, const socmon_analysis_info *a, socmon_row_policy *want)
{
    (void)self, (void)a;
    want->rows = 1;
    return SOCMON_OK;
}

static socmon_status c_row(void *self, const socmon_row *r)
{
    seen *s = self;
    assert_true(s->nrows < 16);
    size_t k = s->nrows++;
    s->flags[k] = r->value_flags;
    if (r->implausible)
        memcpy(s->bad[k], r->implausible, N);
    else
        assert_int_equal(r->value_flags & (SOCMON_VALUE_IMPLAUSIBLE | SOCMON_VALUE_DEAD_BUS), 0);
    memcpy(s->raw[k], r->raw, sizeof s->raw[k]);
    memcpy(s->mv[k], r->metrics, sizeof s->mv[k]);
    return SOCMON_OK;
}

static socmon_status c_end(void *self, const socmon_totals *t, const char *reason)
{
    seen *s = self;
    (void)reason;
    s->t = *t;
    if (t->implausible)
        memcpy(s->tbad, t->implausible, N);
    memcpy(s->tmv, t->metrics, sizeof s->tmv);
    return SOCMON_OK;
}

static const socmon_consumer_ops ops = {.size = sizeof ops, .begin = c_begin, .row = c_row, .end = c_end};

static void test_implausible_deltas(void **state)
{
    (void)state;
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_string(metrics_json, "m.json", &ms), SOCMON_OK);
    socmon_source_info info = {.kind = "test", .target = "test", .ncounters = N, .counters = counters, .names = names};
    socmon_pipeline_opts po = {.size = sizeof po, .ms = ms};
    socmon_pipeline *p = NULL;
    assert_int_equal(socmon_pipeline_new(&info, &po, &p), SOCMON_OK);
    seen s = {0};
    socmon_consumer c = {.ops = &ops, .self = &s};
    assert_int_equal(socmon_pipeline_add(p, &c), SOCMON_OK);
    assert_int_equal(socmon_pipeline_begin(p), SOCMON_OK);
    const uint64_t ones = 0xFFFFFFFFu;
    /* one sample a millisecond: a and b may move 1,000 (x 1.25, + 1 ms's worth), cyc 1e6 */
    const uint64_t v[][N] = {
        {0, 0, 0, 0, 0},
        {1000, 500, 1000000, 100, 200},               /* a at its very maximum: plausible */
        {500, 1000, 2000000, 50, 0xFF},               /* a set back (2^32 - 500); free too, unjudged;
                                                         solo alone at all-ones: no dead bus */
        {1500, 2000 + (1u << 31), 3000000, 60, 3},    /* b jumps by 2^31 */
        {ones, ones, 4000000, 70, 4},                 /* blk reads all-ones (and jumps there) */
        {ones, ones, 5000000, 80, 5},                 /* still all-ones: no delta, still dead */
        {2500, 2900, 6000000, 90, 6},                 /* blk answers again: a wrap from all-ones */
        {3000, 3200, 7000000, 95, 7},                 /* plausible again */
    };
    size_t nv = sizeof v / sizeof v[0];
    for (size_t i = 0; i < nv; i++) {
        socmon_sample sm = {.t_ns = 1000000 * (i + 1), .n = N, .v = (uint64_t *)v[i]};
        assert_int_equal(socmon_pipeline_sample(p, i, &sm, 0), SOCMON_OK);
    }
    assert_int_equal(socmon_pipeline_end(p, NULL), SOCMON_OK);
    assert_int_equal(s.nrows, nv - 1);
    const unsigned I = SOCMON_VALUE_IMPLAUSIBLE, D = SOCMON_VALUE_DEAD_BUS;
    /* row 0: at the maximum rate, nothing flagged, every metric has its value */
    assert_int_equal(s.flags[0], 0);
    assert_true(fabs(s.mv[0][0] - 1000.0 / 1e6) < 1e-12);
    /* row 1: a went backwards: flagged on a alone, its delta as read, a's metrics undefined
     * (so the row is UNDEFINED too) */
    assert_true(s.flags[1] & SOCMON_VALUE_UNDEFINED);
    assert_int_equal(s.flags[1] & (I | D), I);
    assert_int_equal(s.bad[1][0], I);
    assert_int_equal(s.bad[1][1] | s.bad[1][2] | s.bad[1][3] | s.bad[1][4], 0);
    assert_int_equal(s.raw[1][0], (UINT64_C(1) << 32) - 500);
    assert_true(isnan(s.mv[1][0]) && isnan(s.mv[1][2]));
    assert_true(fabs(s.mv[1][1] - 1e9) < 1e-3);   /* cyc_rate does not use a */
    /* row 2: the +2^31 jump of b */
    assert_int_equal(s.flags[2] & (I | D), I);
    assert_int_equal(s.bad[2][1], I);
    assert_int_equal(s.bad[2][0], 0);
    assert_int_equal(s.raw[2][1], 1000 + (UINT64_C(1) << 31));
    assert_true(!isnan(s.mv[2][0]) && isnan(s.mv[2][2]));
    /* rows 3 and 4: blk is a dead bus (row 3 also jumped there), cyc and the rest are not */
    assert_int_equal(s.flags[3] & (I | D), I | D);
    assert_int_equal(s.bad[3][0], I | D);
    assert_int_equal(s.bad[3][1], I | D);
    assert_int_equal(s.bad[3][2] | s.bad[3][4], 0);
    assert_int_equal(s.flags[4] & (I | D), D);
    assert_int_equal(s.bad[4][0], D);
    assert_int_equal(s.raw[4][0], 0);
    assert_true(isnan(s.mv[4][0]) && !isnan(s.mv[4][1]));
    /* row 5: coming back from all-ones wraps: implausible; row 6 plausible again */
    assert_int_equal(s.flags[5] & (I | D), I);
    assert_int_equal(s.flags[6] & (I | D), 0);
    /* the run: five rows (1..5) had implausible deltas or a dead bus, the counters
     * that ever did are marked, and the run's metrics over them are undefined */
    assert_int_equal(s.t.implausible_intervals, 5);
    assert_int_equal(s.t.value_flags & (I | D), I | D);
    assert_int_equal(s.tbad[0], I | D);
    assert_int_equal(s.tbad[1], I | D);
    assert_int_equal(s.tbad[2] | s.tbad[3] | s.tbad[4], 0);
    assert_true(isnan(s.tmv[0]) && isnan(s.tmv[2]));
    assert_true(fabs(s.tmv[1] - 1e9) < 1e-3);
    /* the names the formats print: counters, and a dead block's counters by their block */
    char buf[64];
    smn_value_names(&info, s.tbad, I, buf, sizeof buf);
    assert_string_equal(buf, "");
    smn_value_names(&info, s.bad[1], I, buf, sizeof buf);
    assert_string_equal(buf, "blk.a");
    smn_value_names(&info, s.tbad, D, buf, sizeof buf);
    assert_string_equal(buf, "blk");
    const unsigned char all[N] = {I, I, I, I, I};
    smn_value_names(&info, all, I, buf, sizeof buf);
    assert_string_equal(buf, "blk.a,blk.b,cyc+2");
    socmon_pipeline_free(p);
    socmon_metricset_free(ms);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_implausible_deltas),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
