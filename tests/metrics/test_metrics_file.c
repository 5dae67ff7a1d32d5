/* Metric files: the JSON format, and every load error naming the file, the
 * metric and the position (JSON line:column, or the column in the expr). */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "socmon/metrics.h"

static void expect_load_error(const char *json, const char *p1, const char *p2, const char *p3)
{
    socmon_metricset *ms = (socmon_metricset *)&ms;   /* must be reset to NULL */
    socmon_status st = socmon_metricset_load_string(json, "m.json", &ms);
    if (st != SOCMON_EPARSE)
        fail_msg("%s: got %s, want SOCMON_EPARSE (%s)", json, socmon_status_name(st),
                 socmon_errmsg());
    assert_null(ms);
    const char *msg = socmon_errmsg();
    const char *p[] = {p1, p2, p3};
    for (int i = 0; i < 3; i++)
        if (p[i] && !strstr(msg, p[i]))
            fail_msg("%s: message '%s' lacks '%s'", json, msg, p[i]);
}

static void test_good_file(void **state)
{
    (void)state;
    const char *json =
        "{\"description\": \"L2 metrics\",\n"
        " \"metrics\": [\n"
        "  {\"name\": \"l2_hit_rate\", \"unit\": \"%\", \"per\": \"instance\",\n"
        "   \"expr\": \"100 * l2_hits / (l2_hits + l2_misses)\", \"desc\": \"hits per access\"},\n"
        "  {\"name\": \"bound\", \"expr\": \"argmax(1, 2)\", \"labels\": [\"a\", \"b\"]},\n"
        "  {\"name\": \"_x9\", \"expr\": \"0x1F\", \"per\": \"device\", \"precision\": 2}]}";
    socmon_metricset *ms;
    assert_int_equal(socmon_metricset_load_string(json, "good.json", &ms), SOCMON_OK);
    assert_int_equal(socmon_metricset_count(ms), 3);
    const socmon_metric_def *d = socmon_metricset_def(ms, 0);
    assert_string_equal(d->name, "l2_hit_rate");
    assert_string_equal(d->unit, "%");
    assert_string_equal(d->desc, "hits per access");
    assert_string_equal(d->expr, "100 * l2_hits / (l2_hits + l2_misses)");
    assert_int_equal(d->per_instance, 1);
    assert_int_equal(d->nlabels, 0);
    d = socmon_metricset_def(ms, 1);
    assert_string_equal(d->unit, "");   /* absent: empty, never NULL */
    assert_string_equal(d->desc, "");
    assert_int_equal(d->per_instance, 0);
    assert_int_equal(d->nlabels, 2);
    assert_string_equal(d->labels[1], "b");
    assert_int_equal(socmon_metricset_def(ms, 2)->per_instance, 0);
    assert_int_equal(socmon_metricset_def(ms, 0)->precision, -1);   /* absent: from the unit */
    assert_int_equal(socmon_metricset_def(ms, 2)->precision, 2);
    assert_null(socmon_metricset_def(ms, 3));
    socmon_metricset_free(ms);
    assert_int_equal(socmon_metricset_count(NULL), 0);
    assert_null(socmon_metricset_def(NULL, 0));
    socmon_metricset_free(NULL);
}

static void test_json_errors(void **state)
{
    (void)state;
    /* line 3: the missing comma between "a" and "expr" */
    expect_load_error("{\n  \"metrics\": [\n    {\"name\": \"a\" \"expr\": \"1\"}]}", "m.json:3:",
                      "invalid JSON", NULL);
    expect_load_error("", "m.json:", "invalid JSON", NULL);
    expect_load_error("{\"metrics\": [], \"metrics\": []}", "m.json:1:", "duplicate", NULL);
    expect_load_error("{\"metrics\": []} x", "m.json:1:", "invalid JSON", NULL);
    expect_load_error("[1, 2]", "m.json", "expected a JSON object", NULL);
    expect_load_error("{}", "m.json", "missing \"metrics\"", NULL);
    expect_load_error("{\"metrics\": {}}", "m.json", "\"metrics\" must be an array", NULL);
    expect_load_error("{\"metrics\": [], \"version\": 2}", "m.json", "unknown top-level key 'version'",
                      "known: description, absent, metrics");
    expect_load_error("{\"metrics\": [], \"description\": 1}", "m.json",
                      "\"description\" must be a string", NULL);
}

static void test_metric_errors(void **state)
{
    (void)state;
    expect_load_error("{\"metrics\": [{\"name\": \"a\", \"expr\": \"1\"}, 5]}", "m.json: metrics[1]",
                      "expected an object", NULL);
    expect_load_error("{\"metrics\": [{\"expr\": \"1\"}]}", "m.json: metrics[0]", "missing \"name\"",
                      NULL);
    expect_load_error("{\"metrics\": [{\"name\": 3, \"expr\": \"1\"}]}", "metrics[0]",
                      "\"name\" must be a string", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"l2 rate\", \"expr\": \"1\"}]}", "metrics[0]",
                      "name 'l2 rate' is not an identifier", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"2x\", \"expr\": \"1\"}]}", "'2x'",
                      "not an identifier", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"a.b\", \"expr\": \"1\"}]}", "'a.b'",
                      "not an identifier", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"\", \"expr\": \"1\"}]}", "name ''",
                      "not an identifier", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\"}]}", "m.json: metric 'ipc' (metrics[0])",
                      "missing \"expr\"", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": 1}]}", "metric 'ipc'",
                      "\"expr\" must be a string", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"exprs\": \"2\"}]}",
                      "metric 'ipc' (metrics[0])", "unknown key 'exprs'", "known: name, expr");
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"unit\": 1}]}",
                      "metric 'ipc'", "\"unit\" must be a string", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"desc\": []}]}",
                      "metric 'ipc'", "\"desc\" must be a string", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"per\": \"tile\"}]}",
                      "metric 'ipc'", "\"per\" must be \"instance\" or \"device\"", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"precision\": 10}]}",
                      "metric 'ipc'", "\"precision\" must be an integer 0..9", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"precision\": -1}]}",
                      "metric 'ipc'", "\"precision\" must be an integer 0..9", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"precision\": \"2\"}]}",
                      "metric 'ipc'", "\"precision\" must be an integer 0..9", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"precision\": 1.5}]}",
                      "metric 'ipc'", "\"precision\" must be an integer 0..9", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"labels\": \"a\"}]}",
                      "metric 'ipc'", "\"labels\" must be an array of strings", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"ipc\", \"expr\": \"1\", \"labels\": [\"a\", 2]}]}",
                      "metric 'ipc'", "\"labels\" must be an array of strings", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"a\", \"expr\": \"1\"}, {\"name\": \"b\", \"expr\": \"2\"},"
                      " {\"name\": \"a\", \"expr\": \"3\"}]}",
                      "m.json: metric 'a' (metrics[2])", "duplicate name, first defined at metrics[0]",
                      NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"a\", \"name\": \"b\", \"expr\": \"1\"}]}", "m.json:1:",
                      "duplicate", NULL);
}

/* A metric's error also says on which line of the file the metric is defined. */
static void test_error_lines(void **state)
{
    (void)state;
    expect_load_error("{\"metrics\": [\n"
                      "  {\"name\": \"ok\", \"expr\": \"1\"},\n"
                      "\n"
                      "  {\"name\" :\n   \"ipc\", \"expr\": \"instr / (cycles\"}]}",
                      "metric 'ipc' (metrics[1]): expr column 16", "(m.json line 4)", NULL);
    expect_load_error("{\"metrics\": [\n{\"name\": \"a\", \"expr\": \"1\"},\n{\"name\": \"a\", \"expr\": \"2\"}]}",
                      "duplicate name", "(m.json line 3)", NULL);
    expect_load_error("{\"metrics\": [\n{\"name\": \"u\", \"unit\": 5, \"expr\": \"1\"}]}", "\"unit\" must be a string",
                      "(m.json line 2)", NULL);
}

static void test_expression_errors(void **state)
{
    (void)state;
    expect_load_error("{\"metrics\": [{\"name\": \"ok\", \"expr\": \"1\"},"
                      " {\"name\": \"ipc\", \"expr\": \"instr / (cycles\"}]}",
                      "m.json: metric 'ipc' (metrics[1]): expr column 16",
                      "expected ')' but found end of expression", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"r\", \"expr\": \"1 + mean(x)\"}]}",
                      "m.json: metric 'r' (metrics[0]): expr column 5", "unknown function 'mean'",
                      NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"r\", \"expr\": \"sqrt(1, 2)\"}]}",
                      "metric 'r'", "expr column 1", "sqrt() takes 1 argument, got 2");
    expect_load_error("{\"metrics\": [{\"name\": \"r\", \"expr\": \"\"}]}", "metric 'r'",
                      "empty expression", NULL);
    expect_load_error("{\"metrics\": [{\"name\": \"r\", \"expr\": \"a @ b\"}]}", "metric 'r'",
                      "expr column 3", "unexpected character '@'");
}

static void test_load_file(void **state)
{
    (void)state;
    char path[] = "/tmp/socmon_metrics_XXXXXX";
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char *json = "{\"metrics\": [\n {\"name\": \"x\", \"expr\": \"1 +\"}]}";
    assert_int_equal(write(fd, json, strlen(json)), (ssize_t)strlen(json));
    close(fd);
    socmon_metricset *ms = NULL;
    assert_int_equal(socmon_metricset_load_file(path, &ms), SOCMON_EPARSE);
    assert_null(ms);
    assert_non_null(strstr(socmon_errmsg(), path));   /* errors name the file */
    assert_non_null(strstr(socmon_errmsg(), "metric 'x'"));

    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("{\"metrics\": [{\"name\": \"x\", \"expr\": \"2 * 3\"}]}\n", f);
    fclose(f);
    assert_int_equal(socmon_metricset_load_file(path, &ms), SOCMON_OK);
    assert_int_equal(socmon_metricset_count(ms), 1);
    socmon_metricset_free(ms);

    f = fopen(path, "w");
    assert_non_null(f);
    fwrite("{\"metrics\": []}\0x", 1, 17, f);
    fclose(f);
    assert_int_equal(socmon_metricset_load_file(path, &ms), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "NUL byte"));
    unlink(path);

    assert_int_equal(socmon_metricset_load_file(path, &ms), SOCMON_ENOENT);
    assert_non_null(strstr(socmon_errmsg(), path));
    assert_int_equal(socmon_metricset_load_file("/", &ms), SOCMON_EIO);
    assert_non_null(strstr(socmon_errmsg(), "'/'"));
}

static void test_bad_arguments(void **state)
{
    (void)state;
    socmon_metricset *ms;
    assert_int_equal(socmon_metricset_load_string(NULL, "a", &ms), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "text"));
    assert_int_equal(socmon_metricset_load_string("{}", "a", NULL), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "out"));
    assert_int_equal(socmon_metricset_load_file(NULL, &ms), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "path"));
    /* without a source name, messages still say where */
    assert_int_equal(socmon_metricset_load_string("{", NULL, &ms), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "<string>:1:"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_good_file),
        cmocka_unit_test(test_json_errors),
        cmocka_unit_test(test_metric_errors),
        cmocka_unit_test(test_expression_errors),
        cmocka_unit_test(test_error_lines),
        cmocka_unit_test(test_load_file),
        cmocka_unit_test(test_bad_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
