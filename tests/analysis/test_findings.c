/* Findings rules (src/results/findings*.c) against figures worked out by hand: the host's
 * topdown rule fed recorded-style counts (this VM has no PMU), a per-instance rule ranked and
 * cut to its "max", evidence through the run's metrics and their labels, the 3-significant-digit
 * rounding text and evidence share, and the loader's errors naming file, rule and word. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "socmon/findings.h"

enum { SLOTS, RET, BAD, FE, BE, NHOST };

static const socmon_counter host_ctr[NHOST] = {
    [SLOTS] = {.name = "slots", .instance = "", .width = 64},
    [RET] = {.name = "topdown_retiring", .instance = "", .width = 64},
    [BAD] = {.name = "topdown_bad_spec", .instance = "", .width = 64},
    [FE] = {.name = "topdown_fe_bound", .instance = "", .width = 64},
    [BE] = {.name = "topdown_be_bound", .instance = "", .width = 64},
};

/* Findings of rules over counters ctr with totals values (no metric file). */
static socmon_status run(socmon_findingset *fs, const socmon_counter *ctr, size_t n, const uint64_t *values,
                         socmon_findings **out)
{
    socmon_source_info info = {.kind = "recording", .target = "t", .ncounters = n, .counters = ctr};
    socmon_analysis_info a = {.src = &info};
    socmon_totals t = {.runs = 1, .elapsed_ns = 1000000000, .raw = values, .values = values};
    return socmon_findings_eval(fs, &a, &t, out);
}

static socmon_findingset *host_rules(void)
{
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    const char *text = socmon_builtin_findings("host");
    assert_non_null(text);
    assert_int_equal(socmon_findingset_add_string(fs, text, "metrics/host.findings.json"), SOCMON_OK);
    return fs;
}

/* perf stat's topdown on a machine that has it: 4 slots per cycle, 1000 cycles; half the slots
 * backend bound. */
static void test_host_topdown(void **state)
{
    (void)state;
    socmon_findingset *fs = host_rules();
    uint64_t v[NHOST] = {[SLOTS] = 4000, [RET] = 1200, [BAD] = 200, [FE] = 600, [BE] = 2000};
    socmon_findings *f = NULL;
    assert_int_equal(run(fs, host_ctr, NHOST, v, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 1);
    const socmon_finding *x = socmon_findings_at(f, 0);
    assert_string_equal(x->target, "host");
    assert_string_equal(x->rule, "topdown");
    assert_string_equal(x->choice, "backend bound");
    assert_int_equal(x->nevidence, 4);
    assert_string_equal(x->keys[0], "retiring");
    assert_true(x->values[0] == 30.0);
    assert_true(x->values[3] == 50.0);
    assert_non_null(strstr(x->text, "mostly backend bound"));
    assert_non_null(strstr(x->text, "retiring 30.00%"));   /* a share: the tables' 2 decimals of % */
    assert_non_null(strstr(x->text, "backend bound 50.00%"));
    socmon_findings_free(f);

    /* no PMU: the events are not there, the rule says nothing (no error) */
    assert_int_equal(run(fs, host_ctr, 0, v, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 0);
    socmon_findings_free(f);
    /* the events are there but counted nothing: "when" is false */
    uint64_t zero[NHOST] = {0};
    assert_int_equal(run(fs, host_ctr, NHOST, zero, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 0);
    socmon_findings_free(f);
    socmon_findingset_free(fs);
}

static const socmon_counter inst_ctr[4] = {
    {.name = "busy", .instance = "a", .width = 32},
    {.name = "busy", .instance = "b", .width = 32},
    {.name = "busy", .instance = "c", .width = 32},
    {.name = "total", .instance = "", .width = 32},
};

/* Per instance, ranked by "order" and cut to "max"; a device-wide counter beside each
 * instance's; numbers as the tables write them, in the text and the evidence alike: a counter
 * exact with thousands separators, a share in "%" with 2 decimals ("units"), an expression of
 * no unit with a ratio's 3 (issue 37: "123000" where the table said 123,456). */
static void test_per_instance_order_max(void **state)
{
    (void)state;
    const char *rules = "{\"target\": \"t\", \"findings\": [{\"name\": \"hot\", \"per\": \"instance\", "
                        "\"when\": \"busy > 0\", \"evidence\": {\"pct\": \"100 * busy / total\", \"n\": \"busy\", "
                        "\"r\": \"busy / total\"}, \"units\": {\"pct\": \"%\"}, "
                        "\"text\": \"{instance} {pct}% ({n}, {r})\", \"order\": \"pct\", \"max\": 2}]}";
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    assert_int_equal(socmon_findingset_add_string(fs, rules, "user.json"), SOCMON_OK);
    uint64_t v[4] = {200, 123456, 0, 300000};
    socmon_findings *f = NULL;
    assert_int_equal(run(fs, inst_ctr, 4, v, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 2);   /* c counted nothing; b and a, largest first */
    assert_string_equal(socmon_findings_at(f, 0)->instance, "b");
    assert_string_equal(socmon_findings_at(f, 0)->text, "b 41.15% (123,456, 0.412)");
    assert_true(socmon_findings_at(f, 0)->values[0] == 41.15);
    assert_true(socmon_findings_at(f, 0)->values[1] == 123456);
    assert_true(socmon_findings_at(f, 0)->values[2] == 0.412);
    assert_string_equal(socmon_findings_at(f, 1)->text, "a 0.07% (200, 0.001)");
    assert_true(socmon_findings_at(f, 1)->values[0] == 0.07);
    socmon_findings_free(f);
    socmon_findingset_free(fs);
}

/* A parameter of one instance ("b.asked") is that instance's "asked" in a per-instance rule, so
 * each Zynq port is weighed against what its workload asked of it, not a device-wide figure
 * (issue 37); an instance without one gives no line, as a run without the parameter. */
static void test_instance_params(void **state)
{
    (void)state;
    const char *rules = "{\"target\": \"t\", \"findings\": [{\"name\": \"p\", \"per\": \"instance\", "
                        "\"evidence\": {\"got\": \"busy\", \"asked\": \"asked\", \"pct\": \"100 * busy / asked\"}, "
                        "\"units\": {\"pct\": \"%\"}, \"text\": \"{instance}: {got} of {asked} ({pct}%)\"}]}";
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    assert_int_equal(socmon_findingset_add_string(fs, rules, "user.json"), SOCMON_OK);
    const char *pn[] = {"a.asked", "b.asked"};
    double pv[] = {400, 150000};
    uint64_t v[4] = {200, 123456, 0, 300000};
    socmon_source_info info = {.kind = "recording", .target = "t", .ncounters = 4, .counters = inst_ctr,
                               .nparams = 2, .param_names = pn, .param_values = pv};
    socmon_analysis_info a = {.src = &info};
    socmon_totals t = {.runs = 1, .elapsed_ns = 1000000000, .raw = v, .values = v};
    socmon_findings *f = NULL;
    assert_int_equal(socmon_findings_eval(fs, &a, &t, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 2);   /* c has no parameter of its own */
    assert_string_equal(socmon_findings_at(f, 0)->text, "a: 200 of 400 (50.00%)");
    assert_string_equal(socmon_findings_at(f, 1)->text, "b: 123,456 of 150,000 (82.30%)");
    socmon_findings_free(f);
    socmon_findingset_free(fs);
}

/* Evidence through the run's metrics (their values as names) and a labelled metric's label. */
static void test_metrics_and_labels(void **state)
{
    (void)state;
    const char *mtext = "{\"metrics\": [{\"name\": \"share_b\", \"expr\": \"100 * b.busy / total\"},"
                        "{\"name\": \"hot\", \"expr\": \"argmax(a.busy, b.busy, c.busy)\", \"labels\": [\"A\", \"B\", \"C\"]}]}";
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_string(mtext, "m.json", &ms), SOCMON_OK);
    socmon_metric_schema sc = {.ncounters = 4, .counters = inst_ctr};
    socmon_metrics *m = NULL;
    assert_int_equal(socmon_metrics_bind(ms, &sc, &m), SOCMON_OK);
    uint64_t v[4] = {10, 30, 20, 60};
    double mv[2];
    assert_int_equal(socmon_metrics_eval(m, v, 1.0, mv), SOCMON_OK);
    const char *rules = "{\"findings\": [{\"name\": \"r\", \"evidence\": {\"who\": \"hot\", \"s\": \"share_b\"}, "
                        "\"text\": \"{who} has {s}%\"}]}";
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    assert_int_equal(socmon_findingset_add_string(fs, rules, "dir/mine.findings.json"), SOCMON_OK);
    socmon_source_info info = {.kind = "recording", .target = "t", .ncounters = 4, .counters = inst_ctr};
    socmon_analysis_info a = {.src = &info, .ms = ms, .metrics = m};
    socmon_totals t = {.runs = 1, .elapsed_ns = 1000000000, .raw = v, .values = v, .metrics = mv};
    socmon_findings *f = NULL;
    assert_int_equal(socmon_findings_eval(fs, &a, &t, &f), SOCMON_OK);
    assert_int_equal(socmon_findings_count(f), 1);
    const socmon_finding *x = socmon_findings_at(f, 0);
    assert_string_equal(x->target, "mine");   /* no "target": the file's name up to its first dot */
    assert_string_equal(x->text, "B has 50.000%");   /* share_b has no unit: a ratio's 3 decimals */
    assert_string_equal(x->labels[0], "B");
    assert_null(x->labels[1]);
    assert_true(x->values[1] == 50.0);
    assert_null(x->choice);
    socmon_findings_free(f);
    socmon_findingset_free(fs);
    socmon_metrics_free(m);
    socmon_metricset_free(ms);
}

/* The loader's errors name the file, the rule and the key or word at fault; a failed add
 * leaves the set as it was. */
static void expect_error(const char *rules, const char *const *words)
{
    socmon_findingset *fs = NULL;
    assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
    assert_int_equal(socmon_findingset_add_string(fs, rules, "bad.findings.json"), SOCMON_EPARSE);
    const char *msg = socmon_errmsg();
    print_message("%s\n", msg);
    assert_non_null(strstr(msg, "bad.findings.json"));
    for (size_t i = 0; words[i]; i++)
        assert_non_null(strstr(msg, words[i]));
    assert_int_equal(socmon_findingset_count(fs), 0);
    socmon_findingset_free(fs);
}

static void test_errors(void **state)
{
    (void)state;
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"{y}\"}]}",
                 (const char *const[]){"finding 'r'", "'{y}'", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1 +\"}, \"text\": \"{x}\"}]}",
                 (const char *const[]){"finding 'r'", "evidence 'x'", "column", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\", \"colour\": 1}]}",
                 (const char *const[]){"finding 'r'", "unknown key 'colour'", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\", "
                 "\"argmax\": [\"x\", \"z\"], \"labels\": [\"a\", \"b\"]}]}",
                 (const char *const[]){"finding 'r'", "'z'", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\", "
                 "\"argmax\": [\"x\"], \"labels\": [\"a\", \"b\"]}]}",
                 (const char *const[]){"finding 'r'", "\"labels\" has 2", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\", \"when\": \"x ==\"}]}",
                 (const char *const[]){"finding 'r'", "\"when\"", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\", \"max\": 0}]}",
                 (const char *const[]){"finding 'r'", "\"max\"", NULL});
    expect_error("{\"findings\": [{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\"},"
                 "{\"name\": \"r\", \"evidence\": {\"x\": \"1\"}, \"text\": \"t\"}]}",
                 (const char *const[]){"findings[1]", "duplicate", NULL});
    expect_error("{\"rules\": []}", (const char *const[]){"unknown top-level key 'rules'", NULL});
    expect_error("{\"findings\": [", (const char *const[]){"bad.findings.json:1:", NULL});
    expect_error("{\"findings\": [{\"name\": \"2r\"}]}", (const char *const[]){"findings[0]", "\"name\"", NULL});
}

/* Every built-in file loads, and its target is the metric file's name. */
static void test_builtin_files_load(void **state)
{
    (void)state;
    const char *names[] = {"esp", "zynq", "tensix", "ibex", "host"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        socmon_findingset *fs = NULL;
        assert_int_equal(socmon_findingset_new(&fs), SOCMON_OK);
        const char *text = socmon_builtin_findings(names[i]);
        assert_non_null(text);
        if (socmon_findingset_add_string(fs, text, names[i]) != SOCMON_OK)
            fail_msg("%s: %s", names[i], socmon_errmsg());
        assert_true(socmon_findingset_count(fs) >= 1);
        socmon_findingset_free(fs);
    }
    assert_null(socmon_builtin_findings("nope"));
    assert_null(socmon_builtin_metrics("esp.findings"));   /* not a metric file */
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_host_topdown),
        cmocka_unit_test(test_per_instance_order_max),
        cmocka_unit_test(test_metrics_and_labels),
        cmocka_unit_test(test_instance_params),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_builtin_files_load),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
