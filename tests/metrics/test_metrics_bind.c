/* Binding metric files to schemas: per-instance vs device-wide resolution,
 * instance names, metric-to-metric references, labels, skipped metrics and
 * bind-time errors. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/metrics.h"
#include "metrics/metrics_fixture.h"

typedef struct bound {
    socmon_metricset *ms;
    socmon_metrics *m;
    double out[64];
} bound;

static void bind_text(bound *b, const char *json, const socmon_metric_schema *sc,
                      const uint64_t *deltas, double interval_s)
{
    socmon_status st = socmon_metricset_load_string(json, "t.json", &b->ms);
    if (st)
        fail_msg("load: %s", socmon_errmsg());
    st = socmon_metrics_bind(b->ms, sc, &b->m);
    if (st)
        fail_msg("bind: %s", socmon_errmsg());
    assert_true(socmon_metrics_nresults(b->m) <= 64);
    assert_int_equal(socmon_metrics_eval(b->m, deltas, interval_s, b->out), SOCMON_OK);
}

static void unbind(bound *b)
{
    socmon_metrics_free(b->m);
    socmon_metricset_free(b->ms);
}

/* Index of the result (name, instance), -1 if absent. */
static long find(const bound *b, const char *name, const char *inst)
{
    for (size_t i = 0; i < socmon_metrics_nresults(b->m); i++) {
        const socmon_metric_result_info *r = socmon_metrics_result(b->m, i);
        if (strcmp(r->def->name, name) == 0 && strcmp(r->instance, inst) == 0)
            return (long)i;
    }
    return -1;
}

static double val(const bound *b, const char *name, const char *inst)
{
    long i = find(b, name, inst);
    if (i < 0)
        fail_msg("no result %s[%s]", name, inst);
    return b->out[i];
}

#define D(c) ((double)fx_deltas[c])

static void test_per_instance_vs_device_wide(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"hr\", \"per\": \"instance\", \"expr\": \"l2_hits / (l2_hits + l2_misses)\"},"
              " {\"name\": \"hr_dev\", \"expr\": \"l2_hits / (l2_hits + l2_misses)\"},"
              " {\"name\": \"hr_dev2\", \"per\": \"device\", \"expr\": \"l2_misses\"}]}",
              &fx_schema, fx_deltas, 1);
    /* tile2 has no l2_misses: no hr result for it */
    assert_int_equal(socmon_metrics_nresults(b.m), 4);
    assert_true(val(&b, "hr", "tile0") == D(T0_HITS) / (D(T0_HITS) + D(T0_MISS)));
    assert_true(val(&b, "hr", "tile1") == D(T1_HITS) / (D(T1_HITS) + D(T1_MISS)));
    assert_int_equal(find(&b, "hr", "tile2"), -1);
    /* device-wide: bare names are sums over every instance having the counter */
    double hits = D(T0_HITS) + D(T1_HITS) + D(T2_HITS), miss = D(T0_MISS) + D(T1_MISS);
    assert_true(val(&b, "hr_dev", "") == hits / (hits + miss));
    assert_true(val(&b, "hr_dev2", "") == miss);
    /* order: metrics in file order, instances in schema order */
    assert_string_equal(socmon_metrics_result(b.m, 0)->instance, "tile0");
    assert_string_equal(socmon_metrics_result(b.m, 1)->instance, "tile1");
    assert_string_equal(socmon_metrics_result(b.m, 2)->def->name, "hr_dev");
    assert_null(socmon_metrics_result(b.m, 4));
    unbind(&b);
}

static void test_instance_order_and_device_counter_fallback(void **state)
{
    (void)state;
    /* instances in order of first appearance, not sorted */
    socmon_counter c[] = {
        {.name = "busy", .instance = "coreB", .width = 32},
        {.name = "cycles", .instance = "", .width = 64},
        {.name = "busy", .instance = "coreA", .width = 32},
        {.name = "stall", .instance = "coreB", .width = 32},
    };
    socmon_metric_schema sc = {.ncounters = 4, .counters = c, .nparams = 0, .param_names = NULL,
        .param_values = NULL};
    uint64_t d[] = {30, 120, 60, 5};
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"util\", \"per\": \"instance\", \"expr\": \"busy / cycles\"},"
              " {\"name\": \"only_dev\", \"per\": \"instance\", \"expr\": \"cycles * 2\"}]}",
              &sc, d, 1);
    assert_int_equal(socmon_metrics_nresults(b.m), 2);
    assert_string_equal(socmon_metrics_result(b.m, 0)->instance, "coreB");
    assert_string_equal(socmon_metrics_result(b.m, 1)->instance, "coreA");
    /* a bare name the instance lacks falls back to the device-wide counter */
    assert_true(b.out[0] == 30.0 / 120 && b.out[1] == 60.0 / 120);
    /* a per-instance metric using no counter of the instance itself is skipped */
    assert_non_null(socmon_metrics_skipped(b.m, 1));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 1), "no instance"));
    assert_null(socmon_metrics_skipped(b.m, 0));
    unbind(&b);
}

static void test_no_instances_at_all(void **state)
{
    (void)state;
    socmon_counter c[] = {{.name = "rd_bytes", .instance = "", .width = 32},
                          {.name = "rd_txns", .instance = NULL, .width = 32}};
    socmon_metric_schema sc = {.ncounters = 2, .counters = c, .nparams = 0, .param_names = NULL,
        .param_values = NULL};
    uint64_t d[] = {4096, 64};
    bound b;
    bind_text(&b,
              "{\"metrics\": [{\"name\": \"avg_len\", \"per\": \"instance\", "
              "\"expr\": \"rd_bytes / rd_txns\"},"
              " {\"name\": \"n\", \"expr\": \"count(rd_bytes) + sum(rd_txns)\"}]}",
              &sc, d, 1);
    /* per-instance on a device without instances: one device-wide result */
    assert_int_equal(socmon_metrics_nresults(b.m), 2);
    assert_string_equal(socmon_metrics_result(b.m, 0)->instance, "");
    assert_true(b.out[0] == 4096.0 / 64);
    /* aggregates see the device as its one instance */
    assert_true(b.out[1] == 1 + 64.0);
    unbind(&b);
}

static void test_sums_and_instance_names(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"t1\", \"expr\": \"tile1.l2_hits + tile0.l2_misses\"},"
              " {\"name\": \"share\", \"per\": \"instance\", \"expr\": \"l2_hits / sum(l2_hits)\"},"
              " {\"name\": \"vs_t0\", \"per\": \"instance\", \"expr\": \"l2_hits - tile0.l2_hits\"},"
              " {\"name\": \"n\", \"expr\": \"count(l2_misses) * 10 + count(l2_hits)\"},"
              " {\"name\": \"mx\", \"expr\": \"max(l2_hits) + min(l2_misses)\"}]}",
              &fx_schema, fx_deltas, 1);
    assert_true(val(&b, "t1", "") == D(T1_HITS) + D(T0_MISS));
    double hits = D(T0_HITS) + D(T1_HITS) + D(T2_HITS);
    assert_true(val(&b, "share", "tile0") == D(T0_HITS) / hits);
    assert_true(val(&b, "share", "tile1") == D(T1_HITS) / hits);
    assert_true(val(&b, "share", "tile2") == D(T2_HITS) / hits);
    assert_true(val(&b, "vs_t0", "tile2") == D(T2_HITS) - D(T0_HITS));
    assert_true(val(&b, "vs_t0", "tile0") == 0.0);
    assert_true(val(&b, "n", "") == 2 * 10 + 3);
    assert_true(val(&b, "mx", "") == D(T0_HITS) + D(T0_MISS));
    /* the shares sum to 1 on other deltas too: nothing is cached across evals */
    uint64_t d2[NCTR] = {1, 2, 3, 4, 5, 6};
    assert_int_equal(socmon_metrics_eval(b.m, d2, 1, b.out), SOCMON_OK);
    assert_true(val(&b, "share", "tile0") == 1.0 / 9);
    assert_true(val(&b, "share", "tile2") == 5.0 / 9);
    assert_true(val(&b, "t1", "") == 3 + 2);
    unbind(&b);
}

static void test_metric_references(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"acc\", \"per\": \"instance\", \"expr\": \"l2_hits + l2_misses\"},"
              " {\"name\": \"acc2\", \"per\": \"instance\", \"expr\": \"2 * acc\"},"
              " {\"name\": \"total\", \"expr\": \"acc\"},"
              " {\"name\": \"frac\", \"per\": \"instance\", \"expr\": \"acc / total\"},"
              " {\"name\": \"t1acc\", \"expr\": \"tile1.acc + 0 * total\"},"
              " {\"name\": \"acc_avg\", \"expr\": \"avg(acc)\"},"
              " {\"name\": \"cycles\", \"expr\": \"cycles * 2\"},"
              " {\"name\": \"dbl\", \"expr\": \"cycles + interval_s\"}]}",
              &fx_schema, fx_deltas, 0.25);
    double a0 = D(T0_HITS) + D(T0_MISS), a1 = D(T1_HITS) + D(T1_MISS);
    assert_true(val(&b, "acc2", "tile0") == 2 * a0);   /* same instance's value */
    assert_true(val(&b, "acc2", "tile1") == 2 * a1);
    assert_int_equal(find(&b, "acc2", "tile2"), -1);   /* acc has no tile2 result */
    assert_true(val(&b, "total", "") == a0 + a1);     /* device-wide: sum of the results */
    assert_true(val(&b, "frac", "tile1") == a1 / (a0 + a1));
    assert_true(val(&b, "t1acc", "") == a1);
    assert_true(val(&b, "acc_avg", "") == (a0 + a1) / 2);   /* avg over acc's instances */
    /* a metric named like a counter: inside itself the name is the counter,
     * after it the metric */
    assert_true(val(&b, "cycles", "") == 2 * D(CYCLES));
    assert_true(val(&b, "dbl", "") == 2 * D(CYCLES) + 0.25);
    unbind(&b);
}

static void test_argmax_labels(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"bound\", \"labels\": [\"memory\", \"compute\", \"idle\"],"
              "  \"expr\": \"argmax(l2_misses, l2_hits, 0)\", \"unit\": \"\","
              "  \"desc\": \"what limits the run\"},"
              " {\"name\": \"tie\", \"labels\": [\"a\", \"b\"], \"per\": \"instance\","
              "  \"expr\": \"argmax(l2_hits - l2_hits, 0)\"},"
              " {\"name\": \"hot\", \"per\": \"instance\","
              "  \"expr\": \"argmax(l2_misses, l2_hits)\"}]}",
              &fx_schema, fx_deltas, 1);
    const socmon_metric_def *d = socmon_metricset_def(b.ms, 0);
    assert_int_equal(d->nlabels, 3);
    assert_string_equal(d->labels[0], "memory");
    assert_string_equal(d->labels[2], "idle");
    assert_string_equal(d->desc, "what limits the run");
    double hits = D(T0_HITS) + D(T1_HITS) + D(T2_HITS), miss = D(T0_MISS) + D(T1_MISS);
    assert_true(val(&b, "bound", "") == (miss >= hits ? 0.0 : 1.0));
    assert_true(val(&b, "tie", "tile0") == 0.0);   /* tie: the first argument wins */
    assert_true(val(&b, "tie", "tile2") == 0.0);
    assert_true(val(&b, "hot", "tile0") == (D(T0_MISS) >= D(T0_HITS) ? 0.0 : 1.0));
    assert_true(val(&b, "hot", "tile1") == (D(T1_MISS) >= D(T1_HITS) ? 0.0 : 1.0));
    assert_int_equal(socmon_metricset_def(b.ms, 2)->nlabels, 0);
    assert_null(socmon_metricset_def(b.ms, 3));
    unbind(&b);
}

static void test_skipped_metrics(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"metrics\": ["
              " {\"name\": \"l3\", \"expr\": \"l3_misses / cycles\"},"
              " {\"name\": \"uses_l3\", \"expr\": \"l3 * 2\"},"
              " {\"name\": \"ok\", \"expr\": \"cycles / clock_hz\"},"
              " {\"name\": \"far\", \"expr\": \"tile7.l2_hits\"},"
              " {\"name\": \"t2m\", \"expr\": \"tile2.l2_misses\"},"
              " {\"name\": \"inagg\", \"expr\": \"sum(dram_rd)\"},"
              " {\"name\": \"hr\", \"per\": \"instance\", \"expr\": \"l2_hits / l2_misses\"},"
              " {\"name\": \"hr_t2\", \"expr\": \"tile2.hr\"},"
              " {\"name\": \"hr_avg\", \"expr\": \"avg(hr) + 0 * count(tile9.x)\"}]}",
              &fx_schema, fx_deltas, 1);
    assert_int_equal(socmon_metrics_nresults(b.m), 1 + 2);
    assert_true(val(&b, "ok", "") == D(CYCLES) / fx_pvalues[0]);
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 0), "'l3_misses'"));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 1), "'l3'"));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 1), "skipped"));
    assert_null(socmon_metrics_skipped(b.m, 2));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 3), "'tile7'"));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 4), "'tile2.l2_misses'"));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 5), "'dram_rd'"));
    /* hr has results for tile0 and tile1 only */
    assert_null(socmon_metrics_skipped(b.m, 6));
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 7), "no result for 'tile2.hr'"));
    /* an unknown instance inside an aggregate skips the metric too */
    assert_non_null(strstr(socmon_metrics_skipped(b.m, 8), "'tile9'"));
    assert_null(socmon_metrics_skipped(b.m, 9));
    unbind(&b);
}

/* "absent": "undefined" (per file): a name the schema lacks reads as NaN, so its metric
 * and the metrics using it still give a result, undefined; argmax/max pick among the
 * defined. Without the key the same file skips them (test_skipped_metrics). */
static void test_absent_undefined(void **state)
{
    (void)state;
    bound b;
    bind_text(&b,
              "{\"absent\": \"undefined\", \"metrics\": ["
              " {\"name\": \"l3\", \"expr\": \"l3_misses / cycles\"},"
              " {\"name\": \"uses_l3\", \"expr\": \"l3 * 2\"},"
              " {\"name\": \"ok\", \"expr\": \"cycles / clock_hz\"},"
              " {\"name\": \"far\", \"expr\": \"tile7.l2_hits\"},"
              " {\"name\": \"t2m\", \"expr\": \"tile2.l2_misses\"},"
              " {\"name\": \"best\", \"expr\": \"argmax(l3, cycles, far)\"},"
              " {\"name\": \"top\", \"expr\": \"max(l3, cycles / 2, far)\"}]}",
              &fx_schema, fx_deltas, 1);
    assert_int_equal(socmon_metrics_nresults(b.m), 7);
    for (size_t i = 0; i < 7; i++)
        assert_null(socmon_metrics_skipped(b.m, i));
    assert_true(isnan(val(&b, "l3", "")));
    assert_true(isnan(val(&b, "uses_l3", "")));
    assert_true(val(&b, "ok", "") == D(CYCLES) / fx_pvalues[0]);
    assert_true(isnan(val(&b, "far", "")));
    assert_true(isnan(val(&b, "t2m", "")));
    assert_true(val(&b, "best", "") == 1);
    assert_true(val(&b, "top", "") == D(CYCLES) / 2);
    /* each result says whether it read an absent name, itself or through an earlier metric
     * (what a live line leaves off) */
    static const struct { const char *name; int absent; } abs[] = {
        {"l3", 1}, {"uses_l3", 1}, {"ok", 0}, {"far", 1}, {"t2m", 1}, {"best", 1}, {"top", 1}};
    for (size_t i = 0; i < sizeof abs / sizeof abs[0]; i++) {
        long k = find(&b, abs[i].name, "");
        assert_true(k >= 0);
        if (socmon_metrics_result(b.m, (size_t)k)->absent != abs[i].absent)
            fail_msg("%s: absent %d, want %d", abs[i].name, socmon_metrics_result(b.m, (size_t)k)->absent,
                     abs[i].absent);
    }
    unbind(&b);
    /* later metrics stay errors; only "skip" and "undefined" are values */
    socmon_metricset *ms;
    assert_int_equal(socmon_metricset_load_string("{\"absent\": \"zero\", \"metrics\": []}", "t.json", &ms),
                     SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "\"absent\" must be \"skip\" (the default) or \"undefined\""));
    assert_int_equal(socmon_metricset_load_string("{\"absent\": 1, \"metrics\": []}", "t.json", &ms),
                     SOCMON_EPARSE);
    assert_int_equal(socmon_metricset_load_string("{\"absent\": \"skip\", \"metrics\": ["
                                                  "{\"name\": \"a\", \"expr\": \"nope\"}]}",
                                                  "t.json", &ms), SOCMON_OK);
    socmon_metrics *m;
    assert_int_equal(socmon_metrics_bind(ms, &fx_schema, &m), SOCMON_OK);
    assert_int_equal(socmon_metrics_nresults(m), 0);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    assert_int_equal(socmon_metricset_load_string("{\"absent\": \"undefined\", \"metrics\": ["
                                                  "{\"name\": \"a\", \"expr\": \"b\"},"
                                                  "{\"name\": \"b\", \"expr\": \"1\"}]}",
                                                  "t.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &fx_schema, &m), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "defined after it"));
    socmon_metricset_free(ms);
}

static void expect_bind_error(const char *json, socmon_status want, const char *p1,
                              const char *p2)
{
    socmon_metricset *ms = NULL;
    socmon_metrics *m = (socmon_metrics *)&ms;   /* must be reset to NULL on failure */
    assert_int_equal(socmon_metricset_load_string(json, "t.json", &ms), SOCMON_OK);
    socmon_status st = socmon_metrics_bind(ms, &fx_schema, &m);
    if (st != want)
        fail_msg("got %s (%s), want %s", socmon_status_name(st), socmon_errmsg(),
                 socmon_status_name(want));
    assert_null(m);
    if (!strstr(socmon_errmsg(), p1) || (p2 && !strstr(socmon_errmsg(), p2)))
        fail_msg("message '%s' lacks '%s' or '%s'", socmon_errmsg(), p1, p2 ? p2 : "");
    socmon_metricset_free(ms);
}

static void test_bind_errors(void **state)
{
    (void)state;
    expect_bind_error("{\"metrics\": [{\"name\": \"a\", \"expr\": \"b + 1\"},"
                      " {\"name\": \"b\", \"expr\": \"2\"}]}",
                      SOCMON_EPARSE, "metric 'a' (metrics[0]) uses 'b'", "defined after it");
    expect_bind_error("{\"metrics\": [{\"name\": \"x\", \"expr\": \"x + 1\"}]}", SOCMON_EPARSE,
                      "metric 'x' (metrics[0]) uses itself", NULL);
    expect_bind_error("{\"metrics\": [{\"name\": \"a\", \"expr\": \"1\"},"
                      " {\"name\": \"c\", \"expr\": \"tile0.d\"}, {\"name\": \"d\", \"expr\": \"1\"}]}",
                      SOCMON_EPARSE, "metric 'c' (metrics[1]) uses 'd'", NULL);
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    assert_int_equal(socmon_metricset_load_string("{\"metrics\": []}", "e.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, NULL, &m), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "schema"));
    assert_int_equal(socmon_metrics_bind(NULL, &fx_schema, &m), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "metric set"));
    socmon_metric_schema bad = {.ncounters = 3, .counters = NULL, .nparams = 0, .param_names = NULL,
        .param_values = NULL};
    assert_int_equal(socmon_metrics_bind(ms, &bad, &m), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "3 counters"));
    socmon_metric_schema badp = {.ncounters = 0, .counters = NULL, .nparams = 2,
        .param_names = NULL, .param_values = NULL};
    assert_int_equal(socmon_metrics_bind(ms, &badp, &m), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "2 params"));
    /* an empty file binds to no results */
    assert_int_equal(socmon_metrics_bind(ms, &fx_schema, &m), SOCMON_OK);
    assert_int_equal(socmon_metrics_nresults(m), 0);
    double out;
    assert_int_equal(socmon_metrics_eval(m, fx_deltas, 1, &out), SOCMON_OK);
    assert_int_equal(socmon_metrics_eval(m, fx_deltas, 1, NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "out"));
    assert_int_equal(socmon_metrics_eval(NULL, fx_deltas, 1, &out), SOCMON_EINVAL);
    assert_int_equal(socmon_metrics_eval(m, NULL, 1, &out), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "deltas"));
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
}

/* A program too large for the code limit is an error naming the metric. */
static void test_code_limit(void **state)
{
    (void)state;
    enum { NINST = 6000 };
    socmon_counter *c = calloc(NINST, sizeof *c);
    char (*names)[16] = calloc(NINST, sizeof *names);
    uint64_t *d = calloc(NINST, sizeof *d);
    assert_true(c && names && d);
    for (int i = 0; i < NINST; i++) {
        snprintf(names[i], sizeof names[i], "t%d", i);
        c[i] = (socmon_counter){.name = "x", .instance = names[i], .width = 32};
        d[i] = (uint64_t)i;
    }
    socmon_metric_schema sc = {.ncounters = NINST, .counters = c, .nparams = 0, .param_names = NULL,
        .param_values = NULL};
    char json[2048];
    size_t o = (size_t)snprintf(json, sizeof json,
                                "{\"metrics\": [{\"name\": \"big\", \"per\": \"instance\", "
                                "\"expr\": \"x");
    for (int i = 0; i < 198; i++)   /* 6000 results of 199 terms: over 1M instructions */
        o += (size_t)snprintf(json + o, sizeof json - o, "+x");
    snprintf(json + o, sizeof json - o, "\"}]}");
    socmon_metricset *ms;
    socmon_metrics *m;
    assert_int_equal(socmon_metricset_load_string(json, "big.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_ERANGE);
    assert_non_null(strstr(socmon_errmsg(), "metric 'big'"));
    assert_non_null(strstr(socmon_errmsg(), "instructions"));
    socmon_metricset_free(ms);
    /* a device-wide metric over all the instances is one sum, well within limits */
    assert_int_equal(socmon_metricset_load_string(
                         "{\"metrics\": [{\"name\": \"s\", \"expr\": \"x / count(x)\"}]}",
                         "s.json", &ms),
                     SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_OK);
    double out;
    assert_int_equal(socmon_metrics_eval(m, d, 1, &out), SOCMON_OK);
    assert_true(out == (NINST - 1) / 2.0);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    free(c);
    free(names);
    free(d);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_per_instance_vs_device_wide),
        cmocka_unit_test(test_instance_order_and_device_counter_fallback),
        cmocka_unit_test(test_no_instances_at_all),
        cmocka_unit_test(test_sums_and_instance_names),
        cmocka_unit_test(test_metric_references),
        cmocka_unit_test(test_argmax_labels),
        cmocka_unit_test(test_skipped_metrics),
        cmocka_unit_test(test_absent_undefined),
        cmocka_unit_test(test_bind_errors),
        cmocka_unit_test(test_code_limit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
