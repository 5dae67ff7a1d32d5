/* The run's totals of a timeline (smn_output_run_totals): the html page carries them as its
 * data's "run" exactly as given (the summary shows them, never a mean of the rows), NaN as null;
 * formats without the op write nothing of them; calls out of order or without values fail. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <jansson.h>

#include "export/output.h"
#include "export/web_assets.h"
#include "output_fixture.h"

/* A timeline of one row whose metric values differ from the run's, then the run's totals. */
static void timeline(fx *f, const socmon_totals *rt)
{
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .title = "recording", .target = "fx", .interval_ns = 1000,
                           .ncounters = NCTR, .recording = 1, .samples = 2};
    smn_interval_cols cols = {f->m, NULL, 0, &fx_list, 0, NULL, NULL};
    double row_mv[16];
    for (size_t i = 0; i < 16; i++)
        row_mv[i] = 1.0;
    socmon_row r = {.t_ns = 1000, .since_ns = 1000, .dt_ns = 1000, .metrics = row_mv, .deltas = fx_values};
    assert_int_equal(smn_output_begin(f->out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f->out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_row(f->out, &r), SOCMON_OK);
    assert_int_equal(smn_output_run_totals(f->out, rt), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f->out), SOCMON_OK);
    assert_int_equal(smn_output_end(f->out), SOCMON_OK);
}

static void test_html_carries_the_run(void **state)
{
    (void)state;
    if (smn_web_require("--html") != SOCMON_OK)
        skip();   /* a build without the page (SOCMON_WEB=OFF) has no html format */
    fx f;
    fx_setup(&f);
    fx_open(&f, "html", ',', 0);
    socmon_totals rt = {.elapsed_ns = 123456789, .values = fx_values, .metrics = f.mv};
    timeline(&f, &rt);
    const char *text = fx_text(&f), *at = strstr(text, "\"run\": ");
    assert_non_null(at);
    json_error_t err;
    json_t *run = json_loads(at + strlen("\"run\": "), JSON_DISABLE_EOF_CHECK, &err);
    assert_non_null(run);
    assert_int_equal(json_integer_value(json_object_get(run, "elapsed_ns")), 123456789);
    json_t *c = json_object_get(run, "counters"), *m = json_object_get(run, "metrics");
    assert_int_equal(json_array_size(c), NCTR);
    for (size_t i = 0; i < NCTR; i++)
        assert_int_equal(json_integer_value(json_array_get(c, i)), (json_int_t)fx_values[i]);
    size_t nm = socmon_metrics_nresults(f.m), nulls = 0;
    assert_int_equal(json_array_size(m), nm);
    for (size_t i = 0; i < nm; i++) {
        json_t *v = json_array_get(m, i);
        if (isnan(f.mv[i])) {
            assert_true(json_is_null(v));   /* tile1's hit rate, 0/0 */
            nulls++;
        } else {
            assert_true(json_is_number(v));
            assert_true(json_number_value(v) == f.mv[i]);   /* exactly: %.17g round-trips */
        }
    }
    assert_int_equal(nulls, 1);
    json_decref(run);
    fx_close(&f);
    fx_teardown(&f);
}

static void test_other_formats_leave_it_out(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    fx_open(&f, "json", ',', 0);
    socmon_totals rt = {.elapsed_ns = 123456789, .values = fx_values, .metrics = f.mv};
    timeline(&f, &rt);
    assert_null(strstr(fx_text(&f), "123456789"));
    fx_close(&f);
    fx_teardown(&f);
}

static void test_order_and_arguments(void **state)
{
    (void)state;
    fx f;
    fx_setup(&f);
    fx_open(&f, "csv", ',', 0);
    socmon_totals rt = {.elapsed_ns = 1, .values = fx_values, .metrics = f.mv};
    assert_int_equal(smn_output_run_totals(f.out, &rt), SOCMON_ESTATE);   /* before begin */
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx", .interval_ns = 1000, .ncounters = NCTR};
    smn_interval_cols cols = {f.m, NULL, 0, &fx_list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_run_totals(f.out, &rt), SOCMON_ESTATE);   /* outside the timeline */
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_run_totals(f.out, NULL), SOCMON_EINVAL);
    socmon_totals none = {.elapsed_ns = 1};
    assert_int_equal(smn_output_run_totals(f.out, &none), SOCMON_EINVAL);   /* counters, no values */
    assert_int_equal(smn_output_run_totals(NULL, &rt), SOCMON_EINVAL);
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    fx_close(&f);
    fx_teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_html_carries_the_run),
        cmocka_unit_test(test_other_formats_leave_it_out),
        cmocka_unit_test(test_order_and_arguments),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
