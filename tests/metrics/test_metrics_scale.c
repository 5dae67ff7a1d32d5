/* Metric files with very many metrics (issue 23): every duplicate is still
 * found, every name still resolves to the right metric, parameter or counter,
 * and the work per metric stays constant. The work is counted, not timed:
 * the link routes the library's strcmp calls through __wrap_strcmp
 * (-Wl,--wrap=strcmp, CMakeLists.txt), and checking each name against every
 * earlier one, as loading and binding did, costs n^2/2 comparisons. Speed in
 * seconds is bench/bench_metrics_load.c's business. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "socmon/metrics.h"

static unsigned long long n_strcmp;

int __real_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b);
int __wrap_strcmp(const char *a, const char *b)
{
    n_strcmp++;
    return __real_strcmp(a, b);
}

/* At most this many comparisons per metric: the keys of its JSON object are
 * checked against the 8 known ones, its names resolved a few times each. */
#define CMP_PER_METRIC 16

#define NCOUNTERS 64
#define NPARAMS 8

static char cnames[NCOUNTERS + 1][16], pnames[NPARAMS][16];
static socmon_counter counters[NCOUNTERS + 1];
static const char *pn[NPARAMS];
static double pv[NPARAMS];
static uint64_t deltas[NCOUNTERS + 1];

static socmon_metric_schema schema(void)
{
    for (int c = 0; c < NCOUNTERS; c++) {
        snprintf(cnames[c], sizeof cnames[c], "c%d", c);
        counters[c] = (socmon_counter){.name = cnames[c], .instance = "", .width = 48};
        deltas[c] = 1000 + (uint64_t)c;
    }
    counters[NCOUNTERS] = (socmon_counter){.name = "cycles", .instance = "", .width = 64};
    deltas[NCOUNTERS] = 4000;
    for (int p = 0; p < NPARAMS; p++) {
        snprintf(pnames[p], sizeof pnames[p], "p%d", p);
        pn[p] = pnames[p];
        pv[p] = p + 1;
    }
    return (socmon_metric_schema){.ncounters = NCOUNTERS + 1, .counters = counters,
        .nparams = NPARAMS, .param_names = pn, .param_values = pv};
}

/* Metric i ("m<i>"): c/cycles, twice the metric before it, or a parameter plus
 * a counter. Metric `dup` (if >= 0) is named like metric dup_of instead;
 * metric 0 uses metric `fwd` (if >= 0), defined after it. */
static char *make_file(int n, int dup, int dup_of, int fwd)
{
    size_t cap = (size_t)n * 64 + 64, used = 0;
    char *s = malloc(cap);
    assert_non_null(s);
    used += (size_t)snprintf(s, cap, "{\"metrics\": [\n");
    for (int i = 0; i < n; i++) {
        char expr[48];
        if (i == 0 && fwd >= 0)
            snprintf(expr, sizeof expr, "m%d + 1", fwd);
        else if (i % 3 == 1)
            snprintf(expr, sizeof expr, "m%d * 2", i - 1);
        else if (i % 3 == 2)
            snprintf(expr, sizeof expr, "p%d + c%d", i % NPARAMS, i % NCOUNTERS);
        else
            snprintf(expr, sizeof expr, "c%d / cycles", i % NCOUNTERS);
        used += (size_t)snprintf(s + used, cap - used, "{\"name\": \"m%d\", \"expr\": \"%s\"}%s\n",
                                 i == dup ? dup_of : i, expr, i + 1 < n ? "," : "");
    }
    snprintf(s + used, cap - used, "]}\n");
    return s;
}

static double want(int i)
{
    if (i % 3 == 1)
        return 2 * want(i - 1);
    if (i % 3 == 2)
        return pv[i % NPARAMS] + (double)deltas[i % NCOUNTERS];
    return (double)deltas[i % NCOUNTERS] / (double)deltas[NCOUNTERS];
}

/* 30,000 metrics bind, each name to what it names, in linear work. */
static void test_many_metrics_resolve(void **state)
{
    (void)state;
    enum { N = 30000 };
    socmon_metric_schema sc = schema();
    char *text = make_file(N, -1, -1, -1);
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    n_strcmp = 0;
    assert_int_equal(socmon_metricset_load_string(text, "many.json", &ms), SOCMON_OK);
    unsigned long long loading = n_strcmp;
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_OK);
    unsigned long long binding = n_strcmp - loading;
    if (loading > (unsigned long long)N * CMP_PER_METRIC || binding > (unsigned long long)N * CMP_PER_METRIC)
        fail_msg("%d metrics: %llu string comparisons loading, %llu binding (at most %d per metric)", N,
                 loading, binding, CMP_PER_METRIC);
    assert_int_equal(socmon_metricset_count(ms), N);
    assert_int_equal(socmon_metrics_nresults(m), N);
    double *out = calloc(N, sizeof *out);
    assert_non_null(out);
    assert_int_equal(socmon_metrics_eval(m, deltas, 1.0, out), SOCMON_OK);
    for (int i = 0; i < N; i++) {
        char name[16];
        snprintf(name, sizeof name, "m%d", i);
        const socmon_metric_result_info *r = socmon_metrics_result(m, (size_t)i);
        assert_non_null(r);
        assert_string_equal(r->def->name, name);
        if (out[i] != want(i))
            fail_msg("%s = %.17g, want %.17g", name, out[i], want(i));
    }
    free(out);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
    free(text);
}

/* A duplicate name deep in a large file is found, naming both places. */
static void test_duplicate_among_many(void **state)
{
    (void)state;
    enum { N = 100000 };
    char *text = make_file(N, N - 1, 54321, -1);
    socmon_metricset *ms = NULL;
    n_strcmp = 0;
    assert_int_equal(socmon_metricset_load_string(text, "dup.json", &ms), SOCMON_EPARSE);
    assert_null(ms);
    if (n_strcmp > (unsigned long long)N * CMP_PER_METRIC)
        fail_msg("%d metrics: %llu string comparisons loading (at most %d per metric)", N, n_strcmp,
                 CMP_PER_METRIC);
    char msg[160];
    snprintf(msg, sizeof msg,
             "dup.json: metric 'm54321' (metrics[%d]): duplicate name, first defined at metrics[54321] "
             "(dup.json line %d)", N - 1, N + 1);
    assert_string_equal(socmon_errmsg(), msg);
    free(text);
    /* names that share a prefix or a hash bucket are not duplicates of each other */
    text = make_file(N, -1, -1, -1);
    assert_int_equal(socmon_metricset_load_string(text, "dup.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metricset_count(ms), N);
    socmon_metricset_free(ms);
    free(text);
}

/* Metric 0 using the last of 30,000 metrics is an error naming it. */
static void test_later_metric_among_many(void **state)
{
    (void)state;
    enum { N = 30000 };
    socmon_metric_schema sc = schema();
    char *text = make_file(N, -1, -1, N - 1);
    socmon_metricset *ms = NULL;
    socmon_metrics *m = NULL;
    assert_int_equal(socmon_metricset_load_string(text, "fwd.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_EPARSE);
    assert_null(m);
    assert_string_equal(socmon_errmsg(), "metric 'm0' (metrics[0]) uses 'm29999', a metric defined after it "
                                         "(metrics[29999]); a metric can only use earlier ones");
    socmon_metricset_free(ms);
    free(text);
}

/* A parameter named twice in a schema: the first one counts, as it did. */
static void test_first_parameter_counts(void **state)
{
    (void)state;
    const char *names[] = {"k", NULL, "k"};
    const double values[] = {1.5, 7, 2.5};
    socmon_metric_schema sc = {.ncounters = 0, .counters = NULL, .nparams = 3, .param_names = names,
        .param_values = values};
    double v = 0;
    assert_int_equal(socmon_expr_eval("k * 2", &sc, NULL, 1.0, &v), SOCMON_OK);
    assert_true(v == 3.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_many_metrics_resolve),
        cmocka_unit_test(test_duplicate_among_many),
        cmocka_unit_test(test_later_metric_among_many),
        cmocka_unit_test(test_first_parameter_counts),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
