/* Remote-Write bodies (serve/rw_encode.h): series from the text exposition, the WriteRequest
 * read back through protobuf-c and snappy as a receiver reads it, bad exposition lines named,
 * and a receiver's answer escaped for the log. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "serve/remote_write.pb-c.h"
#include "serve/rw_encode.h"
#include "socmon/status.h"

static const char TEXT[] =
    "# HELP socmon_target_info what socmon samples\n"
    "# TYPE socmon_target_info gauge\n"
    "socmon_target_info{target=\"esp\",spec=\"esp:rows=2\",workload=\"\",simulated=\"true\"} 1\n"
    "socmon_l2_hits_total{target=\"esp\",inst=\"tile0\"} 4096\n"
    "socmon_odd_total{target=\"esp\",inst=\"a\\\\b \\\"q\\\" \\nx\"} 7\n"
    "socmon_rate_percent{target=\"esp\"} NaN\n"
    "socmon_big{target=\"esp\"} +Inf\n"
    "socmon_samples_total 12\n";

/* The snappy block and the protobuf of a body, as a receiver reads them. */
static Smnrw__WriteRequest *decode(const uint8_t *body, size_t len)
{
    size_t plen = 0;
    assert_int_equal(snappy_uncompressed_length((const char *)body, len, &plen), SNAPPY_OK);
    char *pb = malloc(plen + 1);
    assert_non_null(pb);
    assert_int_equal(snappy_uncompress((const char *)body, len, pb, &plen), SNAPPY_OK);
    Smnrw__WriteRequest *wr = smnrw__write_request__unpack(NULL, plen, (const uint8_t *)pb);
    free(pb);
    assert_non_null(wr);
    return wr;
}

static const Smnrw__TimeSeries *series(const Smnrw__WriteRequest *wr, const char *name, const char *inst)
{
    for (size_t i = 0; i < wr->n_timeseries; i++) {
        const Smnrw__TimeSeries *ts = wr->timeseries[i];
        assert_true(ts->n_labels >= 1);
        assert_string_equal(ts->labels[0]->name, "__name__");
        if (strcmp(ts->labels[0]->value, name) != 0)
            continue;
        int match = !inst;
        for (size_t k = 1; k < ts->n_labels; k++)
            if (inst && strcmp(ts->labels[k]->name, "inst") == 0 && strcmp(ts->labels[k]->value, inst) == 0)
                match = 1;
        if (match)
            return ts;
    }
    fail_msg("no series %s{inst=%s}", name, inst ? inst : "");
    return NULL;
}

static const char *label(const Smnrw__TimeSeries *ts, const char *name)
{
    for (size_t k = 0; k < ts->n_labels; k++)
        if (strcmp(ts->labels[k]->name, name) == 0)
            return ts->labels[k]->value;
    return NULL;
}

static void test_two_points_one_request(void **state)
{
    (void)state;
    smn_rw_batch b = {0};
    smn_rw_label extra[] = {{"instance", "board7"}, {"job", "socmon"}, {"target", "not-this"}};
    assert_int_equal(smn_rw_batch_add_text(&b, TEXT, strlen(TEXT), 1000, extra, 3), SOCMON_OK);
    /* the second point: same series, other values */
    char text2[sizeof TEXT + 16];
    snprintf(text2, sizeof text2, "%s", TEXT);
    char *v = strstr(text2, "} 4096");
    memcpy(v, "} 5000", 6);
    assert_int_equal(smn_rw_batch_add_text(&b, text2, strlen(text2), 2000, extra, 3), SOCMON_OK);
    assert_int_equal(b.n, 6);
    uint8_t *body = NULL;
    size_t len = 0;
    assert_int_equal(smn_rw_batch_encode(&b, &body, &len), SOCMON_OK);
    Smnrw__WriteRequest *wr = decode(body, len);
    assert_int_equal(wr->n_timeseries, 6);

    const Smnrw__TimeSeries *hits = series(wr, "socmon_l2_hits_total", "tile0");
    assert_int_equal(hits->n_samples, 2);
    assert_true(hits->samples[0]->value == 4096 && hits->samples[0]->timestamp == 1000);
    assert_true(hits->samples[1]->value == 5000 && hits->samples[1]->timestamp == 2000);
    /* labels sorted by name after __name__; the series' own target wins over an extra one */
    const char *order[] = {"__name__", "inst", "instance", "job", "target"};
    assert_int_equal(hits->n_labels, 5);
    for (size_t k = 0; k < 5; k++)
        assert_string_equal(hits->labels[k]->name, order[k]);
    assert_string_equal(label(hits, "target"), "esp");
    assert_string_equal(label(hits, "instance"), "board7");

    /* escapes undone: backslash, quote, newline */
    const Smnrw__TimeSeries *odd = series(wr, "socmon_odd_total", NULL);
    assert_string_equal(label(odd, "inst"), "a\\b \"q\" \nx");
    /* an empty label value is no label */
    const Smnrw__TimeSeries *info = series(wr, "socmon_target_info", NULL);
    assert_null(label(info, "workload"));
    assert_string_equal(label(info, "spec"), "esp:rows=2");
    assert_true(isnan(series(wr, "socmon_rate_percent", NULL)->samples[0]->value));
    assert_true(isinf(series(wr, "socmon_big", NULL)->samples[0]->value));
    /* a line without labels still gets the extra ones */
    const Smnrw__TimeSeries *n = series(wr, "socmon_samples_total", NULL);
    assert_string_equal(label(n, "job"), "socmon");
    assert_true(n->samples[1]->value == 12);

    smnrw__write_request__free_unpacked(wr, NULL);
    free(body);
    smn_rw_batch_clear(&b);
    assert_int_equal(b.n, 0);
}

static void test_bad_lines_named(void **state)
{
    (void)state;
    static const struct {
        const char *text, *why;
    } bad[] = {
        {"socmon_x{a=\"1\" 3\n", "after a label value"},
        {"socmon_x{a=\"1\"", "closing '}'"},
        {"socmon_x{a=1} 3\n", "=\"value\""},
        {"socmon_x 3x\n", "not a number"},
        {"socmon_x\n", "no value"},
        {"{a=\"b\"} 1\n", "no metric name"},
        {"socmon_x{=\"b\"} 1\n", "without a name"},
        {"socmon_x{a=\"b\\", "closing quote"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        smn_rw_batch b = {0};
        assert_int_equal(smn_rw_batch_add_text(&b, bad[i].text, strlen(bad[i].text), 1, NULL, 0), SOCMON_EPARSE);
        if (!strstr(socmon_errmsg(), bad[i].why) || !strstr(socmon_errmsg(), bad[i].text[0] == '{' ? "{a=" : "socmon_x"))
            fail_msg("'%s': message '%s' does not say '%s'", bad[i].text, socmon_errmsg(), bad[i].why);
        smn_rw_batch_clear(&b);
    }
    /* a NUL inside the text is refused, never read past */
    smn_rw_batch b = {0};
    const char nul[] = "socmon_x{a=\"b\0c\"} 1\n";
    assert_int_equal(smn_rw_batch_add_text(&b, nul, sizeof nul - 1, 1, NULL, 0), SOCMON_EPARSE);
    assert_non_null(strstr(socmon_errmsg(), "NUL"));
    smn_rw_batch_clear(&b);
}

static void test_answer_escaped(void **state)
{
    (void)state;
    char out[400];
    const char body[] = "out of order sample\x1b[31m red\nline\0after\n";
    smn_rw_answer_text(out, sizeof out, 400, body, sizeof body - 1);
    assert_string_equal(out, "HTTP 400: out of order sample\\x1b[31m red\\x0aline\\x00after");
    smn_rw_answer_text(out, sizeof out, 503, "", 0);
    assert_string_equal(out, "HTTP 503");
    /* a long body is cut, and said to be */
    char big[1000];
    memset(big, 'a', sizeof big);
    smn_rw_answer_text(out, sizeof out, 400, big, sizeof big);
    assert_true(strlen(out) < 230);
    assert_non_null(strstr(out, "aaa..."));
    /* a tiny buffer stays terminated */
    char tiny[6];
    smn_rw_answer_text(tiny, sizeof tiny, 400, "xyz", 3);
    assert_int_equal(strlen(tiny), 5);
}

static void test_retryable(void **state)
{
    (void)state;
    assert_true(smn_rw_status_retryable(500));
    assert_true(smn_rw_status_retryable(503));
    assert_true(smn_rw_status_retryable(429));
    assert_false(smn_rw_status_retryable(400));
    assert_false(smn_rw_status_retryable(401));
    assert_false(smn_rw_status_retryable(404));
    assert_false(smn_rw_status_retryable(204));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_two_points_one_request),
        cmocka_unit_test(test_bad_lines_named),
        cmocka_unit_test(test_answer_escaped),
        cmocka_unit_test(test_retryable),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
