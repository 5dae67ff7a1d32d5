/* Two runs paired (src/results/diff.c) from stat-JSON documents written here: pairing by kind
 * and key (a repeated key in order, what only one run has), exact integer deltas beyond 2^53,
 * the order (largest change first), significance by non-overlapping confidence intervals (with
 * Welch's p beside), by the prediction interval
 * of the one side with statistics, none for exact runs, the -e/-M globs and --only-changed, and
 * bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "run_files.h"

static const socmon_diff_row *find(const socmon_diff *d, const char *key)
{
    for (size_t i = 0; i < socmon_diff_count(d); i++)
        if (strcmp(socmon_diff_row_key(socmon_diff_row_at(d, i)), key) == 0)
            return socmon_diff_row_at(d, i);
    return NULL;
}

static void pairs_and_sides(void **state)
{
    (void)state;
    socmon_run *a = load("a.json", "{\"target\": \"esp\", \"workload\": \"multifft\", \"counters\": ["
                                   "{\"name\": \"tile0.hits\", \"instance\": \"tile0\", \"value\": 100, \"unit\": \"events\"},"
                                   "{\"name\": \"cycles\", \"value\": 9007199254740993},"
                                   "{\"name\": \"dup\", \"value\": 1}, {\"name\": \"dup\", \"value\": 2},"
                                   "{\"name\": \"gone\", \"value\": 5}],"
                                   "\"metrics\": [{\"name\": \"rate\", \"instance\": \"tile0\", \"value\": 2.5},"
                                   "{\"name\": \"ipc\", \"instance\": \"\", \"value\": null}]}");
    socmon_run *b = load("b.json", "{\"target\": \"esp:soc=esp_4x4\", \"counters\": ["
                                   "{\"name\": \"tile0.hits\", \"instance\": \"tile0\", \"value\": 150},"
                                   "{\"name\": \"cycles\", \"value\": 9007199254740996},"
                                   "{\"name\": \"dup\", \"value\": 1},"
                                   "{\"name\": \"tile9.hits\", \"instance\": \"tile9\", \"value\": 0}],"
                                   "\"metrics\": [{\"name\": \"rate\", \"instance\": \"tile0\", \"value\": 2.0},"
                                   "{\"name\": \"ipc\", \"value\": null}]}");
    assert_string_equal(socmon_run_kind(a), "stat");
    assert_string_equal(socmon_run_target(b), "esp:soc=esp_4x4");
    assert_string_equal(socmon_run_workload(a), "multifft");
    assert_null(socmon_run_workload(b));
    assert_int_equal(socmon_run_runs(a), 1);
    size_t nrows = 7;
    assert_null(socmon_run_times(a, &nrows));
    assert_int_equal(nrows, 0);
    assert_null(socmon_run_series(a, 0));
    socmon_diff *d = NULL;
    assert_int_equal(socmon_diff_new(a, b, NULL, &d), SOCMON_OK);
    assert_int_equal(socmon_diff_count(d), 8);
    const socmon_diff_row *r = find(d, "tile0.hits");
    assert_non_null(r);
    assert_true(r->integer && r->has_delta && r->has_ratio);
    assert_int_equal(r->idelta, 50);
    assert_true(fabs(r->ratio - 1.5) < 1e-12);
    assert_int_equal(r->significant, -1);   /* exact runs: no statistics */
    assert_true(isnan(r->p));
    assert_string_equal(r->a->instance, "tile0");
    /* beyond 2^53 a double cannot hold the difference: the integer does */
    r = find(d, "cycles");
    assert_int_equal(r->idelta, 3);
    assert_null(r->a->instance);
    /* a metric's key is instance.metric */
    r = find(d, "tile0.rate");
    assert_non_null(r);
    assert_false(r->integer);
    assert_true(fabs(r->delta + 0.5) < 1e-12);
    /* undefined on both sides: unchanged, no delta */
    r = find(d, "ipc");
    assert_non_null(r);
    assert_false(r->has_delta);
    assert_true(r->change == 0);
    /* the order: tile0.hits (+50 %), tile0.rate (-20 %), cycles (tiny), then dup (0), ipc; then
     * only in a: the second dup and gone; then only in b: tile9.hits */
    const char *order[] = {"tile0.hits", "tile0.rate", "cycles"};
    for (size_t i = 0; i < 3; i++)
        assert_string_equal(socmon_diff_row_key(socmon_diff_row_at(d, i)), order[i]);
    const socmon_diff_row *last = socmon_diff_row_at(d, 7), *a1 = socmon_diff_row_at(d, 5), *a2 = socmon_diff_row_at(d, 6);
    assert_string_equal(socmon_diff_row_key(last), "tile9.hits");
    assert_null(last->a);
    assert_string_equal(socmon_diff_row_key(a1), "dup");
    assert_null(a1->b);
    assert_int_equal(a1->a->i, 2);   /* the first dup paired with b's, the second is a's alone */
    assert_string_equal(socmon_diff_row_key(a2), "gone");
    socmon_diff_free(d);

    /* --only-changed, and globs per kind */
    const char *ev[] = {"tile*"}, *mv[] = {"*.rate"};
    socmon_diff_opts o = {.size = sizeof o, .events = ev, .nevents = 1, .metrics = mv, .nmetrics = 1, .only_changed = 1};
    assert_int_equal(socmon_diff_new(a, b, &o, &d), SOCMON_OK);
    assert_int_equal(socmon_diff_count(d), 3);   /* tile0.hits, tile0.rate, tile9.hits (only in b) */
    assert_non_null(find(d, "tile9.hits"));
    assert_null(find(d, "cycles"));
    socmon_diff_free(d);
    const char *nomatch[] = {"tile*", "nosuch*"};
    o.events = nomatch;
    o.nevents = 2;
    assert_int_equal(socmon_diff_new(a, b, &o, &d), SOCMON_EINVAL);
    assert_null(d);
    assert_non_null(strstr(socmon_errmsg(), "-e 'nosuch*' matches no counter or function"));
    o.size = 3;
    assert_int_equal(socmon_diff_new(a, b, &o, &d), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "socmon_diff_opts.size 3"));
    socmon_run_free(a);
    socmon_run_free(b);
}

/* stat -r 10: values with their spread ("sd" of the runs, or perf's "stddev" of the mean) */
static void statistics(void **state)
{
    (void)state;
    socmon_run *a = load("ra.json", "{\"runs\": 10, \"counters\": ["
                                    "{\"name\": \"faults\", \"value\": 100, \"mean\": 100.0, \"sd\": 2.0},"
                                    "{\"name\": \"same\", \"value\": 50, \"stddev\": 1.0},"
                                    "{\"name\": \"model\", \"value\": 7, \"stddev\": 0},"
                                    "{\"name\": \"borderline\", \"value\": 0, \"mean\": 0.0, \"sd\": 1.0}]}");
    socmon_run *b = load("rb.json", "{\"runs\": 10, \"counters\": ["
                                    "{\"name\": \"faults\", \"value\": 200, \"mean\": 200.0, \"sd\": 3.0},"
                                    "{\"name\": \"same\", \"value\": 51, \"stddev\": 1.0},"
                                    "{\"name\": \"model\", \"value\": 8, \"stddev\": 0},"
                                    "{\"name\": \"borderline\", \"value\": 1, \"mean\": 1.0, \"sd\": 1.0}]}");
    socmon_run *one = load("one.json", "{\"counters\": [{\"name\": \"faults\", \"value\": 104},"
                                       "{\"name\": \"same\", \"value\": 50}, {\"name\": \"model\", \"value\": 7}]}");
    const socmon_value *v = socmon_run_value(a, 1);
    assert_int_equal(v->n, 10);
    assert_true(fabs(v->sd - sqrt(10.0)) < 1e-9);   /* the mean's stddev times sqrt(n) */
    double half = socmon_t95(9) * v->sd / sqrt(10.0);
    assert_true(fabs(v->ci_high - (50 + half)) < 1e-9 && fabs(v->ci_low - (50 - half)) < 1e-9);
    socmon_diff *d = NULL;
    assert_int_equal(socmon_diff_new(a, b, NULL, &d), SOCMON_OK);
    const socmon_diff_row *r = find(d, "faults");
    assert_true(fabs(r->p - socmon_welch_p(100, 2, 10, 200, 3, 10)) < 1e-15);
    assert_int_equal(r->significant, 1);
    r = find(d, "same");   /* 50 vs 51 with sd sqrt(10) each: p ~ 0.48 */
    assert_true(r->p > 0.05);
    assert_int_equal(r->significant, 0);
    r = find(d, "model");  /* no spread at all (a model's stat -r): any change is significant */
    assert_int_equal(r->significant, 1);
    /* Welch's p is below 0.05 (t = 2.236, df 18: p = 0.038), but the 95 % intervals, 0 +- 0.715
     * and 1 +- 0.715, overlap: not significant by the rule socmon uses */
    r = find(d, "borderline");
    assert_true(r->p < 0.05 && r->p > 0.03);
    assert_int_equal(r->significant, 0);
    socmon_diff_free(d);
    /* one run against ten: b's value against the 95 % prediction interval of a's runs */
    assert_int_equal(socmon_diff_new(a, one, NULL, &d), SOCMON_OK);
    r = find(d, "faults");   /* 104 within 100 +- 2.262 * 2 * sqrt(1.1) = 100 +- 4.74 */
    assert_int_equal(r->significant, 0);
    assert_true(isnan(r->p));
    r = find(d, "model");    /* 7 against runs that all read 7 */
    assert_int_equal(r->significant, 0);
    socmon_diff_free(d);
    socmon_run *far = load("far.json", "{\"counters\": [{\"name\": \"faults\", \"value\": 105}]}");
    assert_int_equal(socmon_diff_new(far, a, NULL, &d), SOCMON_OK);
    assert_int_equal(find(d, "faults")->significant, 1);   /* 105 is outside 100 +- 4.74 */
    socmon_diff_free(d);
    socmon_run_free(far);
    socmon_run_free(one);
    socmon_run_free(a);
    socmon_run_free(b);
}

static void bad_input(void **state)
{
    (void)state;
    socmon_run *r = NULL;
    char missing[128];
    snprintf(missing, sizeof missing, "%s/missing.json", dir);
    assert_int_equal(socmon_run_open(missing, NULL, &r), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), "missing.json"));
    static const struct { const char *text, *msg; } cases[] = {
        {"", "the file is empty"},
        {"  \n", "the file is empty"},
        {"hello", "neither a socmon recording nor the JSON of socmon stat"},
        {"SOCMONRC", "recording"},
        {"{\"counters\": [1]}", "counters[0] has no name"},
        {"{\"counters\": {}}", "\"counters\" is not an array"},
        {"{\"metrics\": [{\"name\": \"x\", \"value\": \"high\"}]}", "its value is not a number"},
        {"{\"runs\": 0, \"counters\": []}", "\"runs\" 0 is out of range"},
        {"{\"kind\": 1}", "JSON without \"counters\" or \"metrics\""},
        {"{\"counters\": [{\"name\": \"a\", \"value\": 1}, ", "not valid JSON"},
        {"[1, 2]", "neither"},
        /* a count below 0 would wrap into a huge delta: refused, naming the counter and file */
        {"{\"counters\": [{\"name\": \"cycles\", \"instance\": \"core0\", \"value\": -9223372036854775808}]}",
         "counters[0] (core0.cycles): value -9223372036854775808 is negative"},
        {"{\"runs\": 3, \"counters\": [{\"name\": \"faults\", \"value\": 4, \"mean\": -0.5}]}",
         "counters[0] (faults): mean -0.5 is negative"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        r = NULL;
        assert_int_not_equal(socmon_run_open(write_doc("bad", cases[i].text), NULL, &r), SOCMON_OK);
        assert_null(r);
        if (!strstr(socmon_errmsg(), cases[i].msg))
            fail_msg("case %zu: '%s' lacks '%s'", i, socmon_errmsg(), cases[i].msg);
        if (strstr(cases[i].msg, "negative") && !strstr(socmon_errmsg(), dir))
            fail_msg("case %zu: '%s' does not name the file", i, socmon_errmsg());
    }
    socmon_run_opts o = {.size = 1};
    assert_int_equal(socmon_run_open(write_doc("ok.json", "{\"counters\": []}"), &o, &r), SOCMON_EINVAL);
    assert_int_equal(socmon_run_open(NULL, NULL, &r), SOCMON_EINVAL);
    assert_int_equal(socmon_diff_new(NULL, NULL, NULL, NULL), SOCMON_EINVAL);
    assert_int_equal(socmon_diff_count(NULL), 0);
    assert_null(socmon_diff_row_at(NULL, 0));
    assert_null(socmon_diff_row_key(NULL));
    assert_null(socmon_value_kind_name((socmon_value_kind)7));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(pairs_and_sides),
        cmocka_unit_test(statistics),
        cmocka_unit_test(bad_input),
    };
    return cmocka_run_group_tests(tests, make_dir, remove_dir);
}
