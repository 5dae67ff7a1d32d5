/* The "perfetto" output format on the export fixture (tests/export/output_fixture.h): the
 * document parses as JSON (jansson) whatever the names hold (a unit with quotes and a comma);
 * values sit at their interval's start and are written only when they change; an undefined
 * metric reads 0; a missed interval is a "gap" slice with every track at 0 over it; a
 * timeline with no rows is still a whole document; totals are refused with a message. The
 * CLI test (tests/cli/perfetto.test.sh) checks real recordings against report's JSON. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>
#include <jansson.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "export/output_fixture.h"
#include "socmon/sample.h"

/* The C events of the track named `name`: their ts (us) and value, in file order. */
static size_t track(json_t *ev, const char *name, double *ts, double *val, const char **key)
{
    size_t n = 0, i;
    json_t *e;
    json_array_foreach(ev, i, e) {
        if (strcmp(json_string_value(json_object_get(e, "ph")), "C") != 0 ||
            strcmp(json_string_value(json_object_get(e, "name")), name) != 0)
            continue;
        json_t *args = json_object_get(e, "args");
        assert_int_equal(json_object_size(args), 1);
        const char *k = json_object_iter_key(json_object_iter(args));
        if (key)
            *key = k;
        ts[n] = json_number_value(json_object_get(e, "ts"));
        val[n++] = json_number_value(json_object_get(args, k));
        assert_true(n < 16);
    }
    return n;
}

static json_t *render(int rows)
{
    fx f;
    fx_setup(&f);
    fx_open(&f, "perfetto", ',', 0);
    if (rows) {
        fx_timeline(&f, NULL, 0);
    } else {
        smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx", .device = "dev", .interval_ns = 1000};
        smn_interval_cols cols = {f.m, NULL, 0, &fx_list, 0, NULL, NULL};
        assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
        assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
        assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
        assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    }
    json_error_t err;
    json_t *doc = json_loads(fx_text(&f), 0, &err);
    if (!doc)
        fail_msg("not JSON (line %d: %s):\n%s", err.line, err.text, fx_text(&f));
    fx_close(&f);
    fx_teardown(&f);
    return doc;
}

static void test_tracks_values_gap(void **state)
{
    (void)state;
    json_t *doc = render(1);
    assert_string_equal(json_string_value(json_object_get(doc, "displayTimeUnit")), "ns");
    assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "otherData"), "device")), "dev");
    json_t *ev = json_object_get(doc, "traceEvents");
    double ts[16], v[16];
    const char *key = NULL;
    /* row 1 is [0, 1) us, row 2 (missed) [1, 3) us: a gap, every track 0 there */
    assert_int_equal(track(ev, "tile0.l2_hits", ts, v, &key), 2);
    assert_string_equal(key, "[events/interval]");
    assert_true(ts[0] == 0.0 && v[0] == 300 && ts[1] == 1.0 && v[1] == 0);
    assert_int_equal(track(ev, "tile1.odd", ts, v, &key), 2);
    assert_string_equal(key, "[say \"hi\", twice/interval]");
    /* a counter that read 0 in row 1 gets one event: it never changes */
    assert_int_equal(track(ev, "tile1.l2_hits", ts, v, NULL), 1);
    assert_true(ts[0] == 0.0 && v[0] == 0);
    /* tile1's hit rate is 0/0: it reads 0, once */
    assert_int_equal(track(ev, "tile1.hit_rate", ts, v, &key), 1);
    assert_string_equal(key, "[%]");
    assert_true(v[0] == 0);
    assert_int_equal(track(ev, "tile0.hit_rate", ts, v, NULL), 2);
    assert_true(fabs(v[0] - 75.0) < 1e-9 && v[1] == 0);
    /* the gap slice and the end */
    size_t i, gaps = 0, ends = 0, procs = 0;
    json_t *e;
    json_array_foreach(ev, i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *name = json_string_value(json_object_get(e, "name"));
        if (strcmp(ph, "X") == 0) {
            gaps++;
            assert_string_equal(name, "gap");
            assert_true(json_number_value(json_object_get(e, "ts")) == 1.0);
            assert_true(json_number_value(json_object_get(e, "dur")) == 2.0);
            json_t *args = json_object_get(e, "args");
            assert_int_equal(json_integer_value(json_object_get(args, "missed_intervals")), 1);
            assert_int_equal(json_integer_value(json_object_get(json_object_get(args, "deltas"), "tile0.l2_hits")), 300);
        } else if (strcmp(ph, "i") == 0) {
            ends++;
            assert_true(json_number_value(json_object_get(e, "ts")) == 3.0);
        } else if (strcmp(ph, "M") == 0 && strcmp(name, "process_name") == 0) {
            procs++;
        }
    }
    assert_int_equal(gaps, 1);
    assert_int_equal(ends, 1);
    assert_int_equal(procs, 4); /* metrics; tile0, the device-wide counter, tile1 */
    json_decref(doc);
}

static void test_no_rows_and_totals(void **state)
{
    (void)state;
    json_t *doc = render(0);
    size_t i;
    json_t *e;
    json_array_foreach(json_object_get(doc, "traceEvents"), i, e)
        assert_string_equal(json_string_value(json_object_get(e, "ph")), "M");
    json_decref(doc);

    fx f;
    fx_setup(&f);
    fx_open(&f, "perfetto", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_TOTALS, .title = "Stats", .target = "fx"};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_EINVAL);
    assert_non_null(strstr(socmon_errmsg(), "a trace shows a timeline, not totals"));
    fx_close(&f);
    fx_teardown(&f);
}

/* Names can be any bytes (a remote agent's HELLO): bytes that are not UTF-8
 * become U+FFFD and quotes are escaped, so the trace is valid JSON. */
static void test_names_not_utf8(void **state)
{
    (void)state;
    const char *names[NCTR];
    for (size_t i = 0; i < NCTR; i++)
        names[i] = fx_names[i];
    names[0] = "tile0.\xc3(\"q\xff";
    const smn_counter_list list = {NCTR, fx_counters, names, NULL, 0, NULL};
    fx f;
    fx_setup(&f);
    fx_open(&f, "perfetto", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "b\xff\"d", .device = "dev", .interval_ns = 1000};
    smn_interval_cols cols = {f.m, NULL, 0, &list, 0, NULL, NULL};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    json_error_t err;
    json_t *doc = json_loads(fx_text(&f), 0, &err);
    if (!doc)
        fail_msg("not JSON (line %d: %s):\n%s", err.line, err.text, fx_text(&f));
    assert_string_equal(json_string_value(json_object_get(json_object_get(doc, "otherData"), "target")),
                        "b\xef\xbf\xbd\"d");
    assert_non_null(strstr(fx_text(&f), "\"b\xef\xbf\xbd\\\"d\""));
    json_decref(doc);
    fx_close(&f);
    fx_teardown(&f);
}

/* A program's profile: its function slices on thread 2 "hart 0" of process 1, as complete
 * events on the trace's clock (the first sample is at 4 us on the recording's: a slice entered
 * there is at 0), nanoseconds kept, names made valid JSON, and the entries it dropped said at
 * the last slice kept. */
static void test_profile_slices(void **state)
{
    (void)state;
    socmon_profile *p = NULL;
    assert_int_equal(socmon_profile_new(1, 2, 0, 1, 2, &p), SOCMON_OK);
    p->funcs[0].name = strdup("main");
    p->funcs[1].name = strdup("f\"\xff");
    p->slices[0] = (socmon_profile_slice){.t0_ns = 4000, .t1_ns = 6500, .func = 0, .depth = 0};
    p->slices[1] = (socmon_profile_slice){.t0_ns = 4500, .t1_ns = 5251, .func = 1, .depth = 1};
    p->slices_dropped = 3;
    fx f;
    fx_setup(&f);
    fx_open(&f, "perfetto", ',', 0);
    smn_run_info run = {.doc = SOCMON_DOC_INTERVALS, .target = "fx", .device = "dev", .interval_ns = 1000,
                           .profile = p};
    smn_interval_cols cols = {f.m, NULL, 0, &fx_list, 0, NULL, NULL};
    socmon_row r1 = {.t_ns = 5000, .since_ns = 1000, .dt_ns = 1000, .metrics = f.mv, .deltas = fx_values};
    socmon_row r2 = {.t_ns = 7000, .since_ns = 3000, .dt_ns = 2000, .metrics = f.mv, .deltas = fx_values};
    assert_int_equal(smn_output_begin(f.out, &run), SOCMON_OK);
    assert_int_equal(smn_output_begin_intervals(f.out, &cols), SOCMON_OK);
    assert_int_equal(smn_output_row(f.out, &r1), SOCMON_OK);
    assert_int_equal(smn_output_row(f.out, &r2), SOCMON_OK);
    assert_int_equal(smn_output_end_intervals(f.out), SOCMON_OK);
    assert_int_equal(smn_output_end(f.out), SOCMON_OK);
    json_error_t err;
    json_t *doc = json_loads(fx_text(&f), 0, &err);
    if (!doc)
        fail_msg("not JSON (line %d: %s):\n%s", err.line, err.text, fx_text(&f));
    json_t *other = json_object_get(doc, "otherData");
    assert_int_equal(json_integer_value(json_object_get(other, "slices")), 2);
    assert_int_equal(json_integer_value(json_object_get(other, "slices_dropped")), 3);
    size_t i, nx = 0, hart = 0, dropped = 0;
    json_t *e;
    json_array_foreach(json_object_get(doc, "traceEvents"), i, e) {
        const char *ph = json_string_value(json_object_get(e, "ph"));
        const char *name = json_string_value(json_object_get(e, "name"));
        json_t *args = json_object_get(e, "args");
        if (strcmp(ph, "M") == 0 && strcmp(name, "thread_name") == 0 &&
            strcmp(json_string_value(json_object_get(args, "name")), "hart 0") == 0) {
            assert_int_equal(json_integer_value(json_object_get(e, "pid")), 1);
            assert_int_equal(json_integer_value(json_object_get(e, "tid")), 2);
            hart++;
        } else if (strcmp(ph, "X") == 0) {
            assert_int_equal(json_integer_value(json_object_get(e, "tid")), 2);
            double ts = json_number_value(json_object_get(e, "ts")), dur = json_number_value(json_object_get(e, "dur"));
            if (nx++ == 0) {
                assert_string_equal(name, "main");
                assert_true(ts == 0.0 && dur == 2.5);
                assert_int_equal(json_integer_value(json_object_get(args, "depth")), 0);
            } else {
                assert_string_equal(name, "f\"\xef\xbf\xbd");
                assert_true(fabs(ts - 0.5) < 1e-12 && fabs(dur - 0.751) < 1e-12);
                assert_int_equal(json_integer_value(json_object_get(args, "depth")), 1);
            }
        } else if (strcmp(ph, "i") == 0 && strcmp(name, "slices dropped") == 0) {
            dropped++;
            assert_int_equal(json_integer_value(json_object_get(e, "tid")), 2);
            assert_true(fabs(json_number_value(json_object_get(e, "ts")) - 0.5) < 1e-12);
            assert_int_equal(json_integer_value(json_object_get(args, "dropped")), 3);
        }
    }
    assert_int_equal(hart, 1);
    assert_int_equal(nx, 2);
    assert_int_equal(dropped, 1);
    json_decref(doc);
    fx_close(&f);
    fx_teardown(&f);
    socmon_profile_free(p);

    /* without a profile: no hart, no slices (the timeline of test_tracks_values_gap) */
    doc = render(1);
    char *text = json_dumps(doc, 0);
    assert_null(strstr(text, "hart 0"));
    free(text);
    json_decref(doc);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tracks_values_gap),
        cmocka_unit_test(test_no_rows_and_totals),
        cmocka_unit_test(test_names_not_utf8),
        cmocka_unit_test(test_profile_slices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
